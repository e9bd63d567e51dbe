extension StringProtocol {
    /// Without the spaces (U+0020) at either end, by characters, in one
    /// pass from each end. Written with `drop(while:).reversed()` twice, it
    /// cost about 900,000 instructions for a 200-character Bearer token
    /// (callgrind): 70 % of a long poll's that carried one.
    public func trimmingSpaces() -> String {
        var start = startIndex, end = endIndex
        while start < end, self[start] == " " { formIndex(after: &start) }
        while end > start, self[index(before: end)] == " " { formIndex(before: &end) }
        return String(self[start..<end])
    }
}
