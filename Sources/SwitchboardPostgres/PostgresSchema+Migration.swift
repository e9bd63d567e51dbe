import PostgresNIO

extension PostgresSchema {

    /// Creates what is missing, once per version, under the advisory lock;
    /// returns the version the database was at (higher than ``version``: a
    /// newer node migrated it, as in a rolling upgrade).
    static func migrate(_ connections: PostgresConnections) throws -> Int {
        try connections.withConnection { connection in
            try connections.query("SELECT pg_advisory_lock(\(lockKey))", on: connection)
            defer { _ = try? connections.query("SELECT pg_advisory_unlock(\(lockKey))", on: connection) }
            try connections.query(PostgresQuery(unsafeSQL: statements[0]), on: connection)
            let current = try connections.query("SELECT coalesce(max(version), 0) FROM switchboard_schema", on: connection)
                .first?.decode(Int.self) ?? 0
            guard current < version else { return current }
            for statement in statements.dropFirst() {
                try connections.query(PostgresQuery(unsafeSQL: statement), on: connection)
            }
            try connections.query("INSERT INTO switchboard_schema (version) VALUES (\(version))", on: connection)
            return current
        }
    }
}
