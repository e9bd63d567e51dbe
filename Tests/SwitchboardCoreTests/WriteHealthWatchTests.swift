import Dispatch
import Synchronization
import Testing
import SwitchboardTesting
@testable import SwitchboardCore

/// Failures and successes from several threads at once (uploads on
/// libmicrohttpd's workers and the media queue): the operator is told each
/// change once, in the order they happened, ending where the writes are.
@Suite("Write health watch")
struct WriteHealthWatchTests {
    @Test func changesAreToldOnceEachAndInOrderFromManyThreads() {
        let watch = WriteHealthWatch()
        let told = Mutex<[String?]>([])
        watch.observe { why in told.withLock { $0.append(why) } }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<20_000 {
                if (round + thread).isMultiple(of: 3) { watch.failed("full", at: 0) } else { watch.succeeded() }
            }
        }
        let sequence = told.withLock { $0 }
        #expect(!sequence.isEmpty)
        // Alternating, starting with a failure: never "written again" twice, never a failure twice.
        let alternates = sequence.enumerated().allSatisfy { index, why in (why == nil) == !index.isMultiple(of: 2) }
        #expect(alternates, "\(sequence.prefix(20))")
        #expect((sequence.last.map { $0 != nil } ?? false) == watch.isFailing)
    }

    /// The bus's own (a commit's refusal on the commit thread, `/healthz`'s
    /// durable write on a gate thread): the same order, ending where it is.
    @Test func theBusTellsItsWriteHealthInOrderFromTheCommitAndTheProbe() throws {
        let bus = try MessageBus(store: InMemoryMessageStore())
        let told = Mutex<[Bool]>([])
        bus.writes.observe { failure in told.withLock { $0.append(failure != nil) } }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<20_000 {
                bus.noteWrite(failure: (round + thread).isMultiple(of: 3) ? .storeFailure("full") : nil)
            }
        }
        let sequence = told.withLock { $0 }
        #expect(!sequence.isEmpty)
        #expect(sequence.enumerated().allSatisfy { index, failed in failed == index.isMultiple(of: 2) }, "\(sequence.prefix(20))")
        #expect(sequence.last == bus.writes.isFailing)
    }

    @Test func aSuccessWithNothingFailingTellsNothing() {
        let watch = WriteHealthWatch()
        let told = Mutex(0)
        watch.observe { _ in told.withLock { $0 += 1 } }
        watch.succeeded()
        #expect(told.withLock { $0 } == 0 && !watch.isFailing)
        watch.failed("full", at: 0)
        watch.failed("still full", at: 0)
        #expect(told.withLock { $0 } == 1 && watch.isFailing)
    }
}
