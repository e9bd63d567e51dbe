import SwitchboardCore

/// How fast passwords may be tried and accounts made (docs/IDENTITY.md,
/// "Throttles"): token buckets, read only when someone signs in or up, so
/// they cost nothing between attempts.
///
/// - Sign-in: every attempt takes a token from the account's bucket
///   (`signInPerMinute`, at once up to as many) and from the address's
///   (three times as many: one address may serve a household). An empty
///   bucket refuses before the password is checked: 429 with `Retry-After`,
///   the right password included, until it fills again; then it works.
/// - Sign-up: every registration takes a token from the address's bucket
///   (`signUpsPerHour`, at once up to as many). The admin token is not counted.
public struct AccountThrottle: Sendable {
    private let signInByAccount: PublishRateLimiter?
    private let signInByAddress: PublishRateLimiter?
    private let signUpByAddress: PublishRateLimiter?

    /// - Parameters:
    ///   - signInPerMinute: attempts a minute per account; nil: unlimited.
    ///   - signUpsPerHour: registrations an hour per address; nil: unlimited.
    ///   - clock: monotonic nanoseconds.
    public init(signInPerMinute: Double?, signUpsPerHour: Double?,
                clock: @escaping @Sendable () -> UInt64 = DeadlineScheduler.now) {
        signInByAccount = signInPerMinute.map { PublishRateLimiter(rate: $0 / 60, burst: $0, clock: clock) }
        signInByAddress = signInPerMinute.map { PublishRateLimiter(rate: 3 * $0 / 60, burst: 3 * $0, clock: clock) }
        signUpByAddress = signUpsPerHour.map { PublishRateLimiter(rate: $0 / 3600, burst: $0, clock: clock) }
    }

    /// Counts a sign-in attempt at `account` (its name as compared) from `address`.
    /// - Throws: `rate_limited` with the seconds until an attempt is allowed.
    public func signIn(account: String, address: String?) throws(SwitchboardError) {
        let byAddress = address.flatMap { signInByAddress?.take($0) }
        let byAccount = signInByAccount?.take(account)
        if let wait = [byAddress, byAccount].compactMap({ $0 }).max() { throw Self.tooMany("sign-in attempts", wait) }
    }

    /// Counts a registration from `address`.
    /// - Throws: `rate_limited` with the seconds until one is allowed.
    public func signUp(address: String?) throws(SwitchboardError) {
        if let address, let wait = signUpByAddress?.take(address) { throw Self.tooMany("new accounts from this address", wait) }
    }

    private static func tooMany(_ what: String, _ seconds: Int) -> SwitchboardError {
        SwitchboardError(.rateLimited, code: "rate_limited", message: "Too many \(what); try again in \(seconds) s.",
                         retryAfterSeconds: seconds)
    }
}
