import Foundation

/// What becomes of a notification after one attempt, decided from the push
/// service's answer (RFC 8030 §5, SPEC "Delivery"): accepted; the
/// subscription gone (404, 410); tried again later (429, 5xx, no answer),
/// honouring `Retry-After`, with doubling waits, for up to an hour since it
/// was queued; or given up (any other answer, or the hour passed).
public enum PushOutcome: Sendable, Equatable {
    case delivered
    case gone
    case retry(afterMilliseconds: Int64)
    case giveUp(String)

    /// How long a notification is tried for.
    public static let patienceMilliseconds: Int64 = 3_600_000

    /// The outcome of an attempt answered `status` (nil: no answer: a
    /// refused connection, a timeout), the notification's `attempts` so far
    /// (this one included), queued at `created`, now `now`.
    /// `jitter` in 0...1 spreads the retries of many notifications.
    public static func of(status: Int?, retryAfter: String?, attempts: Int, created: Int64, now: Int64,
                          jitter: Double = 0.5) -> PushOutcome {
        switch status {
        case .some(200...299): return .delivered
        case .some(404), .some(410): return .gone
        case .some(429), .some(500...599), .none:
            // 5 s, 10 s, 20 s … at most 10 minutes, ±20 %; never sooner than Retry-After says.
            let base = Double(5_000 << min(max(attempts - 1, 0), 7))
            var wait = Int64(min(base, 600_000) * (0.8 + 0.4 * jitter))
            if let retryAfter, let seconds = Int64(retryAfter.trimmingCharacters(in: .whitespaces)), seconds >= 0 {
                wait = max(wait, min(seconds, 3_600) * 1_000)
            }
            guard now + wait <= created + patienceMilliseconds else {
                return .giveUp("no acceptance within an hour (last: \(status.map(String.init) ?? "no answer"))")
            }
            return .retry(afterMilliseconds: wait)
        case .some(let other): return .giveUp("the push service answered \(other)")
        }
    }
}
