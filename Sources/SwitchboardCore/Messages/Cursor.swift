/// Parsing of the one cursor every transport resumes from: "after id N".
public enum Cursor {
    /// A resume cursor such as `Last-Event-ID`, `since` or `since:N`: a
    /// whole number from 0 up. `name` names it in the error.
    public static func parse(_ value: String, name: String) throws(SwitchboardError) -> Int64 {
        try integer(value, name: name, range: 0...Int64.max)
    }

    /// A whole number in `range`, written in plain decimal digits.
    public static func integer(_ value: String, name: String, range: ClosedRange<Int64>) throws(SwitchboardError) -> Int64 {
        guard !value.isEmpty, value.everyUTF8Byte({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let number = Int64(value)
        else { throw .badParameter(name, "must be a whole number from \(range.lowerBound) to \(range.upperBound)") }
        guard range.contains(number) else {
            throw .badParameter(name, "must be from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
