import NIOCore
import SwitchboardCore

extension ConnectionsPerAddress {
    /// Takes `channel`, a connection SwiftNIO accepted, when its address is
    /// under the limit, counting it until it closes; false: refuse it (the
    /// listener closes it at once, with ``AddressLimitRefusal``).
    public func admit(_ channel: any Channel) -> Bool {
        guard let source = channel.remoteAddress.flatMap({ $0.withSockAddr { address, _ in ConnectionSource(address) } }) else {
            return true
        }
        guard open(source) else { return false }
        channel.closeFuture.whenComplete { _ in self.closed(source) }
        return true
    }
}
