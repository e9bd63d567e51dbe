import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Hands an upgraded socket over: copies the bytes already read and
/// duplicates the descriptor.
///
/// Without TLS, `sock` is the client's socket: libmicrohttpd is told at once
/// that it is done with its own descriptor (it then only `close()`s it).
/// With TLS, `sock` is one end of a socketpair that libmicrohttpd relays to
/// the TLS connection, encrypting and decrypting, until it is told it is done:
/// so that is left to the new owner, through ``UpgradedSocket/release``,
/// once it has closed its descriptor.
let upgradeHandler: MHD_UpgradeHandler = { cls, _, _, extraIn, extraInSize, sock, urh in
    guard let cls, let urh else { return }
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(cls).takeUnretainedValue()
    let bytes = extraIn.map { Array(UnsafeRawBufferPointer(start: $0, count: extraInSize)) } ?? []
    let duplicate = fcntl(sock, F_DUPFD_CLOEXEC, 0)
    let relay = UpgradeRelay(urh, loop: exchange.loop, relayed: exchange.overTLS)
    if !exchange.overTLS { relay.release() }
    let handler = exchange.upgradeHandler
    exchange.upgradeHandler = nil
    guard duplicate >= 0, let handler else {
        if duplicate >= 0 { close(duplicate) }
        return relay.release()
    }
    handler(UpgradedSocket(descriptor: duplicate, bytesAlreadyRead: bytes, release: { relay.release() }))
}

/// libmicrohttpd's handle of an upgraded connection, told once that the
/// application is done with it (`MHD_UPGRADE_ACTION_CLOSE`).
private final class UpgradeRelay: @unchecked Sendable {
    private let handle: OpaquePointer
    private let released = Atomic<Bool>(false)
    /// Runs the daemon that closes the connection.
    private let loop: DaemonLoop
    /// Whether libmicrohttpd relays it (TLS), and closes it only once the relay is done.
    private let relayed: Bool

    init(_ handle: OpaquePointer, loop: DaemonLoop, relayed: Bool) {
        self.handle = handle
        self.loop = loop
        self.relayed = relayed
    }

    func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if relayed {
            loop.releaseUpgrade(handle)  // on the loop, after a pass: see there
        } else {
            _ = sb_upgrade_close(handle)
            loop.wake()
        }
    }
}
