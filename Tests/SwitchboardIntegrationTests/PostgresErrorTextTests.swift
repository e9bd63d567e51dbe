import Foundation
import Logging
import Testing
import SwitchboardTesting
@testable import SwitchboardPostgres

/// What a PostgreSQL error says. postgres-nio describes every error with one
/// sentence ("PSQLError – Generic description to prevent accidental leakage
/// of sensitive data …"), and that was all an operator read when a node
/// could not start (a database or user that does not exist, nothing on the
/// port) and all a 503 said: now the server's message and SQLSTATE, or what
/// happened to the connection, without the query or the server's detail.
@Suite("PostgreSQL: error text", .enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.skipReason)))
struct PostgresErrorTextTests {
    func openingFails(_ url: PostgresURL) -> String {
        do {
            let store = try PostgresMessageStore(url: url, nodeID: "a", timeoutSeconds: 3, logger: Logger(label: "test"))
            try? store.close()
            return "opened"
        } catch {
            return "\(error)"
        }
    }

    @Test func aNodeThatCannotStartSaysWhy() throws {
        var url = try PostgresURL(TestPostgres.freshDatabase())
        url.password = "not said"
        url.database = "switchboard_no_such_database"
        let missing = openingFails(url)
        #expect(missing == #"cannot open the PostgreSQL database \#(url.redacted): PostgreSQL: database "switchboard_no_such_database" does not exist (3D000)"#)
        #expect(!missing.contains("not said"), "the password is not printed")
        url.port = 1
        let refused = openingFails(url)
        #expect(refused.hasPrefix("cannot open the PostgreSQL database \(url.redacted): PostgreSQL: the connection could not be made: "), "\(refused)")
        #expect(refused.lowercased().contains("refused"), "\(refused)")
    }

    @Test func aFailedQuerySaysWhatTheServerSaidButNotTheQuery() throws {
        let connections = PostgresConnections(url: try PostgresURL(TestPostgres.freshDatabase()), logger: Logger(label: "test"))
        defer { connections.close() }
        do {
            try connections.query("SELECT secret FROM switchboard_no_such_table WHERE x = 'value'")
            Issue.record("the query succeeded")
        } catch let error as PostgresStoreError {
            #expect(error.description == #"PostgreSQL: relation "switchboard_no_such_table" does not exist (42P01)"#)
            #expect(!error.isUnanswered, "the server answered: a refusal, not a stall")
            #expect(String(reflecting: error).contains("SELECT secret"), "the operator's log keeps the detail")
        }
    }
}
