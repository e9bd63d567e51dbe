import SwitchboardCore

/// How fast passwords may be tried and accounts made (docs/IDENTITY.md,
/// "Throttles"): token buckets, read only when someone signs in or up, so
/// they cost nothing between attempts.
///
/// - Sign-in: every attempt takes a token from the account's bucket
///   (`signInsPerAccount` in 10 minutes, at once up to as many) and from the
///   address's (three times as many a minute: one address may serve a
///   household; SPEC: 10 and 30). An empty
///   bucket refuses before the password is checked: 429 with `Retry-After`,
///   the right password included, until it fills again; then it works.
/// - Sign-up: every registration takes a token from the address's bucket
///   (`signUpBurst` at once, then as many in 5 minutes: SPEC's 30, then one
///   every 10 s). The admin token is not counted.
public struct AccountThrottle: Sendable {
    private let signInByAccount: PublishRateLimiter?
    private let signInByAddress: PublishRateLimiter?
    private let signUpByAddress: PublishRateLimiter?

    /// - Parameters:
    ///   - signInsPerAccount: attempts per account in 10 minutes; nil: unlimited.
    ///   - signUpBurst: registrations per address at once (and in 5 minutes); nil: unlimited.
    ///   - clock: monotonic nanoseconds.
    public init(signInsPerAccount: Double?, signUpBurst: Double?,
                clock: @escaping @Sendable () -> UInt64 = DeadlineScheduler.now) {
        signInByAccount = signInsPerAccount.map { PublishRateLimiter(rate: $0 / 600, burst: $0, clock: clock) }
        signInByAddress = signInsPerAccount.map { PublishRateLimiter(rate: 3 * $0 / 60, burst: 3 * $0, clock: clock) }
        signUpByAddress = signUpBurst.map { PublishRateLimiter(rate: $0 / 300, burst: $0, clock: clock) }
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
