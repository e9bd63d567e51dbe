import Foundation
import SwitchboardCore
import Testing

/// Which stored messages make which events, and what they carry.
@Suite struct WebhookEventsTests {
    func message(_ kind: MessageKind, text: String = "hi", event: ConversationEvent? = nil) -> Message {
        Message(id: 9, room: "c.3", user: kind == .system ? "system" : "leia", text: text, kind: kind, ts: 1_000, event: event)
    }

    func data(_ event: WebhookEvent?) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(event?.data ?? []))) as? [String: Any] ?? [:]
    }

    @Test func messagesAndActs() {
        #expect(WebhookEvents.of(message(.message))?.type == "message.created")
        #expect(WebhookEvents.of(message(.message))?.key == "room:c.3")
        #expect(WebhookEvents.of(message(.system))?.type == "message.created")
        var edit = message(.edit, text: "better")
        edit.target = 4
        #expect(WebhookEvents.of(edit)?.type == "message.edited")
        #expect(data(WebhookEvents.of(edit))["target"] as? Int == 4)
        #expect(WebhookEvents.of(message(.delete))?.type == "message.deleted")
        for quiet in [MessageKind.join, .leave, .reaction] { #expect(WebhookEvents.of(message(quiet)) == nil) }
    }

    @Test func conversationChanges() {
        let created = ConversationEvent(type: .created, actor: "leia", title: "Rebels", members: ["leia", "han"], direct: false)
        let made = WebhookEvents.of(message(.system, event: created))
        #expect(made?.type == "conversation.created")
        #expect(data(made)["by"] as? String == "leia")
        #expect(data(made)["members"] as? [String] == ["leia", "han"])
        let added = WebhookEvents.of(message(.system, event: ConversationEvent(type: .added, actor: "leia", user: "luke")))
        #expect(added?.type == "conversation.member_added")
        #expect(data(added)["user"] as? String == "luke")
        let removed = WebhookEvents.of(message(.system, event: ConversationEvent(type: .removed, actor: "leia", user: "luke")))
        #expect(removed?.type == "conversation.member_removed")
        let left = WebhookEvents.of(message(.system, event: ConversationEvent(type: .left, actor: "han")))
        #expect(left?.type == "conversation.member_removed")
        #expect(data(left)["user"] as? String == "han")
        #expect(WebhookEvents.of(message(.system, event: ConversationEvent(type: .renamed, actor: "leia", title: "X"))) == nil)
    }

    @Test func theBodyIsTheSPECs() {
        var event = WebhookEvents.presence(user: "Luke", online: true, ts: 5)
        event.id = 12
        #expect(event.key == "user:luke")
        #expect(String(decoding: event.body, as: UTF8.self) == #"{"id":"12","type":"user.online","ts":5,"data":{"user":"Luke"}}"#)
    }
}
