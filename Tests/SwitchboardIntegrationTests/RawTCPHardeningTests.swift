import Foundation
import Synchronization
import Testing
import SwitchboardCore
import SwitchboardTesting
@testable import Switchboard

#if canImport(Glibc)
import Glibc
#endif

/// Raw TCP against hostile, vanishing and newline-less clients.
@Suite("Raw TCP hardening")
struct RawTCPHardeningTests {
    @Test func pingIsAnsweredAndTheIdleTimeoutSparesClientsThatPing() throws {
        let server = try TestServer(tcpIdleTimeoutSeconds: 1)
        let pinger = try TestLineClient(port: server.tcpPort)
        let silent = try TestLineClient(port: server.tcpPort)
        try silent.write("iam:silent\n")
        try pinger.write("iam:pinger\n")
        var seen: [String] = []
        for beat in 0..<5 {
            try pinger.write("ping:\(beat)\n")
            _ = try pinger.readUntil { seen.append($0); return $0 == "pong:\(beat)" }
            usleep(400_000)
        }
        #expect(silent.isClosedByServer())
        #expect(seen.contains("silent has left"))
        // Pinging for 2 s kept the pinger connected past the 1 s timeout.
        try pinger.write("ping:last\n")
        #expect(try pinger.readLine() == "pong:last")
    }

    @Test func everyAcceptedSocketHasTCPKeepalive() throws {
        let server = try TestServer(tcpKeepaliveSeconds: 42)
        let client = try TestLineClient(port: server.tcpPort)
        try client.write("iam:phone\n")
        _ = try client.readLine()
        // The server's side of the connection: `ss` shows its keepalive timer.
        let ss = Process()
        ss.executableURL = URL(fileURLWithPath: "/usr/bin/ss")
        ss.arguments = ["-tno", "state", "established", "( sport = :\(server.tcpPort) )"]
        let output = Pipe()
        ss.standardOutput = output
        try ss.run()
        ss.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("timer:(keepalive,"), "\(text)")
        #expect(text.contains("keepalive,4") , "idle time near 42 s: \(text)")
    }

    @Test func aSecondConnectionWithANamePresentSeesItsOwnJoin() throws {
        let server = try TestServer()
        let phone = try TestLineClient(port: server.tcpPort)
        try phone.write("iam:doge")
        #expect(try phone.readAsTheApp() == (nil, "doge has joined"))
        let tablet = try TestLineClient(port: server.tcpPort)
        try tablet.write("iam:doge")
        #expect(try tablet.readAsTheApp() == (nil, "doge has joined"))
        let nc = try TestLineClient(port: server.tcpPort)
        try nc.write("iam:doge\n")
        #expect(try nc.readLine() == "doge has joined")
        // Still one join in the room's history.
        let joins = try server.client.get("/api/rooms/lobby/messages?since=0").page().messages.filter { $0.kind == .join }
        #expect(joins.count == 1)
    }

    @Test func theAppGetsAFullLengthMessageAsOneBubble() throws {
        let server = try TestServer()
        let app = try TestLineClient(port: server.tcpPort)
        try app.write("iam:doge")
        _ = try app.readAsTheApp()
        let text = String(repeating: "w", count: 4096)
        try server.client.publish(user: "leia", text: text)
        let bubble = try app.readAsTheApp()
        #expect(bubble.sender == "leia")
        #expect(bubble.text.hasSuffix("…") && bubble.text.utf8.count == 4096 - "leia:".utf8.count)
        try server.client.publish(user: "leia", text: "next")
        #expect(try app.readAsTheApp() == ("leia", "next"))
    }

    @Test func aTCPPortInUseStopsTheStartWithAClearError() throws {
        let taken = try TestServer()
        let error = #expect(throws: TCPListenError.self) { try TestServer(tcpPort: taken.tcpPort) }
        #expect(error?.description == "cannot listen for TCP on 127.0.0.1:\(taken.tcpPort): Address already in use")
    }

    /// A stop while a client's stores are queued: they finish (refused, the
    /// bus is closed) before the event loops stop, so nothing hops to a
    /// stopped loop. (Before, NIO logged "Cannot schedule tasks on an
    /// EventLoop that has already shut down" once per queued store.)
    @Test func shutdownWaitsForEveryQueuedStore() throws {
        let server = try TestServer()
        let flooder = try TestLineClient(port: server.tcpPort)
        try flooder.write("iam:flood\n")
        _ = try flooder.readLine()
        Thread { while (try? flooder.readLine()) != nil {} }.start()
        try flooder.write(Array(String(repeating: "msg:\(String(repeating: "f", count: 90))\n", count: 2000).utf8))
        let queuedBy = Date().addingTimeInterval(10)
        while !server.server.bus.hasQueuedCommits, Date() < queuedBy { usleep(100) }
        #expect(server.server.bus.hasQueuedCommits)
        server.stop()
        #expect(!server.server.bus.hasQueuedCommits)
    }

    /// A client that writes `msg:` lines as fast as the socket takes them
    /// (with a client that never reads in its room) beside 100 ordinary
    /// clients in the lobby: the flood is read only as fast as it is stored
    /// (nothing dropped, memory bounded), the never-reader is kept, with a
    /// bounded queue, and gets everything once it reads; the ordinary clients
    /// get every message (latency printed, not asserted).
    @Test func aFloodAndANeverReadingClientDoNotStarveOrdinaryClients() throws {
        let maxQueued = 256 * 1024
        let server = try TestServer(tcpMaxQueuedBytes: maxQueued)
        let stuck = try TestLineClient(port: server.tcpPort, receiveBuffer: 4096)
        try stuck.write("join:flood\niam:stuck\n")
        let ordinary = try (0..<100).map { index in
            let client = try TestLineClient(port: server.tcpPort)
            try client.write("iam:c\(index)\n")
            _ = try client.readUntil { $0 == "c\(index) has joined" }
            return client
        }
        let flooder = try TestLineClient(port: server.tcpPort)
        try flooder.write("join:flood\niam:flood\n")
        _ = try flooder.readUntil { $0 == "flood has joined" }
        // It reads what comes back (its own lines) on a thread of its own.
        let flooderConnected = Atomic<Bool>(true)
        Thread {
            flooder.discardUntilClosed()
            flooderConnected.store(false, ordering: .releasing)
        }.start()

        // Every ordinary client reads on its own thread until it has the 10 messages.
        let sentAt = Mutex<[String: Date]>([:])
        let latencies = Mutex<[Double]>([])
        let readers = DispatchGroup()
        for (index, client) in ordinary.enumerated() {
            readers.enter()
            Thread {
                defer { readers.leave() }
                var got = 0
                while got < 10 {
                    let line: String
                    do { line = try client.readLine() } catch {
                        Issue.record("c\(index) stopped reading after \(got) of 10 messages: \(error)")
                        return
                    }
                    guard line.hasPrefix("ordinary:") else { continue }
                    got += 1
                    let key = String(line.dropFirst("ordinary:".count))
                    if let sent = sentAt.withLock({ $0[key] }) { latencies.withLock { $0.append(Date().timeIntervalSince(sent) * 1000) } }
                }
            }.start()
        }
        let floodLine = Array("msg:\(String(repeating: "f", count: 90))\n".utf8)
        var written = 0, refused = 0, published = 0
        let start = Date()
        // At least 3 s, and until all 10 ordinary messages are published (each
        // waits for its commit, behind the flood's) and 60,000 lines of 95
        // bytes are written (5.7 MB: past the never-reader's 4 MiB limit and
        // its socket buffers). A slow machine floods longer.
        let floodLines = 60_000
        let floodDeadline = start.addingTimeInterval(60)
        while Date().timeIntervalSince(start) < 3 || published < 10 || written < floodLines {
            guard Date() < floodDeadline else {
                Issue.record("the flood did not finish in 60 s: \(written) lines written, \(published) of 10 messages published")
                return
            }
            do {
                if try flooder.tryWrite(floodLine) { written += 1 } else { refused += 1; usleep(500) }
            } catch {
                Issue.record("the server disconnected the flooder: \(error)")
                return
            }
            if published < 10, Date().timeIntervalSince(start) > Double(published) * 0.25 {
                sentAt.withLock { $0["n\(published)"] = Date() }
                try server.client.publish(user: "ordinary", text: "n\(published)")
                published += 1
            }
        }
        #expect(readers.wait(timeout: .now() + 60) == .success)
        let floodSeconds = Date().timeIntervalSince(start)
        let sorted = latencies.withLock { $0 }.sorted()
        #expect(sorted.count == 100 * 10)
        print(String(format: "flood: %d lines written in %.1f s, %d writes refused; ordinary clients' latency p50 %.1f ms, max %.1f ms",
                     written, floodSeconds, refused, sorted.isEmpty ? 0 : sorted[sorted.count / 2], sorted.last ?? 0))
        // (Whether the socket pushed back depends on how fast this machine's
        // store is; the hold-back itself is pinned by TCPBackPressureTests.)
        // Nothing the flood sent is dropped: every line it wrote is stored
        // (with the two joins).
        let expected = 2 + written
        let storedBy = Date().addingTimeInterval(60)
        var stored = 0
        while Date() < storedBy {
            stored = try server.server.store.rooms().first { $0.name == "flood" }?.messageCount ?? 0
            if stored >= expected { break }
            usleep(100_000)
        }
        let stayedConnected = flooderConnected.load(ordering: .acquiring)
        #expect(stayedConnected, "the flooder kept reading and stayed connected")
        #expect(stored == expected, "\(written) flood lines written, \(refused) writes refused")
        // The never-reader was kept, with a bounded queue: once it reads, it
        // gets every flood line, caught up from the store.
        let largestQueue = try #require(server.server.tcp).largestQueuedBytes()
        #expect(largestQueue <= maxQueued + MessageBus.deliveryBatch * 200, "queued \(largestQueue) bytes for one client")
        var floodLinesRead = 0
        while floodLinesRead < written {
            if try stuck.readLine().hasPrefix("flood:") { floodLinesRead += 1 }
        }
        #expect(floodLinesRead == written)
    }
}
