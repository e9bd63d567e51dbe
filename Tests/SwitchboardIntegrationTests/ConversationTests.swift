import Foundation
import Testing
import SwitchboardCore
import SwitchboardTesting

/// SPEC "Conversations: groups and direct messages", end to end over real
/// sockets on every way in.
@Suite("Conversations")
struct ConversationTests {
    typealias Support = IdentityTestSupport

    /// A server with luke, leia, han and chewie signed up.
    private func people(_ server: TestServer) throws -> [String: ConversationClient] {
        var people: [String: ConversationClient] = [:]
        for name in ["luke", "leia", "han", "chewie"] {
            people[name] = ConversationClient(client: server.client, token: try Support.signUp(server.client, name))
        }
        return people
    }

    @Test func createRenameAddRemoveAndLeaveAreStoredEvents() throws {
        let server = try TestServer()
        let people = try people(server)
        let luke = people["luke"]!, leia = people["leia"]!, han = people["han"]!

        let created = try luke.create(["leia", "Han", "leia"], title: "Trip")
        #expect(created.status == 201)
        let body = try created.json()
        let room = try #require(body["room"] as? String)
        #expect(room.hasPrefix("c.") && body["title"] as? String == "Trip" && body["direct"] as? Bool == false)
        // Named as each account spells its name, once each, the creator first.
        #expect(body["members"] as? [String] == ["luke", "leia", "han"])
        #expect(body["created_by"] as? String == "luke")

        // Refusals: guests, unknown members, nobody else, a bad title.
        #expect(try server.client.request("POST", "/api/conversations", headers: [("Content-Type", "application/json")],
                                          body: Array(#"{"members":["leia"]}"#.utf8)).status == 401)
        #expect(try luke.create(["nobody"]).errorCode == "no_such_user")
        #expect(try luke.create(["luke"]).errorCode == "no_members")
        for title in ["", "\u{200B}", "Trip\u{202E}pirT", "\u{2066}Trip"] {
            #expect(try luke.create(["leia"], title: title).errorCode == "invalid_title", "\(title.unicodeScalars.map(\.value))")
        }
        #expect(try luke.call("PATCH", "/api/conversations/\(room)", #"{"title":"x\u202Eevil"}"#).errorCode == "invalid_title")
        #expect(try luke.call("POST", "/api/conversations", #"{"members":"leia"}"#).errorCode == "malformed_json")

        // Each change is a stored system message with its event.
        #expect(try leia.call("PATCH", "/api/conversations/\(room)", #"{"title":"Endor"}"#).json()["title"] as? String == "Endor")
        #expect(try han.call("POST", "/api/conversations/\(room)/members", #"{"user":"chewie"}"#).json()["members"] as? [String]
                == ["luke", "leia", "han", "chewie"])
        #expect(try luke.call("DELETE", "/api/conversations/\(room)/members/chewie").status == 204)
        #expect(try han.call("DELETE", "/api/conversations/\(room)/members/me").status == 204)
        // (The poll makes luke present: his join follows.)
        let history = try luke.call("GET", "/api/rooms/\(room)/messages").page().messages.filter { $0.kind == .system }
        #expect(history.map { $0.event?.type } == [.created, .renamed, .added, .removed, .left])
        #expect(history.map(\.text) == ["luke created “Trip” with leia, han", "leia renamed the conversation “Endor”",
                                        "han added chewie", "luke removed chewie", "han left"])
        #expect(history[3].event == ConversationEvent(type: .removed, actor: "luke", user: "chewie"))

        // Han is out: everything of the room is refused to him now.
        #expect(try han.call("GET", "/api/rooms/\(room)/messages").errorCode == "not_a_member")
        #expect(try han.call("GET", "/api/conversations/\(room)").errorCode == "not_a_member")
        #expect(try han.list().isEmpty)
    }

    @Test func aDirectConversationIsOnePerPairAndStaysAPair() throws {
        let server = try TestServer()
        let people = try people(server)
        let luke = people["luke"]!, leia = people["leia"]!
        let first = try luke.create(["leia"])
        #expect(first.status == 201)
        let room = try #require(first.json()["room"] as? String)
        #expect(try first.json()["direct"] as? Bool == true)
        // Asked again, from either side and in any case: the same room, 200.
        let again = try leia.create(["LUKE"])
        #expect(try again.status == 200 && again.json()["room"] as? String == room)
        #expect(try luke.call("PATCH", "/api/conversations/\(room)", #"{"title":"x"}"#).errorCode == "direct_conversation")
        #expect(try luke.call("POST", "/api/conversations/\(room)/members", #"{"user":"han"}"#).status == 409)
        #expect(try luke.publish(room, "just us").status == 201)
        #expect(try people["han"]!.publish(room, "me too").errorCode == "not_a_member")
    }

    @Test func theListHasLastMessageUnreadReadMarkersAndMute() throws {
        let server = try TestServer()
        let people = try people(server)
        let luke = people["luke"]!, leia = people["leia"]!
        let trip = try luke.group(["leia"], title: "Trip")
        let direct = try #require(luke.create(["leia"]).json()["room"] as? String)
        _ = try luke.publish(trip, "one")
        _ = try luke.publish(trip, "two")
        let last = try luke.publish(direct, "psst").message()
        let mine = try leia.publish(trip, "mine").message()  // her own: never unread for her

        var list = try leia.list()
        #expect(list.map { $0["room"] as? String } == [trip, direct])  // most recent activity first
        #expect(list.map { $0["unread"] as? Int } == [2, 1])
        #expect(list[0]["members"] as? [String] == ["luke", "leia"])  // as they joined: the creator first
        #expect((list[1]["last"] as? [String: Any])?["text"] as? String == "psst")
        #expect(try leia.call("GET", "/api/me").json()["unread"] as? Int == 3)

        // Read markers: forward only; everyone's visible to members (read receipts).
        #expect(try leia.call("PUT", "/api/conversations/\(direct)/read", #"{"id":\#(last.id)}"#).json()["read"] as? Int == Int(last.id))
        #expect(try leia.call("PUT", "/api/conversations/\(direct)/read", #"{"id":1}"#).json()["read"] as? Int == Int(last.id))
        let one = try luke.call("GET", "/api/conversations/\(direct)").json()
        #expect((one["read"] as? [String: Int])?["leia"] == Int(last.id))
        // A marker past every message stops at the last one: it cannot mark later messages read before they exist.
        #expect(try leia.call("PUT", "/api/conversations/\(trip)/read", #"{"id":9223372036854775807}"#).json()["read"] as? Int
                == Int(mine.id))
        _ = try luke.publish(trip, "later")
        #expect(try leia.list().first { $0["room"] as? String == trip }?["unread"] as? Int == 1)
        #expect((try luke.call("GET", "/api/conversations/\(trip)").json()["read"] as? [String: Int])?["leia"] == Int(mine.id))
        // Mute: still listed and counted per conversation, left out of the total.
        #expect(try leia.call("PUT", "/api/conversations/\(trip)/members/me", #"{"muted":true}"#).json()["muted"] as? Bool == true)
        list = try leia.list()
        #expect(list.first { $0["room"] as? String == trip }?["muted"] as? Bool == true)
        #expect(try leia.call("GET", "/api/me").json()["unread"] as? Int == 0)
        #expect(try leia.call("PUT", "/api/conversations/\(trip)/members/me", #"{"muted":"yes"}"#).errorCode == "missing_field")
    }

    @Test func nothingOfAConversationReachesAnyoneElseOnAnyWayIn() throws {
        let server = try TestServer()
        let people = try people(server)
        let luke = people["luke"]!, han = people["han"]!
        let room = try luke.group(["leia"], title: "Secret plans")
        let client = server.client
        // Watching everything they may: a guest and han, on the inbox stream.
        let guestStream = try client.openStream("/api/events")
        let hanStream = try client.openStream("/api/events?access_token=\(han.token)")
        _ = try luke.publish(room, "the plans")
        let marker = try client.postForm("lobby", user: "someone", text: "public").message()

        // Han: 403 not_a_member on every way in; a guest: 401.
        for path in ["/api/rooms/\(room)/messages", "/api/rooms/\(room)/messages?wait=5", "/api/rooms/\(room)/events",
                     "/api/events?rooms=lobby,\(room)", "/api/rooms/\(room)/presence", "/api/rooms/\(room)/messages/1",
                     "/api/rooms/\(room)/messages?before=100"] {
            #expect(try client.get(path, headers: han.bearer).errorCode == "not_a_member", "\(path)")
            #expect(try client.get(path).status == 401, "\(path)")
        }
        #expect(try han.publish(room, "let me in").errorCode == "not_a_member")
        #expect(try client.postForm(room, user: "guest", text: "hi").status == 401)
        #expect(try TestWebSocketClient(port: server.port, path: "/api/rooms/\(room)/ws?access_token=\(han.token)").status == 403)
        let tcp = try TestLineClient(port: server.tcpPort)
        try tcp.write("auth:\(han.token)\njoin:\(room)\n")
        #expect(try tcp.readUntil { $0.hasPrefix("error:") } == "error:not_a_member")
        let guestTCP = try TestLineClient(port: server.tcpPort)
        try guestTCP.write("join:\(room)\n")
        #expect(try guestTCP.readLine() == "error:unauthorized")
        // A conversation that does not exist reads the same as one you are not in.
        #expect(try client.get("/api/rooms/c.999999/messages", headers: han.bearer).errorCode == "not_a_member")

        // The streams carried the public message and nothing of the conversation.
        let guestSaw = try guestStream.readEvents(1), hanSaw = try hanStream.readEvents(1)
        #expect(guestSaw.map(\.id) == [String(marker.id)] && hanSaw.map(\.id) == [String(marker.id)])
        // Nor do the room list or the metrics name it.
        for listing in [try client.get("/api/rooms"), try client.get("/api/rooms", headers: han.bearer), try client.get("/metrics")] {
            #expect(!listing.text.contains(room) && !listing.text.contains("Secret"))
        }
    }

    @Test func leavingTakesEffectAtOnceOnEveryOpenStreamAndSocket() throws {
        let server = try TestServer()
        let people = try people(server)
        let luke = people["luke"]!, han = people["han"]!
        let room = try luke.group(["han"], title: "Trip")
        let client = server.client
        let only = try client.openStream("/api/rooms/\(room)/events?access_token=\(han.token)")
        let several = try client.openStream("/api/events?rooms=lobby,\(room)&access_token=\(han.token)")
        let inbox = try client.openStream("/api/events?access_token=\(han.token)")
        let socket = try TestWebSocketClient(port: server.port, path: "/api/rooms/\(room)/ws?access_token=\(han.token)")
        #expect(socket.status == 101)
        let tcp = try TestLineClient(port: server.tcpPort)
        try tcp.write("auth:\(han.token)\njoin:\(room)\nwho:\n")
        _ = try tcp.readUntil { $0.hasPrefix("who:") }
        // Each stream is live: a message of the room reaches all three. (Not
        // han's presence: a join stored before a stream subscribed never
        // reaches it, and under load one did not, and the test waited out
        // its 60 s deadline.)
        let before = try luke.publish(room, "before he left").message()
        for stream in [only, several, inbox] {
            var seen: [TestSSEEvent] = []
            while seen.last?.id != String(before.id) { seen += try stream.readEvents(1) }
        }

        let removal = try luke.call("DELETE", "/api/conversations/\(room)/members/han")
        #expect(removal.status == 204)
        _ = try luke.publish(room, "after he left")
        let lobby = try client.postForm("lobby", user: "someone", text: "public").message()

        // The one-room stream: the removal is its last event, then it ends.
        var events = try only.readEvents(1)
        while events.last?.event != "system" { events += try only.readEvents(1) }
        #expect(events.last?.data.contains(#""type":"removed""#) == true)
        #expect(try only.readStreamEnd())
        // A stream of several rooms stays open and stops carrying the conversation.
        for stream in [several, inbox] {
            var seen: [TestSSEEvent] = []
            while seen.last?.id != String(lobby.id) { seen += try stream.readEvents(1) }
            #expect(!seen.contains { $0.data.contains("after he left") })
        }
        // WebSocket: the removal, then close 1008 not_a_member.
        var frames: [String] = []
        while let frame = try? socket.readFrame(), frame.opcode != 0x8 { frames.append(String(decoding: frame.payload, as: UTF8.self)) }
        #expect(frames.contains { $0.contains(#""type":"removed""#) } && !frames.contains { $0.contains("after he left") })
        // Raw TCP: the event as a system line, told, and moved to lobby, where it goes on.
        #expect(try tcp.readUntil { $0.hasPrefix("system:") } == "system:luke removed han")
        #expect(try tcp.readUntil { $0.hasPrefix("system:") } == "system:you are no longer in \(room)")
        #expect(try tcp.readUntil { $0.contains("public") } == "someone:public")
        // A long poll of the room is refused from now on.
        #expect(try client.get("/api/rooms/\(room)/messages?wait=5", headers: han.bearer).errorCode == "not_a_member")
    }

    @Test func theInboxCarriesConversationsTheUserIsAddedToWhileConnected() throws {
        let server = try TestServer()
        let people = try people(server)
        let leia = people["leia"]!, han = people["han"]!
        let inbox = try server.client.openStream("/api/events?access_token=\(han.token)")
        let socket = try TestWebSocketClient(port: server.port, path: "/api/ws?access_token=\(han.token)")
        #expect(socket.status == 101)
        let room = try leia.group(["han"], title: "New")
        _ = try leia.publish(room, "welcome")
        let events = try inbox.readEvents(2)
        #expect(events.map(\.event) == ["system", "message"] && events[1].data.contains("welcome"))
        var texts: [String] = []
        while texts.count < 2 { if let text = try socket.readJSON()["text"] as? String { texts.append(text) } }
        #expect(texts[1] == "welcome")
        // The inbox socket publishes to a conversation it names.
        try socket.sendText(#"{"room":"\#(room)","text":"thanks","ref":7}"#)
        var reply = try socket.readJSON()
        while reply["ack"] == nil && reply["error"] == nil { reply = try socket.readJSON() }
        #expect(reply["ack"] as? Int == 7)
    }

    @Test func typingReachesTheOtherMembersOnPushTransportsOnly() throws {
        let server = try TestServer()
        let people = try people(server)
        let luke = people["luke"]!, leia = people["leia"]!
        let room = try luke.group(["leia", "han", "chewie"], title: "Trip")
        let stream = try server.client.openStream("/api/rooms/\(room)/events?access_token=\(leia.token)")
        _ = try stream.readEvents(1)  // her join
        let socket = try TestWebSocketClient(port: server.port, path: "/api/rooms/\(room)/ws?access_token=\(leia.token)")
        let typist = try TestLineClient(port: server.tcpPort)  // han has sent typing: himself, so hears others'
        try typist.write("auth:\(people["han"]!.token)\njoin:\(room)\ntyping:\n")
        let app = try TestLineClient(port: server.tcpPort, readTimeoutSeconds: 1)  // never sends typing:
        try app.write("auth:\(people["chewie"]!.token)\njoin:\(room)\n")
        _ = try typist.readUntil { $0 == "auth:han" }
        Thread.sleep(forTimeInterval: 0.3)

        #expect(try luke.call("POST", "/api/conversations/\(room)/typing").status == 204)
        #expect(try luke.call("POST", "/api/conversations/\(room)/typing").status == 204)  // within a second: dropped
        // (Han's own typing: came first.)
        var events = try stream.readEvents(1)
        while events.last?.event != "typing" || events.last?.data.contains("luke") != true { events += try stream.readEvents(1) }
        #expect(events.last?.id == nil && events.last?.data == #"{"room":"\#(room)","user":"luke"}"#)
        var frame = try socket.readJSON()
        while (frame["typing"] as? [String: String])?["user"] != "luke" { frame = try socket.readJSON() }
        #expect((frame["typing"] as? [String: String]) == ["room": room, "user": "luke"])
        #expect(try typist.readUntil { $0.hasPrefix("typing:") } == "typing:luke")
        // Over WebSocket too, and never stored.
        try socket.sendText(#"{"typing":true}"#)
        #expect(try typist.readUntil { $0.hasPrefix("typing:") } == "typing:leia")
        #expect(try luke.call("GET", "/api/rooms/\(room)/messages").page().messages.allSatisfy { $0.kind != .message })
        // Only one typing notice from luke went out: the next message event is the publish.
        _ = try luke.publish(room, "done typing")
        var after = try stream.readEvents(1)
        while after.last?.event != "message" { after += try stream.readEvents(1) }
        #expect(!after.contains { $0.event == "typing" && $0.data.contains("luke") })
        #expect(events.filter { $0.event == "typing" && $0.data.contains("luke") }.count == 1)
        // The DogeChat app, which never sends typing:, never gets a line it could not show.
        #expect(throws: (any Error).self) { try app.readUntil { $0.hasPrefix("typing:") } }
    }

    @Test func pagingBackWithBeforeInEveryRoom() throws {
        let server = try TestServer()
        let ids = try (1...5).map { try server.client.publish("history", text: "m\($0)").id }
        var page = try server.client.get("/api/rooms/history/messages?before=\(ids[4] + 1)&limit=2").json()
        #expect((page["messages"] as? [[String: Any]])?.map { $0["text"] as? String } == ["m4", "m5"])
        var before = try #require(page["prev"] as? Int)
        page = try server.client.get("/api/rooms/history/messages?before=\(before)&limit=2").json()
        #expect((page["messages"] as? [[String: Any]])?.map { $0["text"] as? String } == ["m2", "m3"])
        before = try #require(page["prev"] as? Int)
        page = try server.client.get("/api/rooms/history/messages?before=\(before)&limit=2").json()
        #expect((page["messages"] as? [[String: Any]])?.map { $0["text"] as? String } == ["m1"])
        #expect(page["prev"] == nil)
        #expect(try server.client.get("/api/rooms/history/messages?before=0").errorCode == "bad_parameter")
        #expect(try server.client.get("/api/rooms/history/messages?before=3&since=1").errorCode == "bad_parameter")
    }
}
