import Testing
import SwitchboardTesting
@testable import SwitchboardCore

/// The bus's rooms in name order: pages and the most recent rooms cost what
/// they return, and agree with a sort of every room.
@Suite struct RoomDirectoryTests {
    static func summary(_ name: String, _ count: Int, _ last: Int64) -> RoomSummary {
        RoomSummary(name: name, messageCount: count, lastID: last)
    }

    @Test func roomsAreCountedKeptInNameOrderAndForgotten() {
        var rooms = RoomDirectory([Self.summary("m", 2, 5), Self.summary("b", 1, 3)])
        #expect(!rooms.record(1, id: 7, in: "a") && !rooms.record(1, id: 8, in: "z") && !rooms.record(0, id: 9, in: "c"))
        #expect(rooms.record(1, id: 10, in: "m") && rooms["m"] == Self.summary("m", 3, 10))
        #expect(rooms.record(1, id: 4, in: "m") && rooms["m"] == Self.summary("m", 3, 10), "an id counted already is not counted again")
        #expect(rooms.page(after: "", limit: 10).rooms.map(\.name) == ["a", "b", "c", "m", "z"])
        rooms.remove("c")
        rooms.remove("nothing")
        #expect(rooms.count == 4 && rooms["c"] == nil)
        #expect(rooms.page(after: "", limit: 2) == ([Self.summary("a", 1, 7), Self.summary("b", 1, 3)], true))
        #expect(rooms.page(after: "b", limit: 2).rooms.map(\.name) == ["m", "z"] && !rooms.page(after: "b", limit: 2).more)
        #expect(rooms.page(after: "c", limit: 5).rooms.map(\.name) == ["m", "z"], "after a name that is no room")
        #expect(rooms.page(after: "z", limit: 5) == ([], false))
    }

    @Test func theMostRecentAreTheNewestFirst() {
        var rooms = RoomDirectory()
        var all: [RoomSummary] = []
        // Names and ids shuffled against each other.
        for index in 0..<300 {
            let id = Int64((index * 7_919) % 1_000 + 1)
            let name = "room\((index * 31) % 300)"
            _ = rooms.record(1, id: id, in: name)
            all.append(Self.summary(name, 1, id))
        }
        let newest = all.sorted { $0.lastID > $1.lastID }
        #expect(rooms.mostRecent(limit: 10) == Array(newest.prefix(10)))
        #expect(rooms.mostRecent(limit: 500).count == 300 && rooms.mostRecent(limit: 0).isEmpty)
    }

    /// Through the bus: `visible` decides, a page looks at no more than its
    /// budget, and following `next` lists every visible room once, in order.
    @Test func aPageLooksAtNoMoreThanItsBudget() throws {
        let store = InMemoryMessageStore()
        let names = (0..<60).map { String(format: "r%02d", $0) }
        _ = try store.append(names.map { MessageDraft(room: $0, user: "u", text: "hi", kind: .message) }, timestamp: 1)
        let bus = try MessageBus(store: store)
        let visible: (String) -> Bool = { Int($0.dropFirst())! % 10 == 0 }
        var asked = 0
        let first = bus.roomPage(after: "", limit: 3, budget: 25) { asked += 1; return visible($0) }
        #expect(first.rooms.map(\.name) == ["r00", "r10", "r20"] && first.scannedThrough == "r20" && asked == 21)
        asked = 0
        let short = bus.roomPage(after: "r20", limit: 3, budget: 25) { asked += 1; return visible($0) }
        #expect(short.rooms.map(\.name) == ["r30", "r40"] && short.scannedThrough == "r45" && asked == 25,
                "the budget ends the page short: the next one starts after the last room looked at")
        var listed: [String] = []
        var after = ""
        repeat {
            let page = bus.roomPage(after: after, limit: 4, budget: 7, visible: visible)
            listed += page.rooms.map(\.name)
            after = page.scannedThrough ?? ""
        } while !after.isEmpty
        #expect(listed == names.filter(visible))
        #expect(bus.roomPage(after: "", limit: 100, budget: 1_000) { _ in true }.rooms.count == 60)
        #expect(bus.recentRooms(limit: 2) == ([Self.summary("r59", 1, 60), Self.summary("r58", 1, 59)], 60))
    }
}
