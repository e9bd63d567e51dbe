import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardStore

/// The media records on a real SQLite store: carriers written with the
/// message, the usage, and which uploads the sweep takes.
@Suite("Media store (SQLite)")
struct MediaStoreTests {
    static func record(_ owner: String, size: Int64, at time: Int64) -> MediaRecord {
        MediaRecord(attachment: MediaAttachment(id: MediaID.make(), type: "audio/ogg", size: size, name: "v.ogg", hasThumbnail: false),
                    owner: owner, uploadedAt: time, thumbnailType: nil)
    }

    @Test func carriersAreWrittenWithTheMessageAndTheSweepTakesTheUncarried() throws {
        let store = try SQLiteMessageStore(path: ":memory:")
        let young = Self.record("luke", size: 10, at: 5_000), old = Self.record("Luke", size: 20, at: 1_000)
        let carried = Self.record("leia", size: 30, at: 1_000), forwarded = Self.record("leia", size: 40, at: 1_000)
        for record in [young, old, carried, forwarded] { try store.insertMedia(record) }
        #expect(try store.mediaRecords([young.id, old.id, "nope"]).map(\.id).sorted() == [young.id, old.id].sorted())

        var draft = MessageDraft(room: "lobby", user: "leia", text: "look", kind: .message)
        draft.media = [carried.attachment, forwarded.attachment]
        var second = MessageDraft(room: "c.9", user: "leia", text: "again", kind: .message)
        second.media = [forwarded.attachment]
        let stored = try store.append([draft, second], timestamp: 2_000)
        #expect(stored[0].media == [carried.attachment, forwarded.attachment], "the message keeps its attachments")
        #expect(try store.messages(after: 0, in: .all, limit: 10).messages.first?.media == [carried.attachment, forwarded.attachment])
        #expect(try store.firstCarrier(of: forwarded.id, after: "") == MediaCarrier(room: "c.9", id: stored[1].id), "rooms in name order")
        #expect(try store.firstCarrier(of: forwarded.id, after: "c.9") == MediaCarrier(room: "lobby", id: stored[0].id))
        #expect(try store.firstCarrier(of: forwarded.id, after: "lobby") == nil)
        #expect(try store.mediaBytes(of: "LUKE") == 30, "a user's uploads in any case")
        #expect(try store.mediaUsage() == [MediaUsage(user: "leia", files: 2, bytes: 70), MediaUsage(user: "Luke", files: 2, bytes: 30)])
        #expect(try store.recentMedia(limit: 1).first?.record == young)

        // Before 3,000: the old one never carried goes; the young one waits; carried ones stay.
        #expect(try store.sweepableMedia(uploadedBefore: 3_000) == [old.id])
        // Every message that carried `carried` deleted: it goes whatever its age; `forwarded` is still carried once.
        _ = try store.delete(id: stored[0].id)
        #expect(Set(try store.sweepableMedia(uploadedBefore: 0)) == [carried.id])
        _ = try store.delete(id: stored[1].id)
        #expect(Set(try store.sweepableMedia(uploadedBefore: 3_000)) == [old.id, carried.id, forwarded.id])
        #expect(try store.deleteMedia(old.id) && !(try store.deleteMedia(old.id)))
    }

    /// An upload carried by many messages is asked about room by room, each
    /// room's earliest carrier; an unsend of that one makes the next the first.
    @Test func carriersComeRoomByRoomEachRoomsEarliest() throws {
        let store = try SQLiteMessageStore(path: ":memory:")
        let photo = Self.record("leia", size: 30, at: 1_000)
        try store.insertMedia(photo)
        let drafts = ["lobby", "c.9", "lobby", "c.9", "a-room", "lobby"].map { room in
            var draft = MessageDraft(room: room, user: "leia", text: "look", kind: .message)
            draft.media = [photo.attachment]
            return draft
        }
        let ids = try store.append(drafts, timestamp: 2_000).map(\.id)
        var rooms: [MediaCarrier] = []
        while let next = try store.firstCarrier(of: photo.id, after: rooms.last?.room ?? "") { rooms.append(next) }
        #expect(rooms == [MediaCarrier(room: "a-room", id: ids[4]), MediaCarrier(room: "c.9", id: ids[1]), MediaCarrier(room: "lobby", id: ids[0])])
        var unsend = MessageDraft(room: "lobby", user: "leia", text: "", kind: .delete)
        unsend.target = ids[0]
        #expect(try store.commit([unsend], timestamp: 3_000)[0] != nil)
        #expect(try store.firstCarrier(of: photo.id, after: "c.9") == MediaCarrier(room: "lobby", id: ids[2]))
        #expect(try store.firstCarrier(of: "no-such-upload", after: "") == nil)
    }

    /// An unsend takes the message's attachments with it: the carriers go
    /// in the act's commit, so the sweep frees the upload.
    @Test func anUnsendLetsTheSweepTakeItsUploads() throws {
        let store = try SQLiteMessageStore(path: ":memory:")
        let photo = Self.record("leia", size: 30, at: 1_000)
        try store.insertMedia(photo)
        var draft = MessageDraft(room: "lobby", user: "leia", text: "look", kind: .message)
        draft.media = [photo.attachment]
        let said = try store.append([draft], timestamp: 2_000)[0]
        #expect(try store.sweepableMedia(uploadedBefore: 0).isEmpty)
        var unsend = MessageDraft(room: "lobby", user: "leia", text: "", kind: .delete)
        unsend.target = said.id
        #expect(try store.commit([unsend], timestamp: 3_000)[0] != nil)
        #expect(try store.sweepableMedia(uploadedBefore: 0) == [photo.id])
        let now = try #require(try store.messages(after: 0, in: .all, limit: 10).messages.first)
        #expect(now.isDeleted && now.media == nil && now.text.isEmpty)
        #expect(try store.commit([unsend], timestamp: 4_000)[0] == nil, "unsent once: a second unsend stores nothing")
    }
}
