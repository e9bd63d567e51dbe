import Dispatch
import Foundation
import Testing
@testable import SwitchboardCore

/// A stalled store is said once when callers start being refused for it and
/// once when it answers again: not once a refusal, not for a queue that
/// answers all along, and not while another call still hangs.
@Suite("Store stall report")
struct StoreStallReportTests {
    typealias Cell = StoreGateTests.Cell

    /// What the observer was told, in order.
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var stalls: [StoreStall] = []
        func append(_ stall: StoreStall) { lock.withLock { stalls.append(stall) } }
        var all: [StoreStall] { lock.withLock { stalls } }
        var began: [Double] { all.compactMap { if case .began(let seconds) = $0 { seconds } else { nil } } }
        var ended: [(seconds: Double, refused: Int)] {
            all.compactMap { if case .ended(let seconds, let refused) = $0 { (seconds, refused) } else { nil } }
        }
    }

    func observed(_ gate: StoreGate) -> Heard {
        let heard = Heard()
        gate.observeStalls { heard.append($0) }
        return heard
    }

    @Test func aStallIsSaidOnceWhenCallersAreRefusedAndOnceWhenTheStoreAnswers() {
        let gate = StoreGate(timeoutSeconds: 0.2, threads: 1)
        let heard = observed(gate)
        let release = DispatchSemaphore(value: 0)
        // The one thread hangs (a locked file); three callers queue behind it.
        gate.run("held", { release.wait(); return 1 }, completion: { _ in })
        for _ in 0..<3 { gate.run("queued", { 2 }, completion: { _ in }) }
        Thread.sleep(forTimeInterval: 0.35)
        #expect(heard.began.count == 1 && heard.ended.isEmpty, "\(heard.all)")
        #expect((heard.began.first ?? 0) >= 0.1, "unanswered for about the timeout: \(heard.began)")
        // More refusals in the same stall: nothing more is said.
        gate.run("later", { 3 }, completion: { _ in })
        Thread.sleep(forTimeInterval: 0.35)
        #expect(gate.timedOutCount == 5)
        #expect(heard.all.count == 1, "\(heard.all)")
        release.signal()
        Thread.sleep(forTimeInterval: 0.1)
        #expect(heard.began.count == 1 && heard.ended.count == 1, "\(heard.all)")
        #expect(heard.ended.first?.refused == 5, "\(heard.all)")
        #expect((heard.ended.first?.seconds ?? 0) >= 0.6, "\(heard.all)")
        // Answers after it say nothing; a new stall is said again.
        _ = StoreGateTests().outcome(gate, { 4 })
        #expect(heard.all.count == 2)
        gate.run("held again", { release.wait(); return 5 }, completion: { _ in })
        Thread.sleep(forTimeInterval: 0.35)
        #expect(heard.began.count == 2, "\(heard.all)")
        release.signal()
        Thread.sleep(forTimeInterval: 0.1)
        #expect(heard.ended.count == 2 && heard.ended.last?.refused == 1, "\(heard.all)")
    }

    /// Callers refused behind a queue of calls that each answer (one
    /// client's flood on one thread) are not a stall: the store answers.
    @Test func aQueueThatAnswersAllAlongIsNotAStall() {
        let gate = StoreGate(timeoutSeconds: 0.2, threads: 1)
        let heard = observed(gate)
        for _ in 0..<12 { gate.run("slow", { Thread.sleep(forTimeInterval: 0.05); return 1 }, completion: { _ in }) }
        Thread.sleep(forTimeInterval: 0.8)
        #expect(gate.timedOutCount > 0, "some waited past the timeout")
        #expect(heard.all.isEmpty, "\(heard.all)")
    }

    /// A database layer that gives up on its calls (postgres-nio at 5 s)
    /// leaves none running between them; work that answers from memory then
    /// (a password check) is not the store answering: the stall goes on
    /// until a store call answers. (It ended and began again every few
    /// seconds in the log during a frozen PostgreSQL with sign-ins.)
    @Test func anAnswerThatIsNotTheStoresEndsNoStall() throws {
        let gate = StoreGate(timeoutSeconds: 0.2, threads: 2)
        let heard = observed(gate)
        struct GaveUp: Error {}
        gate.run("given up on", { () throws -> Int in Thread.sleep(forTimeInterval: 0.3); throw GaveUp() }, completion: { _ in })
        Thread.sleep(forTimeInterval: 0.45)
        #expect(heard.began.count == 1, "\(heard.all)")
        let checked = DispatchSemaphore(value: 0)
        gate.run("a password check", showsTheStoreAnswers: false, { 1 }, completion: { _ in checked.signal() })
        _ = checked.wait(timeout: .now() + 5)
        #expect(heard.ended.isEmpty, "\(heard.all)")
        #expect(try StoreGateTests().outcome(gate, { 2 })?.get() == 2)
        #expect(heard.ended.count == 1 && heard.ended.first?.refused == 1, "\(heard.all)")
        #expect(!gate.isStalled())
    }

    /// A commit that gives up (SQLite busy past its timeout, beside another
    /// process's write lock) while reads still answer: the stall ends when a
    /// commit answers, not at each read between two commits.
    @Test func aWriteLockStallEndsWhenACommitAnswersNotAtARead() throws {
        let gate = StoreGate(timeoutSeconds: 0.2)
        let heard = observed(gate)
        struct Busy: Error {}
        let waiting = StoreTicket<Void> { _ in }  // a publish waiting for that commit
        gate.expire(waiting)
        #expect(throws: Busy.self) { try gate.trackingCommit { () throws -> Int in Thread.sleep(forTimeInterval: 0.3); throw Busy() } }
        #expect(heard.began.count == 1, "\(heard.all)")
        #expect(try StoreGateTests().outcome(gate, { 1 })?.get() == 1)  // a read beside the lock
        #expect(heard.ended.isEmpty, "\(heard.all)")
        #expect(gate.trackingCommit { 2 } == 2)
        #expect(heard.ended.count == 1 && heard.ended.first?.refused == 1, "\(heard.all)")
    }

    /// A stall in the group commit, with the gate's own calls answering: it
    /// ends when the commit answers, not when another call does.
    @Test func aStallEndsWhenNoCallIsLeftUnansweredNotAtAnyAnswer() throws {
        let gate = StoreGate(timeoutSeconds: 0.2)
        let heard = observed(gate)
        let release = DispatchSemaphore(value: 0)
        let committed = DispatchSemaphore(value: 0)
        Thread {
            gate.trackingCommit { release.wait() }
            committed.signal()
        }.start()
        let waiting = StoreTicket<Void> { _ in }  // a publish waiting for that commit
        gate.expire(waiting)
        Thread.sleep(forTimeInterval: 0.35)
        #expect(heard.began.count == 1, "\(heard.all)")
        #expect(try StoreGateTests().outcome(gate, { 1 })?.get() == 1)
        #expect(heard.ended.isEmpty, "the commit still hangs: \(heard.all)")
        release.signal()
        _ = committed.wait(timeout: .now() + 5)
        #expect(heard.ended.count == 1 && heard.ended.first?.refused == 1, "\(heard.all)")
    }

    /// Beginnings (the deadlines' queue) and ends (answering threads) on
    /// several threads at once: told in the order decided, alternating.
    @Test func beginningsAndEndsFromManyThreadsAreToldInOrder() {
        let report = StoreStallReport()
        let heard = Heard()
        report.observe(heard.append)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<20_000 {
                if (round + thread).isMultiple(of: 2) {
                    report.refused(unanswered: 2_000_000_000, timeout: 2_000_000_000, now: 10_000_000_000, refused: round, count: 1)
                } else {
                    report.answered(stillStalled: false, now: 11_000_000_000, refused: round)
                }
            }
        }
        let order = heard.all.map { stall -> Bool in if case .began = stall { true } else { false } }
        #expect(!order.isEmpty)
        #expect(order.enumerated().allSatisfy { index, began in began == index.isMultiple(of: 2) }, "\(order.prefix(20))")
        #expect(order.last == report.isSaid)
    }
}
