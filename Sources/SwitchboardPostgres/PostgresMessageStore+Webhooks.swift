import PostgresNIO
import SwitchboardCore

/// Webhooks on a shared database: one node at a time holds the lease, reads
/// the log after the cursor and delivers (so each event goes out from one
/// node, in order); a node that dies leaves the lease to run out and another
/// takes it on from the cursor. Each write is one statement.
extension PostgresMessageStore: WebhookStore {
    public func holdWebhookLease(node: String, now: Int64, until: Int64, start: Int64) throws -> Bool {
        try connections.query("""
            INSERT INTO switchboard_webhook_lease (id, node, until, cursor) VALUES (1, \(node), \(until), \(start))
            ON CONFLICT (id) DO UPDATE SET node = excluded.node, until = excluded.until
            WHERE switchboard_webhook_lease.node = excluded.node OR switchboard_webhook_lease.until <= \(now)
            """)
        return try connections.query("SELECT node FROM switchboard_webhook_lease WHERE id = 1").first?.decode(String.self) == node
    }

    public func webhookCursor() throws -> Int64 {
        try connections.query("SELECT cursor FROM switchboard_webhook_lease WHERE id = 1").first?.decode(Int64.self) ?? 0
    }

    public func queueWebhooks(_ events: [WebhookEvent], targets: [String], cursor: Int64?, node: String?, now: Int64) throws -> Bool {
        let types = events.map(\.type), keys = events.map(\.key), times = events.map(\.ts)
        let datas = events.map { String(decoding: $0.data, as: UTF8.self) }
        let messages = events.map { $0.message ?? 0 }
        // Unsends: the text of events still waiting for their message is taken out (earlier batches' rows).
        let unsends = events.compactMap(\.unsend)
        let unsent = unsends.map(\.message)
        let createdStubs = unsends.map { String(decoding: $0.created, as: UTF8.self) }
        let editedStubs = unsends.map { String(decoding: $0.edited, as: UTF8.self) }
        // A nil node needs no lease: `held` is then one row whatever the lease.
        let query: PostgresQuery = """
            WITH moved AS (UPDATE switchboard_webhook_lease SET cursor = coalesce(\(cursor)::bigint, cursor)
                           WHERE id = 1 AND node = \(node)::text RETURNING 1),
                 held AS (SELECT 1 FROM moved UNION ALL SELECT 1 WHERE \(node)::text IS NULL),
                 input AS (SELECT * FROM unnest(\(types)::text[], \(keys)::text[], \(times)::bigint[], \(datas)::text[],
                                                \(messages)::bigint[])
                           WITH ORDINALITY AS u(type, key, ts, data, message, n)),
                 events AS (INSERT INTO switchboard_webhook_events (type, key, ts, data, message)
                            SELECT type, key, ts, data, nullif(message, 0) FROM input WHERE EXISTS (SELECT 1 FROM held) ORDER BY n
                            RETURNING id, key),
                 scrubbed AS (UPDATE switchboard_webhook_events e
                              SET data = CASE e.type WHEN 'message.edited' THEN u.edited ELSE u.created END
                              FROM unnest(\(unsent)::bigint[], \(createdStubs)::text[], \(editedStubs)::text[]) AS u(id, created, edited)
                              WHERE e.message = u.id AND e.type IN ('message.created', 'message.edited')
                                AND EXISTS (SELECT 1 FROM held)),
                 deliveries AS (INSERT INTO switchboard_webhook_deliveries (target, event, key, attempts, due)
                                SELECT t, e.id, e.key, 0, \(now) FROM events e CROSS JOIN unnest(\(targets)::text[]) AS t)
            SELECT count(*)::int FROM held
            """
        return try connections.query(query).first?.decode(Int.self) == 1
    }

    public func dueWebhooks(target: String, now: Int64, limit: Int) throws -> [WebhookDelivery] {
        try connections.query("""
            SELECT e.id, e.type, e.key, e.ts, e.data, d.attempts
            FROM switchboard_webhook_deliveries d JOIN switchboard_webhook_events e ON e.id = d.event
            WHERE d.target = \(target)
              AND d.key NOT IN (SELECT key FROM switchboard_webhook_deliveries WHERE target = \(target) AND due > \(now))
            ORDER BY d.event LIMIT \(limit)
            """).map { row in
            let (id, type, key, ts, data, attempts) = try row.decode((Int64, String, String, Int64, String, Int).self)
            return WebhookDelivery(event: WebhookEvent(id: id, type: type, key: key, ts: ts, data: Array(data.utf8)), attempts: attempts)
        }
    }

    public func finishWebhooks(target: String, ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        try connections.query("""
            WITH gone AS (DELETE FROM switchboard_webhook_deliveries WHERE target = \(target) AND event = ANY(\(ids)) RETURNING event)
            DELETE FROM switchboard_webhook_events e WHERE e.id IN (SELECT event FROM gone)
              AND NOT EXISTS (SELECT 1 FROM switchboard_webhook_deliveries d WHERE d.event = e.id AND d.target <> \(target))
            """)
    }

    public func nextWebhookRetry(target: String) throws -> Int64? {
        try connections.query("SELECT min(due) FROM switchboard_webhook_deliveries WHERE target = \(target) AND attempts > 0")
            .first?.decode(Int64?.self) ?? nil
    }

    public func retryWebhook(target: String, id: Int64, attempts: Int, due: Int64) throws {
        try connections.query("""
            UPDATE switchboard_webhook_deliveries SET attempts = \(attempts), due = \(due) WHERE target = \(target) AND event = \(id)
            """)
    }

    public func webhookBacklog() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try connections.query("SELECT target, count(*)::int FROM switchboard_webhook_deliveries GROUP BY target") {
            let (target, count) = try row.decode((String, Int).self)
            counts[target] = count
        }
        return counts
    }

    public func forgetWebhookTargets(except targets: [String]) throws -> Int {
        try connections.query("""
            WITH gone AS (DELETE FROM switchboard_webhook_deliveries WHERE NOT (target = ANY(\(targets))) RETURNING event),
                 orphans AS (DELETE FROM switchboard_webhook_events e WHERE e.id IN (SELECT event FROM gone)
                             AND NOT EXISTS (SELECT 1 FROM switchboard_webhook_deliveries d WHERE d.event = e.id
                                             AND d.target = ANY(\(targets))))
            SELECT count(*)::int FROM gone
            """).first?.decode(Int.self) ?? 0
    }
}
