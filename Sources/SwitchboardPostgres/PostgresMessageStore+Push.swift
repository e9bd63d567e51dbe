import Foundation
import PostgresNIO
import SwitchboardCore

/// Push subscriptions and the queue of notifications owed, shared by every
/// node. A batch is claimed in one statement (`FOR UPDATE SKIP LOCKED`, its
/// `due` moved to the claim's end), so two nodes never send one
/// notification; a node that dies mid-batch leaves it to be claimed again
/// when the claim runs out.
extension PostgresMessageStore: PushStore {
    public func vapidKey(candidate: [UInt8]) throws -> [UInt8] {
        try connections.query("INSERT INTO switchboard_keys (name, value) VALUES ('vapid', \(Data(candidate))) ON CONFLICT DO NOTHING")
        let stored = try connections.query("SELECT value FROM switchboard_keys WHERE name = 'vapid'").first?.decode(Data.self)
        return stored.map { [UInt8]($0) } ?? candidate
    }

    public func subscribe(_ subscription: PushSubscription, limit: Int) throws -> Bool {
        let key = subscription.user.lowercased(), now = Int64(Date().timeIntervalSince1970 * 1000)
        // One statement: the user's count and the endpoint's owner read and written together.
        let rows = try connections.query("""
            WITH owner AS (SELECT user_key FROM switchboard_push_subscriptions WHERE endpoint = \(subscription.endpoint)),
                 kept AS (SELECT count(*) AS n FROM switchboard_push_subscriptions WHERE user_key = \(key)),
                 allowed AS (SELECT 1 WHERE (SELECT user_key FROM owner) IS NOT DISTINCT FROM \(key) OR (SELECT n FROM kept) < \(limit)),
                 dropped AS (DELETE FROM switchboard_push_jobs WHERE endpoint = \(subscription.endpoint)
                             AND EXISTS (SELECT 1 FROM allowed) AND EXISTS (SELECT 1 FROM owner WHERE user_key <> \(key)))
            INSERT INTO switchboard_push_subscriptions (endpoint, username, user_key, p256dh, auth, created)
            SELECT \(subscription.endpoint), \(subscription.user), \(key), \(subscription.p256dh), \(subscription.auth), \(now)
            WHERE EXISTS (SELECT 1 FROM allowed)
            ON CONFLICT (endpoint) DO UPDATE SET username = excluded.username, user_key = excluded.user_key,
                                                 p256dh = excluded.p256dh, auth = excluded.auth
            RETURNING endpoint
            """)
        return rows.first != nil
    }

    public func unsubscribe(user: String, endpoint: String) throws -> Bool {
        let rows = try connections.query("""
            WITH gone AS (DELETE FROM switchboard_push_subscriptions WHERE endpoint = \(endpoint) AND user_key = \(user.lowercased())
                          RETURNING endpoint),
                 jobs AS (DELETE FROM switchboard_push_jobs WHERE endpoint IN (SELECT endpoint FROM gone))
            SELECT endpoint FROM gone
            """)
        return rows.first != nil
    }

    public func dropSubscription(endpoint: String) throws {
        try connections.query("""
            WITH jobs AS (DELETE FROM switchboard_push_jobs WHERE endpoint = \(endpoint))
            DELETE FROM switchboard_push_subscriptions WHERE endpoint = \(endpoint)
            """)
    }

    /// One round trip: the notification is always made (asking first whether
    /// anyone is subscribed would be a second whenever someone is).
    public func enqueuePush(room: String, messageID: Int64, users: [String], now: Int64,
                            notification: () -> PushNotification) throws -> Int {
        let keys = users.map { $0.lowercased() }
        let content = notification()
        return try connections.query("""
            INSERT INTO switchboard_push_jobs (endpoint, room, message_id, payload, topic, ttl, attempts, due, created)
            SELECT s.endpoint, \(room), \(messageID), \(Data(content.payload)), \(content.topic), \(content.ttl), 0, \(now), \(now)
            FROM switchboard_push_subscriptions s JOIN switchboard_members m ON m.room = \(room) AND m.user_key = s.user_key
            WHERE NOT m.muted AND s.user_key = ANY(\(keys))
            RETURNING id
            """).count
    }

    public func cancelPushes(messageID: Int64) throws {
        try connections.query("DELETE FROM switchboard_push_jobs WHERE message_id = \(messageID)")
    }

    public func claimDuePushes(now: Int64, claimUntil: Int64, limit: Int) throws -> [PushJob] {
        try connections.query("""
            WITH due AS (SELECT id FROM switchboard_push_jobs WHERE due <= \(now) ORDER BY due, id LIMIT \(limit)
                         FOR UPDATE SKIP LOCKED),
                 claimed AS (UPDATE switchboard_push_jobs j SET due = \(claimUntil) FROM due WHERE j.id = due.id
                             RETURNING j.id, j.endpoint, j.payload, j.topic, j.ttl, j.attempts, j.created)
            SELECT c.id, c.payload, c.topic, c.ttl, c.attempts, c.created, s.username, s.endpoint, s.p256dh, s.auth
            FROM claimed c JOIN switchboard_push_subscriptions s ON s.endpoint = c.endpoint
            ORDER BY c.id
            """).map { row in
            let (id, payload, topic, ttl, attempts, created, user, endpoint, p256dh, auth) =
                try row.decode((Int64, Data, String, Int, Int, Int64, String, String, String, String).self)
            return PushJob(id: id, subscription: PushSubscription(user: user, endpoint: endpoint, p256dh: p256dh, auth: auth),
                           payload: [UInt8](payload), topic: topic, ttl: ttl, attempts: attempts, due: claimUntil, created: created)
        }
    }

    public func finishPushes(ids: [Int64]) throws {
        try connections.query("DELETE FROM switchboard_push_jobs WHERE id = ANY(\(ids))")
    }

    public func retryPush(id: Int64, attempts: Int, due: Int64) throws {
        try connections.query("UPDATE switchboard_push_jobs SET attempts = \(attempts), due = \(due) WHERE id = \(id)")
    }

    public func pushQueue() throws -> (pending: Int, nextDue: Int64?) {
        let row = try connections.query("SELECT count(*), min(due) FROM switchboard_push_jobs").first
        guard let row else { return (0, nil) }
        let (count, next) = try row.decode((Int64, Int64?).self)
        return (Int(count), next)
    }
}
