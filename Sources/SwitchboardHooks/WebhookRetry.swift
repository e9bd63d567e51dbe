/// When a webhook that failed is tried again: 1 s, doubling to 5 min, each
/// ±20 % so that receivers coming back are not hit by every event at once;
/// given up a day after the event happened (counted, logged; the next
/// events of its room go on).
public enum WebhookRetry {
    static let firstMilliseconds: Double = 1_000
    static let longestMilliseconds: Double = 300_000
    /// A day.
    public static let givenUpAfterMilliseconds: Int64 = 86_400_000

    /// The wait after the `attempts`-th failure (1, 2, …), `jitter` in 0...1.
    public static func delay(attempts: Int, jitter: Double) -> Int64 {
        let base = min(longestMilliseconds, firstMilliseconds * Double(1 << min(max(attempts - 1, 0), 20)))
        return Int64(base * (0.8 + 0.4 * jitter))
    }

    /// Whether an event that happened at `ts` is past trying at `now`.
    public static func givesUp(ts: Int64, now: Int64) -> Bool {
        now - ts > givenUpAfterMilliseconds
    }
}
