import Foundation
import GRDB
import SwitchboardCore

/// Push subscriptions and the queue of notifications owed, beside the
/// messages (migration v7). One node: a claim only keeps this node's own
/// batches apart.
extension SQLiteMessageStore: PushStore {
    public func vapidKey(candidate: [UInt8]) throws -> [UInt8] {
        try writer.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO server_key (name, value) VALUES ('vapid', ?)", arguments: [Data(candidate)])
            return try Data.fetchOne(db, sql: "SELECT value FROM server_key WHERE name = 'vapid'").map { [UInt8]($0) } ?? candidate
        }
    }

    public func subscribe(_ subscription: PushSubscription, limit: Int) throws -> Bool {
        let key = subscription.user.lowercased()
        return try writeSubscriptions { db in
            let owner = try String.fetchOne(db, sql: "SELECT user_key FROM push_subscription WHERE endpoint = ?",
                                            arguments: [subscription.endpoint])
            if owner != key {
                let kept = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM push_subscription WHERE user_key = ?", arguments: [key]) ?? 0
                guard kept < limit else { return (false, []) }
                // A browser that changed hands: the last owner's notifications do not go to the new one.
                if owner != nil { try db.execute(sql: "DELETE FROM push_job WHERE endpoint = ?", arguments: [subscription.endpoint]) }
            }
            try db.execute(sql: """
                INSERT INTO push_subscription (endpoint, user, user_key, p256dh, auth, created) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (endpoint) DO UPDATE SET user = excluded.user, user_key = excluded.user_key,
                                                     p256dh = excluded.p256dh, auth = excluded.auth
                """, arguments: [subscription.endpoint, subscription.user, key, subscription.p256dh, subscription.auth,
                                 Int64(Date().timeIntervalSince1970 * 1000)])
            return (true, [key] + (owner.map { [$0] } ?? []))
        }
    }

    public func unsubscribe(user: String, endpoint: String) throws -> Bool {
        try writeSubscriptions { db in
            try db.execute(sql: "DELETE FROM push_subscription WHERE endpoint = ? AND user_key = ?", arguments: [endpoint, user.lowercased()])
            guard db.changesCount == 1 else { return (false, []) }
            try db.execute(sql: "DELETE FROM push_job WHERE endpoint = ?", arguments: [endpoint])
            return (true, [user.lowercased()])
        }
    }

    public func dropSubscription(endpoint: String) throws {
        try writeSubscriptions { db in
            let owner = try String.fetchOne(db, sql: "SELECT user_key FROM push_subscription WHERE endpoint = ?", arguments: [endpoint])
            try db.execute(sql: "DELETE FROM push_subscription WHERE endpoint = ?", arguments: [endpoint])
            try db.execute(sql: "DELETE FROM push_job WHERE endpoint = ?", arguments: [endpoint])
            return ((), owner.map { [$0] } ?? [])
        }
    }

    /// A write that adds or takes subscriptions: `body` returns its result and
    /// the user keys whose subscriptions it changed, read again into
    /// ``PushSubscriberKeys`` in the same transaction. If the transaction
    /// fails after that, every key is read again from the file.
    private func writeSubscriptions<Value>(_ body: (Database) throws -> (Value, changed: [String])) throws -> Value {
        do {
            return try writer.write { db in
                let (value, changed) = try body(db)
                try pushSubscribers.refresh(changed, in: db)
                return value
            }
        } catch {
            try? writer.write { db in try pushSubscribers.load(db) }
            throw error
        }
    }

    public func enqueuePush(room: String, messageID: Int64, users: [String], now: Int64,
                            notification: () -> PushNotification) throws -> Int {
        let userKeys = users.map { $0.lowercased() }
        // Most messages with someone away find no subscription: then neither a
        // write transaction (the commit thread's lock) nor the notification is made.
        guard pushSubscribers.containsAny(of: userKeys) else { return 0 }
        let keys = Self.jsonList(userKeys)
        let content = notification()
        // Its statement and transaction compiled once per connection: compiled at
        // every call they cost about 320,000 instructions.
        return try writer.writeInCompiledTransaction { db in
            try db.cachedStatement(sql: """
                INSERT INTO push_job (endpoint, room, message_id, payload, topic, ttl, attempts, due, created)
                SELECT s.endpoint, ?, ?, ?, ?, ?, 0, ?, ?
                FROM push_subscription s JOIN conversation_member m ON m.room = ? AND m.user_key = s.user_key
                WHERE m.muted = 0 AND s.user_key IN (SELECT value FROM json_each(?))
                """).execute(arguments: [room, messageID, Data(content.payload), content.topic, content.ttl, now, now, room, keys])
            return db.changesCount
        }
    }

    public func cancelPushes(messageID: Int64) throws {
        try writer.writeInCompiledTransaction { db in
            try db.cachedStatement(sql: "DELETE FROM push_job WHERE message_id = ?").execute(arguments: [messageID])
        }
    }

    public func claimDuePushes(now: Int64, claimUntil: Int64, limit: Int) throws -> [PushJob] {
        try writer.writeInCompiledTransaction { db in
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT j.id, j.payload, j.topic, j.ttl, j.attempts, j.due, j.created, s.user, s.endpoint, s.p256dh, s.auth
                FROM push_job j JOIN push_subscription s ON s.endpoint = j.endpoint
                WHERE j.due <= ? ORDER BY j.due, j.id LIMIT ?
                """), arguments: [now, limit])
            let jobs = rows.map { row in
                PushJob(id: row["id"], subscription: PushSubscription(user: row["user"], endpoint: row["endpoint"],
                                                                      p256dh: row["p256dh"], auth: row["auth"]),
                        payload: [UInt8]((row["payload"] as Data?) ?? Data()), topic: row["topic"], ttl: row["ttl"],
                        attempts: row["attempts"], due: row["due"], created: row["created"])
            }
            let claim = try db.cachedStatement(sql: "UPDATE push_job SET due = ? WHERE id = ?")
            for job in jobs { try claim.execute(arguments: [claimUntil, job.id]) }
            return jobs
        }
    }

    public func finishPushes(ids: [Int64]) throws {
        try writer.writeInCompiledTransaction { db in
            let delete = try db.cachedStatement(sql: "DELETE FROM push_job WHERE id = ?")
            for id in ids { try delete.execute(arguments: [id]) }
        }
    }

    public func retryPush(id: Int64, attempts: Int, due: Int64) throws {
        try writer.writeInCompiledTransaction { db in
            try db.cachedStatement(sql: "UPDATE push_job SET attempts = ?, due = ? WHERE id = ?").execute(arguments: [attempts, due, id])
        }
    }

    public func pushQueue() throws -> (pending: Int, nextDue: Int64?) {
        try writer.readInCompiledTransaction { db in
            let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*), MIN(due) FROM push_job"))
            return (row?[0] ?? 0, row?[1])
        }
    }
}
