/// An upload's identifier: 128 random bits as 32 lower-case hex digits,
/// made by the server (a client never chooses one), so that one cannot be
/// guessed from another.
public enum MediaID {
    /// A new identifier from the system's random source.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hex(high) + hex(low)
    }

    /// Whether `text` has an identifier's shape (anything else is never looked up).
    public static func isValid(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
