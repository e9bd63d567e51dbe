import SwitchboardTesting
import Foundation
import Testing
import SwitchboardCore

@Suite("Admin API and metrics")
struct AdminAndMetricsTests {
    let bearer = [("Authorization", "Bearer \(TestServer.adminToken)")]

    @Test func adminAPINeedsTheToken() throws {
        let server = try TestServer()
        for headers in [[], [("Authorization", "Bearer wrong")], [("Authorization", "Bearer ")],
                        [("Authorization", TestServer.adminToken)], [("Authorization", "Bearer \(TestServer.adminToken)x")]] {
            let response = try server.client.get("/api/admin/stats", headers: headers)
            #expect(response.status == 401)
            #expect(response.errorCode == "unauthorized")
            #expect(response.header("www-authenticate") == "Bearer")
        }
        #expect(try server.client.get("/api/admin/nothing-here").status == 401)  // routes are not revealed
        #expect(try server.client.get("/api/admin/stats", headers: bearer).status == 200)
    }

    @Test func statsCountConnectionsAndDeliveriesPerTransport() throws {
        let server = try TestServer()
        let sse = try server.client.openStream("/api/rooms/lobby/events?user=leia")
        let tcp = try TestLineClient(port: server.tcpPort)
        try tcp.write("iam:han\n")
        _ = try tcp.readUntil { $0 == "han has joined" }
        _ = try server.client.get("/api/rooms/lobby/messages?since=0&user=kim")
        try server.client.publish(user: "luke", text: "counted")
        _ = try tcp.readUntil { $0 == "luke:counted" }
        _ = try sse.readEvents(3)  // leia's join, han's join, the message

        let stats = try server.client.get("/api/admin/stats", headers: bearer).json()
        let connections = stats["connections"] as? [String: Int]
        #expect(connections == ["sse": 1, "tcp": 1, "short-poll": 1, "long-poll": 0, "websocket": 0])
        let transports = stats["transports"] as? [String: [String: Any]]
        #expect((transports?["tcp"]?["delivered"] as? Int ?? 0) >= 1)
        #expect((transports?["sse"]?["delivered"] as? Int ?? 0) >= 3)
        #expect(transports?["sse"]?["latency_p99_ms"] is Double)
        #expect(stats["published"] as? Int == 4)  // three joins and the message
        let users = (stats["users"] as? [[String: Any]])?.compactMap { $0["user"] as? String }
        #expect(users == ["han", "kim", "leia"])
        let list = try server.client.get("/api/admin/connections", headers: bearer).json()
        #expect(list["connections"] as? [String: Int] == ["sse": 1, "tcp": 1, "short-poll": 1, "long-poll": 0, "websocket": 0])
        let entries = list["users"] as? [[String: Any]] ?? []
        #expect(entries.first { $0["user"] as? String == "leia" }?["transports"] as? [String] == ["sse"])
        #expect(entries.first { $0["user"] as? String == "han" }?["transports"] as? [String] == ["tcp"])
        #expect(try server.client.get("/api/admin/connections").status == 401)
        #expect((stats["rooms"] as? [[String: Any]])?.first?["online"] as? Int == 3)
    }

    @Test func systemMessageReachesEveryTransport() throws {
        let server = try TestServer()
        let tcp = try TestLineClient(port: server.tcpPort)
        try tcp.write("iam:han\n")
        _ = try tcp.readUntil { $0 == "han has joined" }
        let sse = try server.client.openStream("/api/rooms/lobby/events")
        let response = try server.client.request("POST", "/api/admin/rooms/lobby/system",
                                                 headers: bearer + [("Content-Type", "application/json")],
                                                 body: Array(#"{"text":"Maintenance at noon"}"#.utf8))
        #expect(response.status == 201)
        let message = try response.message()
        #expect(message.kind == .system && message.user == "system" && message.text == "Maintenance at noon")
        #expect(try tcp.readLine() == "system:Maintenance at noon")
        #expect(try sse.readEvents(1).first?.event == "system")
        let refused = try server.client.request("POST", "/api/admin/rooms/lobby/system", headers: [("Content-Type", "application/json")],
                                                body: Array(#"{"text":"forged"}"#.utf8))
        #expect(refused.status == 401)
    }

    @Test func metricsArePrometheusText() throws {
        let server = try TestServer()
        let sse = try server.client.openStream("/api/rooms/lobby/events")
        try server.client.publish(text: "measured")
        _ = try sse.readEvents(1)
        let response = try server.client.get("/metrics")
        #expect(response.status == 200)
        #expect(response.header("content-type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = response.text
        #expect(text.contains("# TYPE switchboard_messages_published_total counter"))
        #expect(text.contains("switchboard_messages_published_total 1"))
        #expect(text.contains(#"switchboard_messages_delivered_total{transport="sse"} 1"#))
        #expect(text.contains(#"switchboard_connections{transport="sse"} 1"#))
        #expect(text.contains(#"switchboard_delivery_latency_seconds_count{transport="sse"} 1"#))
        #expect(text.contains("# TYPE switchboard_delivery_latency_seconds histogram"))
        #expect(text.contains(#"switchboard_delivery_latency_seconds_bucket{transport="sse",le="10.0"} 1"#))
        #expect(text.contains(#"switchboard_delivery_latency_seconds_bucket{transport="sse",le="+Inf"} 1"#))
        #expect(text.contains(#"switchboard_delivery_latency_seconds_bucket{transport="tcp",le="0.005"} 0"#))
        #expect(text.contains("switchboard_store_append_seconds_count 1"))
    }
}

@Suite("Admin stats stream")
struct AdminStatsStreamTests {
    @Test func statsArePushedOnceASecondOnlyWithTheToken() throws {
        let server = try TestServer()
        let refused = try server.client.get("/api/admin/stats/events")
        #expect(refused.status == 401)

        let stream = try server.client.openStream("/api/admin/stats/events",
                                                  headers: [("Authorization", "Bearer \(TestServer.adminToken)")])
        let started = Date()
        let first = try stream.readEvents(1)[0]
        #expect(first.event == "stats")
        try server.client.publish(text: "counted")
        let second = try stream.readEvents(1)[0]
        let elapsed = Date().timeIntervalSince(started)
        let stats = try JSONSerialization.jsonObject(with: Data(second.data.utf8)) as? [String: Any]
        #expect(stats?["published"] as? Int == 1)
        #expect(elapsed > 0.5, "pushed on a one-second tick, not in a loop")
        // The stream ends cleanly at shutdown.
        server.stop()
        #expect(try stream.readStreamEnd())
    }
}
