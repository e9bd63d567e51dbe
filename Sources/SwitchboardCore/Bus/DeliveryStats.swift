import Synchronization

/// Receives every publish that ``DeliveryStats`` counts, e.g. to export it
/// as a Prometheus metric. Deliveries are not passed on, one call a write:
/// ``DeliveryStats`` keeps their totals and latency histograms itself. A
/// class: an optional sink of any type was copied through Optional's generic
/// witness at each publish (94 instructions), a class reference is retained.
public protocol DeliveryStatsSink: AnyObject, Sendable {
    /// `count` messages (at least one) were stored in one append to the
    /// store, which took `storeSeconds`, and published.
    func published(_ count: Int, storeSeconds: Double)
}

/// What the server has delivered, per transport: totals, and the latency from
/// publish (the message's `ts`) to the write, over the most recent deliveries
/// and as a histogram since start (`/metrics`). Cheap enough for the hot
/// path: one lock, a few additions.
public final class DeliveryStats: Sendable {
    /// Totals and recent latency percentiles for one transport.
    public struct TransportFigures: Sendable, Equatable, Codable {
        public var delivered: Int
        public var p50Milliseconds: Double?
        public var p99Milliseconds: Double?

        enum CodingKeys: String, CodingKey {
            case delivered
            case p50Milliseconds = "latency_p50_ms"
            case p99Milliseconds = "latency_p99_ms"
        }
    }

    /// One transport's counts: its messages, its most recent latencies (a
    /// ring of `sampleCount`, for the percentiles) and every latency since
    /// start (the histogram, for `/metrics`).
    private struct Tally {
        var delivered = 0
        var samples: [Double] = []
        var next = 0
        var latency = DeliveryLatencyHistogram()

        /// Counts one write of `count` messages, `milliseconds` after the oldest was stored.
        mutating func record(_ count: Int, milliseconds: Int64, keeping sampleCount: Int) {
            delivered += count
            if samples.count < sampleCount {
                samples.append(Double(milliseconds))
            } else {
                samples[next] = Double(milliseconds)
            }
            next = (next + 1) % sampleCount
            latency.observe(milliseconds)
        }
    }

    private struct State {
        var published = 0
        /// By ``Transport/ordinal``; mutated in place (no copies on the hot path).
        var tallies = [Tally](repeating: Tally(), count: Transport.allCases.count)
    }

    private let state = Mutex(State())
    private let sampleCount: Int
    private let sink: (any DeliveryStatsSink)?
    private let clock: @Sendable () -> Int64

    /// - Parameters:
    ///   - sampleCount: latencies kept per transport for the percentiles.
    ///   - sink: also told of every publish (e.g. Prometheus).
    ///   - clock: milliseconds since the Unix epoch (messages' `ts` are in it).
    public init(sampleCount: Int = 2048, sink: (any DeliveryStatsSink)? = nil,
                clock: @escaping @Sendable () -> Int64 = MessageBus.systemClock) {
        self.sampleCount = sampleCount
        self.sink = sink
        self.clock = clock
    }

    /// Counts `count` messages published by one store append that took
    /// `storeSeconds` (a group commit's: the sink is told once a group).
    public func published(_ count: Int = 1, storeSeconds: Double = 0) {
        state.withLock { $0.published += count }
        sink?.published(count, storeSeconds: storeSeconds)
    }

    /// Counts messages written to one client of `transport` now.
    public func delivered(_ messages: some Collection<EncodedMessage>, transport: Transport) {
        guard let oldest = messages.first else { return }
        let now = clock()
        // One latency sample per write: the oldest message's (the worst in it).
        let milliseconds = max(0, now - oldest.message.ts)
        let sampleCount = sampleCount
        state.withLock { $0.tallies[transport.ordinal].record(messages.count, milliseconds: milliseconds, keeping: sampleCount) }
    }

    /// Messages delivered, and the latency histogram, per transport since start.
    public func totals() -> [Transport: (delivered: Int, latency: DeliveryLatencyHistogram)] {
        let tallies = state.withLock { $0.tallies }
        return Dictionary(uniqueKeysWithValues: Transport.allCases.map { transport in
            (transport, (tallies[transport.ordinal].delivered, tallies[transport.ordinal].latency))
        })
    }

    /// Messages published since start.
    public var publishedCount: Int { state.withLock { $0.published } }

    /// Figures for every transport.
    public func figures() -> [Transport: TransportFigures] {
        let tallies = state.withLock { $0.tallies }
        var result: [Transport: TransportFigures] = [:]
        for transport in Transport.allCases {
            let tally = tallies[transport.ordinal]
            let sorted = tally.samples.sorted()
            result[transport] = TransportFigures(delivered: tally.delivered,
                                                 p50Milliseconds: sorted.nearestRank(0.5), p99Milliseconds: sorted.nearestRank(0.99))
        }
        return result
    }
}
