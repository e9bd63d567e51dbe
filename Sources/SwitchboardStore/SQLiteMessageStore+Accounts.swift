import Foundation
import GRDB
import SwitchboardCore

/// Accounts, bans, revocations and the signing key, beside the messages.
/// Names are unique in any case (`user_key` is the lower-cased name).
extension SQLiteMessageStore: AccountStore {
    public func createAccount(_ user: String, passwordHash: String, created: Int64) throws -> Bool {
        try writer.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO account (user, user_key, password_hash, created) VALUES (?, ?, ?, ?)",
                           arguments: [user, user.lowercased(), passwordHash, created])
            return db.changesCount == 1
        }
    }

    public func passwordHash(of user: String) throws -> String? {
        try writer.readInCompiledTransaction { db in
            try String.fetchOne(db, sql: "SELECT password_hash FROM account WHERE user = ?", arguments: [user])
        }
    }

    public func accounts() throws -> [Account] {
        try writer.readInCompiledTransaction { db in
            try Row.fetchAll(db, sql: "SELECT user, created FROM account ORDER BY created, user")
                .map { Account(user: $0["user"], created: $0["created"]) }
        }
    }

    public func setBan(_ user: String, until: Int64?) throws {
        try writer.write { db in
            if let until {
                try db.execute(sql: "INSERT OR REPLACE INTO ban (user_key, until) VALUES (?, ?)", arguments: [user.lowercased(), until])
            } else {
                try db.execute(sql: "DELETE FROM ban WHERE user_key = ?", arguments: [user.lowercased()])
            }
        }
    }

    public func bans() throws -> [String: Int64] {
        try writer.readInCompiledTransaction { db in
            Dictionary(try Row.fetchAll(db, sql: "SELECT user_key, until FROM ban").map { ($0["user_key"], $0["until"]) },
                       uniquingKeysWith: max)
        }
    }

    public func revoke(_ key: String, expires: Int64) throws {
        try writer.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO revoked_token (key, expires) VALUES (?, ?)", arguments: [key, expires])
        }
    }

    public func revocations(now: Int64) throws -> [String: Int64] {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM revoked_token WHERE expires <= ?", arguments: [now])
            return Dictionary(try Row.fetchAll(db, sql: "SELECT key, expires FROM revoked_token").map { ($0["key"], $0["expires"]) },
                              uniquingKeysWith: max)
        }
    }

    public func signingKey(candidate: [UInt8]) throws -> [UInt8] {
        try writer.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO server_key (name, value) VALUES ('session', ?)", arguments: [Data(candidate)])
            let stored = try Data.fetchOne(db, sql: "SELECT value FROM server_key WHERE name = 'session'")
            return stored.map { [UInt8]($0) } ?? candidate
        }
    }
}
