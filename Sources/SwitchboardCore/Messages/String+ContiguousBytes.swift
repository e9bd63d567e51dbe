extension StringProtocol {
    /// Whether every UTF-8 byte satisfies `predicate`, read as one buffer
    /// when the string is native (a tight loop: walking a `UTF8View` index
    /// by index costs about ten times as much), else byte by byte.
    @inlinable
    public func everyUTF8Byte(_ predicate: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.allSatisfy(predicate) } ?? utf8.allSatisfy(predicate)
    }
}
