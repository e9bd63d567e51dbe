import Foundation
import SwitchboardLoad

/// Figures as terminal tables.
enum ResultTable {
    /// `switchboard compare`'s table: one row per transport.
    static func compare(_ results: [TransportComparison.Result], pollInterval: Double) -> String {
        let header = ["transport", "delivered", "dups", "order", "p50 ms", "p99 ms", "max ms", "requests", "empty", "bytes/msg", "CPU ms/1k", "conns"]
        let rows = results.map { r -> [String] in
            [r.transport == .shortPoll ? "short-poll \(pollInterval)s" : r.transport.rawValue,
             "\(r.delivered)/\(r.expected)", "\(r.duplicates)", r.outOfOrderClients == 0 ? "ok" : "\(r.outOfOrderClients) bad",
             String(format: "%.1f", r.latencyP50Milliseconds), String(format: "%.1f", r.latencyP99Milliseconds),
             String(format: "%.1f", r.latencyMaxMilliseconds), "\(r.requests)", "\(r.emptyRequests)",
             String(format: "%.0f", r.bytesPerDelivery), r.serverCPUMillisecondsPer1000.map { String(format: "%.1f", $0) } ?? "-",
             "\(r.connections)"]
        }
        return render(header: header, rows: rows)
    }

    /// The typing row of `switchboard compare`: delivered or not, how fast.
    static func typing(_ results: [TypingProbe.Result]) -> String {
        let rows = results.map { r -> [String] in
            guard let delivered = r.delivered else { return [r.transport.rawValue, "not carried", "-", "-"] }
            return [r.transport.rawValue, "\(delivered)/\(r.sent)", r.latencyP50Milliseconds.map { String(format: "%.1f", $0) } ?? "-",
                    r.latencyMaxMilliseconds.map { String(format: "%.1f", $0) } ?? "-"]
        }
        return render(header: ["transport", "typing", "p50 ms", "max ms"], rows: rows)
    }

    /// Right-aligned columns (the first left-aligned) under a header and a rule.
    static func render(header: [String], rows: [[String]]) -> String {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == 0 ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[index] - cell.count) + cell
            }.joined(separator: "  ")
        }
        return ([line(header), String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))] + rows.map(line))
            .joined(separator: "\n")
    }
}
