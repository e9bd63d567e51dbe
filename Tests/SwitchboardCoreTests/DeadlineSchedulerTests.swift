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
}
