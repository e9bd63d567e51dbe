import Testing
@testable import SwitchboardCore

/// ``MessageDraft/stored(id:timestamp:)``: every store makes its messages
/// with it, each field set once (``Message/init(stored:id:timestamp:)``);
/// a field it forgot would be lost from every message stored.
@Suite("A draft as stored")
struct StoredDraftTests {
    @Test func everyFieldOfTheDraftIsKept() {
        var draft = MessageDraft(room: "lobby", user: "leia", text: "look", kind: .message)
        draft.media = [MediaAttachment(id: "abc", type: "image/jpeg", size: 1_234, name: "x.jpg", width: 4, height: 3,
                                       hasThumbnail: true)]
        draft.replyTo = 7
        draft.replyToUser = "luke"
        draft.target = 9
        draft.emoji = "👍"
        draft.on = true
        draft.location = Location(lat: 51.5, lon: -0.12, accuracy: 20)
        draft.clientID = "client-1"
        let message = draft.stored(id: 42, timestamp: 1_700_000_000_000)

        // Each field against the draft's (all set above but the event: see below), named when one is lost.
        let kept: [(field: String, same: Bool)] = [
            ("id", message.id == 42), ("ts", message.ts == 1_700_000_000_000), ("room", message.room == draft.room),
            ("user", message.user == draft.user), ("text", message.text == draft.text), ("kind", message.kind == draft.kind),
            ("event", message.event == draft.event), ("media", message.media == draft.media),
            ("reply_to", message.replyTo == draft.replyTo), ("reply_to_user", message.replyToUser == draft.replyToUser),
            ("target", message.target == draft.target), ("emoji", message.emoji == draft.emoji), ("on", message.on == draft.on),
            ("location", message.location == draft.location), ("client_id", message.clientID == draft.clientID),
        ]
        for (field, same) in kept { #expect(same, "\(field) was not kept") }
        #expect(!message.replayed && message.edited == nil && message.deleted == nil)
        #expect(message.reactions == nil && message.replies == nil)
    }

    @Test func aCreatedConversationIsNamedAfterItsID() {
        var draft = MessageDraft(room: "c.new", user: "system", text: "leia started it", kind: .system)
        draft.event = ConversationEvent(type: .created, actor: "leia", title: "plans", members: ["leia", "luke"])
        let created = draft.stored(id: 12, timestamp: 5)
        #expect(created.room == ConversationRoom.name(createdBy: 12))
        #expect(created.event == draft.event)
        #expect(created.kind == .system && created.ts == 5 && created.user == "system")

        draft.event = ConversationEvent(type: .renamed, actor: "leia", title: "plans, again")
        #expect(draft.stored(id: 13, timestamp: 6).room == "c.new")
    }
}
