import Foundation
import Testing
import SwitchboardTesting
@testable import SwitchboardLoad

/// A small `switchboard compare` run: correctness only, no timing assertions.
@Suite("Transport comparison")
struct CompareTests {
    @Test func everyTransportDeliversEveryMessageOnceAndInOrder() throws {
        let server = try TestServer()
        var configuration = TransportComparison.Configuration(httpPort: Int(server.port), tcpPort: server.tcpPort)
        configuration.clients = 5
        configuration.messages = 12
        configuration.rate = 40
        configuration.pollInterval = 0.1
        let results = try TransportComparison.run(configuration)
        #expect(results.map(\.transport.rawValue) == ["short-poll", "long-poll", "sse", "tcp"])
        for result in results {
            #expect(result.expected == 60, "\(result.transport)")
            #expect(result.delivered == result.expected, "\(result.transport)")
            #expect(result.duplicates == 0 && result.outOfOrderClients == 0, "\(result.transport)")
            #expect(result.latencies.count == result.delivered)
            #expect(result.bytesPerDelivery > 0)
            #expect(result.connections == 5)
        }
        // Polls pay per request; push transports hold one request per client.
        #expect(results[0].requests > 5 && results[1].requests >= 5)
        #expect(results[2].requests == 5 && results[3].requests == 5)
        // The report is well-formed JSON and reads back.
        let data = try JSONEncoder().encode(results)
        #expect(try JSONDecoder().decode([TransportComparison.Result].self, from: data).count == 4)

        // So is the HTML report: the table, one latency curve per transport,
        // both cost charts and the sweep charts, all inline.
        let html = CompareReport.html(results: results, sweep: [CompareReport.SweepPoint(rate: 40, results: results),
                                                                 CompareReport.SweepPoint(rate: 80, results: results)],
                                      summary: "a <small> run", table: "transport  delivered")
        #expect(html.hasPrefix("<!doctype html>") && html.hasSuffix("</html>"))
        #expect(html.components(separatedBy: "<svg").count - 1 == 5)
        #expect(html.components(separatedBy: "</svg>").count - 1 == 5)
        #expect(html.components(separatedBy: "<polyline").count - 1 == 4 + 2 * 4)
        #expect(html.contains("a &lt;small&gt; run"))
        #expect(!html.contains("nan") && !html.contains("inf") && !html.contains("<script") && !html.contains("http"))
    }
}

/// How a client's receipts are checked (pure, no sockets).
@Suite("Compare: checking a client's receipts")
struct ClientTallyTests {
    /// Four publishers run at once, so message index 1 can be stored (and
    /// delivered) before index 0. A raw TCP client that got them in id order
    /// is in order; checking by index once called every TCP client at
    /// 300 messages/s out of order.
    @Test func aTCPClientIsCheckedInIDOrderNotInPublishIndexOrder() {
        let idByIndex: [Int64: Int64] = [0: 11, 1: 10, 2: 12]
        let sentAt: [Int64: UInt64] = [10: 1_000_000, 11: 1_000_000, 12: 2_000_000]
        let lines: [(id: Int64, at: UInt64)] = [(1, 3_000_000), (0, 3_000_000), (2, 4_000_000)]  // ids 10, 11, 12
        let tally = ClientTally(receipts: ClientTally.receiptsByID(lines, idByIndex: idByIndex), sentAt: sentAt)
        #expect(tally.ordered)
        #expect(tally.delivered == 3 && tally.duplicates == 0)
        #expect(tally.deliveries.map(\.milliseconds) == [2, 2, 2])
        #expect(tally.deliveries.map(\.id) == [10, 11, 12])
    }

    @Test func outOfOrderDuplicatesAndForeignIDsAreTold() {
        let sentAt: [Int64: UInt64] = [10: 0, 11: 0]
        let tally = ClientTally(receipts: [(11, 0), (99, 0), (10, 0), (11, 0)], sentAt: sentAt)
        #expect(!tally.ordered)
        #expect(tally.delivered == 2)
        #expect(tally.duplicates == 1)
    }
}

@Suite("Transport comparison over WebSocket")
struct WebSocketCompareTests {
    @Test func webSocketClientsGetEveryMessageOnceAndInOrder() throws {
        let server = try TestServer()
        var configuration = TransportComparison.Configuration(httpPort: Int(server.port), tcpPort: server.tcpPort)
        configuration.transports = [.websocket]
        configuration.clients = 5
        configuration.messages = 12
        configuration.rate = 40
        let result = try #require(try TransportComparison.run(configuration).first)
        #expect(result.complete, "\(result.delivered)/\(result.expected), \(result.duplicates) duplicates")
        #expect(result.requests == 5 && result.bytesPerDelivery > 0)
    }

    @Test func typingNoticesReachEveryPushTransportAndPollingCannotCarryThem() throws {
        let server = try TestServer()
        let results = try TypingProbe.run(httpPort: Int(server.port), tcpPort: server.tcpPort,
                                          transports: [.shortPoll, .longPoll, .sse, .websocket, .tcp], notices: 2)
        #expect(results.map(\.transport) == [.shortPoll, .longPoll, .sse, .websocket, .tcp])
        #expect(results[0].delivered == nil && results[1].delivered == nil)
        for result in results.dropFirst(2) {
            #expect(result.delivered == 2, "\(result.transport)")
            #expect(result.latencyP50Milliseconds != nil, "\(result.transport)")
        }
        // Never stored: every message the probe's room holds is a join or a leave.
        let rooms = try #require(server.client.get("/api/rooms").json()["rooms"] as? [[String: Any]])
        let probed = try #require(rooms.first { ($0["name"] as? String)?.hasPrefix("typing-") == true }?["name"] as? String)
        #expect(try server.client.get("/api/rooms/\(probed)/messages").page().messages.allSatisfy { $0.kind == .join || $0.kind == .leave })
    }
}
