import Synchronization

/// Token buckets, one per key (a user, or a guest's address): `rate` tokens
/// a second up to `burst`; a publish takes one. Time is read only when a
/// key publishes: no timers. Buckets that are full again are forgotten when
/// the table grows, so keys that stop publishing cost nothing.
public final class PublishRateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: UInt64
    }

    /// Tokens a second.
    public let rate: Double
    /// Most tokens a bucket holds.
    public let burst: Double
    private let clock: @Sendable () -> UInt64
    private let buckets = Mutex([String: Bucket]())

    /// - Parameters:
    ///   - rate: publishes a second, above 0.
    ///   - burst: most publishes at once (default twice the rate, at least 1).
    ///   - clock: monotonic nanoseconds.
    public init(rate: Double, burst: Double? = nil, clock: @escaping @Sendable () -> UInt64 = DeadlineScheduler.now) {
        self.rate = rate
        self.burst = max(1, burst ?? rate * 2)
        self.clock = clock
    }

    /// Takes a token from `key`'s bucket: nil if there was one, else the
    /// whole seconds until there will be.
    public func take(_ key: String) -> Int? {
        let now = clock()
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + Double(now &- bucket.updated) / 1e9 * rate)
            bucket.updated = now
            defer {
                buckets[key] = bucket
                if buckets.count > 10_000 { forgetFull(&buckets, now: now) }
            }
            guard bucket.tokens >= 1 else { return Self.wholeSeconds((1 - bucket.tokens) / rate) }
            bucket.tokens -= 1
            return nil
        }
    }

    /// A wait in whole seconds, 1 at least and a year at most: under a
    /// tiny rate (`--sign-in-rate 1e-300`) the wait is more seconds than
    /// an `Int` holds, and converting it trapped.
    static func wholeSeconds(_ seconds: Double) -> Int {
        seconds < 31_536_000 ? max(1, Int(seconds.rounded(.up))) : 31_536_000
    }

    private func forgetFull(_ buckets: inout [String: Bucket], now: UInt64) {
        buckets = buckets.filter { $0.value.tokens + Double(now &- $0.value.updated) / 1e9 * rate < burst }
    }
}
