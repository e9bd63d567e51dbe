import Foundation

/// CPU time and resident memory of a process, read from /proc.
public struct ProcessSample {
    /// User + system CPU seconds.
    public var cpuSeconds: Double
    /// Resident set size in MiB.
    public var rssMiB: Double
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
        at = Date()
    }
}
