import SwitchboardCore
import Testing
@testable import SwitchboardWebPush

/// Who is notified, what the notification says, and what an answer makes of it.
@Suite struct PushRulesTests {
    let group = Conversation(room: "c.7", title: "Rebels", direct: false, createdBy: "leia", members: ["leia", "Luke", "han"])

    func message(_ kind: MessageKind = .message, user: String = "leia", text: String = "hi") -> Message {
        Message(id: 42, room: "c.7", user: user, text: text, kind: kind, ts: 0)
    }

    @Test func membersAwayButTheSender() {
        #expect(PushRecipients.of(message(), in: group, online: []) == ["Luke", "han"])
        #expect(PushRecipients.of(message(), in: group, online: ["luke"]) == ["han"])
        #expect(PushRecipients.of(message(user: "HAN"), in: group, online: []) == ["leia", "Luke"])
    }

    @Test func onlyMessagesInConversations() {
        #expect(PushRecipients.of(message(.edit), in: group, online: []).isEmpty)
        #expect(PushRecipients.of(message(.reaction), in: group, online: []).isEmpty)
        #expect(PushRecipients.of(message(.system), in: group, online: []).isEmpty)
        #expect(PushRecipients.of(message(), in: nil, online: []).isEmpty)
        var replayed = message()
        replayed.replayed = true
        #expect(PushRecipients.of(replayed, in: group, online: []).isEmpty)
    }

    @Test func thePayloadIsTheSPECs() {
        let direct = Conversation(room: "c.8", title: "", direct: true, createdBy: "leia", members: ["leia", "han"])
        var quoted = message(text: String(repeating: "é", count: 250) + "\"")
        quoted.room = "c.8"
        let notification = PushNotification(message: quoted, conversation: direct)
        let text = String(decoding: notification.payload, as: UTF8.self)
        #expect(text == #"{"room":"c.8","id":42,"user":"leia","text":""# + String(repeating: "é", count: 200) + #"","title":"leia"}"#)
        #expect(notification.ttl == 86_400)
        #expect(PushNotification(message: message(), conversation: group).payload.count < 100)
    }

    @Test func aTopicPerRoom() {
        let topic = PushNotification.topic(for: "c.7")
        #expect(topic.count == 32 && topic.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(topic == PushNotification.topic(for: "c.7") && topic != PushNotification.topic(for: "c.8"))
    }

    @Test func answers() {
        #expect(PushOutcome.of(status: 201, retryAfter: nil, attempts: 1, created: 0, now: 0) == .delivered)
        #expect(PushOutcome.of(status: 410, retryAfter: nil, attempts: 1, created: 0, now: 0) == .gone)
        #expect(PushOutcome.of(status: 404, retryAfter: nil, attempts: 1, created: 0, now: 0) == .gone)
        #expect(PushOutcome.of(status: 429, retryAfter: nil, attempts: 1, created: 0, now: 0, jitter: 0.5) == .retry(afterMilliseconds: 5_000))
        #expect(PushOutcome.of(status: 503, retryAfter: nil, attempts: 3, created: 0, now: 0, jitter: 0.5) == .retry(afterMilliseconds: 20_000))
        #expect(PushOutcome.of(status: nil, retryAfter: nil, attempts: 30, created: 0, now: 0, jitter: 0.5) == .retry(afterMilliseconds: 600_000))
        #expect(PushOutcome.of(status: 429, retryAfter: "120", attempts: 1, created: 0, now: 0) == .retry(afterMilliseconds: 120_000))
        if case .giveUp = PushOutcome.of(status: 503, retryAfter: nil, attempts: 9, created: 0, now: 3_500_000) {} else {
            Issue.record("an hour after it was queued, a notification is given up")
        }
        if case .giveUp = PushOutcome.of(status: 400, retryAfter: nil, attempts: 1, created: 0, now: 0) {} else {
            Issue.record("a 400 is not retried")
        }
    }
}
