// Copied into the ThreadSanitizer build of SwitchboardCore's tests
// (Scripts/sanitizers.sh core): a deliberate data race, run on its own,
// which must be reported, so that a build in which the sanitizer is off
// cannot pass for a clean one.
//
// The two writes are ordered in time but not by anything the sanitizer
// counts as synchronisation: the main thread waits for the other's write on
// a relaxed atomic, which orders nothing. Two loops of increments racing
// for time (the probe before) were reported or not by how the threads were
// scheduled: under CI's load the other thread could start after the test
// had ended, and the run failed with the sanitizer on.
import Foundation
import Synchronization
import Testing

private final class UnguardedCounter: @unchecked Sendable {
    var count = 0
    let written = Atomic<Bool>(false)
}

@Test func aDeliberateRaceIsReported() {
    let counter = UnguardedCounter()
    let other = Thread {
        counter.count = 1
        counter.written.store(true, ordering: .relaxed)
    }
    other.start()
    while !counter.written.load(ordering: .relaxed) { sched_yield() }
    counter.count = 2
}
