import Synchronization

/// A stored message with its wire forms: its JSON encoded once, and each
/// transport's frame (``MessageFrameFormat``) encoded once, when a subscriber
/// of that transport first asks; the same bytes then go to every subscriber.
public final class EncodedMessage: Sendable {
    /// The message itself.
    public let message: Message
    /// Its JSON object, e.g. `{"id":42,"room":"lobby",...}`.
    public let json: [UInt8]
    /// Frames built so far, by format. A handful at most: a linear scan.
    private let frames = Mutex<[(format: ObjectIdentifier, bytes: [UInt8])]>([])

    public init(_ message: Message) {
        self.message = message
        self.json = MessageJSON.encode(message)
    }

    /// The message's id.
    public var id: Int64 { message.id }

    /// The message as `Format` frames it, built on first use and shared.
    public func frame<Format: MessageFrameFormat>(_ format: Format.Type) -> [UInt8] {
        let key = ObjectIdentifier(format)
        if let cached = frames.withLock({ $0.first { $0.format == key }?.bytes }) { return cached }
        let bytes = Format.frame(for: self)  // outside the lock; a racing twin builds the same bytes
        return frames.withLock { frames in
            if let cached = frames.first(where: { $0.format == key }) { return cached.bytes }
            frames.append((key, bytes))
            return bytes
        }
    }
}
