/// Where push subscriptions and the queue of notifications owed are kept:
/// the same database as the messages, so a restart forgets none and, on
/// PostgreSQL, every node sees one queue. Called through the store gate,
/// never on a thread that serves connections.
public protocol PushStore: Sendable {
    /// The VAPID private key every node signs with: the one kept, or
    /// `candidate` (kept from now on) when there is none yet.
    func vapidKey(candidate: [UInt8]) throws -> [UInt8]
    /// Keeps `subscription` (an endpoint already kept is given to this user
    /// with these keys); false when the user keeps `limit` others already.
    func subscribe(_ subscription: PushSubscription, limit: Int) throws -> Bool
    /// Forgets `user`'s subscription at `endpoint` and what is queued for it; false: there was none.
    func unsubscribe(user: String, endpoint: String) throws -> Bool
    /// Forgets the subscription at `endpoint`, whoever's (the push service said it is gone).
    func dropSubscription(endpoint: String) throws
    /// Queues the notification of message `messageID` in `room` for every
    /// subscription of `users` who have not muted `room`; returns how many were queued.
    /// `notification` makes its content, and may be left uncalled when there is
    /// no subscription to queue it for (most messages where no one away subscribed).
    func enqueuePush(room: String, messageID: Int64, users: [String], now: Int64,
                     notification: () -> PushNotification) throws -> Int
    /// Forgets what is still queued for message `messageID` (it was unsent: its text goes nowhere now).
    func cancelPushes(messageID: Int64) throws
    /// Up to `limit` notifications due by `now`, oldest first, each claimed
    /// until `claimUntil` (so no other node sends it meanwhile).
    func claimDuePushes(now: Int64, claimUntil: Int64, limit: Int) throws -> [PushJob]
    /// The notifications were accepted (or can never be): they leave the queue.
    func finishPushes(ids: [Int64]) throws
    /// The notification is tried again at `due`, after `attempts` attempts.
    func retryPush(id: Int64, attempts: Int, due: Int64) throws
    /// How many notifications are queued, and when the next is due (for the figures and the sender's sleep).
    func pushQueue() throws -> (pending: Int, nextDue: Int64?)
}
