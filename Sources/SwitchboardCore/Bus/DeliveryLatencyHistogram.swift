/// The Prometheus histogram of one transport's delivery latency
/// (`switchboard_delivery_latency_seconds`), kept by ``DeliveryStats``
/// under the lock it takes for every write anyway: integer milliseconds
/// against fixed bounds, where a registry histogram took a second lock and
/// compared `Duration`s (500 of an SSE delivery's 10,500 instructions).
public struct DeliveryLatencyHistogram: Sendable, Equatable {
    /// The buckets' upper bounds (inclusive, Prometheus' `le`), in
    /// milliseconds: swift-prometheus' default buckets for a timer.
    public static let boundsMilliseconds: [Int64] = [5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000]

    /// Observations per bucket, not cumulative; the last is over every bound.
    private(set) var perBucket = [Int](repeating: 0, count: boundsMilliseconds.count + 1)
    /// How many writes were observed.
    public var count: Int { perBucket.reduce(0, +) }
    /// Their latencies added up.
    public private(set) var sumMilliseconds: Int64 = 0

    public init() {}

    /// Observes one write `milliseconds` after its message was stored.
    mutating func observe(_ milliseconds: Int64) {
        var index = 0
        let bounds = Self.boundsMilliseconds
        while index < bounds.count, milliseconds > bounds[index] { index += 1 }
        perBucket[index] += 1
        sumMilliseconds += milliseconds
    }

    /// Observations at or under each bound, in the order of ``boundsMilliseconds``.
    public var cumulative: [Int] {
        var total = 0
        return perBucket.dropLast().map { total += $0; return total }
    }
}
