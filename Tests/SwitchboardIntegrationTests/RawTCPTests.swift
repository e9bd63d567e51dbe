import SwitchboardTesting
import Foundation
import Synchronization
import Testing
import SwitchboardCore

@Suite("Raw TCP (DogeChat protocol)")
struct RawTCPTests {
    @Test func ncStyleLinesChatWithHTTPUsers() throws {
        let server = try TestServer()
        let nc = try TestLineClient(port: server.tcpPort)
        try nc.write("iam:luke\n")
        #expect(try nc.readLine() == "luke has joined")
        try nc.write("msg:hello from nc\r\n")
        #expect(try nc.readLine() == "luke:hello from nc")  // the sender gets it back: stored
        let stored = try server.client.get("/api/rooms/lobby/messages?since=0").page().messages
        #expect(stored.map(\.kind) == [.join, .message])
        #expect(stored.last?.user == "luke" && stored.last?.text == "hello from nc")

        try server.client.publish(user: "leia", text: "hi\r\nfrom the\nweb")
        #expect(try nc.readLine() == "leia:hi from the web")
    }

    @Test func dogeChatStyleCommandsWithoutNewlineOneWriteEach() throws {
        let server = try TestServer()
        let app = try TestLineClient(port: server.tcpPort)
        try app.write("iam:doge")
        // What the app shows: one read per message, no line break in the bubble.
        #expect(try app.readAsTheApp() == (nil, "doge has joined"))
        try app.write("msg:such wow")
        #expect(try app.readAsTheApp() == ("doge", "such wow"))
        #expect(try server.client.get("/api/rooms/lobby/messages?since=0").page().messages.last?.text == "such wow")
    }

    @Test func oneByteAtATimeAndTwoCommandsInOneWrite() throws {
        let server = try TestServer(tcpFlushMilliseconds: 200)
        let slow = try TestLineClient(port: server.tcpPort)
        for byte in Array("iam:bob\nmsg:typed slowly\n".utf8) {
            try slow.write([byte])
            usleep(2000)  // far below the quiet period: never splits a command
        }
        #expect(try slow.readLines(2) == ["bob has joined", "bob:typed slowly"])

        let sticky = try TestLineClient(port: server.tcpPort)
        try sticky.write("iam:amy\nmsg:one\r\nmsg:tw")
        usleep(400_000)  // twice the quiet period: a line client's half command still waits for its newline
        try sticky.write("o\n")
        #expect(try sticky.readLines(3) == ["amy has joined", "amy:one", "amy:two"])
        #expect(try slow.readLines(3) == ["amy has joined", "amy:one", "amy:two"])
    }

    @Test func tcpMessagesReachSSEAndLongPoll() throws {
        let server = try TestServer()
        let stream = try server.client.openStream("/api/rooms/lobby/events")
        let poll = try TestHTTPConnection(port: server.port)
        try poll.sendRequest("GET", "/api/rooms/lobby/messages?since=0&wait=30")
        let nc = try TestLineClient(port: server.tcpPort)
        try nc.write("iam:han\nmsg:it's not my fault\n")
        let events = try stream.readEvents(2)
        #expect(events.map(\.event) == ["join", "message"])
        let message = try JSONDecoder().decode(Message.self, from: Data(events[1].data.utf8))
        #expect(message.user == "han" && message.text == "it's not my fault" && message.room == "lobby")
        #expect(try poll.readResponse().page().messages.first?.kind == .join)
    }

    @Test func errorsAreOneLineAndTheConnectionStays() throws {
        let server = try TestServer()
        let nc = try TestLineClient(port: server.tcpPort)
        try nc.write("msg:too early\n")
        #expect(try nc.readLine() == "error:send iam:NAME first")
        try nc.write("hello\n")
        #expect(try nc.readLine().hasPrefix("error:unknown command"))
        try nc.write(Array("msg:".utf8) + [0xFF, 0xFE] + [10])
        #expect(try nc.readLine() == "error:not valid UTF-8")
        try nc.write(String(repeating: "x", count: 9000) + "\n")
        #expect(try nc.readLine() == "error:line longer than 8192 bytes, discarded")
        try nc.write("iam:system\n")
        #expect(try nc.readLine().hasPrefix("error:"))
        try nc.write("iam:kim\nmsg:\(String(repeating: "é", count: 2048))\n")
        #expect(try nc.readLine() == "kim has joined")
        #expect(try nc.readLine() == "kim:\(String(repeating: "é", count: 2048))")
        try nc.write("msg:\(String(repeating: "a", count: 4097))\n")
        #expect(try nc.readLine().hasPrefix("error:The text is 4097 bytes"))
        try nc.write("iam:someone-else\n")
        #expect(try nc.readLine() == "error:already joined as kim; reconnect to use another name")
        let stored = try server.client.get("/api/rooms/lobby/messages?since=0").page().messages
        #expect(stored.map(\.kind) == [.join, .message])
    }

    @Test func leaveOnDisconnectAndPresenceAcrossTransports() throws {
        // A parked SSE stream learns that its client vanished at the next
        // keepalive write: make that prompt here.
        let server = try TestServer(keepaliveSeconds: 0.3)
        let watcher = try TestLineClient(port: server.tcpPort)
        try watcher.write("iam:watcher\n")
        #expect(try watcher.readLine() == "watcher has joined")

        // luke on TCP and on SSE at once: one join, and a leave only when both are gone.
        let tcp = try TestLineClient(port: server.tcpPort)
        try tcp.write("iam:luke\n")
        #expect(try watcher.readLine() == "luke has joined")
        let sse = try server.client.openStream("/api/rooms/lobby/events?user=luke")
        let presence = try server.client.get("/api/rooms/lobby/presence").json()["users"] as? [[String: Any]]
        #expect(presence?.first { $0["user"] as? String == "luke" }?["transports"] as? [String] == ["sse", "tcp"])
        tcp.close()
        try server.client.publish(user: "watcher2", text: "marker")
        #expect(try watcher.readLine() == "watcher2:marker")  // no leave before the marker
        sse.reset()
        #expect(try watcher.readLine() == "luke has left")
        let rooms = try server.client.get("/api/rooms").json()["rooms"] as? [[String: Any]]
        #expect(rooms?.first?["online"] as? [String] == ["watcher"])
    }

    @Test func pollersArePresentWhileTheyPoll() throws {
        let server = try TestServer()
        _ = try server.client.get("/api/rooms/lobby/messages?since=0&user=kim")
        let users = try server.client.get("/api/rooms/lobby/presence").json()["users"] as? [[String: Any]]
        #expect(users?.first?["user"] as? String == "kim")
        #expect(users?.first?["transports"] as? [String] == ["short-poll"])
        let joins = try server.client.get("/api/rooms/lobby/messages?since=0").page().messages
        #expect(joins.map(\.text) == ["kim has joined"])
        #expect(try server.client.get("/api/rooms/lobby/messages?user=bad:name").status == 422)
    }

    /// Commands piped in one write (`printf 'iam:luke\nwho:\n' | nc`): `who:`
    /// is answered after the client's own join is stored, and lists it; a
    /// `join:` before it moves the answer to the new room.
    @Test func whoAnswersAfterTheCommandsBeforeIt() throws {
        let server = try TestServer()
        let nc = try TestLineClient(port: server.tcpPort)
        try nc.write("iam:luke\nwho:\n")
        #expect(try nc.readLines(2) == ["luke has joined", "who:luke"])
        let other = try TestLineClient(port: server.tcpPort)
        try other.write("iam:leia\njoin:hoth\nwho:\njoin:lobby\nwho:\n")
        // Which join and leave lines come between depends on when each is
        // delivered (a line of a room the client has already left is not),
        // so read to the second answer rather than count lines: five were
        // counted, and a run that got four waited out its deadline.
        let answers = try (0..<2).map { _ in try other.readUntil { $0.hasPrefix("who:") } }
        #expect(answers == ["who:leia", "who:leia,luke"])
    }

    @Test func extensionsJoinWhoAndSince() throws {
        let server = try TestServer()
        let first = try server.client.publish("cantina", user: "greedo", text: "old news")
        let nc = try TestLineClient(port: server.tcpPort)
        try nc.write("iam:han\n")
        #expect(try nc.readLine() == "han has joined")
        try nc.write("join:cantina\n")
        #expect(try nc.readLine() == "han has joined")
        try nc.write("who:\n")
        #expect(try nc.readLine() == "who:han")
        // An explicit replay: the room's history, already-seen lines included.
        try nc.write("since:0\n")
        #expect(try nc.readLines(2) == ["greedo:old news", "han has joined"])
        try nc.write("since:\(first.id)\n")
        #expect(try nc.readLine() == "han has joined")
        try server.client.publish("lobby", user: "leia", text: "not heard in the cantina")
        try server.client.publish("cantina", user: "greedo", text: "heard")
        #expect(try nc.readLine() == "greedo:heard")
    }

    @Test func twoHundredClientsEachGetEveryMessageOnceInOrder() throws {
        let server = try TestServer()
        let clients = try (0..<200).map { index -> TestLineClient in
            let client = try TestLineClient(port: server.tcpPort)
            try client.write("iam:user\(index)\n")
            return client
        }
        for (index, client) in clients.enumerated() {
            _ = try client.readUntil { $0 == "user\(index) has joined" }
        }
        let texts = (1...30).map { "message \($0)" }
        for text in texts { try server.client.publish(user: "announcer", text: text) }
        var perfect = 0
        for client in clients {
            var got: [String] = []
            while got.count < texts.count {
                let line = try client.readLine()
                if line.hasPrefix("announcer:") { got.append(String(line.dropFirst("announcer:".count))) }
            }
            if got == texts { perfect += 1 }
        }
        #expect(perfect == 200)
    }

    /// A client that reads slowly while its room is flooded is never
    /// dropped: delivery to it pauses at its cursor while its socket is full,
    /// so what the server queues for it stays bounded; once it reads, it
    /// catches up (from the store) with every message, in order, once. Others
    /// in the room are not held back meanwhile.
    @Test func aSlowReaderIsNeverDroppedAndItsQueueStaysBounded() throws {
        let maxQueued = 32 * 1024
        let server = try TestServer(tcpMaxQueuedBytes: maxQueued)
        let slow = try TestLineClient(port: server.tcpPort, receiveBuffer: 4096)
        try slow.write("iam:slow\n")
        _ = try slow.readUntil { $0 == "slow has joined" }
        let reader = try TestLineClient(port: server.tcpPort)
        try reader.write("iam:reader\n")
        _ = try reader.readUntil { $0 == "reader has joined" }
        let big = String(repeating: "z", count: 4000)
        let count = 500  // 2 MB: far past the slow client's buffers and queue
        var received = 0, largestQueue = 0
        for index in 0..<count {
            try server.client.publish(user: "flood", text: "\(index) \(big)")
            // The reader keeps up while the flood goes on.
            while received < index + 1 {
                let line: String
                do { line = try reader.readLine() } catch {
                    throw TestClientError(description: "reader stalled at message \(index) after \(received): \(error)")
                }
                if line.hasPrefix("flood:") { received += 1 }
            }
            if index % 25 == 0 { largestQueue = max(largestQueue, try #require(server.server.tcp).largestQueuedBytes()) }
        }
        #expect(received == count)
        // Bounded: the high-water mark plus at most one delivery batch of frames.
        let bound = maxQueued + MessageBus.deliveryBatch * (4000 + 64)
        #expect(largestQueue > 0, "the slow client's queue filled")
        #expect(largestQueue <= bound, "queued \(largestQueue) bytes for one client; bound \(bound)")
        // Now it reads: every message, in order, once, and it was never dropped.
        var got: [Int] = []
        while got.count < count {
            let line = try slow.readLine()
            guard line.hasPrefix("flood:") else { continue }
            got.append(Int(line.dropFirst("flood:".count).prefix { $0 != " " }) ?? -1)
        }
        #expect(got == Array(0..<count))
        try slow.write("ping:still here\n")
        #expect(try slow.readUntil { $0.hasPrefix("pong:") } == "pong:still here")
    }
}
