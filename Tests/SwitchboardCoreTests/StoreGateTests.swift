import Dispatch
import Foundation
import Testing
@testable import SwitchboardCore

/// The one door to the store: answers within the timeout whatever the
/// store does, work that waited past its deadline never runs, and a stall
/// is a store kept waiting, not an idle one asked again.
@Suite("Store gate")
struct StoreGateTests {
    /// A value set from another thread.
    final class Cell<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: T?
        var value: T? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }

    /// Waits for `completion`'s value (a test helper, off every serving thread).
    func outcome<T: Sendable>(_ gate: StoreGate, _ work: @escaping @Sendable () throws -> T) -> Result<T, SwitchboardError>? {
        let done = DispatchSemaphore(value: 0)
        let result = Cell<Result<T, SwitchboardError>>()
        gate.run("a test", work) { outcome in
            result.value = outcome
            done.signal()
        }
        _ = done.wait(timeout: .now() + 10)
        return result.value
    }

    @Test func anAnswerComesBackAndAFailureIsPassedOn() throws {
        let gate = StoreGate(timeoutSeconds: 2)
        #expect(try outcome(gate, { 42 })?.get() == 42)
        #expect(throws: SwitchboardError.notAMember("c.1")) { try outcome(gate, { () throws -> Int in throw SwitchboardError.notAMember("c.1") })?.get() }
    }

    @Test func aStoreThatDoesNotAnswerIsAnsweredAtTheTimeoutAndWhatWaitedNeverRuns() {
        let gate = StoreGate(timeoutSeconds: 0.3, threads: 1)
        let release = DispatchSemaphore(value: 0)
        let ranLate = Cell<Bool>()
        let started = DispatchTime.now()
        // The one thread is held (a frozen database); the second piece of work queues behind it.
        let first = Cell<Result<Int, SwitchboardError>>(), second = Cell<Result<Int, SwitchboardError>>()
        let both = DispatchGroup()
        both.enter()
        let entered = Cell<Bool>()
        gate.run("held", { entered.value = true; release.wait(); return 1 }) { result in first.value = result; both.leave() }
        both.enter()
        gate.run("queued", { ranLate.value = true; return 2 }) { result in second.value = result; both.leave() }
        #expect(both.wait(timeout: .now() + 5) == .success)
        let waited = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        #expect(waited >= 0.25 && waited < 3)
        #expect(first.value == .failure(.storeTimedOut(seconds: 0.3)))
        #expect(second.value == .failure(.storeTimedOut(seconds: 0.3)))
        // The held call has now run past the timeout with no answer: a stall.
        Thread.sleep(forTimeInterval: 0.1)
        #expect(entered.value == true && gate.isStalled())
        release.signal()
        Thread.sleep(forTimeInterval: 0.2)
        // The queued work's deadline passed before a thread took it: it never ran.
        #expect(ranLate.value == nil)
        #expect(!gate.isStalled())
        #expect(gate.timedOutCount == 2)
    }

    /// A database layer that gives up on each call after a while (postgres-nio
    /// at 5 s) keeps the caller waiting all the same: the stall counts from
    /// the first call since the last answer.
    @Test func callsThatFailWithoutAnAnswerKeepTheStallGoing() throws {
        let gate = StoreGate(timeoutSeconds: 0.3)
        let start = DispatchTime.now().uptimeNanoseconds
        struct GaveUp: Error {}
        _ = try? gate.trackingCommit { () throws -> Int in Thread.sleep(forTimeInterval: 0.2); throw GaveUp() }
        let stalled = gate.trackingCommit { () -> Bool in
            Thread.sleep(forTimeInterval: 0.2)
            return gate.isStalled()
        }
        #expect(stalled, "0.4 s without an answer against a 0.3 s timeout")
        #expect(DispatchTime.now().uptimeNanoseconds - start >= 400_000_000)
        // Answered: a new call starts a new wait, however long the store was idle before.
        Thread.sleep(forTimeInterval: 0.4)
        let fresh = gate.trackingCommit { gate.isStalled() }
        #expect(!fresh && !gate.isStalled())
    }

    /// The same through the gate's own threads: work that fails (the
    /// database layer giving up) is no answer either. (Its first version
    /// caught the failure inside the tracked call, which then "answered",
    /// and `/healthz` said 200 through a frozen PostgreSQL: the soak saw it.)
    @Test func gateWorkThatFailsIsNoAnswer() {
        let gate = StoreGate(timeoutSeconds: 0.3)
        struct GaveUp: Error {}
        _ = outcome(gate, { () throws -> Int in Thread.sleep(forTimeInterval: 0.2); throw GaveUp() })
        let stalled = outcome(gate, { () -> Bool in Thread.sleep(forTimeInterval: 0.2); return gate.isStalled() })
        #expect(stalled == .success(true), "0.4 s without an answer against a 0.3 s timeout")
        #expect(!gate.isStalled())
    }

    /// The crash this caught: a catch-up read still running on a gate
    /// thread when the server closed the store read a closed connection
    /// (signal 11 in libsqlite3, at the end of the raw TCP flood test).
    @Test func closingWaitsForRunningWorkAndRefusesTheRest() {
        let gate = StoreGate(timeoutSeconds: 5, threads: 1)
        let started = DispatchSemaphore(value: 0)
        let finished = Cell<Bool>()
        let queuedOutcome = Cell<Result<Int, SwitchboardError>>()
        gate.run("a slow read", { () -> Int in
            started.signal()
            Thread.sleep(forTimeInterval: 0.3)
            finished.value = true
            return 1
        }, completion: { _ in })
        gate.run("a read behind it", { () -> Int in 2 }, completion: { queuedOutcome.value = $0 })
        _ = started.wait(timeout: .now() + 5)
        #expect(gate.close())
        #expect(finished.value == true, "close returned while a read was still running")
        #expect(queuedOutcome.value == .failure(.storeUnavailable("the server is stopping")))
        #expect(outcome(gate, { 3 }) == .failure(.storeUnavailable("the server is stopping")))
    }

    /// Work is queued for the caller of the thread that asked, and a
    /// completion runs as that caller too: what it asks for next queues in
    /// the same line. With no caller named, the work is the server's.
    @Test func workAndWhatItsCompletionAsksForAreTheCallers() throws {
        let gate = StoreGate(timeoutSeconds: 5)
        let seen = Cell<[UInt64]>()
        let done = DispatchSemaphore(value: 0)
        let leia = StoreCaller.user("leia")
        leia.run {
            gate.run("first", { StoreCaller.current.lane }) { first in
                gate.run("second", { StoreCaller.current.lane }) { second in
                    seen.value = [(try? first.get()) ?? 0, (try? second.get()) ?? 0, StoreCaller.current.lane]
                    done.signal()
                }
            }
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(seen.value == [leia.lane, leia.lane, leia.lane])
        #expect(StoreCaller.current == .server, "the scope ends with run")
        #expect(try outcome(gate, { StoreCaller.current.lane })?.get() == StoreCaller.server.lane)
        #expect(StoreCaller.user("leia") == leia && StoreCaller.user("han") != leia && leia != .admin && leia != .server)
        #expect(StoreCaller.address(text: "127.0.0.1") != StoreCaller.address(text: "127.0.0.2"))
    }
}
