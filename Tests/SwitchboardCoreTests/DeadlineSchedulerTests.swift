import Dispatch
import Foundation
import Synchronization
import Testing
@testable import SwitchboardCore

@Suite("Deadline scheduler")
struct DeadlineSchedulerTests {
    @Test func runsActionsInDeadlineOrderOnOneThread() async throws {
        let scheduler = DeadlineScheduler()
        scheduler.start()
        defer { scheduler.stop() }
        let order = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule(after: 0.30) { order.withLock { $0.append(3) }; done.signal() }
        scheduler.schedule(after: 0.10) { order.withLock { $0.append(1) } }
        scheduler.schedule(after: 0.20) { order.withLock { $0.append(2) } }
        scheduler.schedule(after: 0.0) { order.withLock { $0.append(0) } }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(order.withLock { $0 } == [0, 1, 2, 3])
    }

    /// A server tears down its parts after stopping the scheduler: an action
    /// still running after `stop()` returned would touch freed parts.
    @Test func stopReturnsOnlyAfterTheRunningActionHasFinished() throws {
        let scheduler = DeadlineScheduler()
        scheduler.start()
        let started = DispatchSemaphore(value: 0)
        let finished = Atomic<Bool>(false)
        scheduler.schedule(after: 0) {
            started.signal()
            Thread.sleep(forTimeInterval: 0.3)
            finished.store(true, ordering: .releasing)
        }
        #expect(started.wait(timeout: .now() + 10) == .success)
        scheduler.stop()
        let finishedBeforeStopReturned = finished.load(ordering: .acquiring)
        #expect(finishedBeforeStopReturned)
    }

    @Test func stopFromAnActionDoesNotWaitForItself() throws {
        let scheduler = DeadlineScheduler()
        scheduler.start()
        let done = DispatchSemaphore(value: 0)
        scheduler.schedule(after: 0) {
            scheduler.stop()
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
    }

    /// The names of the targets whose deadline passed, in order.
    final class Fired: Sendable {
        let names = Mutex<[Int]>([])
        func withLock<R>(_ body: (inout [Int]) -> R) -> R { names.withLock { body(&$0) } }
    }

    /// A target of the test's: records when its deadline passed.
    final class Target: DeadlineTarget, @unchecked Sendable {
        let name: Int
        let fired: Fired
        let done: DispatchSemaphore?
        var deadlineSlot = -1
        init(_ name: Int, fired: Fired, done: DispatchSemaphore? = nil) {
            self.name = name
            self.fired = fired
            self.done = done
        }
        func deadlinePassed() {
            fired.withLock { $0.append(name) }
            done?.signal()
        }
    }

    @Test func targetsRunInDeadlineOrderAmongActions() {
        let scheduler = DeadlineScheduler()
        scheduler.start()
        defer { scheduler.stop() }
        let fired = Fired()
        let done = DispatchSemaphore(value: 0)
        let now = DeadlineScheduler.now()
        let targets = [Target(1, fired: fired), Target(3, fired: fired, done: done)]
        scheduler.schedule(at: now + 300_000_000, targets[1])
        scheduler.schedule(at: now + 100_000_000, targets[0])
        scheduler.schedule(at: now + 200_000_000) { fired.withLock { $0.append(2) } }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(fired.withLock { $0 } == [1, 2, 3])
        #expect(targets.allSatisfy { $0.deadlineSlot == -1 } && scheduler.pending == 0)
    }

    /// `now()` is Dispatch's clock (ExpiryQueue hands its deadlines to
    /// `DispatchTime(uptimeNanoseconds:)`): read between two of Dispatch's
    /// readings, it lies between them.
    @Test func nowIsDispatchUptime() {
        for _ in 0..<100 {
            let before = DispatchTime.now().uptimeNanoseconds
            let now = DeadlineScheduler.now()
            let after = DispatchTime.now().uptimeNanoseconds
            #expect(before <= now && now <= after, "\(before) \(now) \(after)")
        }
    }

    /// A long poll that answered cancels its deadline: it is never called,
    /// and the scheduler lets go of it at once (not at the deadline).
    @Test func aCancelledTargetIsNeverCalledAndIsLetGoAtOnce() {
        let scheduler = DeadlineScheduler()
        scheduler.start()
        defer { scheduler.stop() }
        let fired = Fired()
        weak var released: Target?
        do {
            let target = Target(1, fired: fired)
            released = target
            scheduler.schedule(at: DeadlineScheduler.now() + 500_000_000, target)
            #expect(scheduler.pending == 1 && target.deadlineSlot == 0)
            // The thread has looked at the top and sleeps until the deadline
            // (it held the entry, and so the target, while it slept).
            Thread.sleep(forTimeInterval: 0.05)
            scheduler.cancel(target)
            #expect(scheduler.pending == 0 && target.deadlineSlot == -1)
            scheduler.cancel(target)  // twice: nothing
        }
        #expect(released == nil)
        Thread.sleep(forTimeInterval: 0.6)
        #expect(fired.withLock { $0 }.isEmpty)
    }

    /// Many targets scheduled, some cancelled from the middle of the heap
    /// and one moved: every slot stays true, and the rest run in order.
    @Test func cancellingFromAnywhereKeepsTheHeapInOrder() {
        let scheduler = DeadlineScheduler()
        scheduler.start()
        defer { scheduler.stop() }
        let fired = Fired()
        let done = DispatchSemaphore(value: 0)
        let now = DeadlineScheduler.now() + 200_000_000
        var generator = SystemRandomNumberGenerator()
        let order = (0..<200).shuffled(using: &generator)
        let last = order.max()!
        let targets = (0..<200).map { Target($0, fired: fired, done: $0 == last ? done : nil) }
        for name in order { scheduler.schedule(at: now + UInt64(name) * 1_000_000, targets[name]) }
        var cancelled = Set<Int>()
        for name in order.prefix(120) where name % 3 == 0 && name != last {
            scheduler.cancel(targets[name])
            cancelled.insert(name)
        }
        // Moved from near the end to first (197 % 3 != 0: not cancelled above).
        let moved = last - 2
        scheduler.schedule(at: now - 1, targets[moved])
        #expect(scheduler.pending == 200 - cancelled.count)
        #expect(done.wait(timeout: .now() + 10) == .success)
        let expected = [moved] + (0..<200).filter { !cancelled.contains($0) && $0 != moved }
        #expect(fired.withLock { $0 } == expected)
    }
}
