import Dispatch
import Foundation
import Synchronization
import Testing
@testable import SwitchboardCore

/// The deadlines' FIFO: the thread that answers lets the answered go (and
/// frees them), the thread that adds only appends, and what still waits
/// is kept in order and expired at its deadline.
@Suite("Expiry queue")
struct ExpiryQueueTests {
    /// Something waiting that counts, in `alive`, until it is freed.
    final class Waiter: Expiring {
        let answered = Atomic<Bool>(false)
        let expired = Atomic<Bool>(false)
        let alive: Counter

        init(_ alive: Counter) {
            self.alive = alive
            alive.value.add(1, ordering: .relaxed)
        }

        deinit { alive.value.subtract(1, ordering: .relaxed) }

        var isAnswered: Bool { answered.load(ordering: .acquiring) }
        var wasExpired: Bool { expired.load(ordering: .acquiring) }

        func expire(_ error: SwitchboardError) -> Bool {
            let first = !answered.exchange(true, ordering: .acquiringAndReleasing)
            if first { expired.store(true, ordering: .releasing) }
            return first
        }
    }

    final class Counter: Sendable {
        let value = Atomic<Int>(0)
        var count: Int { value.load(ordering: .relaxed) }
    }

    @Test func addingDoesNotFreeTheAnsweredTrimmingDoesAndKeepsWhatWaits() {
        let alive = Counter()
        let queue = ExpiryQueue(timeoutSeconds: 60, queue: DispatchQueue(label: "test-deadlines"))
        var waiting: [Waiter] = []
        for _ in 0..<10 {
            let waiter = Waiter(alive)
            queue.add(waiter)
            waiting.append(waiter)
        }
        // The first seven are answered, and their callers let go of them.
        for waiter in waiting.prefix(7) { waiter.answered.store(true, ordering: .releasing) }
        let stillWaiting = Array(waiting.suffix(3))
        waiting = []
        #expect(alive.count == 10, "the queue holds all ten")

        // A publisher's add only appends: nothing is freed on its thread.
        let late = Waiter(alive)
        queue.add(late)
        #expect(alive.count == 11, "an add frees nothing (it was the publisher's thread that paid)")

        // The answering thread trims: the seven answered are freed, the rest stay.
        queue.trimAnswered()
        #expect(alive.count == 4)
        queue.trimAnswered()  // nothing answered at the front: nothing happens
        #expect(alive.count == 4)
        for waiter in stillWaiting + [late] { #expect(!waiter.isAnswered) }
    }

    @Test func anAddTrimsItselfWhenNoOneHasForLong() {
        let alive = Counter()
        let queue = ExpiryQueue(timeoutSeconds: 60, queue: DispatchQueue(label: "test-deadlines"))
        for _ in 0..<ExpiryQueue.addTrimsFrom {
            let waiter = Waiter(alive)
            waiter.answered.store(true, ordering: .releasing)
            queue.add(waiter)
        }
        #expect(alive.count == ExpiryQueue.addTrimsFrom)
        queue.add(Waiter(alive))
        #expect(alive.count == 1, "past \(ExpiryQueue.addTrimsFrom) the add let the answered go itself")
    }

    @Test func whatStillWaitsAfterATrimIsExpiredAtItsDeadline() throws {
        let alive = Counter()
        let queue = ExpiryQueue(timeoutSeconds: 0.2, queue: DispatchQueue(label: "test-deadlines"))
        let answered = Waiter(alive), waits = Waiter(alive)
        queue.add(answered)
        queue.add(waits)
        answered.answered.store(true, ordering: .releasing)
        queue.trimAnswered()
        let until = DispatchTime.now() + 5
        while !waits.wasExpired, DispatchTime.now() < until { Thread.sleep(forTimeInterval: 0.01) }
        #expect(waits.wasExpired)
        #expect(!answered.wasExpired)
        #expect(queue.expiredCount == 1)
    }
}
