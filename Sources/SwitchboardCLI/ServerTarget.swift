import ArgumentParser
import Foundation
import SwitchboardLoad

/// The server `compare` and `bench` measure: a running one (`--url` and
/// `--tcp`, loopback only), or one they start on free ports.
struct ServerTarget: ParsableArguments {
    @Option(help: "A running server's HTTP address (HOST:PORT) instead of starting one.") var url: String?
    @Option(help: "That server's raw TCP address (HOST:PORT).") var tcp: String?
    @Option(name: .customLong("server-pid"), help: "That server's process id, for CPU and memory figures.") var serverPid: Int32?
    @Option(help: "Nodes to start on --db (a postgres:// URL): subscribers are spread over them, publishes go to the first.")
    var nodes = 1
    @Option(help: "The database of the nodes started (default: a throwaway SQLite file, one node only).") var db: String?

    func validate() throws {
        guard url != nil || tcp == nil else { throw ValidationError("--tcp goes with --url.") }
        guard (1...8).contains(nodes), nodes == 1 || db?.hasPrefix("postgres") == true else {
            throw ValidationError("Several nodes (up to 8) need --db postgres://... to share.")
        }
        for address in [url, tcp].compactMap({ $0 }) {
            let (host, _) = try ServeCommand.hostAndPort(address)
            guard host.hasPrefix("127.") || host == "::1" else { throw ValidationError("Loopback only: \(address).") }
        }
    }

    /// A configuration aimed at the server, and the server processes
    /// started (the caller stops them; the first is the one measured).
    func connect(name: String) throws -> (TransportComparison.Configuration, [Process]) {
        if let url {
            let (host, httpPort) = try ServeCommand.hostAndPort(url)
            let tcpPort = try tcp.map { Int(try ServeCommand.hostAndPort($0).1) } ?? 0
            var configuration = TransportComparison.Configuration(httpPort: Int(httpPort), tcpPort: tcpPort)
            configuration.host = host
            configuration.serverPid = serverPid
            return (configuration, [])
        }
        let started = try (0..<nodes).map { _ in try SpawnedServer.start(name: name, database: db) }
        var configuration = TransportComparison.Configuration(httpPort: started[0].1, tcpPort: started[0].2)
        configuration.serverPid = started[0].0.processIdentifier
        configuration.otherNodes = started.dropFirst().map { .init(httpPort: $0.1, tcpPort: $0.2) }
        return (configuration, started.map(\.0))
    }
}
