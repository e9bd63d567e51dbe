import NIOCore

/// The buffer a connection's last delivery went out in, kept for its next
/// (raw TCP and WebSocket). Once the flush has sent it, the connection holds
/// its only reference and `clear()` reuses its storage, where a new buffer
/// is two allocations and two frees a delivery; while a pending write still
/// holds it, `clear()` allocates anew, so nothing written is overwritten.
/// A buffer grown past ``keptBytes`` (a big batch's) is let go. Used on the
/// connection's event loop only.
public struct KeptFrameBuffer {
    /// The largest buffer kept between deliveries.
    public static let keptBytes = 1024

    private var kept: ByteBuffer?

    public init() {}

    /// An empty buffer: the kept one, else a new one of `capacity` from
    /// `allocator` (asked for only then: a channel's is a call away).
    public mutating func take(capacity: Int, from allocator: @autoclosure () -> ByteBufferAllocator) -> ByteBuffer {
        guard var buffer = kept.take() else { return allocator().buffer(capacity: capacity) }
        buffer.clear()
        return buffer
    }

    /// Keeps `buffer`, just written, for the next delivery, unless it grew past ``keptBytes``.
    public mutating func keep(_ buffer: ByteBuffer) {
        kept = buffer.capacity <= Self.keptBytes ? buffer : nil
    }
}
