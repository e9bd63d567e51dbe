import Foundation
import Testing
import SwitchboardTesting
@testable import SwitchboardCore

/// What acts make of a message (the one function every store and the
/// ring apply), and the fields they are read from.
@Suite("Acts on messages")
struct MessageActsTests {
    let said = Message(id: 1, room: "lobby", user: "leia", text: "hello", kind: .message, ts: 1000)

    func act(_ kind: MessageKind, by user: String = "luke", text: String = "", emoji: String? = nil, on: Bool? = nil,
             target: Int64 = 1, room: String = "lobby") -> Message {
        var act = Message(id: 9, room: room, user: user, text: text, kind: kind, ts: 2000)
        (act.target, act.emoji, act.on) = (target, emoji, on)
        return act
    }

    @Test func eachActChangesItsTargetAsTheSpecSays() throws {
        let edited = try #require(MessageActs.apply(act(.edit, by: "leia", text: "hello there"), to: said))
        #expect(edited.text == "hello there" && edited.edited == 2000)
        var reacted = try #require(MessageActs.apply(act(.reaction, emoji: "👍", on: true), to: edited))
        reacted = try #require(MessageActs.apply(act(.reaction, by: "han", emoji: "👍", on: true), to: reacted))
        reacted = try #require(MessageActs.apply(act(.reaction, by: "han", emoji: "🎉", on: true), to: reacted))
        #expect(reacted.reactions?.byEmoji == ["👍": ["luke", "han"], "🎉": ["han"]])
        #expect(MessageActs.apply(act(.reaction, emoji: "👍", on: true), to: reacted) == nil, "a repeat changes nothing")
        #expect(MessageActs.apply(act(.reaction, emoji: "🎉", on: false), to: reacted) == nil, "taking back what was never given")
        let fewer = try #require(MessageActs.apply(act(.reaction, by: "han", emoji: "🎉", on: false), to: reacted))
        #expect(fewer.reactions?.byEmoji == ["👍": ["luke", "han"]])
        var reply = Message(id: 10, room: "lobby", user: "han", text: "hi", kind: .message, ts: 3000)
        reply.replyTo = 1
        #expect(MessageActs.apply(reply, to: fewer)?.replies == 1)

        let unsent = try #require(MessageActs.apply(act(.delete, by: "leia"), to: fewer))
        var expected = Message(id: 1, room: "lobby", user: "leia", text: "", kind: .message, ts: 1000)
        expected.deleted = true
        #expect(unsent == expected, "nothing of it is left but who and when")
        for later in [act(.edit, by: "leia", text: "x"), act(.reaction, emoji: "👍", on: true), act(.delete, by: "leia"), reply] {
            #expect(MessageActs.apply(later, to: unsent) == nil, "an unsent message takes no act: \(later.kind)")
        }
    }

    @Test func actsNameOnlyAUsersMessageOfTheSameRoom() {
        #expect(MessageActs.apply(act(.edit, text: "x", room: "other"), to: said) == nil)
        #expect(MessageActs.apply(act(.edit, text: "x", target: 2), to: said) == nil)
        let join = Message(id: 1, room: "lobby", user: "leia", text: "leia has joined", kind: .join, ts: 1)
        #expect(MessageActs.apply(act(.reaction, emoji: "👍", on: true), to: join) == nil)
        #expect(MessageActs.apply(act(.reaction, emoji: "👍", on: true), to: act(.edit, text: "x")) == nil)
    }

    @Test func theWireShowsAMessageAsItStands() throws {
        var message = said
        message.reactions = Reactions([.init(emoji: "👍", users: ["leia", "luke"])])
        (message.edited, message.replies, message.replyTo) = (2000, 2, 7)
        message.location = Location(lat: 51.5, lon: -0.12, accuracy: 20)
        let json = String(decoding: MessageJSON.encode(message), as: UTF8.self)
        #expect(json == #"{"id":1,"room":"lobby","user":"leia","text":"hello","kind":"message","ts":1000,"reply_to":7,"location":{"lat":51.5,"lon":-0.12,"accuracy":20},"edited":2000,"reactions":{"👍":["leia","luke"]},"replies":2}"#)
        #expect(try JSONDecoder().decode(Message.self, from: Data(json.utf8)) == message)
        var unsent = Message(id: 1, room: "lobby", user: "leia", text: "", kind: .message, ts: 1000)
        unsent.deleted = true
        #expect(String(decoding: MessageJSON.encode(unsent), as: UTF8.self) == #"{"id":1,"room":"lobby","user":"leia","kind":"message","ts":1000,"deleted":true}"#)
        let reaction = act(.reaction, emoji: "👍", on: false)
        #expect(String(decoding: MessageJSON.encode(reaction), as: UTF8.self).hasSuffix(#""target":1,"emoji":"👍","on":false}"#))
    }

    @Test func emojiAndLocationsAreCheckedAtTheDoor() throws {
        for good in ["👍", "❤️", "👩🏽‍🚀", "+1", "ok", "...", "%", "?"] { #expect(try ReactionEmoji.valid(good) == good) }
        // Not what no path segment carries (`PUT .../reactions/{emoji}`): `/`, `.`, `..`.
        for bad in ["/", ".", "..", "👍/", "a/b"] { #expect(throws: SwitchboardError.invalidEmoji) { try ReactionEmoji.valid(bad) } }
        for bad in ["", " ", "a b", "\u{1}", "\n", String(repeating: "x", count: 17), "👨‍👩‍👧‍👦",
                    "\u{202E}", "\u{202E}👍", "\u{2067}ok", "\u{200B}", "\u{FE0F}", "\u{200D}\u{200B}"] {
            #expect(throws: SwitchboardError.invalidEmoji) { try ReactionEmoji.valid(bad) }
        }
        #expect(try Location(validating: ["lat": .number("-90"), "lon": .number("180")]) == Location(lat: -90, lon: 180))
        for bad: [String: JSONValue] in [["lat": .number("90.01"), "lon": .number("0")], ["lat": .string("1"), "lon": .number("0")],
                                        ["lat": .number("0")], ["lat": .number("0"), "lon": .number("0"), "accuracy": .number("-1")],
                                        ["lat": .number("0"), "lon": .number("0"), "alt": .number("3")], ["lat": .number("1e999"), "lon": .number("0")]] {
            #expect(throws: (any Error).self) { try Location(validating: bad) }
        }
        #expect(Location(lat: 48.8584, lon: 2.2945).geoURI == "geo:48.8584,2.2945")
        #expect(Location(lat: 1, lon: -2, accuracy: 15.5).geoURI == "geo:1,-2;u=15.5")
    }

    /// The ring shows a message as the store does: an act changes the copy
    /// in memory, and a target older than the ring is read changed from the store.
    @Test func theRingAndTheStoreAgree() throws {
        for capacity in [1000, 2] {
            let store = InMemoryMessageStore()
            let bus = try MessageBus(store: store, recentCapacity: capacity, clock: { 5000 })
            let target = try bus.publishAndWait(MessageDraft(room: "lobby", user: "leia", text: "hello", kind: .message))
            for user in ["a", "b", "c"] { try bus.publishAndWait(MessageDraft(room: "lobby", user: user, text: "filler", kind: .message)) }
            var react = MessageDraft(room: "lobby", user: "luke", text: "", kind: .reaction)
            (react.target, react.emoji, react.on) = (target.id, "👍", true)
            #expect(try bus.publishActAndWait(react) != nil)
            #expect(try bus.publishActAndWait(react) == nil, "a repeat is not stored")
            var edit = MessageDraft(room: "lobby", user: "leia", text: "hello again", kind: .edit)
            edit.target = target.id
            let stored = try #require(try bus.publishActAndWait(edit))
            let read = try bus.read(after: 0, in: .all, access: .everything, limit: 100).messages
            let now = try #require(read.first { $0.id == target.id }?.message)
            #expect(now.text == "hello again" && now.reactions?.byEmoji == ["👍": ["luke"]] && now.edited == 5000, "capacity \(capacity)")
            #expect(read.last?.id == stored.id)
            var unsend = MessageDraft(room: "lobby", user: "leia", text: "", kind: .delete)
            unsend.target = target.id
            _ = try bus.publishActAndWait(unsend)
            let after = try bus.read(after: 0, in: .all, access: .everything, limit: 100).messages
            #expect(after.first { $0.id == target.id }?.message.isDeleted == true)
            #expect(after.first { $0.id == stored.id }?.message.text == "", "the edit's text is gone too (capacity \(capacity))")
        }
    }

    /// What the stores keep beside a message reads back as it was written,
    /// and as PostgreSQL's `jsonb` writes it (spaces, its own key order).
    @Test func storedFieldsReadBackAsWritten() throws {
        var message = Message(id: 3, room: "lobby", user: "leia", text: "hi", kind: .message, ts: 1)
        (message.replyToUser, message.edited, message.replies) = ("luke \"the\" kid\n", 99, 4)
        message.location = Location(lat: -33.8688, lon: 151.2093, accuracy: 5.5)
        message.reactions = Reactions([.init(emoji: "👍", users: ["a", "b"]), .init(emoji: "🎉", users: ["c"])])
        var read = Message(id: 3, room: "lobby", user: "leia", text: "hi", kind: .message, ts: 1)
        StoredActFields.restore(&read, replyTo: nil, target: nil, detail: StoredActFields.detail(of: message),
                                standing: StoredActFields.standing(of: message))
        #expect(read == message)
        var fromPostgres = Message(id: 3, room: "lobby", user: "leia", text: "", kind: .message, ts: 1)
        StoredActFields.restore(&fromPostgres, replyTo: nil, target: nil, detail: nil,
                                standing: #"{"edited": 12, "replies": 2, "reactions": {"\ud83d\udc4d": ["luke", "han"], "x": []}, "deleted": true}"#)
        #expect(fromPostgres.edited == 12 && fromPostgres.replies == 2 && fromPostgres.deleted == true)
        #expect(fromPostgres.reactions?.byEmoji == ["👍": ["luke", "han"]], "an emptied emoji is no reaction")
        for broken in ["", "{", #"{"edited":}"#, #"{"a":"\ud83d"#, "[1,2", #"{"a":1}x"#] {
            #expect(ClientMessageJSON.value(of: Array(broken.utf8), levels: 3) == nil, "\(broken)")
        }
    }

    /// The bug this caught (two nodes on PostgreSQL): a reply on node B to a
    /// message node A had just stored was refused 404, because B's ring,
    /// not yet told of it, said "no such message" for an id past its last.
    @Test func aMessageNewerThanTheRingIsAskedOfTheStore() throws {
        let store = InMemoryMessageStore()
        let bus = try MessageBus(store: store, clock: { 1 })
        let own = try bus.publishAndWait(MessageDraft(room: "lobby", user: "a", text: "mine", kind: .message))
        // Another node's commit, which this bus has not read in yet.
        let elsewhere = try store.append([MessageDraft(room: "lobby", user: "b", text: "theirs", kind: .message)], timestamp: 2)[0]
        #expect(bus.recentMessage(id: own.id)??.message.text == "mine")
        #expect(bus.recentMessage(id: elsewhere.id) == nil, "unknown to the ring: the store is asked")
    }

    @Test func onePersonHoldsAtMostTwentyReactionsOnAMessage() {
        var reactions = Reactions()
        let set = { (emoji: String, user: String, on: Bool) in reactions.set(emoji, by: user, on: on) }
        for index in 1...Reactions.mostByOneUser { #expect(set("r\(index)", "luke", true)) }
        #expect(!reactions.admits("r21", by: "luke") && reactions.admits("r3", by: "luke") && reactions.admits("r21", by: "leia"))
        #expect(!set("r21", "luke", true), "the 21st changes nothing")
        #expect(set("r21", "leia", true), "another person's is theirs")
        #expect(reactions.count(by: "luke") == 20 && reactions.count(by: "leia") == 1)
        #expect(set("r1", "luke", false) && set("r21", "luke", true), "one off makes room")
    }
}
