import Dispatch
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization
import SwitchboardCore

/// The same workload over each transport, measured the same way: N clients
/// in a fresh room, M messages at R per second from open-loop publishers.
/// Every client is checked for getting every message once and in order.
/// `switchboard compare` runs it on a few clients per transport, and
/// `switchboard bench` on thousands of one transport, with an idle phase.
public enum TransportComparison {
    /// Runs every configured transport in turn.
    public static func run(_ configuration: Configuration, log: (String) -> Void = { _ in }) throws -> [Result] {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: configuration.threads)
        defer { try? group.syncShutdownGracefully() }
        let tls = try configuration.tls ? unverifiedTLS() : nil
        return try configuration.transports.map { transport in
            log("\(transport.rawValue): \(configuration.clients) clients, \(configuration.messages) messages at \(configuration.rate)/s")
            return try measure(transport, configuration, group: group, tls: tls)
        }
    }

    /// TLS 1.2 or newer, without checking the server's certificate.
    private static func unverifiedTLS() throws -> NIOSSLContext {
        var settings = TLSConfiguration.makeClientConfiguration()
        settings.certificateVerification = .none
        return try NIOSSLContext(configuration: settings)
    }

    private static func measure(_ transport: Transport, _ configuration: Configuration, group: MultiThreadedEventLoopGroup,
                                tls: NIOSSLContext?) throws -> Result {
        let room = configuration.conversation?.room ?? "compare-\(transport.rawValue)-\(UInt32.random(in: 0...UInt32.max))"
        let records = (0..<configuration.clients).map { _ in StreamRecord() }
        let unloaded = configuration.serverPid.flatMap(ProcessSample.init(pid:))
        let subscribeStart = Date()
        // Raw TCP (plain: `--tls` is HTTP's) on epoll loops of their own, the rest on SwiftNIO.
        let lineClients = transport == .tcp ? EpollLineClients(records: records, room: room, host: configuration.host,
                                                               threads: configuration.threads) { port(of: $0, transport: .tcp, configuration) } : nil
        let channels = lineClients == nil ? connect(records, transport: transport, room: room, configuration, group: group, tls: tls) : []
        defer {
            for channel in channels { channel.close(promise: nil) }
            lineClients?.close()
        }
        let subscribedBy = Date().addingTimeInterval(60)
        while records.contains(where: { !$0.opened }), Date() < subscribedBy { Thread.sleep(forTimeInterval: 0.02) }
        let subscribed = records.filter(\.opened).count
        let subscribeSeconds = Date().timeIntervalSince(subscribeStart)
        // Every TCP client's join went to everyone already there: let that storm pass.
        if transport == .tcp { waitUntilQuiet(configuration) }
        Thread.sleep(forTimeInterval: 0.3)

        let before = configuration.serverPid.flatMap(ProcessSample.init(pid:)), clientBefore = ProcessSample(pid: getpid())
        let baseline = records.map(\.costs)
        let (sentAt, idByIndex, failures, start, answers) = try publish(room: room, configuration, group: group, tls: tls)
        let publishedIn = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        func receipts(_ record: StreamRecord) -> [(id: Int64, at: UInt64)] {
            transport == .tcp ? ClientTally.receiptsByID(record.receipts, idByIndex: idByIndex) : record.receipts
        }
        let deliveredBy = Date().addingTimeInterval(max(15, configuration.pollInterval * 3))
        while !allDelivered(records, sentAt: sentAt, receipts: receipts), Date() < deliveredBy {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let after = configuration.serverPid.flatMap(ProcessSample.init(pid:)), clientAfter = ProcessSample(pid: getpid())

        var delivered = 0, duplicates = 0, outOfOrder = 0, deliveries: [(id: Int64, milliseconds: Double)] = []
        var bytes = 0, requests = 0, empty = 0, lastReceipt = start
        for (record, base) in zip(records, baseline) {
            let clientReceipts = receipts(record)
            let tally = ClientTally(receipts: clientReceipts, sentAt: sentAt)
            delivered += tally.delivered
            duplicates += tally.duplicates
            if !tally.ordered { outOfOrder += 1 }
            deliveries += tally.deliveries
            lastReceipt = max(lastReceipt, clientReceipts.filter { sentAt[$0.id] != nil }.map(\.at).max() ?? start)
            let costs = record.costs
            bytes += costs.bytes - base.bytes
            requests += transport == .shortPoll || transport == .longPoll ? costs.requests - base.requests : 1
            empty += costs.empty - base.empty
        }
        let latencies = deliveries.map(\.milliseconds).sorted(), acks = answers.values.sorted()
        let p99 = latencies.nearestRank(0.99) ?? 0
        let cpu = before.flatMap { before in after.map { $0.cpuSeconds - before.cpuSeconds } }
        func perDelivery(_ count: KeyPath<ProcessSample, Int>) -> Double? {
            before.flatMap { before in after.map { delivered == 0 ? 0 : Double($0[keyPath: count] - before[keyPath: count]) / Double(delivered) } }
        }
        let idle = measureIdle(configuration)
        return Result(
            transport: transport, clients: records.count, subscribed: subscribed, subscribeSeconds: subscribeSeconds,
            expected: records.count * configuration.messages,
            delivered: delivered, duplicates: duplicates, outOfOrderClients: outOfOrder, publishFailures: failures,
            publishedPerSecond: Double(sentAt.count) / publishedIn,
            deliveriesPerSecond: Double(delivered) / max(1e-9, Double(lastReceipt - start) / 1e9),
            latencyP50Milliseconds: latencies.nearestRank(0.5) ?? 0, latencyP99Milliseconds: p99,
            latencyMaxMilliseconds: latencies.last ?? 0,
            publishAnswerP50Milliseconds: acks.nearestRank(0.5) ?? 0, publishAnswerP99Milliseconds: acks.nearestRank(0.99) ?? 0,
            requests: requests, emptyRequests: empty,
            bytesPerDelivery: delivered == 0 ? 0 : Double(bytes) / Double(delivered),
            serverCPUMillisecondsPer1000: cpu.map { delivered == 0 ? 0 : $0 * 1000 / Double(delivered) * 1000 },
            serverContextSwitchesPerDelivery: perDelivery(\.contextSwitches), serverPreemptionsPerDelivery: perDelivery(\.preemptions),
            serverBusyCPUPercent: before.flatMap { before in after?.cpuPercent(since: before) }, serverRSSMiB: after?.rssMiB,
            clientBusyCPUPercent: clientBefore.flatMap { before in clientAfter?.cpuPercent(since: before) },
            idleCPUPercent: idle?.cpuPercent, idleRSSMiB: idle?.rssMiB, unloadedRSSMiB: unloaded?.rssMiB,
            connections: lineClients?.count ?? channels.count, latencies: latencies,
            timeline: MessageTiming.timeline(sentAt: sentAt, start: start, answers: answers, deliveries: deliveries, lateAfter: p99))
    }

    /// Opens every client, `connectBatch` at a time.
    private static func connect(_ records: [StreamRecord], transport: Transport, room: String, _ configuration: Configuration,
                                group: MultiThreadedEventLoopGroup, tls: NIOSSLContext?) -> [any Channel] {
        let host = configuration.host
        let credential = configuration.conversation.map { "?access_token=\($0.token)" } ?? ""
        var channels: [any Channel] = []
        for batchStart in stride(from: 0, to: records.count, by: configuration.connectBatch) {
            let batch = records[batchStart..<min(records.count, batchStart + configuration.connectBatch)]
            let futures = batch.enumerated().map { offset, record in
                let index = batchStart + offset
                return ClientBootstrap(group: group)
                    .channelOption(.socketOption(.so_reuseaddr), value: 1)
                    .channelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture {
                            let handler: any ChannelHandler
                            switch transport {
                            case .tcp: preconditionFailure("raw TCP clients are EpollLineClients")
                            case .sse: handler = SSESubscriberHandler(host: host, path: "/api/rooms/\(room)/events\(credential)", record: record)
                            case .longPoll where configuration.peer == .nchan:
                                handler = NchanLongPollHandler(host: host, path: "/lp/\(room)", record: record)
                            case .longPoll:
                                handler = PollingClientHandler(host: host, room: room, waitSeconds: 25, interval: .zero, since: 0,
                                                               token: configuration.conversation?.token, record: record)
                            case .websocket: handler = WebSocketSubscriberHandler(host: host, path: "/api/rooms/\(room)/ws\(credential)", record: record)
                            case .shortPoll:
                                handler = PollingClientHandler(host: host, room: room, waitSeconds: nil,
                                                               interval: .milliseconds(Int64(configuration.pollInterval * 1000)), since: 0,
                                                               token: configuration.conversation?.token, record: record)
                            }
                            if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: nil)) }
                            try channel.pipeline.syncOperations.addHandler(handler)
                        }
                    }
                    .connect(host: host, port: port(of: index, transport: transport, configuration))
            }
            for (future, record) in zip(futures, batch) {
                do { channels.append(try future.wait()) } catch { record.markFailed("connect: \(error)") }
            }
        }
        return channels
    }

    /// Client `index`'s port: the nodes in turn.
    private static func port(of index: Int, transport: Transport, _ configuration: Configuration) -> Int {
        let nodes = [Configuration.NodeAddress(httpPort: configuration.httpPort, tcpPort: configuration.tcpPort)] + configuration.otherNodes
        let node = nodes[index % nodes.count]
        return transport == .tcp ? node.tcpPort : node.httpPort
    }

    /// Publishes every message on schedule (open loop: a slow answer does not
    /// delay the next one) or each after the last is answered (closed loop);
    /// returns when each id was sent, each index's id, the failures, the
    /// monotonic start and each id's answer time in milliseconds.
    private static func publish(room: String, _ configuration: Configuration, group: MultiThreadedEventLoopGroup, tls: NIOSSLContext?) throws
        -> (sentAt: [Int64: UInt64], idByIndex: [Int64: Int64], failures: Int, start: UInt64, answers: [Int64: Double])
    {
        let port = UInt16(configuration.httpPort)
        let publishers: [@Sendable (Int) throws -> Int64] = try (0..<configuration.publishers).map { _ in
            let connection: any RequestResponseConnection = try tls.map {
                try ChannelHTTPConnection(host: configuration.host, port: Int(port), tls: $0, group: group)
            } ?? TestHTTPConnection(port: port)
            switch configuration.peer {
            case .switchboard:
                let publisher = BlockingPublisher(connection: connection, token: configuration.conversation?.token)
                return { index in try publisher.publish(room: room, user: "bench", text: "m\(index)") }
            case .nchan:
                let publisher = PeerPublisher(connection: connection)
                return { index in try publisher.publish(room: room, id: Int64(index) + 1, user: "bench", text: "m\(index)") }
            }
        }
        let sent = Mutex<(byID: [Int64: UInt64], idByIndex: [Int64: Int64], failures: Int, answers: [Int64: Double])>(([:], [:], 0, [:]))
        let start = DispatchTime.now().uptimeNanoseconds
        let done = DispatchGroup()
        for (slot, publisher) in publishers.enumerated() {
            done.enter()
            Thread {
                defer { done.leave() }
                for index in stride(from: slot, to: configuration.messages, by: publishers.count) {
                    let due = start + UInt64(Double(index) / configuration.rate * 1e9)
                    let now = DispatchTime.now().uptimeNanoseconds
                    if due > now, !configuration.closedLoop { usleep(UInt32((due - now) / 1000)) }
                    let at = DispatchTime.now().uptimeNanoseconds
                    if let id = try? publisher(index) {
                        let ack = Double(DispatchTime.now().uptimeNanoseconds - at) / 1e6
                        sent.withLock { $0.byID[id] = at; $0.idByIndex[Int64(index)] = id; $0.answers[id] = ack }
                    } else {
                        sent.withLock { $0.failures += 1 }
                    }
                }
            }.start()
        }
        done.wait()
        return sent.withLock { ($0.byID, $0.idByIndex, $0.failures, start, $0.answers) }
    }

    /// Server CPU and memory with every client connected and nothing published.
    private static func measureIdle(_ configuration: Configuration) -> (cpuPercent: Double, rssMiB: Double)? {
        guard configuration.idleSeconds > 0, let pid = configuration.serverPid, let start = ProcessSample(pid: pid) else { return nil }
        Thread.sleep(forTimeInterval: configuration.idleSeconds)
        guard let end = ProcessSample(pid: pid) else { return nil }
        return (end.cpuPercent(since: start), end.rssMiB)
    }

    /// Waits until the server has used (almost) no CPU for a second, at most
    /// 3 minutes; without its pid, a short pause scaled by the clients.
    private static func waitUntilQuiet(_ configuration: Configuration) {
        guard let pid = configuration.serverPid, var previous = ProcessSample(pid: pid) else {
            Thread.sleep(forTimeInterval: 0.3 + Double(configuration.clients) / 1000)
            return
        }
        let start = Date()
        while Date().timeIntervalSince(start) < 180 {
            Thread.sleep(forTimeInterval: 1)
            guard let now = ProcessSample(pid: pid) else { return }
            if now.cpuSeconds - previous.cpuSeconds < 0.05 { return }
            previous = now
        }
    }
}
