import Testing
@testable import SwitchboardCore

@Suite("The ring of recent messages")
struct RecentMessagesTests {
    /// Every read (each cursor, each limit, two filters) is what a plain
    /// scan of what the ring holds gives: ids with gaps, a ring that has
    /// wrapped and dropped its oldest, and deleted messages skipped.
    @Test func aReadIsWhatAScanOfTheRingGives() {
        var ring = RecentMessages(capacity: 24, coveredAfter: 3)
        var held: [EncodedMessage] = []
        var id: Int64 = 3
        for n in 0..<40 {
            id += n % 3 == 0 ? 2 : 1  // gaps, as other nodes' or refused ids leave
            let message = EncodedMessage(Message(id: id, room: n % 4 == 0 ? "b" : "a", user: "u", text: "\(n)",
                                                 kind: .message, ts: 0))
            ring.append(message)
            held.append(message)
        }
        held = Array(held.suffix(24))
        for deleted: Int64 in [held[3].id, held[20].id, held[23].id] { ring.markDeleted(deleted) }
        let deleted = Set([held[3].id, held[20].id, held[23].id])
        // The ring wrapped: it covers from the last message it dropped (a gap is at most 2).
        #expect(ring.coveredAfter < held[0].id && ring.coveredAfter >= held[0].id - 2)
        for filter in [RoomFilter.all, .room("b"), .rooms(["a", "b"])] {
            for cursor in ring.coveredAfter...(ring.lastID + 2) {
                for limit in [1, 2, 7, 100] {
                    let passing = held.filter { $0.id > cursor && filter.contains($0.message.room) && !deleted.contains($0.id) }
                    let expected = Array(passing.prefix(limit))
                    let read = ring.read(after: cursor, in: filter, access: .everything, limit: limit)
                    #expect(read.messages.map(\.id) == expected.map(\.id), "cursor \(cursor), limit \(limit), \(filter)")
                    let scanned = expected.count == limit ? expected.last!.id : max(cursor, ring.lastID)
                    #expect(read.scannedThrough == scanned, "cursor \(cursor), limit \(limit), \(filter)")
                }
            }
        }
    }
}
