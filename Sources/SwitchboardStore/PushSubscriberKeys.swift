import GRDB
import Synchronization

/// The user keys that keep at least one push subscription, in memory: read
/// from the file at open and set again by every write that adds or takes a
/// subscription, in that write's transaction. SQLite is one node's store,
/// so nothing else changes the table (a row added by hand is seen at the
/// next start). It lets a message of a conversation whose members away keep
/// no subscription (most, where few people enable notifications) skip the
/// push queue: a reader's transaction to ask cost about 85,000
/// instructions, a write 65,000, this one lookup a member.
final class PushSubscriberKeys: Sendable {
    private let keys = Mutex<Set<String>>([])

    /// Whether any of `userKeys` (lowercased names) keeps a subscription.
    func containsAny(of userKeys: [String]) -> Bool {
        keys.withLock { keys in userKeys.contains(where: keys.contains) }
    }

    /// Reads every key from the table (at open).
    func load(_ db: Database) throws {
        let found = try Set(String.fetchAll(db, sql: "SELECT DISTINCT user_key FROM push_subscription"))
        keys.withLock { $0 = found }
    }

    /// Reads `userKeys` again, inside the write transaction that changed
    /// their subscriptions (writes are one at a time: the last read is the
    /// newest). A transaction that then fails is followed by ``load(_:)``.
    func refresh(_ userKeys: [String], in db: Database) throws {
        for key in userKeys {
            let kept = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM push_subscription WHERE user_key = ?)",
                                         arguments: [key]) ?? false
            _ = keys.withLock { keys in kept ? keys.insert(key).inserted : keys.remove(key) != nil }
        }
    }
}
