/// Where the events owed to an application's backend wait (SPEC "An
/// application's backend"): the same database as the messages. The log is
/// read after a cursor by the one node holding the lease, its events put in
/// each receiver's queue in the same transaction as the cursor moves; each
/// receiver's queue is delivered in order per key. Called through the store
/// gate, never on a thread that serves connections.
public protocol WebhookStore: Sendable {
    /// Takes the webhook lease for `node` until `until`, or renews it; true
    /// when `node` holds it now (no other node's lease runs past `now`).
    /// The first holder's cursor starts at `start` (the log's end then: a
    /// backend is told of what happens from its first start, not the history).
    func holdWebhookLease(node: String, now: Int64, until: Int64, start: Int64) throws -> Bool
    /// How far the log has been read for webhooks.
    func webhookCursor() throws -> Int64
    /// Queues `events` for every one of `targets` and moves the cursor to
    /// `cursor` (nil: leaves it), in one transaction, only while `node`
    /// holds the lease; false (nothing written) when it does not. A nil
    /// `node` needs no lease (a user's presence, which every node tells).
    /// A `message.deleted` among them takes the text out of the events
    /// still waiting for its message (``WebhookEvent/unsend``):
    /// an unsent text is kept nowhere, the queue included.
    func queueWebhooks(_ events: [WebhookEvent], targets: [String], cursor: Int64?, node: String?, now: Int64) throws -> Bool
    /// Up to `limit` events queued for `target`, oldest first, leaving out
    /// every key whose first event waits for a retry after `now`.
    func dueWebhooks(target: String, now: Int64, limit: Int) throws -> [WebhookDelivery]
    /// The events `ids` reached `target` (or were given up): they leave its queue.
    func finishWebhooks(target: String, ids: [Int64]) throws
    /// When the first of `target`'s events waiting for a retry is due; nil when none waits for one.
    func nextWebhookRetry(target: String) throws -> Int64?
    /// Event `id` is tried again for `target` at `due`, after `attempts` attempts.
    func retryWebhook(target: String, id: Int64, attempts: Int, due: Int64) throws
    /// How many events wait for each receiver.
    func webhookBacklog() throws -> [String: Int]
    /// Forgets what waits for receivers that are no longer configured; returns how many events.
    func forgetWebhookTargets(except targets: [String]) throws -> Int
}

