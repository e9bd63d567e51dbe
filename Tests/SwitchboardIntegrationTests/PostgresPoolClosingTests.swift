import Dispatch
import Foundation
import Logging
import PostgresNIO
import Synchronization
import Testing
import SwitchboardTesting
@testable import SwitchboardPostgres

/// A node that stops while one of its connections is lent (its cluster's
/// queue or a store call still at work): the pool waits for it, closes it,
/// and refuses what comes after. Let go open instead, it was a socket and a
/// backend leaked, and postgres-nio's assertion in a debug build (a node
/// started and stopped within a second crashed the scale-out tests).
@Suite("PostgreSQL: closing the pool", .enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.skipReason)))
struct PostgresPoolClosingTests {
    @Test func aConnectionLentWhileThePoolClosesIsClosedAndLaterCallsAreRefused() throws {
        let connections = PostgresConnections(url: try PostgresURL(TestPostgres.freshDatabase()), logger: Logger(label: "test"))
        let lent = Mutex<PostgresConnection?>(nil)
        let inside = DispatchSemaphore(value: 0), finish = DispatchSemaphore(value: 0), closed = DispatchSemaphore(value: 0)
        Thread {
            _ = try? connections.withConnection { connection in
                lent.withLock { $0 = connection }
                inside.signal()
                finish.wait()
            }
        }.start()
        #expect(inside.wait(timeout: .now() + 10) == .success)
        Thread {
            connections.close()
            closed.signal()
        }.start()
        #expect(closed.wait(timeout: .now() + 0.3) == .timedOut, "close() waits for the lent connection")
        finish.signal()
        #expect(closed.wait(timeout: .now() + 10) == .success)
        #expect(lent.withLock { $0 }?.isClosed == true, "given back while closing: closed, not kept open")
        #expect(throws: PostgresStoreError.self) { try connections.query("SELECT 1") }
        #expect(throws: PostgresStoreError.self) { try connections.connect() }
    }
}
