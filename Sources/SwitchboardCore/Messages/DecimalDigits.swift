/// An integer's decimal digits, as `String(_:)` spells them, written
/// straight into bytes: `String(_:)` makes a string first, about 220
/// instructions more a number (callgrind), and a publish writes three.
public enum DecimalDigits {
    /// The most bytes a value takes (`-9223372036854775808`).
    public static let maxCount = 20

    /// Writes `value` at the start of `out` (at least ``maxCount`` bytes);
    /// returns how many bytes it wrote.
    @inlinable
    public static func write(_ value: Int64, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var magnitude = value.magnitude
        var count = 0
        repeat {
            out[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            count += 1
        } while magnitude > 0
        if value < 0 {
            out[count] = UInt8(ascii: "-")
            count += 1
        }
        out[0..<count].reverse()
        return count
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` in decimal, as `String(value)` spells it (``DecimalDigits``).
    @inlinable
    public mutating func appendDecimal(_ value: Int64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DecimalDigits.maxCount) { digits in
            append(contentsOf: UnsafeBufferPointer(rebasing: digits[..<DecimalDigits.write(value, into: digits)]))
        }
    }
}
