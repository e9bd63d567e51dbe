import NIOCore
import Synchronization

/// The open client channels, for shutdown.
final class ClientRegistry: Sendable {
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

    func add(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        channels.withLock { $0[key] = channel }
        channel.closeFuture.whenComplete { [weak self] _ in
            self?.channels.withLock { _ = $0.removeValue(forKey: key) }
        }
    }

    var all: [any Channel] { channels.withLock { Array($0.values) } }
}
