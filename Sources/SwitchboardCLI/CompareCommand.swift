import ArgumentParser
import Foundation
import SwitchboardCore
import SwitchboardLoad

#if canImport(Glibc)
import Glibc
#endif

/// `switchboard compare`: the same workload over short-poll, long-poll, SSE and
/// raw TCP, on one server, side by side.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Measure short-poll, long-poll, SSE and raw TCP side by side (loopback only).",
        discussion: """
            Starts a server on free loopback ports with a throwaway database (or uses a \
            running one with --url and --tcp), then for each transport connects the \
            clients to a fresh room, publishes the messages at the rate, and checks that \
            every client got every message once and in order.
            """)

    @OptionGroup var target: ServerTarget
    @Option(help: "Clients per transport.") var clients = 100
    @Option(help: "Messages per transport.") var messages = 200
    @Option(help: "Messages per second.") var rate = 20.0
    @Option(name: .customLong("poll-interval"), help: "Seconds between short polls (e.g. 1 or 0.25).") var pollInterval = 1.0
    @Option(help: "Transports to run, comma-separated.") var transports = "short-poll,long-poll,sse,websocket,tcp"
    @Option(help: "Folder to write compare.json and report.html (SVG charts, no network needed) into; default: a new compare-DATE-TIME folder here.") var out: String?
    @Option(help: "Also run at these rates (messages per second, comma-separated, e.g. 0.0167,0.2,1,5,20,100,300) for the sweep charts.")
    var sweep: String?
    @Option(name: .customLong("sweep-seconds"), help: "How long each sweep rate runs (at least 3 messages).") var sweepSeconds = 10.0

    func validate() throws {
        guard (1...5000).contains(clients), (1...100_000).contains(messages), rate > 0, rate <= 10_000, pollInterval > 0 else {
            throw ValidationError("Bounded runs only: 1-5000 clients, 1-100000 messages, a rate up to 10000/s.")
        }
        guard try sweepRates().allSatisfy({ $0 > 0 && $0 <= 10_000 }), sweepSeconds > 0 else {
            throw ValidationError("--sweep takes positive rates up to 10000/s.")
        }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        var (configuration, servers) = try target.connect(name: "compare")
        defer {
            for server in servers { server.terminate() }
            for server in servers { server.waitUntilExit() }
        }
        configuration.clients = clients
        configuration.messages = messages
        configuration.rate = rate
        configuration.pollInterval = pollInterval
        configuration.transports = try Self.transports(transports)
        let results = try TransportComparison.run(configuration) { print($0) }
        print("typing notices: \(Self.typingNotices) from a raw TCP client, one per second")
        let typing = try TypingProbe.run(httpPort: configuration.httpPort, tcpPort: configuration.tcpPort,
                                         transports: configuration.transports, notices: Self.typingNotices)
        var points: [CompareReport.SweepPoint] = []
        for rate in try sweepRates() {
            var point = configuration
            point.rate = rate
            point.messages = max(3, Int(rate * sweepSeconds))
            print("sweep at \(rate)/s:")
            points.append(CompareReport.SweepPoint(rate: rate, results: try TransportComparison.run(point) { print("  \($0)") }))
        }
        let table = ResultTable.compare(results, pollInterval: pollInterval)
        print()
        print(table)
        print("\ntyping notices (never stored, no id, gone in seconds):")
        print(ResultTable.typing(typing))
        for point in points {
            print("\nat \(point.rate) messages/s:")
            print(ResultTable.compare(point.results, pollInterval: pollInterval))
        }
        do {
            let out = out ?? Self.defaultOutputFolder()
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let folder = URL(fileURLWithPath: out)
            try encoder.encode(results).write(to: folder.appendingPathComponent("compare.json"))
            if !points.isEmpty { try encoder.encode(points).write(to: folder.appendingPathComponent("sweep.json")) }
            try encoder.encode(typing).write(to: folder.appendingPathComponent("typing.json"))
            let summary = "\(clients) clients per transport, \(messages) messages at \(rate)/s, short polls every \(pollInterval) s; "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores; \(ISO8601DateFormatter().string(from: Date()))."
            let html = CompareReport.html(results: results, sweep: points, summary: summary, table: table)
            try Data(html.utf8).write(to: folder.appendingPathComponent("report.html"))
            print("wrote \(folder.appendingPathComponent("report.html").path) and compare.json")
        }
        // Every run counts, the sweep's included.
        if (results + points.flatMap(\.results)).contains(where: { !$0.complete && $0.transport != .shortPoll }) { throw ExitCode(1) }
        if typing.contains(where: { result in result.delivered.map { $0 < result.sent } ?? false }) { throw ExitCode(1) }
    }

    /// How many typing notices the probe sends (one per throttle interval).
    static let typingNotices = 5

    /// `compare-20261122-231500` in the current folder.
    static func defaultOutputFolder() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "compare-\(formatter.string(from: Date()))"
    }

    /// `short-poll,sse` as transports.
    static func transports(_ list: String) throws -> [Transport] {
        try list.split(separator: ",").map { name in
            guard let transport = Transport(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("Unknown transport '\(name)'; use \(Transport.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            return transport
        }
    }

    private func sweepRates() throws -> [Double] {
        guard let sweep else { return [] }
        return try sweep.split(separator: ",").map { text in
            guard let rate = Double(text.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("--sweep: '\(text)' is not a rate.")
            }
            return rate
        }
    }
}
