// Copied into the ThreadSanitizer build of SwitchboardCore's tests
// (Scripts/sanitizers.sh core): a deliberate data race, run on its own,
// which must be reported, so that a build in which the sanitizer is off
// cannot pass for a clean one.
import Foundation
import Testing

private final class UnguardedCounter: @unchecked Sendable {
    var count = 0
}

@Test func aDeliberateRaceIsReported() {
    let counter = UnguardedCounter()
    let other = Thread { for _ in 0..<100_000 { counter.count += 1 } }
    other.start()
    for _ in 0..<100_000 { counter.count += 1 }
    Thread.sleep(forTimeInterval: 0.2)
}
