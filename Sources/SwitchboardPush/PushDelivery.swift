import Logging
import NIOCore
import SwitchboardCore

/// The delivery step of a push connection, on its event loop: pump the
/// bus for its subscriber while the channel takes bytes (no unpark first: a
/// wake-up took it out of the bus already, and one still parked is parked
/// again, not twice), then flush. A catch-up the store did not answer leaves
/// the connection open and is tried again a second later.
public enum PushDelivery {
    /// Pumps `subscriber` once on `context`'s loop; nil when the store did
    /// not answer (`again` is then scheduled a second later).
    @discardableResult
    public static func pump(_ subscriber: any Subscriber, bus: MessageBus, context: ChannelHandlerContext, logger: Logger,
                            what: String, again: @escaping () -> Void) -> PumpOutcome? {
        do {
            return try bus.pump(subscriber, park: {})
        } catch {
            logger.warning("\(what) delivery read failed: \(error); trying again in a second")
            let again = NIOLoopBound(again, eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: .seconds(1)) { again.value() }
            return nil
        }
    }

    /// At shutdown: closes every channel, waits for each to close, then
    /// (at most 10 s) for the bus's queued commits, so that no publish's
    /// answer hops to an event loop after it stopped. Call once the bus is closed.
    public static func closeAll(_ channels: [any Channel], bus: MessageBus, closing: (any Channel) -> Void) {
        for channel in channels { closing(channel) }
        for channel in channels { _ = try? channel.closeFuture.wait() }
        bus.waitForQueuedCommits(seconds: 10)
    }
}
