import GRDB
import SwitchboardCore

/// Sending exactly once: a user's client id names one message, looked up
/// in the commit's transaction (so two publishes of it in one group, or one
/// after a restart, store one message), with a unique index behind it.
extension SQLiteMessageStore {
    /// The message `user` sent with `clientID`, if any, marked `replayed`.
    static func sent(_ clientID: String, by user: String, in db: Database) throws -> Message? {
        let select = try db.cachedStatement(sql: "SELECT \(columns) FROM message WHERE user = ? AND client_id = ?")
        guard var earlier = try MessageRows.fetchOne(select, arguments: [user, clientID]) else { return nil }
        earlier.replayed = true
        return earlier
    }
}
