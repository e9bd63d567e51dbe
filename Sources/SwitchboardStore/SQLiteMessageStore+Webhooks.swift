import Foundation
import GRDB
import SwitchboardCore

/// Webhooks' lease, the log's cursor and each receiver's queue, beside the
/// messages (migration v8). An event is kept once, with a row per receiver
/// that still owes it; the last receiver's row gone, the event goes too.
extension SQLiteMessageStore: WebhookStore {
    public func holdWebhookLease(node: String, now: Int64, until: Int64, start: Int64) throws -> Bool {
        try writer.write { db in
            try db.execute(sql: """
                INSERT INTO webhook_lease (id, node, until, cursor) VALUES (1, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET node = excluded.node, until = excluded.until
                WHERE webhook_lease.node = excluded.node OR webhook_lease.until <= ?
                """, arguments: [node, until, start, now])
            return try String.fetchOne(db, sql: "SELECT node FROM webhook_lease WHERE id = 1") == node
        }
    }

    public func webhookCursor() throws -> Int64 {
        try writer.readInCompiledTransaction { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT cursor FROM webhook_lease WHERE id = 1")) ?? 0
        }
    }

    public func queueWebhooks(_ events: [WebhookEvent], targets: [String], cursor: Int64?, node: String?, now: Int64) throws -> Bool {
        var scrubbed = false
        // Every statement of an event's way (queued, read, finished) is
        // compiled once per connection, and its transactions too: compiled
        // each time, they were most of the 1.4 million instructions an event
        // cost the server (callgrind).
        let queued = try writer.writeInCompiledTransaction { db in
            if let node {
                try db.cachedStatement(sql: "UPDATE webhook_lease SET cursor = coalesce(?, cursor) WHERE id = 1 AND node = ?")
                    .execute(arguments: [cursor, node])
                guard db.changesCount == 1 else { return false }
            }
            let event = try db.cachedStatement(sql: "INSERT INTO webhook_event (type, key, ts, data, message) VALUES (?, ?, ?, ?, ?)")
            let delivery = try db.cachedStatement(sql: "INSERT INTO webhook_delivery (target, event, key, attempts, due) VALUES (?, ?, ?, 0, ?)")
            for item in events {
                try event.execute(arguments: [item.type, item.key, item.ts, Data(item.data), item.message])
                let id = db.lastInsertedRowID
                for target in targets { try delivery.execute(arguments: [target, id, item.key, now]) }
                if let unsend = item.unsend {
                    for (type, data) in [("message.created", unsend.created), ("message.edited", unsend.edited)] {
                        try db.execute(sql: "UPDATE webhook_event SET data = ? WHERE message = ? AND type = ?",
                                       arguments: [Data(data), unsend.message, type])
                        scrubbed = scrubbed || db.changesCount > 0
                    }
                }
            }
            return true
        }
        // As for the unsend itself: the old text's WAL frames go into the (secure_delete) file, and the WAL is emptied.
        if scrubbed { _ = try? writer.writeWithoutTransaction { try $0.checkpoint(.truncate) } }
        return queued
    }

    public func dueWebhooks(target: String, now: Int64, limit: Int) throws -> [WebhookDelivery] {
        try writer.readInCompiledTransaction { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT e.id, e.type, e.key, e.ts, e.data, d.attempts
                FROM webhook_delivery d JOIN webhook_event e ON e.id = d.event
                WHERE d.target = ? AND d.key NOT IN (SELECT key FROM webhook_delivery WHERE target = ? AND due > ?)
                ORDER BY d.event LIMIT ?
                """), arguments: [target, target, now, limit]).map { row in
                WebhookDelivery(event: WebhookEvent(id: row[0], type: row[1], key: row[2], ts: row[3], data: [UInt8](row[4] as Data)),
                                attempts: row[5])
            }
        }
    }

    public func finishWebhooks(target: String, ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        let list = Self.jsonList(ids)
        try writer.writeInCompiledTransaction { db in
            try db.cachedStatement(sql: "DELETE FROM webhook_delivery WHERE target = ? AND event IN (SELECT value FROM json_each(?))")
                .execute(arguments: [target, list])
            try db.cachedStatement(sql: """
                DELETE FROM webhook_event WHERE id IN (SELECT value FROM json_each(?))
                AND NOT EXISTS (SELECT 1 FROM webhook_delivery WHERE event = webhook_event.id)
                """).execute(arguments: [list])
        }
    }

    public func nextWebhookRetry(target: String) throws -> Int64? {
        try writer.readInCompiledTransaction { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT min(due) FROM webhook_delivery WHERE target = ? AND attempts > 0"),
                               arguments: [target])
        }
    }

    public func retryWebhook(target: String, id: Int64, attempts: Int, due: Int64) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE webhook_delivery SET attempts = ?, due = ? WHERE target = ? AND event = ?",
                           arguments: [attempts, due, target, id])
        }
    }

    public func webhookBacklog() throws -> [String: Int] {
        try writer.readInCompiledTransaction { db in
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT target, count(*) FROM webhook_delivery GROUP BY target")) {
                counts[row[0]] = row[1]
            }
            return counts
        }
    }

    public func forgetWebhookTargets(except targets: [String]) throws -> Int {
        try writer.write { db in
            let kept = Self.jsonList(targets)
            try db.execute(sql: "DELETE FROM webhook_delivery WHERE target NOT IN (SELECT value FROM json_each(?))", arguments: [kept])
            let forgotten = db.changesCount
            try db.execute(sql: "DELETE FROM webhook_event WHERE NOT EXISTS (SELECT 1 FROM webhook_delivery WHERE event = webhook_event.id)")
            return forgotten
        }
    }
}
