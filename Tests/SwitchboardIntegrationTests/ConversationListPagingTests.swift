import Foundation
import SwitchboardCore
import SwitchboardTesting
import Testing

/// The conversation list in pages: on every store
/// (`TestStore.every()`), and end to end as a client pages it over HTTP.
@Suite struct ConversationListPagingTests {
    /// Leia in `count` groups (and luke in one she is not in), then a
    /// message into some of them so that activity, not creation, orders
    /// the list. Her rooms, most recent activity first.
    private static func conversations(_ store: any TestStore.Store, count: Int) throws -> [String] {
        var time: Int64 = 1
        func commit(_ draft: MessageDraft) throws -> Message {
            time += 1
            return try #require(try store.commit([draft], timestamp: time)[0])
        }
        var rooms: [String] = []
        for index in 0..<count {
            let event = ConversationEvent(type: .created, actor: "leia", title: "g\(index)", members: ["leia", "han"])
            rooms.append(try commit(event.draft(room: ConversationRoom.unnamed)).room)
        }
        _ = try commit(ConversationEvent(type: .created, actor: "luke", title: "not hers", members: ["luke", "han"])
            .draft(room: ConversationRoom.unnamed))
        var order = rooms.reversed() as [String]
        for index in [2, 5, 0] where index < count {
            _ = try commit(MessageDraft(room: rooms[index], user: "han", text: "news for \(index)", kind: .message))
            order.removeAll { $0 == rooms[index] }
            order.insert(rooms[index], at: 0)
        }
        return order
    }

    @Test func pagesFollowOneAnotherThroughTheWholeListOnEveryStore() throws {
        for each in try TestStore.every() {
            defer { each.discard() }
            let (name, store) = (each.name, each.store)
            let expected = try Self.conversations(store, count: 7)
            var seen: [String] = []
            var cursor: ConversationCursor?
            var pages = 0
            repeat {
                let page = try store.summaries(for: "Leia", after: cursor, limit: 3)
                pages += 1
                #expect(page.summaries.count == (pages < 3 ? 3 : 1), "\(name): page \(pages)")
                seen += page.summaries.map(\.conversation.room)
                cursor = page.next
            } while cursor != nil && pages < 10
            #expect(seen == expected, "\(name): the pages, in order, are the list")
            #expect(try store.summaries(for: "leia").map(\.conversation.room) == expected, "\(name)")
            // Exactly a page's worth: no page after it.
            #expect(try store.summaries(for: "leia", after: nil, limit: 7).next == nil, "\(name)")
            #expect(try store.summaries(for: "nobody", after: nil, limit: 3) == ConversationPage(summaries: [], next: nil), "\(name)")

            // One conversation as the list has it, without reading the list.
            let listed = try store.summaries(for: "leia")
            for summary in listed {
                #expect(try store.summary(for: "LEIA", in: summary.conversation.room) == summary, "\(name)")
            }
            #expect(listed.first?.last?.text == "news for 0", "\(name)")
            let hisOnly = try #require(try store.summaries(for: "luke").first).conversation.room
            #expect(try store.summary(for: "leia", in: hisOnly) == nil, "\(name): not a member")
        }
    }

    @Test func aClientPagesItsListOverHTTP() throws {
        let server = try TestServer()
        let leia = ConversationClient(client: server.client, token: try IdentityTestSupport.signUp(server.client, "leia"))
        _ = try IdentityTestSupport.signUp(server.client, "han")
        var rooms: [String] = []
        for index in 0..<5 { rooms.append(try leia.group(["han"], title: "g\(index)")) }
        #expect(try leia.publish(rooms[1], "hello").status == 201)

        var seen: [String] = []
        var path = "/api/conversations?limit=2"
        for _ in 0..<5 {
            let body = try leia.call("GET", path).json()
            seen += (body["conversations"] as? [[String: Any]] ?? []).compactMap { $0["room"] as? String }
            #expect(body["unread"] as? Int == 0, "the total is over every conversation, not the page")
            guard let prev = body["prev"] as? String else { break }
            path = "/api/conversations?limit=2&before=\(prev)"
        }
        #expect(seen == [rooms[1], rooms[4], rooms[3], rooms[2], rooms[0]])
        // Without a limit, the first 100: all five, no `prev`.
        let whole = try leia.call("GET", "/api/conversations").json()
        #expect((whole["conversations"] as? [Any])?.count == 5 && whole["prev"] == nil)
        for bad in ["limit=0", "limit=501", "limit=x", "before=12", "before=x:c.1", "before=3:lobby"] {
            let answer = try leia.call("GET", "/api/conversations?\(bad)")
            #expect(answer.errorCode == "bad_parameter", "\(bad)")
            // Every refusal of a parameter reads the same way: "Parameter 'NAME' must ...".
            let message = (try answer.json()["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.hasPrefix("Parameter '\(bad.prefix { $0 != "=" })' must "), "\(bad): \(message)")
        }
    }
}
