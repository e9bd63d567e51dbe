import Foundation
import GRDB
import Logging
import SwitchboardCore
import SwitchboardPostgres
import SwitchboardStore
import SwitchboardTesting
import Testing

/// The counts the store keeps for conversations (each member's unread
/// messages, each conversation's last message) against the same figures
/// counted from the log, on every store (`TestStore.every()`),
/// through a long random run of everything that moves them: messages,
/// replies, acts, presence, read markers, mutes, members coming and going,
/// and the admin's removals; and made from the log when a database from
/// before the counts is opened.
@Suite struct ConversationCountsStoreTests {
    typealias Store = TestStore.Store

    /// A fixed-seed generator: a failing run is the same run again.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let people = ["leia", "luke", "Émile", "han", "chewie"]

    /// Each of `people`'s conversations, as the store lists them, against
    /// the log: unread is other people's `message`s after the member's
    /// read marker (their own: spelled as their name), last is the last
    /// message that is not an act, the total leaves muted ones out.
    static func checkAgainstTheLog(_ store: any Store, rooms: [String], _ context: String) throws {
        var logs: [String: [Message]] = [:]
        var markers: [String: [String: Int64]] = [:]
        for room in rooms {
            logs[room] = try store.latest(in: room, limit: 100_000)
            markers[room] = try store.readMarkers(in: room)
        }
        for person in people {
            var total = 0
            for summary in try store.summaries(for: person) {
                let room = summary.conversation.room
                let log = logs[room] ?? []
                let read = try #require(markers[room]?[person], "\(context): \(person)'s marker in \(room)")
                let unread = log.filter { $0.kind == .message && $0.id > read && $0.user != person }.count
                #expect(summary.unread == unread, "\(context): \(person)'s unread in \(room)")
                #expect(summary.read == read, "\(context): \(person)'s marker in \(room)")
                #expect(summary.last?.id == log.last { !$0.kind.isAct }?.id, "\(context): the last message of \(room)")
                if !summary.muted { total += unread }
            }
            #expect(try store.unread(for: person) == total, "\(context): \(person)'s total")
        }
    }

    @Test func theCountsFollowEveryChangeAsTheLogWouldCountThem() throws {
        for each in try TestStore.every() {
            defer { each.discard() }
            let (name, store) = (each.name, each.store)
            var random = SplitMix(state: 38)
            var time: Int64 = 1
            func commit(_ draft: MessageDraft) throws -> Message? {
                time += 1
                return try store.commit([draft], timestamp: time)[0]
            }
            let trip = ConversationEvent(type: .created, actor: "leia", title: "trip", members: ["leia", "luke", "Émile", "han"])
            let pair = ConversationEvent(type: .created, actor: "Émile", title: "", members: ["Émile", "leia"], direct: true)
            let rooms = try [trip, pair].map { try #require(try commit($0.draft(room: ConversationRoom.unnamed))).room }
            var members = [rooms[0]: ["leia", "luke", "Émile", "han"], rooms[1]: ["Émile", "leia"]]
            var said: [String: [Int64]] = [:]  // ids of messages, for acts and markers

            for step in 1...400 {
                let room = rooms[Int.random(in: 0...1, using: &random)]
                let here = members[room]!
                let someone = here.randomElement(using: &random)!
                let earlier = said[room]?.randomElement(using: &random)
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<45:
                    var draft = MessageDraft(room: room, user: someone, text: "m\(step)", kind: .message)
                    if step % 7 == 0, let earlier { draft.replyTo = earlier }  // a reply is a message too
                    if let message = try commit(draft) { said[room, default: []].append(message.id) }
                case 45..<60:
                    guard let earlier else { continue }
                    var draft = MessageDraft(room: room, user: someone, text: "", kind: .reaction)
                    (draft.target, draft.emoji, draft.on) = (earlier, "👍", Bool.random(using: &random))
                    _ = try commit(draft)
                case 60..<65:
                    guard let earlier else { continue }
                    let kind: MessageKind = Bool.random(using: &random) ? .edit : .delete
                    var draft = MessageDraft(room: room, user: someone, text: kind == .edit ? "edited \(step)" : "", kind: kind)
                    draft.target = earlier
                    _ = try commit(draft)
                case 65..<80:
                    let last = said[room]?.last ?? 0
                    let id = Int.random(in: 0..<4, using: &random) == 0 ? last + 2 : (earlier ?? last)
                    _ = try store.markRead(room: room, user: someone.uppercased(), id: id)
                case 80..<84:
                    _ = try store.setMuted(room: room, user: someone, muted: Bool.random(using: &random))
                case 84..<90:
                    _ = try commit(MessageDraft(room: room, user: someone, text: "", kind: Bool.random(using: &random) ? .join : .leave))
                case 90..<96 where room == rooms[0]:
                    if here.contains("chewie") {
                        _ = try commit(ConversationEvent(type: .removed, actor: "leia", user: "chewie").draft(room: room))
                        members[room] = here.filter { $0 != "chewie" }
                    } else {
                        _ = try commit(ConversationEvent(type: .added, actor: "luke", user: "chewie").draft(room: room))
                        members[room] = here + ["chewie"]
                    }
                default:
                    guard let earlier else { continue }
                    _ = try store.delete(id: earlier)  // the admin's removal
                    said[room]?.removeAll { $0 == earlier }
                }
                if step % 10 == 0 { try Self.checkAgainstTheLog(store, rooms: rooms, "\(name), step \(step)") }
            }
            // Everyone reads to the end: nothing unread, whatever came after the last message.
            for room in rooms {
                for person in members[room]! { _ = try store.markRead(room: room, user: person, id: said[room]?.last ?? 0) }
            }
            try Self.checkAgainstTheLog(store, rooms: rooms, "\(name), all read")
            for person in Self.people { #expect(try store.unread(for: person) == 0, "\(name): \(person) read everything") }
        }
    }

    /// Two conversations with messages, acts, presence and a read marker.
    static func fill(_ store: any Store) throws -> [String] {
        let trip = ConversationEvent(type: .created, actor: "leia", title: "trip", members: ["leia", "luke", "Émile"])
        let room = try #require(try store.commit([trip.draft(room: ConversationRoom.unnamed)], timestamp: 1)[0]).room
        let pair = ConversationEvent(type: .created, actor: "han", title: "", members: ["han", "Émile"], direct: true)
        let direct = try #require(try store.commit([pair.draft(room: ConversationRoom.unnamed)], timestamp: 1)[0]).room
        var drafts = ["luke", "Émile", "leia", "luke", "Émile"].map { MessageDraft(room: room, user: $0, text: "hi", kind: .message) }
        drafts.append(MessageDraft(room: direct, user: "han", text: "psst", kind: .message))
        let ids = try store.commit(drafts, timestamp: 2).map { try #require($0).id }
        var reaction = MessageDraft(room: room, user: "leia", text: "", kind: .reaction)
        (reaction.target, reaction.emoji, reaction.on) = (ids[0], "👍", true)
        _ = try store.commit([reaction, MessageDraft(room: direct, user: "Émile", text: "", kind: .join)], timestamp: 3)
        #expect(try store.markRead(room: room, user: "Émile", id: ids[1]) == ids[1])
        return [room, direct]
    }

    /// A database written before the counts were kept: opened, it counts
    /// them from its log once, then keeps them.
    @Test func aDatabaseFromBeforeTheCountsGetsThemFromItsLog() throws {
        let path = try TestStore.temporaryPath("counts")
        defer { TestStore.remove(path) }
        var store = try SQLiteMessageStore(path: path)
        let rooms = try Self.fill(store)
        try store.close()
        let older = try DatabaseQueue(path: path)
        try older.write { db in
            try db.execute(sql: """
                ALTER TABLE conversation_member DROP COLUMN last_id;
                ALTER TABLE conversation_member DROP COLUMN unread;
                DELETE FROM grdb_migrations WHERE identifier LIKE 'v9:%';
                """)
        }
        try older.close()
        store = try SQLiteMessageStore(path: path)
        defer { try? store.close() }
        #expect(try store.unread(for: "luke") == 3 && store.unread(for: "Émile") == 3, "counted from the log")
        try Self.checkAgainstTheLog(store, rooms: rooms, "SQLite, reopened")

        guard TestPostgres.serverURL != nil else { return }
        let url = try TestPostgres.freshDatabase()
        let first = try PostgresMessageStore(url: PostgresURL(url), nodeID: "a", logger: Logger(label: "test"))
        let shared = try Self.fill(first)
        try first.close()
        try TestPostgres.psql(url, """
            ALTER TABLE switchboard_members DROP COLUMN unread, DROP COLUMN last_id;
            DELETE FROM switchboard_schema WHERE version >= 9
            """)
        let upgraded = try PostgresMessageStore(url: PostgresURL(url), nodeID: "b", logger: Logger(label: "test"))
        defer { try? upgraded.close() }
        #expect(try upgraded.unread(for: "luke") == 3 && upgraded.unread(for: "Émile") == 3, "PostgreSQL: counted from the log")
        try Self.checkAgainstTheLog(upgraded, rooms: shared, "PostgreSQL, upgraded")
    }
}
