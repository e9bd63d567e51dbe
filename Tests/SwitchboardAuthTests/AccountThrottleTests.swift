import Synchronization
import SwitchboardCore
import Testing
@testable import SwitchboardAuth

/// Password attempts and sign-ups, on a fake clock (monotonic nanoseconds).
@Suite("Account throttle")
struct AccountThrottleTests {
    @Test func attemptsAreCountedPerAccountAndAddressAndRefill() throws {
        let now = Atomic<UInt64>(0)
        let throttle = AccountThrottle(signInsPerAccount: 6, signUpBurst: 2, clock: { now.load(ordering: .relaxed) })
        for _ in 0..<6 { try throttle.signIn(account: "leia", address: "10.0.0.1") }
        #expect(throws: SwitchboardError.self) { try throttle.signIn(account: "leia", address: "10.0.0.2") }
        // Another account from the same address still may (the address has 18).
        try throttle.signIn(account: "han", address: "10.0.0.1")
        now.store(100_000_000_000, ordering: .relaxed)  // 100 s: one token back (6 in 10 minutes)
        try throttle.signIn(account: "leia", address: "10.0.0.3")
        // Sign-ups per address.
        try throttle.signUp(address: "10.0.0.1")
        try throttle.signUp(address: "10.0.0.1")
        do {
            try throttle.signUp(address: "10.0.0.1")
            Issue.record("a third sign-up within the hour passed")
        } catch {
            #expect(error.kind == .rateLimited && (error.retryAfterSeconds ?? 0) > 100)  // 2 in 5 minutes
        }
        try throttle.signUp(address: "10.0.0.9")
    }

    @Test func anAddressIsLimitedAcrossAccounts() throws {
        let throttle = AccountThrottle(signInsPerAccount: 2, signUpBurst: nil, clock: { 0 })
        for index in 0..<6 { try throttle.signIn(account: "user\(index)", address: "10.0.0.1") }
        #expect(throws: SwitchboardError.self) { try throttle.signIn(account: "user9", address: "10.0.0.1") }
        let unlimited = AccountThrottle(signInsPerAccount: nil, signUpBurst: nil)
        for _ in 0..<100 { try unlimited.signIn(account: "leia", address: "10.0.0.1"); try unlimited.signUp(address: "10.0.0.1") }
    }
}
