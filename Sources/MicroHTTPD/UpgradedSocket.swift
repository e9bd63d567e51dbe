/// A connection taken over from libmicrohttpd after a `101 Switching
/// Protocols` (e.g. for WebSocket).
public struct UpgradedSocket: Sendable {
    /// A duplicate of the connection's socket, owned by the receiver (close
    /// it when done). libmicrohttpd closes only its own descriptor.
    public let descriptor: Int32
    /// Bytes the client sent after the request that libmicrohttpd had
    /// already read: the start of the new protocol's stream.
    public let bytesAlreadyRead: [UInt8]
    /// Call once the descriptor is closed: over TLS it ends libmicrohttpd's
    /// relay and frees the connection; without TLS it does nothing (the
    /// socket was handed over whole). Safe to call more than once.
    public let release: @Sendable () -> Void
}
