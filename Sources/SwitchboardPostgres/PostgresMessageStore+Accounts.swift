import Foundation
import PostgresNIO
import SwitchboardCore

/// Accounts, bans, revocations and the signing key in the shared database,
/// so that every node knows them. Names are unique in any case.
extension PostgresMessageStore: AccountStore {
    public func createAccount(_ user: String, passwordHash: String, created: Int64) throws -> Bool {
        let rows = try connections.query("""
            INSERT INTO switchboard_accounts (username, user_key, password_hash, created)
            VALUES (\(user), \(user.lowercased()), \(passwordHash), \(created))
            ON CONFLICT DO NOTHING RETURNING username
            """)
        return rows.first != nil
    }

    public func passwordHash(of user: String) throws -> String? {
        try connections.query("SELECT password_hash FROM switchboard_accounts WHERE username = \(user)")
            .first?.decode(String.self)
    }

    public func accounts() throws -> [Account] {
        try connections.query("SELECT username, created FROM switchboard_accounts ORDER BY created, username").map { row in
            let (user, created) = try row.decode((String, Int64).self)
            return Account(user: user, created: created)
        }
    }

    public func setBan(_ user: String, until: Int64?) throws {
        if let until {
            try connections.query("""
                INSERT INTO switchboard_bans (user_key, until) VALUES (\(user.lowercased()), \(until))
                ON CONFLICT (user_key) DO UPDATE SET until = excluded.until
                """)
        } else {
            try connections.query("DELETE FROM switchboard_bans WHERE user_key = \(user.lowercased())")
        }
    }

    public func bans() throws -> [String: Int64] {
        Dictionary(try connections.query("SELECT user_key, until FROM switchboard_bans").map { try $0.decode((String, Int64).self) },
                   uniquingKeysWith: max)
    }

    public func revoke(_ key: String, expires: Int64) throws {
        try connections.query("""
            INSERT INTO switchboard_revoked (key, expires) VALUES (\(key), \(expires)) ON CONFLICT (key) DO NOTHING
            """)
    }

    public func revocations(now: Int64) throws -> [String: Int64] {
        try connections.query("DELETE FROM switchboard_revoked WHERE expires <= \(now)")
        return Dictionary(try connections.query("SELECT key, expires FROM switchboard_revoked").map { try $0.decode((String, Int64).self) },
                          uniquingKeysWith: max)
    }

    public func signingKey(candidate: [UInt8]) throws -> [UInt8] {
        try connections.query("INSERT INTO switchboard_keys (name, value) VALUES ('session', \(Data(candidate))) ON CONFLICT DO NOTHING")
        let stored = try connections.query("SELECT value FROM switchboard_keys WHERE name = 'session'").first?.decode(Data.self)
        return stored.map { [UInt8]($0) } ?? candidate
    }
}
