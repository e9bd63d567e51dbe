/// The admin API's Bearer token: generated when none is given, compared in
/// constant time.
public enum AdminToken {
    /// 32 random bytes as 64 hex digits.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(UInt8.random(in: 0...255, using: &generator), radix: 16) }
            .map { $0.count == 1 ? "0" + $0 : $0 }.joined()
    }

    /// Whether an `Authorization` header carries `token`. The comparison takes
    /// the same time wherever the first difference is.
    public static func matches(_ authorization: String?, token: String) -> Bool {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return false }
        let given = Array(authorization.utf8.dropFirst("Bearer ".utf8.count))
        let expected = Array(token.utf8)
        var difference: UInt8 = given.count == expected.count ? 0 : 1
        for index in 0..<max(given.count, expected.count) {
            difference |= (index < given.count ? given[index] : 0) ^ (index < expected.count ? expected[index] : 0)
        }
        return difference == 0 && !expected.isEmpty
    }
}
