/// What one raw TCP (DogeChat protocol) load client makes of the bytes it
/// reads: the lines, split across reads or many to a read, of which it keeps
/// two kinds: each `bench:mN` by its message index N, and its own
/// `NAME has joined` (it is in). Every other line (other clients' joins,
/// other users' text) is skipped unread.
struct LineReceiver {
    private let record: StreamRecord
    /// The line that says this client is in: `NAME has joined`.
    private let joined: [UInt8]
    /// The unfinished line of the last read (lines are split across reads).
    private var line: [UInt8] = []
    private static let prefix = Array("bench:m".utf8)
    /// Longest line kept: longer ones are only ever other users' text.
    private static let longestLine = 64

    init(name: String, record: StreamRecord) {
        self.record = record
        joined = Array("\(name) has joined".utf8)
    }

    /// Takes one read's bytes, received at `now` (monotonic nanoseconds).
    mutating func receive(_ bytes: UnsafeRawBufferPointer, at now: UInt64) {
        record.addBytes(bytes.count)
        // A join storm is millions of lines (every join goes to everyone):
        // find the line ends, and look only at lines that can matter.
        var start = bytes.startIndex
        while start < bytes.endIndex {
            guard let end = bytes[start...].firstIndex(of: 10) else {
                let room = Self.longestLine - line.count
                if room > 0 { line.append(contentsOf: bytes[start..<min(bytes.endIndex, start + room)]) }
                return
            }
            if line.isEmpty {
                handle(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), at: now)
            } else {
                let room = Self.longestLine - line.count
                if room > 0 { line.append(contentsOf: bytes[start..<min(end, start + room)]) }
                line.withUnsafeBytes { handle($0, at: now) }
                line.removeAll(keepingCapacity: true)
            }
            start = end + 1
        }
    }

    /// The server closed the connection, or `failure` ended it.
    func ended(failure: String?) {
        if let failure { record.markFailed(failure) }
        record.markEnded()
    }

    /// One whole line: a benchmark message, or this client's own join.
    private func handle(_ line: UnsafeRawBufferPointer, at now: UInt64) {
        if line.count > Self.prefix.count, line.starts(with: Self.prefix) {
            // The index's digits, read in place (no String made for each message).
            var index: Int64 = 0
            for byte in line[Self.prefix.count...] {
                guard byte >= 48, byte <= 57, index < Int64.max / 10 - 9 else { return }
                index = index * 10 + Int64(byte - 48)
            }
            record.received(index, at: now)
        } else if !record.opened, line.elementsEqual(joined) {
            record.markOpened()
        }
    }
}
