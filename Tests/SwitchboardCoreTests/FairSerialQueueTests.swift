import Dispatch
import Synchronization
import Testing
@testable import SwitchboardCore

/// The media queue's order: one job at a time, askers in turns, each
/// holding at most its limit.
@Suite struct FairSerialQueueTests {
    @Test func askersTakeTurnsAndEachHoldsAtMostTheLimit() {
        let queue = FairSerialQueue(label: "test.fair", limit: 3)
        let ran = Mutex<[String]>([])
        let hold = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        func job(_ name: String, holding: Bool = false) -> @Sendable () -> Void {
            { if holding { hold.wait() }; ran.withLock { $0.append(name) }; done.signal() }
        }
        #expect(queue.enqueue("han", job("han 0", holding: true)))   // holds the queue while the others come
        #expect(queue.enqueue("luke", job("luke 1")))
        #expect(queue.enqueue("luke", job("luke 2")))
        #expect(queue.enqueue("luke", job("luke 3")))
        #expect(!queue.enqueue("luke", job("luke 4")), "three waiting: a fourth is refused")
        #expect(queue.enqueue("leia", job("leia 1")))
        #expect(queue.enqueue("han", job("han 1")))
        #expect(queue.enqueue("leia", job("leia 2")))
        hold.signal()
        for _ in 0..<7 { #expect(done.wait(timeout: .now() + 5) == .success) }
        #expect(ran.withLock { $0 } == ["han 0", "luke 1", "leia 1", "han 1", "luke 2", "leia 2", "luke 3"])
        // All done: the queue starts again on the next job, and luke's share was given back as each started.
        for index in 1...3 { #expect(queue.enqueue("luke", job("luke again \(index)"))) }
        for _ in 0..<3 { #expect(done.wait(timeout: .now() + 5) == .success) }
        #expect(ran.withLock { $0.suffix(3) } == ["luke again 1", "luke again 2", "luke again 3"])
    }
}
