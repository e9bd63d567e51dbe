import ArgumentParser
import Foundation
import SwitchboardCore
import SwitchboardLoad

#if canImport(Glibc)
import Glibc
#endif

/// `switchboard bench`: fan-out to thousands of subscribers of one transport
/// — the comparison's engine (``TransportComparison``) configured for many
/// clients, more publishers and an idle phase — printing delivery figures
/// and the server's CPU and memory, busy and then idle.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure fan-out to many subscribers of one transport (loopback only).",
        discussion: "Starts a server on free loopback ports with a throwaway database, unless --url and --tcp name a running one.")

    @OptionGroup var target: ServerTarget
    @Option(help: "Subscribers' transport: sse, websocket, tcp, long-poll or short-poll.") var transport = "sse"
    @Option(help: "Subscribers to hold open.") var clients = 5000
    @Option(help: "Messages to publish.") var messages = 200
    @Option(help: "Messages per second.") var rate = 50.0
    @Option(name: .customLong("idle-seconds"), help: "Seconds of idle measurement with every subscriber connected.") var idleSeconds = 10.0
    @Option(name: .customLong("connect-batch"), help: "Connections opened at once.") var connectBatch = 250
    @Option(help: "Event-loop threads of the load client.") var threads = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Publishing connections.") var publishers = 8
    @Flag(name: .customLong("closed-loop"), help: "Publish each message as soon as the last is acknowledged (ignores --rate).")
    var closedLoop = false
    @Option(help: "The server at --url: switchboard, or nchan (configured by Scripts/peers.sh).") var peer = PeerServer.switchboard
    @Flag(help: "Print the figures as one JSON object instead of text.") var json = false
    @Option(help: ArgumentHelp("Write each message's send time, answer time and deliveries' p50/p99/max as CSV to this file.",
                               valueName: "file")) var timeline: String?
    @Flag(help: "Subscribe to a group conversation as its signed-in member (not tcp), not a public room: what membership costs per delivery.")
    var conversation = false
    @Flag(help: "Connect over TLS (https: sse, long-poll, short-poll, websocket), not checking the certificate: what serving TLS costs.")
    var tls = false

    func validate() throws {
        _ = try CompareCommand.transports(transport)
        guard (1...20_000).contains(clients), messages > 0, messages <= 100_000, rate > 0, rate <= 10_000, (1...64).contains(publishers) else {
            throw ValidationError("Bounded runs only: 1-20000 clients, up to 100000 messages, a rate up to 10000/s, 1-64 publishers.")
        }
        guard peer == .switchboard || target.url != nil else { throw ValidationError("A peer is measured at --url (Scripts/peers.sh starts it).") }
        guard !conversation || transport != "tcp", !conversation || peer == .switchboard else {
            throw ValidationError("--conversation is for Switchboard's sse, websocket, long-poll and short-poll subscribers.")
        }
        guard !tls || (target.url != nil && transport != "tcp" && !conversation) else {
            throw ValidationError("--tls measures a running server's https (--url), over sse, long-poll, short-poll or websocket.")
        }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        var (configuration, servers) = try target.connect(name: "bench")
        defer {
            for server in servers { server.terminate() }
            for server in servers { server.waitUntilExit() }
        }
        configuration.transports = try CompareCommand.transports(transport)
        configuration.clients = clients
        configuration.messages = messages
        configuration.rate = rate
        configuration.connectBatch = connectBatch
        configuration.publishers = publishers
        configuration.closedLoop = closedLoop
        configuration.peer = peer
        configuration.idleSeconds = idleSeconds
        configuration.threads = threads
        configuration.tls = tls
        if conversation { configuration.conversation = try Self.seat(port: configuration.httpPort) }
        if !json { print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores; server pid \(configuration.serverPid.map(String.init) ?? "?")" + (servers.count > 1 ? " (the publishing node, of \(servers.count))" : "")) }
        var result = try TransportComparison.run(configuration)[0]
        if let timeline {
            try Data(MessageTiming.csv(result.timeline).utf8).write(to: URL(fileURLWithPath: timeline))
        }
        if json {
            result.latencies = []
            result.timeline = []
            print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
        } else {
            Self.report(result, messages: messages)
        }
        if !result.complete { throw ExitCode(1) }
    }

    /// Registers two accounts, signs the first in and makes a group of
    /// both: every subscriber reads it as that member, the publishers write as them.
    static func seat(port: Int) throws -> TransportComparison.Configuration.ConversationSeat {
        let client = TestHTTPClient(port: UInt16(port))
        let suffix = UInt32.random(in: 0...UInt32.max), password = "bench password \(suffix)"
        let json = [("Content-Type", "application/json")]
        for name in ["bench\(suffix)", "peer\(suffix)"] {
            let made = try client.request("POST", "/api/accounts", headers: json, body: Array(#"{"user":"\#(name)","password":"\#(password)"}"#.utf8))
            guard made.status == 201 else { throw TestClientError(description: "register \(name): \(made.status) \(made.text)") }
        }
        let session = try client.request("POST", "/api/sessions", headers: json,
                                         body: Array(#"{"user":"bench\#(suffix)","password":"\#(password)"}"#.utf8))
        guard let token = try session.json()["token"] as? String else { throw TestClientError(description: "sign in: \(session.text)") }
        let created = try client.request("POST", "/api/conversations", headers: json + [("Authorization", "Bearer \(token)")],
                                         body: Array(#"{"title":"bench","members":["peer\#(suffix)"]}"#.utf8))
        guard let room = try created.json()["room"] as? String else { throw TestClientError(description: "create: \(created.text)") }
        return .init(room: room, token: token)
    }

    static func report(_ r: TransportComparison.Result, messages: Int) {
        print(String(format: "%@ clients: %d requested, %d subscribed in %.1f s", r.transport.rawValue, r.clients, r.subscribed, r.subscribeSeconds))
        print(String(format: "published: %d messages (%.0f/s), %d failed; answered in p50 %.1f ms, p99 %.1f ms",
                     messages - r.publishFailures, r.publishedPerSecond, r.publishFailures,
                     r.publishAnswerP50Milliseconds, r.publishAnswerP99Milliseconds))
        print(String(format: "delivered: %d of %d expected, missing %d, duplicates %d, clients out of order %d",
                     r.delivered, r.expected, r.expected - r.delivered, r.duplicates, r.outOfOrderClients))
        print(String(format: "deliveries/s: %.0f", r.deliveriesPerSecond))
        print(String(format: "latency ms (publish sent -> message received): p50 %.1f  p99 %.1f  max %.1f",
                     r.latencyP50Milliseconds, r.latencyP99Milliseconds, r.latencyMaxMilliseconds))
        print(MessageTiming.tailSummary(r.timeline, lateAfter: r.latencyP99Milliseconds))
        if let busy = r.serverBusyCPUPercent, let rss = r.serverRSSMiB, let perThousand = r.serverCPUMillisecondsPer1000 {
            print(String(format: "server CPU while publishing: %.0f%% of one core, %.1f ms per 1,000 deliveries, RSS %.0f MiB", busy, perThousand, rss)
                  + (r.serverContextSwitchesPerDelivery.map { String(format: "; %.3f context switches per delivery", $0) } ?? "")
                  + (r.serverPreemptionsPerDelivery.map { String(format: " (%.3f preempted)", $0) } ?? ""))
        }
        if let client = r.clientBusyCPUPercent { print(String(format: "load client CPU meanwhile: %.0f%% of one core", client)) }
        if let idle = r.idleCPUPercent, let rss = r.idleRSSMiB {
            print(String(format: "idle: %d clients connected, server CPU %.2f%% of one core, RSS %.0f MiB", r.subscribed, idle, rss)
                  + (r.kibPerConnection.map { String(format: ", %.1f KiB per connection", $0) } ?? ""))
        }
    }
}
