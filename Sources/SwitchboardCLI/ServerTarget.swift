import ArgumentParser
import Foundation
import SwitchboardTesting

/// The server `compare` and `bench` measure: a running one (`--url` and
/// `--tcp`, loopback only), or one they start on free ports.
struct ServerTarget: ParsableArguments {
    @Option(help: "A running server's HTTP address (HOST:PORT) instead of starting one.") var url: String?
    @Option(help: "That server's raw TCP address (HOST:PORT).") var tcp: String?
    @Option(name: .customLong("server-pid"), help: "That server's process id, for CPU and memory figures.") var serverPid: Int32?

    func validate() throws {
        guard (url == nil) == (tcp == nil) else { throw ValidationError("Give --url and --tcp together.") }
        for address in [url, tcp].compactMap({ $0 }) {
            let (host, _) = try ServeCommand.hostAndPort(address)
            guard host.hasPrefix("127.") || host == "::1" else { throw ValidationError("Loopback only: \(address).") }
        }
    }

    /// A configuration aimed at the server, and the server process when one
    /// was started (the caller stops it).
    func connect(name: String) throws -> (TransportComparison.Configuration, Process?) {
        if let url, let tcp {
            let (host, httpPort) = try ServeCommand.hostAndPort(url)
            var configuration = TransportComparison.Configuration(httpPort: Int(httpPort), tcpPort: Int(try ServeCommand.hostAndPort(tcp).1))
            configuration.host = host
            configuration.serverPid = serverPid
            return (configuration, nil)
        }
        let (process, httpPort, tcpPort) = try SpawnedServer.start(name: name)
        var configuration = TransportComparison.Configuration(httpPort: httpPort, tcpPort: tcpPort)
        configuration.serverPid = process.processIdentifier
        return (configuration, process)
    }
}
