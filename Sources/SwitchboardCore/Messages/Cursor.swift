/// Parsing of the one cursor every transport resumes from: "after id N".
public enum Cursor {
    /// A resume cursor such as `Last-Event-ID`, `since` or `since:N`: a
    /// whole number from 0 up. `name` names it in the error.
    public static func parse(_ value: String, name: String) throws(SwitchboardError) -> Int64 {
        try integer(value, name: name, range: 0...Int64.max)
    }

    /// A whole number in `range`, written in plain decimal digits.
    public static func integer(_ value: String, name: String, range: ClosedRange<Int64>) throws(SwitchboardError) -> Int64 {
        guard let number = value.withUTF8Bytes(digits) else {
            throw .badParameter(name, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        guard range.contains(number) else {
            throw .badParameter(name, "must be from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// `bytes` as a number when they are one or more ASCII digits and it
    /// fits an `Int64`, read in one pass (checking the digits and then
    /// `Int64(_:)` read them twice, about 120 instructions a parameter,
    /// three a long poll).
    private static func digits(_ bytes: some Collection<UInt8>) -> Int64? {
        guard !bytes.isEmpty else { return nil }
        var number: Int64 = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow) = number.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            number = sum
        }
        return number
    }
}
