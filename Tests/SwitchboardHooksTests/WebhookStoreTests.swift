import Foundation
import SwitchboardCore
import SwitchboardTesting
import Testing

/// The webhook queue, in SQLite and (when `Scripts/test.sh` started one) PostgreSQL: the lease,
/// the cursor moved with what it queued, order per key, and an unsend taking back waiting text.
@Suite struct WebhookStoreTests {
    func event(_ key: String, _ type: String = "message.created", data: String? = nil, message: Int64? = nil) -> WebhookEvent {
        WebhookEvent(type: type, key: key, ts: 1, data: Array((data ?? #"{"k":"\#(key)"}"#).utf8), message: message)
    }

    @Test func oneNodeHoldsTheLeaseUntilItRunsOut() throws {
        for each in try TestStore.every() {
            defer { each.discard() }
            let store = each.store
            #expect(try store.holdWebhookLease(node: "a", now: 0, until: 100, start: 7))
            #expect(try store.webhookCursor() == 7)
            #expect(try !store.holdWebhookLease(node: "b", now: 50, until: 150, start: 9))
            #expect(try store.holdWebhookLease(node: "a", now: 60, until: 160, start: 9), "the holder renews")
            #expect(try store.holdWebhookLease(node: "b", now: 161, until: 261, start: 9), "run out: another takes it")
            #expect(try store.webhookCursor() == 7, "the cursor is not reset by a new holder")
            #expect(try !store.queueWebhooks([event("room:x")], targets: ["t"], cursor: 20, node: "a", now: 170))
            #expect(try store.webhookCursor() == 7)
            #expect(try store.webhookBacklog().isEmpty, "nothing queued by a node that lost the lease")
            #expect(try store.queueWebhooks([event("room:x")], targets: ["t"], cursor: 20, node: "b", now: 170))
            #expect(try store.webhookCursor() == 20)
            #expect(try store.queueWebhooks([event("user:luke", "user.online")], targets: ["t"], cursor: nil, node: nil, now: 170),
                    "presence needs no lease")
            #expect(try store.webhookBacklog() == ["t": 2])
        }
    }

    @Test func aRetryHoldsItsKeyBackAndNoOther() throws {
        for each in try TestStore.every() {
            defer { each.discard() }
            let store = each.store
            _ = try store.holdWebhookLease(node: "a", now: 0, until: 100, start: 0)
            _ = try store.queueWebhooks([event("room:x"), event("room:y"), event("room:x"), event("room:y")], targets: ["t", "u"],
                                        cursor: 4, node: "a", now: 10)
            let due = try store.dueWebhooks(target: "t", now: 10, limit: 10)
            #expect(due.map(\.event.key) == ["room:x", "room:y", "room:x", "room:y"])
            #expect(due.map(\.event.id) == due.map(\.event.id).sorted())
            try store.retryWebhook(target: "t", id: due[0].event.id, attempts: 1, due: 1_000)
            #expect(try store.dueWebhooks(target: "t", now: 10, limit: 10).map(\.event.key) == ["room:y", "room:y"])
            #expect(try store.dueWebhooks(target: "t", now: 1_000, limit: 10).first?.attempts == 1)
            #expect(try store.dueWebhooks(target: "u", now: 10, limit: 10).count == 4, "another receiver's queue is its own")
            try store.finishWebhooks(target: "t", ids: due.map(\.event.id))
            #expect(try store.webhookBacklog() == ["u": 4])
            #expect(try store.dueWebhooks(target: "u", now: 10, limit: 10).map(\.event.data) == due.map(\.event.data),
                    "an event stays while a receiver still owes it")
            #expect(try store.forgetWebhookTargets(except: ["t"]) == 4)
            #expect(try store.webhookBacklog().isEmpty)
        }
    }

    @Test func anUnsendTakesTheTextOutOfWaitingEvents() throws {
        for each in try TestStore.every() {
            defer { each.discard() }
            let store = each.store
            _ = try store.holdWebhookLease(node: "a", now: 0, until: 100, start: 0)
            _ = try store.queueWebhooks([event("room:x", data: #"{"id":5,"text":"the secret plans"}"#, message: 5),
                                         event("room:x", "message.edited", data: #"{"id":6,"text":"the secret plans, v2"}"#, message: 5),
                                         event("room:x", data: #"{"id":7,"text":"kept"}"#, message: 7)],
                                        targets: ["t"], cursor: 7, node: "a", now: 10)
            _ = try store.queueWebhooks([event("room:x", "message.deleted", data: #"{"id":8,"kind":"delete","target":5}"#, message: 5)],
                                        targets: ["t"], cursor: 8, node: "a", now: 10)
            let texts = try store.dueWebhooks(target: "t", now: 10, limit: 10).map { String(decoding: $0.event.data, as: UTF8.self) }
            #expect(texts == [#"{"id":5,"room":"x","kind":"message","deleted":true}"#,
                              #"{"room":"x","kind":"edit","target":5,"deleted":true}"#,
                              #"{"id":7,"text":"kept"}"#,
                              #"{"id":8,"kind":"delete","target":5}"#])
        }
    }
}
