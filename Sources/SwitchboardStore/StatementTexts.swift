/// The texts one step of a statement binds, copied once into one buffer
/// that SQLite reads in place (`SQLITE_STATIC`) until the bindings are
/// cleared.
///
/// Bound `SQLITE_TRANSIENT`, SQLite copies each text into memory of its own
/// (a `malloc` and a `free` each): four a message (room, user, text, kind),
/// 52 for a group of 13. Here a statement's texts take one buffer, on the
/// stack when they are small (``with(capacity:_:)``). Only inside that
/// call, and the statement's bindings must be cleared before it returns.
struct StatementTexts {
    private let base: UnsafeMutableRawBufferPointer
    private var used = 0

    private init(_ base: UnsafeMutableRawBufferPointer) {
        self.base = base
    }

    /// Calls `body` with room for `capacity` bytes of texts (the sum of
    /// ``bytes(_:)`` of every text it will ``place(_:)``), valid until it returns.
    static func with<Result>(capacity: Int, _ body: (inout StatementTexts) throws -> Result) rethrows -> Result {
        try withUnsafeTemporaryAllocation(byteCount: max(capacity, 1), alignment: 1) { buffer in
            var texts = StatementTexts(buffer)
            return try body(&texts)
        }
    }

    /// The room `text` takes: its UTF-8 bytes.
    static func bytes(_ text: String) -> Int {
        text.utf8.count
    }

    /// `text`'s UTF-8 bytes copied after the texts placed before, and
    /// where they are. An empty text is a valid pointer with count 0 (text,
    /// not NULL). More than the capacity given is a programming error.
    mutating func place(_ text: String) -> (start: UnsafePointer<CChar>, count: Int32) {
        var text = text
        let start = base.baseAddress! + used
        let count = text.withUTF8 { bytes in
            precondition(used + bytes.count <= base.count, "statement texts beyond the room counted for them")
            UnsafeMutableRawBufferPointer(start: start, count: bytes.count).copyMemory(from: UnsafeRawBufferPointer(bytes))
            return bytes.count
        }
        used += count
        return (UnsafePointer(start.bindMemory(to: CChar.self, capacity: count)), Int32(count))
    }
}
