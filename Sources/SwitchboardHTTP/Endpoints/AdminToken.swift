/// The admin API's Bearer token: generated when none is given, compared in
/// constant time.
public enum AdminToken {
    /// 32 random bytes as 64 hex digits.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(UInt8.random(in: 0...255, using: &generator), radix: 16) }
            .map { $0.count == 1 ? "0" + $0 : $0 }.joined()
    }

    /// Whether the credential `given` (what follows `Bearer `) is `token`.
    /// Of the same length, the comparison reads every byte whatever they
    /// are, so it takes the same time wherever the first difference is; of
    /// another length it answers at once, which tells only the token's
    /// length (as Go's `subtle.ConstantTimeCompare` does). It reads the
    /// bytes in place: copied into arrays, or read through iterators, they
    /// cost a request with a session token 10,000 to 15,000 instructions.
    public static func matches(_ given: String, token: String) -> Bool {
        guard given.utf8.count == token.utf8.count, !token.isEmpty else { return false }
        var given = given, token = token
        return given.withUTF8 { left in
            token.withUTF8 { right in
                var difference: UInt8 = 0
                for index in 0..<right.count { difference |= left[index] ^ right[index] }
                return difference == 0
            }
        }
    }
}
