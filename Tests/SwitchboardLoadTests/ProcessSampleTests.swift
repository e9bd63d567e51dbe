import Foundation
import Testing
@testable import SwitchboardLoad

/// What bench reads from /proc about a process: its context switches, and
/// which of them were preemptions, counted apart. Each case samples a child
/// `sh` of its own: the test process's total moved with other suites'
/// threads ending in parallel (an ended thread's switches leave /proc), and
/// once went down by 5 across five sleeps.
@Suite("Process sample (load client)")
struct ProcessSampleTests {
    /// Runs `script` in a child `sh`; ``stop(_:)`` ends it.
    private func child(_ script: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        try process.run()
        return process
    }

    /// SIGKILL, not `terminate()`: the test runner's children ignore SIGTERM.
    private func stop(_ process: Process) {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    @Test func waitsAreVoluntary() throws {
        // Five waits for a `sleep` child, then one long sleep, sampled during it.
        let sleeper = try child("for i in 1 2 3 4 5; do sleep 0.01; done; exec sleep 30")
        defer { stop(sleeper) }
        usleep(1_000_000)
        let sample = try #require(ProcessSample(pid: sleeper.processIdentifier))
        #expect(sample.contextSwitches - sample.preemptions >= 5, "\(sample.contextSwitches) switches, \(sample.preemptions) preempted")
        #expect(sample.preemptions <= sample.contextSwitches)
    }

    @Test func crowdedThreadsArePreempted() throws {
        // More spinning processes than cores: each is taken off its core while it could still run.
        let spinners = try (0...ProcessInfo.processInfo.activeProcessorCount).map { _ in try child("while :; do :; done") }
        defer { spinners.forEach(stop) }
        usleep(300_000)
        let preempted = spinners.compactMap { ProcessSample(pid: $0.processIdentifier)?.preemptions }
        #expect(preempted.count == spinners.count && preempted.reduce(0, +) >= 1, "\(preempted)")
    }
}
