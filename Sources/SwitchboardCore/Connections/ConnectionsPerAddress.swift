import Synchronization

/// Open connections counted by where they come from, each source allowed
/// at most ``limit`` at once (`--max-connections-per-address`), on every
/// port together: HTTP (and WebSocket on it), raw TCP and `--wss`. Without
/// it one address could hold every connection the server takes (its
/// `--max-connections`, its open files) with idle streams, and nobody else
/// could connect. Loopback is not limited unless asked
/// (``limitsLoopback``): a reverse proxy on the machine brings everyone's
/// connections from one address.
///
/// A listener asks ``admits(_:)`` before it takes a connection and counts
/// it with ``opened(_:)`` once it is set up (libmicrohttpd's accept policy,
/// then its connection notice), or does both at once with ``open(_:)``
/// (SwiftNIO's accept); ``closed(_:)`` when it ends.
public final class ConnectionsPerAddress: Sendable {
    /// Most connections one source may hold at once.
    public let limit: Int
    /// Whether loopback is held to ``limit`` too (tests on loopback); by default it is not.
    public let limitsLoopback: Bool
    private let open = Mutex<[ConnectionSource: Int]>([:])
    private let refusals = Atomic<Int>(0)

    public init(limit: Int, limitsLoopback: Bool = false) {
        self.limit = limit
        self.limitsLoopback = limitsLoopback
    }

    /// Whether a connection from `source` may be taken now; a refusal is counted.
    public func admits(_ source: ConnectionSource) -> Bool {
        guard counts(source) else { return true }
        let admitted = open.withLock { ($0[source] ?? 0) < limit }
        if !admitted { refusals.add(1, ordering: .relaxed) }
        return admitted
    }

    /// Counts a connection from `source` that was taken.
    public func opened(_ source: ConnectionSource) {
        guard counts(source) else { return }
        open.withLock { $0[source, default: 0] += 1 }
    }

    /// ``admits(_:)`` and ``opened(_:)`` in one step: true when the
    /// connection is taken (and counted), false when it is refused.
    public func open(_ source: ConnectionSource) -> Bool {
        guard counts(source) else { return true }
        let admitted = open.withLock { open -> Bool in
            guard open[source, default: 0] < limit else { return false }
            open[source, default: 0] += 1
            return true
        }
        if !admitted { refusals.add(1, ordering: .relaxed) }
        return admitted
    }

    /// A connection from `source` that was counted has ended.
    public func closed(_ source: ConnectionSource) {
        guard counts(source) else { return }
        open.withLock { open in
            guard let count = open[source] else { return }
            open[source] = count > 1 ? count - 1 : nil
        }
    }

    /// Connections from `source` open now (counted ones).
    public func count(_ source: ConnectionSource) -> Int {
        open.withLock { $0[source] ?? 0 }
    }

    /// Sources with a connection open now (counted ones).
    public var sources: Int { open.withLock { $0.count } }

    /// Connections refused so far for their source's limit.
    public var refused: Int { refusals.load(ordering: .relaxed) }

    private func counts(_ source: ConnectionSource) -> Bool {
        limitsLoopback || !source.isLoopback
    }
}
