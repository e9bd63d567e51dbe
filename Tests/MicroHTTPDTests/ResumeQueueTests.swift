import Foundation
import Synchronization
import Testing
@testable import MicroHTTPD

/// The pacing of wake-ups: a batch at a time, the next when the last is
/// served or patience runs out, in the order queued. Fakes stand in for
/// suspended connections (their "resume" is recorded).
@Suite("Resume queue")
struct ResumeQueueTests {
    /// The order in which fakes were resumed.
    final class Resumed: Sendable {
        private let numbers = Mutex<[Int]>([])
        func append(_ number: Int) { numbers.withLock { $0.append(number) } }
        func withLock<T: Sendable>(_ body: ([Int]) -> T) -> T { numbers.withLock { body($0) } }
        func removeFirst() { numbers.withLock { _ = $0.removeFirst() } }
    }

    final class FakeExchange: ResumableInTurn, @unchecked Sendable {
        let number: Int
        let resumed: Resumed
        private let batch = Atomic<UInt64>(0)

        init(_ number: Int, resumed: Resumed) {
            self.number = number
            self.resumed = resumed
        }

        func resumeNow() { resumed.append(number) }
        func markResumed(inBatch batch: UInt64) { self.batch.store(batch, ordering: .relaxed) }
        func takeResumeBatch() -> UInt64 { batch.exchange(0, ordering: .relaxed) }
    }

    /// Waits (at most 5 s) until `resumed` holds `count` entries; returns them.
    func waitFor(_ count: Int, in resumed: Resumed) -> [Int] {
        let deadline = Date().addingTimeInterval(5)
        while resumed.withLock({ $0.count }) < count, Date() < deadline { usleep(1000) }
        return resumed.withLock { $0 }
    }

    @Test func resumesOneBatchAtATimeInOrderTheNextWhenEveryOneIsServed() {
        let resumed = Resumed()
        let queue = ResumeQueue(batchSize: 3, patience: .seconds(60))
        defer { queue.stop() }
        // The seven are queued while a first batch is out, so the next batches
        // are made of all seven: queued from an idle start, the queue's thread
        // may wake after the first two and rightly resume those two alone.
        let first = FakeExchange(-1, resumed: resumed)
        queue.enqueue(first)
        #expect(waitFor(1, in: resumed) == [-1])
        let exchanges = (0..<7).map { FakeExchange($0, resumed: resumed) }
        for exchange in exchanges { queue.enqueue(exchange) }
        queue.served(first)
        resumed.removeFirst()

        #expect(waitFor(3, in: resumed) == [0, 1, 2])
        usleep(50_000)
        #expect(resumed.withLock { $0 } == [0, 1, 2], "the next batch waits while this one is not served")
        queue.served(exchanges[0])
        queue.served(exchanges[0])  // served twice counts once
        queue.served(exchanges[1])
        usleep(50_000)
        #expect(resumed.withLock { $0 } == [0, 1, 2], "one of the batch is still not served")
        queue.served(exchanges[2])
        #expect(waitFor(6, in: resumed) == [0, 1, 2, 3, 4, 5])
        for exchange in exchanges[3...5] { queue.served(exchange) }
        #expect(waitFor(7, in: resumed) == [0, 1, 2, 3, 4, 5, 6])
    }

    @Test func aBatchNeverServedHoldsTheNextOnlyForThePatience() {
        let resumed = Resumed()
        let queue = ResumeQueue(batchSize: 2, patience: .milliseconds(20))
        defer { queue.stop() }
        for number in 0..<5 { queue.enqueue(FakeExchange(number, resumed: resumed)) }
        #expect(waitFor(5, in: resumed) == [0, 1, 2, 3, 4])
    }

    @Test func aLateServeOfAnEarlierBatchDoesNotReleaseTheCurrentOne() {
        let resumed = Resumed()
        let queue = ResumeQueue(batchSize: 1, patience: .milliseconds(300))
        defer { queue.stop() }
        let first = FakeExchange(0, resumed: resumed)
        queue.enqueue(first)
        #expect(waitFor(1, in: resumed) == [0])
        usleep(500_000)  // the first batch's patience runs out; the queue is empty and asleep
        let second = FakeExchange(1, resumed: resumed), third = FakeExchange(2, resumed: resumed)
        queue.enqueue(second)
        queue.enqueue(third)
        #expect(waitFor(2, in: resumed) == [0, 1])
        queue.served(first)  // served long after its batch was given up
        usleep(10_000)
        #expect(resumed.withLock { $0 } == [0, 1], "the third waits for the second (or the patience)")
        #expect(waitFor(3, in: resumed) == [0, 1, 2])
    }

    @Test func stopResumesEverythingQueuedAtOnceAndLaterOnesDirectly() {
        let resumed = Resumed()
        let queue = ResumeQueue(batchSize: 1, patience: .seconds(60))
        for number in 0..<4 { queue.enqueue(FakeExchange(number, resumed: resumed)) }
        #expect(waitFor(1, in: resumed) == [0])
        queue.stop()
        #expect(resumed.withLock { $0 } == [0, 1, 2, 3])
        queue.enqueue(FakeExchange(4, resumed: resumed))
        #expect(resumed.withLock { $0 } == [0, 1, 2, 3, 4])
    }
}
