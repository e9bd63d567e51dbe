import Foundation
import GRDB
import Testing
import SwitchboardCore
import SwitchboardTesting
@testable import SwitchboardStore

/// What a client reads when the store refuses: the database's message and
/// code, never the statement it ran. GRDB's errors name it (`… - while
/// executing `INSERT INTO message …``), and a 503 quoted them whole.
@Suite("What a store's refusal says")
struct StoreErrorTextTests {
    @Test func aRefusedPublishAndSignUpNameTheDatabasesMessageNotItsStatement() throws {
        let server = try TestServer()
        let client = server.client
        let first = try client.publish(text: "before")
        // Another connection makes the database refuse new rows, as SQLite itself would refuse them on a full disk.
        let other = try DatabaseQueue(path: server.databasePath)
        try other.write { db in
            try db.execute(sql: """
                CREATE TRIGGER refuse_messages BEFORE INSERT ON message BEGIN SELECT RAISE(ABORT, 'refused by the operator'); END;
                CREATE TRIGGER refuse_accounts BEFORE INSERT ON account BEGIN SELECT RAISE(ABORT, 'refused by the operator'); END;
                """)
        }
        let refused = try client.postForm("lobby", user: "luke", text: "while refused")
        #expect(refused.status == 503 && refused.errorCode == "store_unavailable")
        let message = try Self.message(refused)
        #expect(message == "The message could not be stored: SQLite: refused by the operator (1811).", "\(message)")

        // Work on the store gate (an account's row) reads the same way.
        let signUp = try client.request("POST", "/api/accounts", headers: [("Content-Type", "application/json")],
                                        body: Array(#"{"user":"leia","password":"correct horse battery"}"#.utf8))
        #expect(signUp.status == 503 && signUp.errorCode == "store_unavailable", "\(signUp.status) \(signUp.text)")
        for text in [refused.text, signUp.text] {
            #expect(text.contains("refused by the operator"), "\(text)")
            #expect(!text.contains("INSERT") && !text.contains("while executing") && !text.contains("SQLite error"), "\(text)")
        }

        try other.write { try $0.execute(sql: "DROP TRIGGER refuse_messages; DROP TRIGGER refuse_accounts") }
        #expect(try client.publish(text: "after").id == first.id + 1)
    }

    @Test func summariesKeepTheMessageAndCodeAndDropTheStatementAndRow() {
        let full = DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full",
                                 sql: "INSERT INTO message (room, user, text) VALUES (?, ?, ?)", arguments: ["lobby", "luke", "a secret"])
        #expect("\(full)".contains("INSERT"), "GRDB's own description names the statement")
        #expect(SwitchboardError.storeFailure(because: full).message == "The message could not be stored: SQLite: database or disk is full (13).")
        #expect(SwitchboardError.storeNotWritable(because: DatabaseError(resultCode: .SQLITE_READONLY, message: "attempt to write a readonly database")).message
                    == "The store is not writable: SQLite: attempt to write a readonly database (8).")
        // A refusal already said stays as it is; any other error is described.
        #expect(SwitchboardError.storeUnavailable(because: SwitchboardError.shuttingDown) == .shuttingDown)
        #expect(SwitchboardError.storeUnavailable(because: CocoaError(.fileWriteOutOfSpace)).message.hasPrefix("The store could not answer: "))
    }

    private static func message(_ response: TestResponse) throws -> String {
        (try response.json()["error"] as? [String: Any])?["message"] as? String ?? ""
    }
}
