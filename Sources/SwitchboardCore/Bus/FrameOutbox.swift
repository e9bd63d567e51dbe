/// Bytes waiting to go out on one stream (SSE, the admin feed), written into whatever buffer
/// space the transport offers; a frame larger than the space continues in the
/// next write. Frames are shared, not copied, until they are written: a
/// message's frame is read from the message itself (``EncodedMessage/withFrame(_:_:)``)
/// as it is written.
public struct FrameOutbox: Sendable {
    private enum Frame: Sendable {
        case bytes([UInt8])
        /// A message as `format` frames it. Taking its bytes as an array of
        /// their own was an allocation and a copy at every delivery (about
        /// 400 instructions of an SSE delivery's 7,500, callgrind).
        case message(EncodedMessage, any MessageFrameFormat.Type)
    }

    private var frames: [Frame] = []
    private var first = 0
    private var offset = 0

    public init() {}

    /// Whether nothing is waiting.
    public var isEmpty: Bool { first == frames.count }

    /// Queues one whole frame.
    public mutating func append(_ frame: [UInt8]) {
        frames.append(.bytes(frame))
    }

    /// Queues `message` as `Format` frames it (built once for every reader, on first use).
    public mutating func append(_ message: EncodedMessage, framedAs format: any MessageFrameFormat.Type) {
        frames.append(.message(message, format))
    }

    /// Copies as many waiting bytes as fit into `buffer`; returns how many.
    public mutating func drain(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var written = 0
        while first < frames.count, written < buffer.count {
            var (chunk, length) = (0, 0)
            let copy = { (frame: UnsafeRawBufferPointer) in
                length = frame.count
                chunk = min(frame.count - offset, buffer.count - written)
                (buffer.baseAddress! + written).copyMemory(from: frame.baseAddress! + offset, byteCount: chunk)
            }
            switch frames[first] {
            case .bytes(let bytes): bytes.withUnsafeBytes(copy)
            case .message(let message, let format): message.withFrame(format, copy)
            }
            written += chunk
            offset += chunk
            if offset == length {
                first += 1
                offset = 0
            }
        }
        if first == frames.count {
            // Mostly one frame or two: taken off one at a time, capacity kept
            // (`removeAll(keepingCapacity:)` is a generic range replacement,
            // 350 instructions of an SSE delivery's 10,500 under callgrind).
            while !frames.isEmpty { frames.removeLast() }
            first = 0
        }
        return written
    }
}
