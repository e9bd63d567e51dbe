import Synchronization

/// A stored message with its wire forms: its JSON encoded once, and each
/// transport's frame (``MessageFrameFormat``) encoded once, when a subscriber
/// of that transport first asks; the same bytes then go to every subscriber.
public final class EncodedMessage: Sendable {
    /// The message itself.
    public let message: Message
    /// Its JSON object, e.g. `{"id":42,"room":"lobby",...}`.
    public let json: [UInt8]
    /// Whether it belongs to a conversation (members only): decided once
    /// here, so a public room's delivery pays one flag test for it.
    public let isPrivate: Bool
    /// Frames built so far, newest first: a handful at most, a linear scan.
    /// Read without a lock (every subscriber of a fan-out reads it, from
    /// every event loop and worker at once); a frame is added with a
    /// compare-and-swap and never removed while the message lives.
    private let frames = Atomic<Unmanaged<FrameNode>?>(nil)

    public init(_ message: consuming Message) {
        json = MessageJSON.encode(message)
        isPrivate = ConversationRoom.isConversation(message.room)
        // Kept last, and so moved in: its use after being kept made a copy of it.
        self.message = message
    }

    /// The message's id.
    public var id: Int64 { message.id }

    /// The message as `Format` frames it, built on first use and shared.
    public func frame(_ format: any MessageFrameFormat.Type) -> [UInt8] {
        let key = ObjectIdentifier(format)
        var head = frames.load(ordering: .acquiring)
        if let cached = Self.withBytes(of: key, from: head, { Array($0) }) { return cached }
        let bytes = format.frame(for: self)  // a racing twin builds the same bytes; one is kept
        while true {
            let node = Unmanaged.passRetained(FrameNode(format: key, bytes: bytes, next: head))
            let (exchanged, current) = frames.compareExchange(expected: head, desired: node, ordering: .acquiringAndReleasing)
            if exchanged { return bytes }
            node.release()
            if let cached = Self.withBytes(of: key, from: current, { Array($0) }) { return cached }
            head = current
        }
    }

    /// Calls `body` with the message as `format` frames it, without copying
    /// the bytes or touching their reference count: a fan-out reads the same
    /// frame from every thread at once, and a shared count is a cache line
    /// that every core would fight over. (Not generic, so that callers in
    /// other modules need no type metadata per call.)
    public func withFrame(_ format: any MessageFrameFormat.Type, _ body: (UnsafeRawBufferPointer) -> Void) {
        if Self.withBytes(of: ObjectIdentifier(format), from: frames.load(ordering: .acquiring), body) != nil { return }
        frame(format).withUnsafeBytes(body)
    }

    private static func withBytes<Result>(
        of key: ObjectIdentifier, from head: Unmanaged<FrameNode>?, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result? {
        var current = head
        while let node = current {
            let (matches, next) = node._withUnsafeGuaranteedRef { ($0.format == key, $0.next) }
            if matches { return try node._withUnsafeGuaranteedRef { try $0.bytes.withUnsafeBytes(body) } }
            current = next
        }
        return nil
    }

    deinit {
        var current = frames.load(ordering: .acquiring)
        while let node = current {
            current = node._withUnsafeGuaranteedRef { $0.next }
            node.release()
        }
    }
}

/// One built frame of an ``EncodedMessage``; immutable, linked newest first.
/// The message holds one count on each node (released by its `deinit`).
private final class FrameNode: @unchecked Sendable {
    let format: ObjectIdentifier
    let bytes: [UInt8]
    let next: Unmanaged<FrameNode>?

    init(format: ObjectIdentifier, bytes: [UInt8], next: Unmanaged<FrameNode>?) {
        self.format = format
        self.bytes = bytes
        self.next = next
    }
}
