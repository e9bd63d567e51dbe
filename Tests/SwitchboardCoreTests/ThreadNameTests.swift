import Dispatch
import Foundation
import Testing
import SwitchboardTesting
@testable import SwitchboardCore

/// The core's threads name themselves, so that `top -H`, `perf` and
/// `/proc/PID/task/*/comm` show whose they are: a `Thread.name` reaches the
/// kernel only if set after `start()` returned (a race with the thread
/// itself), and one over 15 characters never does.
@Suite("Thread names")
struct ThreadNameTests {
    @Test func theCommitTheGateAndTheSchedulerThreadsAreNamed() throws {
        let bus = try MessageBus(store: InMemoryMessageStore())
        defer { bus.close() }
        _ = try bus.publishAndWait(MessageDraft(room: "r", user: "u", text: "hello", kind: .message))
        let ran = DispatchSemaphore(value: 0)
        bus.gate.run("a read", { usleep(200_000) }, completion: { _ in ran.signal() })
        let scheduler = DeadlineScheduler()
        scheduler.start()
        defer { scheduler.stop() }
        usleep(50_000)
        let names = Self.threadNames()
        #expect(ran.wait(timeout: .now() + 5) == .success)
        for name in ["sb-commit", "sb-store", "sb-deadlines"] {
            #expect(names.contains(name), "\(name) among \(names)")
        }
    }

    /// The names of this process's threads, as the kernel has them.
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .newlines)
        }
    }
}
