import Foundation
import Testing
@testable import SwitchboardLoad

/// What bench reads from /proc about a process: its context switches, and
/// which of them were preemptions, counted apart.
@Suite("Process sample (load client)")
struct ProcessSampleTests {
    @Test func waitsAreVoluntaryAndCrowdedThreadsArePreempted() throws {
        let pid = getpid()
        // Sleeping is going to wait: voluntary switches, not preemptions.
        let rested = try #require(ProcessSample(pid: pid))
        for _ in 0..<5 { usleep(2_000) }
        let woken = try #require(ProcessSample(pid: pid))
        #expect((woken.contextSwitches - woken.preemptions) - (rested.contextSwitches - rested.preemptions) >= 5)
        #expect(woken.preemptions <= woken.contextSwitches)

        // More spinning threads than cores for a tenth of a second: each is taken
        // off its core while it could still run. They stay alive (parked) to be
        // counted, since an ended thread's switches leave /proc with it.
        let spinners = ProcessInfo.processInfo.activeProcessorCount + 1
        let spun = DispatchGroup(), release = DispatchSemaphore(value: 0), ended = DispatchGroup()
        let crowded = try #require(ProcessSample(pid: pid))
        for _ in 0..<spinners {
            spun.enter(); ended.enter()
            Thread {
                let until = DispatchTime.now().uptimeNanoseconds + 100_000_000
                while DispatchTime.now().uptimeNanoseconds < until {}
                spun.leave()
                release.wait()
                ended.leave()
            }.start()
        }
        spun.wait()
        let after = try #require(ProcessSample(pid: pid))
        for _ in 0..<spinners { release.signal() }
        ended.wait()
        #expect(after.preemptions - crowded.preemptions >= 1)
    }
}
