import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Hands an upgraded socket over: copies the bytes already read, duplicates
/// the descriptor, tells libmicrohttpd it is done with its own (it then only
/// `close()`s that one, without TLS), and never touches `sock` or `urh` again.
let upgradeHandler: MHD_UpgradeHandler = { cls, _, _, extraIn, extraInSize, sock, urh in
    guard let cls, let urh else { return }
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(cls).takeUnretainedValue()
    let bytes = extraIn.map { Array(UnsafeRawBufferPointer(start: $0, count: extraInSize)) } ?? []
    let duplicate = fcntl(sock, F_DUPFD_CLOEXEC, 0)
    _ = sb_upgrade_close(urh)
    let handler = exchange.upgradeHandler
    exchange.upgradeHandler = nil
    guard duplicate >= 0 else { return }
    guard let handler else { close(duplicate); return }
    handler(UpgradedSocket(descriptor: duplicate, bytesAlreadyRead: bytes))
}
