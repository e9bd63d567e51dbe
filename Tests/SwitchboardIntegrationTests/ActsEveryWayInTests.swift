import Foundation
import Testing
import SwitchboardCore
import SwitchboardTesting

/// Acts on every way in: WebSocket's commands acknowledged with their
/// `ref`, what SSE and raw TCP clients are shown, and a conversation's
/// rules (members only; acts never unread).
@Suite("Acts on every way in")
struct ActsEveryWayInTests {
    typealias Support = IdentityTestSupport

    private func id(_ response: TestResponse) throws -> Int64 {
        guard let id = try response.json()["id"] as? Int else { throw TestClientError(description: "no id: \(response.status) \(response.text)") }
        return Int64(id)
    }

    /// Reads frames until the ack or error for `ref`.
    private func answer(_ socket: TestWebSocketClient, ref: Int) throws -> [String: Any] {
        while true {
            let frame = try socket.readJSON()
            if frame["ack"] as? Int == ref || frame["ref"] as? Int == ref { return frame }
        }
    }

    @Test func webSocketCommandsAreAcknowledgedAndEveryTransportIsShownTheActs() throws {
        let server = try TestServer()
        let leiaToken = try Support.signUp(server.client, "leia")
        let lukeToken = try Support.signUp(server.client, "luke")
        let tcp = try TestLineClient(port: server.tcpPort)
        try tcp.write("iam:watcher\n")
        _ = try tcp.readUntil { $0 == "watcher has joined" }
        let stream = try server.client.openStream("/api/rooms/lobby/events?since=0")
        let leia = try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?access_token=\(leiaToken)")
        let luke = try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?access_token=\(lukeToken)")
        #expect(leia.status == 101 && luke.status == 101)

        try leia.sendText(#"{"text":"dinner at eight","ref":1}"#)
        let said = try #require(try answer(leia, ref: 1)["id"] as? Int)
        try luke.sendText(#"{"text":"count me in","reply_to":\#(said),"ref":2}"#)
        #expect(try answer(luke, ref: 2)["id"] as? Int != nil)
        try luke.sendText(#"{"react":\#(said),"emoji":"👍","ref":3}"#)
        #expect(try answer(luke, ref: 3)["id"] as? Int != nil)
        try luke.sendText(#"{"react":\#(said),"emoji":"👍","on":true,"ref":4}"#)
        let repeated = try answer(luke, ref: 4)
        #expect(repeated.keys.contains("id") && repeated["id"] is NSNull, "a repeat is acknowledged, with nothing stored: \(repeated)")
        try luke.sendText(#"{"edit":\#(said),"text":"mine now","ref":5}"#)
        #expect((try answer(luke, ref: 5)["error"] as? [String: Any])?["code"] as? String == "not_your_message")
        try leia.sendText(#"{"edit":\#(said),"text":"dinner at nine","ref":6}"#)
        #expect(try answer(leia, ref: 6)["id"] as? Int != nil)
        try luke.sendText(#"{"text":"","location":{"lat":48.8584,"lon":2.2945},"ref":7}"#)
        #expect(try answer(luke, ref: 7)["id"] as? Int != nil)
        try leia.sendText(#"{"unsend":\#(said),"ref":8}"#)
        #expect(try answer(leia, ref: 8)["id"] as? Int != nil)
        try leia.sendText(#"{"react":\#(said),"emoji":"🎉","ref":9}"#)
        #expect((try answer(leia, ref: 9)["error"] as? [String: Any])?["code"] as? String == "no_such_message")
        try leia.sendText(#"{"react":"x","emoji":"👍","ref":10}"#)
        #expect((try answer(leia, ref: 10)["error"] as? [String: Any])?["code"] as? String == "invalid_id")

        // Raw TCP: a line for each, as the SPEC gives them.
        let lines = [
            "leia:dinner at eight", "luke (reply to leia):count me in", "luke reacted 👍", "leia edited:dinner at nine",
            "luke shared a location geo:48.8584,2.2945", "leia unsent a message",
        ]
        var seen: [String] = []
        _ = try tcp.readUntil { line in
            if !line.hasSuffix("has joined") { seen.append(line) }
            return line == "leia unsent a message"
        }
        #expect(seen == lines)

        // SSE: every act, in id order, as the log holds it.
        var kinds: [String] = []
        var comments: [String] = []
        while kinds.count < 6 {
            let event = try stream.readEvents(1, comments: &comments)[0]
            guard let data = event.data.data(using: .utf8), let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let kind = json["kind"] as? String, kind != "join" else { continue }
            kinds.append(kind)
        }
        #expect(kinds == ["message", "message", "reaction", "edit", "message", "delete"])
        // A stream opened now replays the target as it stands: unsent.
        let replay = try server.client.openStream("/api/rooms/lobby/events?since=\(said - 1)")
        let first = try replay.readEvents(1, comments: &comments)[0]
        #expect(first.data.contains(#""deleted":true"#) && !first.data.contains("dinner"))
    }

    @Test func inAConversationOnlyMembersActAndActsAreNeverUnread() throws {
        let server = try TestServer()
        var people: [String: ConversationClient] = [:]
        for name in ["luke", "leia", "han"] { people[name] = ConversationClient(client: server.client, token: try Support.signUp(server.client, name)) }
        let (luke, leia, han) = (people["luke"]!, people["leia"]!, people["han"]!)
        let room = try luke.group(["leia"])
        let said = try id(luke.publish(room, "secret meeting"))
        // han is not a member: every act refused, as reads are.
        #expect(try han.call("PUT", "/api/rooms/\(room)/messages/\(said)/reactions/x").status == 403)
        #expect(try han.call("POST", "/api/rooms/\(room)/messages", #"{"text":"hi","reply_to":\#(said)}"#).status == 403)
        #expect(try han.call("GET", "/api/rooms/\(room)/messages/\(said)/replies").status == 403)
        #expect(try han.call("DELETE", "/api/rooms/\(room)/messages/\(said)").status == 403)

        let unreadBefore = try leia.call("GET", "/api/me").json()["unread"] as? Int
        #expect(unreadBefore == 1)
        #expect(try luke.call("PATCH", "/api/rooms/\(room)/messages/\(said)", #"{"text":"secret meeting at noon"}"#).status == 200)
        #expect(try luke.call("PUT", "/api/rooms/\(room)/messages/\(said)/reactions/%F0%9F%A4%AB").status == 200)
        #expect(try leia.call("GET", "/api/me").json()["unread"] as? Int == unreadBefore, "an edit and a reaction are not unread")
        // The conversation's last message is the message, as it stands, not the act.
        let listed = try leia.list().first { $0["room"] as? String == room }
        let last = listed?["last"] as? [String: Any]
        #expect(last?["id"] as? Int == Int(said) && last?["text"] as? String == "secret meeting at noon")
        #expect(try leia.call("POST", "/api/rooms/\(room)/messages", #"{"text":"I'll be there","reply_to":\#(said)}"#).status == 201)
        #expect(try luke.call("GET", "/api/me").json()["unread"] as? Int == 1, "a reply is a message: unread")
    }
}
