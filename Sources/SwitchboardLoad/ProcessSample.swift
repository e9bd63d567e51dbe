import Foundation

/// CPU time, resident memory and context switches of a process, read from /proc.
public struct ProcessSample {
    /// User + system CPU seconds.
    public var cpuSeconds: Double
    /// Resident set size in MiB.
    public var rssMiB: Double
    /// Context switches of all its threads so far, voluntary and not (the
    /// threads that ended are not counted: sample servers whose threads live).
    public var contextSwitches: Int
    /// Of those, the involuntary ones: a thread taken off its core while it
    /// could still run (preempted), not one that went to wait.
    public var preemptions: Int
    public var at: Date

    public init?(pid: Int32) {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, utime 14, stime 15 (1-based in proc(5)).
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        cpuSeconds = ((Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)) / ticks
        let rssKiB = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { Double($0.split(separator: " ", omittingEmptySubsequences: true)[1]) } ?? 0
        rssMiB = rssKiB / 1024
        (contextSwitches, preemptions) = Self.contextSwitches(of: pid)
        at = Date()
    }

    /// CPU used since `earlier` (a sample of the same process), in % of one core.
    public func cpuPercent(since earlier: ProcessSample) -> Double {
        (cpuSeconds - earlier.cpuSeconds) / at.timeIntervalSince(earlier.at) * 100
    }

    /// All context switches of the process's threads, and the involuntary ones among them.
    private static func contextSwitches(of pid: Int32) -> (all: Int, involuntary: Int) {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(into: (all: 0, involuntary: 0)) { total, task in
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { return }
            for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
                let count = line.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
                total.all += count
                if line.hasPrefix("nonvoluntary") { total.involuntary += count }
            }
        }
    }
}
