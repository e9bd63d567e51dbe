import NIOCore
import SwitchboardCore

/// A TCP client parked on the bus: a wake-up hops to the client's event loop
/// and drains what it missed.
final class TCPSubscriber: MessageWaiter, @unchecked Sendable {
    private let eventLoop: any EventLoop
    private let drain: NIOLoopBound<() -> Void>

    init(eventLoop: any EventLoop, drain: @escaping () -> Void) {
        self.eventLoop = eventLoop
        self.drain = NIOLoopBound(drain, eventLoop: eventLoop)
    }

    func wake() {
        eventLoop.execute { [drain] in drain.value() }
    }
}
