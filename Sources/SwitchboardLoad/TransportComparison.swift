import Dispatch
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// The same workload over each transport, measured the same way: N clients in
/// a fresh room, M messages at R per second from one open-loop publisher.
/// Every client is checked for getting every message once and in order.
public enum TransportComparison {
    /// What to run.
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        public var httpPort: Int
        public var tcpPort: Int
        /// The server's process, for its CPU time (nil when it is this process).
        public var serverPid: Int32?
        public var clients = 100
        public var messages = 200
        public var rate = 20.0
        /// Seconds between short polls.
        public var pollInterval = 1.0
        public var transports = ["short-poll", "long-poll", "sse", "tcp"]

        public init(httpPort: Int, tcpPort: Int) {
            self.httpPort = httpPort
            self.tcpPort = tcpPort
        }
    }

    /// One transport's figures.
    public struct Result: Codable, Sendable {
        public var transport: String
        public var clients: Int
        public var expected: Int
        public var delivered: Int
        public var duplicates: Int
        /// Clients that saw messages out of order.
        public var outOfOrderClients: Int
        public var latencyP50Milliseconds: Double
        public var latencyP99Milliseconds: Double
        public var latencyMaxMilliseconds: Double
        public var requests: Int
        public var emptyRequests: Int
        /// Bytes received by the clients (headers and framing included) per delivered message.
        public var bytesPerDelivery: Double
        /// Server CPU milliseconds per 1,000 deliveries (nil when not measurable).
        public var serverCPUMillisecondsPer1000: Double?
        public var connections: Int
        /// Every message arrived exactly once, in order.
        public var complete: Bool { delivered == expected && duplicates == 0 && outOfOrderClients == 0 }
        /// Latency of every delivery, in milliseconds (for charts).
        public var latencies: [Double]
    }

    /// Runs every configured transport in turn.
    public static func run(_ configuration: Configuration, log: (String) -> Void = { _ in }) throws -> [Result] {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        defer { try? group.syncShutdownGracefully() }
        return try configuration.transports.map { transport in
            log("\(transport): \(configuration.clients) clients, \(configuration.messages) messages at \(configuration.rate)/s")
            return try measure(transport, configuration, group: group)
        }
    }

    private static func measure(_ transport: String, _ configuration: Configuration, group: MultiThreadedEventLoopGroup) throws -> Result {
        let room = "compare-\(transport)-\(UInt32.random(in: 0...UInt32.max))"
        let records = (0..<configuration.clients).map { _ in StreamRecord() }
        var channels: [any Channel] = []
        for (index, record) in records.enumerated() {
            let host = configuration.host
            let bootstrap = ClientBootstrap(group: group).channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler: any ChannelHandler
                    switch transport {
                    case "sse": handler = SSESubscriberHandler(host: host, path: "/api/rooms/\(room)/events", record: record)
                    case "tcp": handler = LineSubscriberHandler(name: "c\(index)", room: room, record: record)
                    case "long-poll":
                        handler = PollingClientHandler(host: host, room: room, waitSeconds: 25, interval: .zero, since: 0, record: record)
                    default:
                        handler = PollingClientHandler(host: host, room: room, waitSeconds: nil,
                                                       interval: .milliseconds(Int64(configuration.pollInterval * 1000)), since: 0, record: record)
                    }
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
            channels.append(try bootstrap.connect(host: host, port: transport == "tcp" ? configuration.tcpPort : configuration.httpPort).wait())
        }
        defer { for channel in channels { channel.close(promise: nil) } }
        let subscribedBy = Date().addingTimeInterval(30)
        while records.contains(where: { !$0.opened }), Date() < subscribedBy { Thread.sleep(forTimeInterval: 0.02) }
        Thread.sleep(forTimeInterval: 0.3)  // TCP joins fan out; let them pass

        // Publish on schedule from a few connections; remember when each went.
        let before = configuration.serverPid.flatMap(ProcessSample.init(pid:))
        let baseline = records.map(\.costs)
        let publishers = try (0..<4).map { _ in try BlockingPublisher(host: configuration.host, port: UInt16(configuration.httpPort)) }
        let sent = Mutex<(byID: [Int64: UInt64], idByIndex: [Int64: Int64], failures: Int)>(([:], [:], 0))
        let start = DispatchTime.now().uptimeNanoseconds
        let done = DispatchGroup()
        for (slot, publisher) in publishers.enumerated() {
            done.enter()
            Thread {
                defer { done.leave() }
                for index in stride(from: slot, to: configuration.messages, by: publishers.count) {
                    let due = start + UInt64(Double(index) / configuration.rate * 1e9)
                    let now = DispatchTime.now().uptimeNanoseconds
                    if due > now { usleep(UInt32((due - now) / 1000)) }
                    let at = DispatchTime.now().uptimeNanoseconds
                    if let id = try? publisher.publish(room: room, user: "bench", text: "m\(index)") {
                        sent.withLock { $0.byID[id] = at; $0.idByIndex[Int64(index)] = id }
                    } else {
                        sent.withLock { $0.failures += 1 }
                    }
                }
            }.start()
        }
        done.wait()
        let (sentAt, idByIndex) = sent.withLock { ($0.byID, $0.idByIndex) }
        func receipts(_ record: StreamRecord) -> [(id: Int64, at: UInt64)] {
            transport == "tcp" ? ClientTally.receiptsByID(record.receipts, idByIndex: idByIndex) : record.receipts
        }
        let deliveredBy = Date().addingTimeInterval(max(10, configuration.pollInterval * 3))
        while records.contains(where: { record in Set(receipts(record).map(\.id)).intersection(sentAt.keys).count < sentAt.count }),
              Date() < deliveredBy {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let after = configuration.serverPid.flatMap(ProcessSample.init(pid:))

        var delivered = 0, duplicates = 0, outOfOrder = 0, latencies: [Double] = []
        var bytes = 0, requests = 0, empty = 0
        for (record, base) in zip(records, baseline) {
            let tally = ClientTally(receipts: receipts(record), sentAt: sentAt)
            delivered += tally.delivered
            duplicates += tally.duplicates
            if !tally.ordered { outOfOrder += 1 }
            latencies += tally.latencies
            let costs = record.costs
            bytes += costs.bytes - base.bytes
            requests += transport.hasSuffix("poll") ? costs.requests - base.requests : 1
            empty += costs.empty - base.empty
        }
        latencies.sort()
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        let cpu = before.flatMap { before in after.map { $0.cpuSeconds - before.cpuSeconds } }
        return Result(
            transport: transport, clients: records.count, expected: records.count * configuration.messages,
            delivered: delivered, duplicates: duplicates, outOfOrderClients: outOfOrder,
            latencyP50Milliseconds: percentile(0.5), latencyP99Milliseconds: percentile(0.99),
            latencyMaxMilliseconds: latencies.last ?? 0, requests: requests, emptyRequests: empty,
            bytesPerDelivery: delivered == 0 ? 0 : Double(bytes) / Double(delivered),
            serverCPUMillisecondsPer1000: cpu.map { delivered == 0 ? 0 : $0 * 1000 / Double(delivered) * 1000 },
            connections: channels.count, latencies: latencies)
    }
}
