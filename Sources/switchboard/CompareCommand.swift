import ArgumentParser
import Foundation
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

    @Option(help: "Clients per transport.") var clients = 100
    @Option(help: "Messages per transport.") var messages = 200
    @Option(help: "Messages per second.") var rate = 20.0
    @Option(name: .customLong("poll-interval"), help: "Seconds between short polls (e.g. 1 or 0.25).") var pollInterval = 1.0
    @Option(help: "Transports to run, comma-separated.") var transports = "short-poll,long-poll,sse,tcp"
    @Option(help: "A running server's HTTP address (HOST:PORT) instead of starting one.") var url: String?
    @Option(help: "That server's raw TCP address (HOST:PORT).") var tcp: String?
    @Option(help: "Folder to write compare.json and report.html (SVG charts, no network needed) into.") var out: String?
    @Option(help: "Also run at these rates (messages per second, comma-separated, e.g. 0.0167,0.2,1,5,20,100,300) for the sweep charts.")
    var sweep: String?
    @Option(name: .customLong("sweep-seconds"), help: "How long each sweep rate runs (at least 3 messages).") var sweepSeconds = 10.0

    func validate() throws {
        guard (1...5000).contains(clients), (1...100_000).contains(messages), rate > 0, rate <= 10_000, pollInterval > 0 else {
            throw ValidationError("Bounded runs only: 1-5000 clients, 1-100000 messages, a rate up to 10000/s.")
        }
        guard (url == nil) == (tcp == nil) else { throw ValidationError("Give --url and --tcp together.") }
        guard try sweepRates().allSatisfy({ $0 > 0 && $0 <= 10_000 }), sweepSeconds > 0 else {
            throw ValidationError("--sweep takes positive rates up to 10000/s.")
        }
        for address in [url, tcp].compactMap({ $0 }) {
            let (host, _) = try ServeCommand.hostAndPort(address)
            guard host.hasPrefix("127.") || host == "::1" else { throw ValidationError("Loopback only: \(address).") }
        }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        var server: Process?
        var configuration: TransportComparison.Configuration
        if let url, let tcp {
            let (host, httpPort) = try ServeCommand.hostAndPort(url)
            configuration = TransportComparison.Configuration(httpPort: Int(httpPort), tcpPort: Int(try ServeCommand.hostAndPort(tcp).1))
            configuration.host = host
        } else {
            let (process, httpPort, tcpPort) = try Self.startServer()
            server = process
            configuration = TransportComparison.Configuration(httpPort: httpPort, tcpPort: tcpPort)
            configuration.serverPid = process.processIdentifier
        }
        defer {
            server?.terminate()
            server?.waitUntilExit()
        }
        configuration.clients = clients
        configuration.messages = messages
        configuration.rate = rate
        configuration.pollInterval = pollInterval
        configuration.transports = transports.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let results = try TransportComparison.run(configuration) { print($0) }
        var points: [CompareReport.SweepPoint] = []
        for rate in try sweepRates() {
            var point = configuration
            point.rate = rate
            point.messages = max(3, Int(rate * sweepSeconds))
            print("sweep at \(rate)/s:")
            points.append(CompareReport.SweepPoint(rate: rate, results: try TransportComparison.run(point) { print("  \($0)") }))
        }
        let table = Self.table(results, pollInterval: pollInterval)
        print()
        print(table)
        for point in points {
            print("\nat \(point.rate) messages/s:")
            print(Self.table(point.results, pollInterval: pollInterval))
        }
        if let out {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let folder = URL(fileURLWithPath: out)
            try encoder.encode(results).write(to: folder.appendingPathComponent("compare.json"))
            if !points.isEmpty { try encoder.encode(points).write(to: folder.appendingPathComponent("sweep.json")) }
            let summary = "\(clients) clients per transport, \(messages) messages at \(rate)/s, short polls every \(pollInterval) s; "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores; \(ISO8601DateFormatter().string(from: Date()))."
            let html = CompareReport.html(results: results, sweep: points, summary: summary, table: table)
            try Data(html.utf8).write(to: folder.appendingPathComponent("report.html"))
            print("wrote \(folder.appendingPathComponent("report.html").path) and compare.json")
        }
        // Every run counts, the sweep's included.
        if (results + points.flatMap(\.results)).contains(where: { !$0.complete && $0.transport != "short-poll" }) { throw ExitCode(1) }
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

    /// The terminal table.
    static func table(_ results: [TransportComparison.Result], pollInterval: Double) -> String {
        let header = ["transport", "delivered", "dups", "order", "p50 ms", "p99 ms", "max ms", "requests", "empty", "bytes/msg", "CPU ms/1k", "conns"]
        let rows = results.map { r -> [String] in
            [r.transport == "short-poll" ? "short-poll \(pollInterval)s" : r.transport,
             "\(r.delivered)/\(r.expected)", "\(r.duplicates)", r.outOfOrderClients == 0 ? "ok" : "\(r.outOfOrderClients) bad",
             String(format: "%.1f", r.latencyP50Milliseconds), String(format: "%.1f", r.latencyP99Milliseconds),
             String(format: "%.1f", r.latencyMaxMilliseconds), "\(r.requests)", "\(r.emptyRequests)",
             String(format: "%.0f", r.bytesPerDelivery), r.serverCPUMillisecondsPer1000.map { String(format: "%.1f", $0) } ?? "-",
             "\(r.connections)"]
        }
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

    /// Starts `switchboard serve` (this same binary) on free ports with a throwaway database.
    static func startServer() throws -> (Process, Int, Int) {
        let httpPort = try freePort(), tcpPort = try freePort()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-compare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["serve", "--http", "127.0.0.1:\(httpPort)", "--tcp", "127.0.0.1:\(tcpPort)",
                             "--db", folder.appendingPathComponent("compare.sqlite").path, "--log-level", "warning",
                             "--admin-token", UUID().uuidString]
        try process.run()
        for _ in 0..<100 {
            if let connection = try? BlockingPublisher(host: "127.0.0.1", port: UInt16(httpPort)) {
                _ = connection
                return (process, httpPort, tcpPort)
            }
            usleep(100_000)
        }
        process.terminate()
        throw ValidationError("The server did not start.")
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(fd, pointer, length) == 0 else { return -1 }
                return getsockname(fd, pointer, &length)
            }
        }
        guard bound == 0 else { throw ValidationError("No free port.") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
