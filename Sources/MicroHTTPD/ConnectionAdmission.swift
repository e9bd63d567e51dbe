import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Who may connect, asked by the daemon about every connection by its
/// client's address: before it is taken (``admits(_:)``; a refused one is
/// closed at once, with no answer), once it is set up (``opened(_:)``) and
/// when it ends (``closed(_:)``, for every connection ``opened(_:)`` saw).
public protocol ConnectionAdmission: Sendable {
    func admits(_ address: UnsafePointer<sockaddr>) -> Bool
    func opened(_ address: UnsafePointer<sockaddr>)
    func closed(_ address: UnsafePointer<sockaddr>)
}

/// libmicrohttpd's notice of a connection set up and ended: the admission's
/// count, and a TLS connection's certificate slot (its socket context, read
/// by the handshake's certificate callback). Its `cls` is the daemon's
/// ``DaemonContext``.
let connectionNotified: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
    guard let cls, let connection else { return }
    let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        context.loop.connectionOpened()
        if let slot = context.certificate?.slot { socketContext?.pointee = UnsafeMutableRawPointer(slot) }
        if let admission = context.configuration.admission, let address = sb_connection_client_address(connection) {
            admission.opened(address)
        }
    case .CONNECTION_NOTIFY_CLOSED:
        context.loop.connectionClosed()
        if let admission = context.configuration.admission, let address = sb_connection_client_address(connection) {
            admission.closed(address)
        }
    default:
        break
    }
}
