import Logging
import NIOCore
import SwitchboardCore

/// The delivery step of a push connection, on its event loop: pump the
/// bus for its subscriber while the channel takes bytes (no unpark first: a
/// wake-up took it out of the bus already, and one still parked is parked
/// again, not twice), then flush. A catch-up the store did not answer leaves
/// the connection open and is tried again a second later.
public enum PushDelivery {
    /// How long a connection waits to try a catch-up again when the store did not answer.
    public static let retryDelay = TimeAmount.seconds(1)

    /// Pumps `subscriber` once; nil when the store did not answer, after
    /// `retry` was called (it schedules the next try, ``retryDelay`` later:
    /// a closure made only then, not on every pump).
    @discardableResult
    public static func pump(_ subscriber: any Subscriber, bus: MessageBus, logger: Logger, what: String,
                            retry: () -> Void) -> PumpOutcome? {
        do {
            return try bus.pump(subscriber, park: {})
        } catch {
            logger.warning("\(what) delivery read failed: \(error); trying again in a second")
            retry()
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
