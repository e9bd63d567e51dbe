import Synchronization

/// How many clients each transport has right now, shared by every server:
/// open SSE streams, waiting long-polls and TCP clients are counted as they
/// open and close; short-poll clients are those that polled in the last 30 s
/// (named by `?user=`, else by address).
public final class ConnectionGauges: Sendable {
    /// How long a short-poller counts as active after a poll.
    public static let pollerWindowNanoseconds: UInt64 = 30_000_000_000

    private let open = Mutex<[Transport: Int]>([:])
    private let pollers = Mutex<[String: UInt64]>([:])

    public init() {}

    /// A connection of `transport` opened.
    public func opened(_ transport: Transport) { open.withLock { $0[transport, default: 0] += 1 } }

    /// A connection of `transport` closed.
    public func closed(_ transport: Transport) { open.withLock { $0[transport, default: 0] -= 1 } }

    /// A short poll by `client` at `now` (monotonic ns).
    public func polled(client: String, now: UInt64 = DeadlineScheduler.now()) {
        pollers.withLock { $0[client] = now }
    }

    /// Clients per transport at `now`.
    public func snapshot(now: UInt64 = DeadlineScheduler.now()) -> [Transport: Int] {
        var counts = open.withLock { $0 }
        counts[.shortPoll] = pollers.withLock { pollers in
            pollers = pollers.filter { now &- $0.value < Self.pollerWindowNanoseconds }
            return pollers.count
        }
        for transport in Transport.allCases where counts[transport] == nil { counts[transport] = 0 }
        return counts
    }
}
