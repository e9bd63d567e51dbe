import ArgumentParser
import Foundation
import NIOCore
import NIOPosix
import SwitchboardLoad
import Synchronization

/// `switchboard-bench`: holds many SSE subscribers on a running server,
/// publishes at a fixed rate, and prints delivery figures and the server's
/// CPU and memory (busy, then idle).
@main
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchboard-bench",
        abstract: "Measure fan-out (SSE or raw TCP) of a running Switchboard server (loopback only).")

    @Option(help: "Server host (loopback).") var host = "127.0.0.1"
    @Option(help: "Server HTTP port (publishing, and SSE subscribers).") var port: UInt16 = 8080
    @Option(help: "Subscribers' transport: sse or tcp.") var transport = "sse"
    @Option(help: "Server raw TCP port, for --transport tcp.") var tcpPort = 8081
    @Option(help: "SSE subscribers to hold open.") var streams = 5000
    @Option(help: "Messages to publish.") var messages = 200
    @Option(help: "Messages per second.") var rate = 50.0
    @Option(help: "Room to use.") var room = "bench"
    @Option(help: "Server process id, for CPU and RSS figures.") var serverPid: Int32?
    @Option(help: "Seconds of idle CPU measurement with all streams open.") var idleSeconds = 10.0
    @Option(help: "Connections opened at once.") var connectBatch = 250
    @Option(help: "Event loop threads of the load client.") var threads = System.coreCount

    func validate() throws {
        guard ["127.0.0.1", "localhost", "::1"].contains(host) || host.hasPrefix("127.") else {
            throw ValidationError("Benchmarks target loopback only.")
        }
        guard ["sse", "tcp"].contains(transport) else { throw ValidationError("--transport is sse or tcp.") }
        guard streams > 0, messages > 0, rate > 0, rate <= 10_000, streams <= 20_000 else {
            throw ValidationError("Bounded runs only: 1-20000 streams, rate up to 10000/s.")
        }
    }

    func run() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)

        // 1. Open every stream (live only) and wait until each has its `retry:`.
        let records = (0..<streams).map { _ in StreamRecord() }
        var channels: [Channel] = []
        let connectStart = Date()
        for batchStart in stride(from: 0, to: streams, by: connectBatch) {
            let batch = records[batchStart..<min(streams, batchStart + connectBatch)]
            let futures = batch.enumerated().map { offset, record in
                let name = "b\(batchStart + offset)"
                return ClientBootstrap(group: group)
                    .channelOption(.socketOption(.so_reuseaddr), value: 1)
                    .channelInitializer { [host, room, transport] channel in
                        channel.eventLoop.makeCompletedFuture {
                            if transport == "tcp" {
                                try channel.pipeline.syncOperations.addHandler(LineSubscriberHandler(name: name, room: room, record: record))
                            } else {
                                try channel.pipeline.syncOperations.addHandler(
                                    SSESubscriberHandler(host: host, path: "/api/rooms/\(room)/events", record: record))
                            }
                        }
                    }
                    .connect(host: host, port: transport == "tcp" ? tcpPort : Int(port))
            }
            for future in futures {
                do { channels.append(try future.wait()) } catch { print("connect failed: \(error)") }
            }
        }
        let openedBy = Date().addingTimeInterval(60)
        while records.filter(\.opened).count < channels.count, Date() < openedBy { Thread.sleep(forTimeInterval: 0.05) }
        let opened = records.filter(\.opened).count
        print(String(format: "%@ clients: %d requested, %d subscribed in %.1f s", transport, streams, opened, Date().timeIntervalSince(connectStart)))
        if transport == "tcp" {
            // Every TCP client joined the room, and each join went to everyone
            // already there: let that storm pass before measuring.
            waitUntilQuiet(serverPid: serverPid)
        }
        Thread.sleep(forTimeInterval: 1)

        // 2. Publish on schedule (open loop: a slow answer does not delay the
        // next message), from a few connections, recording when each id was sent.
        let before = serverPid.flatMap(ProcessSample.init(pid:))
        let publisherCount = 8
        let publishers = try (0..<publisherCount).map { _ in
            try BlockingPublisher(host: host == "localhost" ? "127.0.0.1" : host, port: port)
        }
        let sent = Mutex<(at: [Int64: UInt64], failures: [String])>(([:], []))
        let start = DispatchTime.now().uptimeNanoseconds
        let done = DispatchGroup()
        for (slot, publisher) in publishers.enumerated() {
            done.enter()
            Thread { [room, rate, messages] in
                defer { done.leave() }
                for index in stride(from: slot, to: messages, by: publisherCount) {
                    let due = start + UInt64(Double(index) / rate * 1e9)
                    let now = DispatchTime.now().uptimeNanoseconds
                    if due > now { usleep(UInt32((due - now) / 1000)) }
                    let sentTime = DispatchTime.now().uptimeNanoseconds
                    do {
                        let id = try publisher.publish(room: room, user: "bench", text: "m\(index)")
                        sent.withLock { $0.at[transport == "tcp" ? Int64(index) : id] = sentTime }
                    } catch {
                        sent.withLock { $0.failures.append("\(error)") }
                    }
                }
            }.start()
        }
        done.wait()
        let (sentAt, publishFailures) = sent.withLock { ($0.at, $0.failures) }
        if !publishFailures.isEmpty { print("publish failures: \(publishFailures.count), first: \(publishFailures[0])") }
        let publishedIn = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9

        // 3. Wait for every delivery (or give up 15 s after the last publish).
        let expectedPerStream = sentAt.count
        let deliveredBy = Date().addingTimeInterval(15)
        while records.contains(where: { $0.opened && $0.count < expectedPerStream }), Date() < deliveredBy {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let after = serverPid.flatMap(ProcessSample.init(pid:))

        // 4. Figures.
        let ids = Set(sentAt.keys)
        var latencies: [Double] = []
        latencies.reserveCapacity(opened * messages)
        var delivered = 0, duplicates = 0, missing = 0, lastReceipt: UInt64 = start
        for record in records where record.opened {
            let receipts = record.receipts
            var seen = Set<Int64>()
            for receipt in receipts {
                guard ids.contains(receipt.id) else { continue }
                if !seen.insert(receipt.id).inserted { duplicates += 1; continue }
                delivered += 1
                latencies.append(Double(receipt.at - sentAt[receipt.id]!) / 1e6)
                lastReceipt = max(lastReceipt, receipt.at)
            }
            missing += ids.subtracting(seen).count
        }
        latencies.sort()
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        let span = Double(lastReceipt - start) / 1e9
        print(String(format: "published: %d messages in %.1f s (%.0f/s, open loop from %d connections)", sentAt.count, publishedIn, Double(sentAt.count) / publishedIn, publisherCount))
        print(String(format: "delivered: %d of %d expected, missing %d, duplicates %d", delivered, opened * messages, missing, duplicates))
        print(String(format: "deliveries/s: %.0f over %.1f s", Double(delivered) / span, span))
        print(String(format: "latency ms (publish sent -> event received): p50 %.1f  p99 %.1f  max %.1f",
                     percentile(0.50), percentile(0.99), latencies.last ?? .nan))
        if let before, let after {
            let busy = after.cpuSeconds - before.cpuSeconds
            let seconds = after.at.timeIntervalSince(before.at)
            print(String(format: "server CPU while publishing: %.2f s over %.1f s (%.0f%% of one core), RSS %.0f MiB",
                         busy, seconds, busy / seconds * 100, after.rssMiB))
        }

        // 5. Idle: every stream still open, nothing published.
        if let pid = serverPid, idleSeconds > 0, let idleStart = ProcessSample(pid: pid) {
            Thread.sleep(forTimeInterval: idleSeconds)
            if let idleEnd = ProcessSample(pid: pid) {
                let cpu = idleEnd.cpuSeconds - idleStart.cpuSeconds
                let seconds = idleEnd.at.timeIntervalSince(idleStart.at)
                let stillOpen = records.filter { $0.opened && $0.failed == nil }.count
                print(String(format: "idle: %d streams open, server CPU %.3f s over %.1f s (%.2f%% of one core), RSS %.0f MiB",
                             stillOpen, cpu, seconds, cpu / seconds * 100, idleEnd.rssMiB))
            }
        }
        for channel in channels { channel.close(promise: nil) }
        try? group.syncShutdownGracefully()
        if missing > 0 || duplicates > 0 || opened < streams || !publishFailures.isEmpty { throw ExitCode(1) }
    }

    /// Waits until the server has used (almost) no CPU for a second, at most 3 minutes.
    private func waitUntilQuiet(serverPid: Int32?) {
        guard let pid = serverPid else { Thread.sleep(forTimeInterval: 5); return }
        let start = Date()
        var previous = ProcessSample(pid: pid)
        while Date().timeIntervalSince(start) < 180 {
            Thread.sleep(forTimeInterval: 1)
            guard let now = ProcessSample(pid: pid), let before = previous else { return }
            if now.cpuSeconds - before.cpuSeconds < 0.05 {
                print(String(format: "join storm settled after %.0f s", Date().timeIntervalSince(start)))
                return
            }
            previous = now
        }
    }
}
