/// Incremental parser for an HTTP response carrying an SSE stream with chunked
/// transfer encoding: feeds bytes in any segmentation, reports event ids.
public struct SSEStreamParser {
    private enum State { case head, chunkSize, chunkData(Int), chunkEnd, done, unframed }
    private var state = State.head
    private var pending: [UInt8] = []
    private var line: [UInt8] = []
    /// Set once the response head was read; `true` when it was a 200.
    public private(set) var status: Int?
    /// Set once the first body bytes (the `retry:` line) arrived.
    public private(set) var opened = false
    public private(set) var ended = false

    /// Whether the last `id:` line was not a plain number (a peer such as
    /// Nchan, whose ids are its own): the id is then read from the data,
    /// the message JSON `{"id":N,...}` the load client published.
    private var idFromData = false

    private static let dataWithID = Array(#"data: {"id":"#.utf8)

    public init() {}

    /// Feeds bytes; calls `onEvent` with each complete `id:` value.
    public mutating func feed(_ bytes: some Collection<UInt8>, onEvent: (Int64) -> Void) {
        pending.append(contentsOf: bytes)
        var index = 0
        parsing: while index < pending.count {
            switch state {
            case .head:
                guard let end = pending[index...].firstRange(of: Array("\r\n\r\n".utf8))?.lowerBound else { break parsing }
                let head = String(decoding: pending[index..<end], as: UTF8.self)
                status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) }
                index = end + 4
                // Switchboard sends chunks; a peer may send the stream unframed, ended by the close.
                state = head.lowercased().contains("transfer-encoding: chunked") ? .chunkSize : .unframed
            case .chunkSize:
                guard let end = pending[index...].firstRange(of: [13, 10])?.lowerBound else { break parsing }
                let text = String(decoding: pending[index..<end], as: UTF8.self)
                let size = Int(text.split(separator: ";").first ?? "", radix: 16) ?? 0
                index = end + 2
                state = size == 0 ? .done : .chunkData(size)
                if size == 0 { ended = true }
            case .unframed:
                opened = true
                scanLines(pending[index...], onEvent: onEvent)
                index = pending.count
            case .chunkData(let remaining):
                let take = min(remaining, pending.count - index)
                opened = true
                scanLines(pending[index..<(index + take)], onEvent: onEvent)
                index += take
                state = remaining - take == 0 ? .chunkEnd : .chunkData(remaining - take)
            case .chunkEnd:
                guard pending.count - index >= 2 else { break parsing }
                index += 2
                state = .chunkSize
            case .done:
                index = pending.count
            }
        }
        pending.removeFirst(index)
    }

    /// Splits body bytes into lines and reports each event's id.
    private mutating func scanLines(_ bytes: ArraySlice<UInt8>, onEvent: (Int64) -> Void) {
        for byte in bytes {
            if byte == 10 {
                if line.count > 4, line[0] == UInt8(ascii: "i"), line[1] == UInt8(ascii: "d"),
                   line[2] == UInt8(ascii: ":"), line[3] == UInt8(ascii: " ") {
                    if let id = Int64(String(decoding: line[4...], as: UTF8.self)) {
                        onEvent(id)
                        idFromData = false
                    } else {
                        idFromData = true
                    }
                } else if idFromData, line.starts(with: Self.dataWithID),
                          let id = Int64(String(decoding: line[Self.dataWithID.count...].prefix { $0 >= 48 && $0 <= 57 }, as: UTF8.self)) {
                    onEvent(id)
                }
                line.removeAll(keepingCapacity: true)
            } else if line.count < 64 {
                line.append(byte)
            }
        }
    }

}
