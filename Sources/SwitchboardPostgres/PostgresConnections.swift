import Dispatch
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// A few connections to one database, used from any thread that may block
/// (the commit thread, store reads, the cluster's queue): each call takes an
/// idle connection or opens one, up to a bound, and waits for its answer at
/// most ``timeoutSeconds`` (then closes that connection and throws, so a
/// database gone silent costs a quick error, not a stuck thread).
///
/// postgres-nio runs on an event loop of its own; no caller ever waits on it
/// from that loop. A connection found closed (the database restarted) is
/// dropped and replaced on the next call.
final class PostgresConnections: Sendable {
    let url: PostgresURL
    let timeoutSeconds: Double
    private let group: MultiThreadedEventLoopGroup
    private let logger: Logger
    private let idle = Mutex<[PostgresConnection]>([])
    private let permits: DispatchSemaphore
    private let nextID = Atomic<Int>(0)
    /// postgres-nio's own limit on opening a connection (the TCP connect and
    /// the start-up), whole seconds: ``timeoutSeconds`` unless a test widens
    /// the window where the wait gives up before postgres-nio does.
    private let connectTimeoutSeconds: Int64

    init(url: PostgresURL, maxConnections: Int = 8, timeoutSeconds: Double = 5, connectTimeoutSeconds: Int64? = nil,
         logger: Logger) {
        self.url = url
        self.timeoutSeconds = timeoutSeconds
        self.connectTimeoutSeconds = connectTimeoutSeconds ?? Int64(timeoutSeconds)
        self.logger = logger
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        permits = DispatchSemaphore(value: maxConnections)
    }

    /// Opens a connection of its own (for LISTEN), outside the pool.
    func connect() throws -> PostgresConnection {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let future = PostgresConnection.connect(on: group.next(), configuration: url.configuration(connectTimeoutSeconds: connectTimeoutSeconds),
                                                id: id, logger: logger)
        do {
            return try wait(future, orClose: nil)
        } catch PostgresStoreError.timedOut(let seconds) {
            // Given up on, but the database may still answer (a frozen server
            // thawed): that connection is closed then, never dropped open
            // (a socket and a backend leaked; postgres-nio asserts on it).
            future.whenSuccess { connection in let closing: EventLoopFuture<Void> = connection.close(); _ = closing }
            throw PostgresStoreError.timedOut(seconds: seconds)
        }
    }

    /// Runs `query` on a pooled connection and returns its rows.
    @discardableResult
    func query(_ query: PostgresQuery) throws -> PostgresQueryResult {
        try withConnection { connection in try self.query(query, on: connection) }
    }

    /// Runs `query` on `connection`, waiting at most ``timeoutSeconds``.
    @discardableResult
    func query(_ query: PostgresQuery, on connection: PostgresConnection) throws -> PostgresQueryResult {
        try wait(connection.query(query, logger: logger), orClose: connection)
    }

    /// Lends `body` one connection; it goes back to the pool unless it closed.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        permits.wait()
        defer { permits.signal() }
        var connection = idle.withLock { $0.popLast() }
        while let found = connection, found.isClosed { connection = idle.withLock { $0.popLast() } }
        let lent = try connection ?? connect()
        defer { if !lent.isClosed { idle.withLock { $0.append(lent) } } }
        return try body(lent)
    }

    /// Closes every connection and stops the event loop.
    func close() {
        for connection in idle.withLock({ idle in defer { idle.removeAll() }; return idle }) {
            try? connection.close().wait()
        }
        try? group.syncShutdownGracefully()
    }

    private func wait<T: Sendable>(_ future: EventLoopFuture<T>, orClose connection: PostgresConnection?) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<T, any Error>?>(nil)
        future.whenComplete { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        if done.wait(timeout: .now() + timeoutSeconds) == .timedOut {
            if let connection { let closing: EventLoopFuture<Void> = connection.close(); _ = closing }
            throw PostgresStoreError.timedOut(seconds: timeoutSeconds)
        }
        return try outcome.withLock { $0! }.get()
    }
}
