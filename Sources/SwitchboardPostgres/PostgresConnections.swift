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
/// dropped and replaced on the next call. A connection is never let go
/// while open (postgres-nio asserts on it): one closed in passing is kept
/// until its close is done, and ``close()`` waits for the lent ones.
final class PostgresConnections: Sendable {
    let url: PostgresURL
    let timeoutSeconds: Double
    private let group: MultiThreadedEventLoopGroup
    private let logger: Logger
    private let idle = Mutex<[PostgresConnection]>([])
    private let permits: DispatchSemaphore
    private let maxConnections: Int
    /// Set by ``close()``: every later call throws ``PostgresStoreError/closed``.
    private let closed = Atomic<Bool>(false)
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
        self.maxConnections = maxConnections
    }

    /// Opens a connection of its own (for LISTEN), outside the pool.
    func connect() throws -> PostgresConnection {
        guard !closed.load(ordering: .acquiring) else { throw PostgresStoreError.closed }
        let id = nextID.add(1, ordering: .relaxed).newValue
        let future = PostgresConnection.connect(on: group.next(), configuration: url.configuration(connectTimeoutSeconds: connectTimeoutSeconds),
                                                id: id, logger: logger)
        do {
            return try wait(future, orClose: nil)
        } catch PostgresStoreError.timedOut(let seconds) {
            // Given up on, but the database may still answer (a frozen server
            // thawed): that connection is closed then, never dropped open
            // (a socket and a backend leaked; postgres-nio asserts on it).
            future.whenSuccess { connection in Self.closeInPassing(connection) }
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
        // A closing pool holds every permit: a caller then gives up rather than wait for ever.
        while permits.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            if closed.load(ordering: .acquiring) { throw PostgresStoreError.closed }
        }
        defer { permits.signal() }
        guard !closed.load(ordering: .acquiring) else { throw PostgresStoreError.closed }
        var connection = idle.withLock { $0.popLast() }
        while let found = connection, found.isClosed { connection = idle.withLock { $0.popLast() } }
        let lent = try connection ?? connect()
        defer { giveBack(lent) }
        return try body(lent)
    }

    /// Back to the pool, or closed now when the pool is closing (its event
    /// loop still runs: ``close()`` waits for the permit this call holds).
    private func giveBack(_ connection: PostgresConnection) {
        guard !connection.isClosed else { return }
        let kept = idle.withLock { idle -> Bool in
            guard !closed.load(ordering: .acquiring) else { return false }
            idle.append(connection)
            return true
        }
        if !kept { _ = try? connection.close().wait() }
    }

    /// Closes every connection and stops the event loop: later calls are
    /// refused, lent connections come back first (each call is bounded by
    /// ``timeoutSeconds``) and are closed as the idle ones are.
    func close() {
        closed.store(true, ordering: .releasing)
        let deadline = DispatchTime.now() + timeoutSeconds + 1
        var held = 0
        while held < maxConnections, permits.wait(timeout: deadline) == .success { held += 1 }  // else a call stuck past its bound
        for connection in idle.withLock({ idle in defer { idle.removeAll() }; return idle }) {
            try? connection.close().wait()
        }
        try? group.syncShutdownGracefully()
        // Given back: libdispatch refuses to free a semaphore below its start.
        for _ in 0..<held { permits.signal() }
    }

    /// Closes `connection` without waiting, and keeps it until the close is done.
    static func closeInPassing(_ connection: PostgresConnection) {
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    private func wait<T: Sendable>(_ future: EventLoopFuture<T>, orClose connection: PostgresConnection?) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<T, any Error>?>(nil)
        future.whenComplete { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        if done.wait(timeout: .now() + timeoutSeconds) == .timedOut {
            if let connection { Self.closeInPassing(connection) }
            throw PostgresStoreError.timedOut(seconds: timeoutSeconds)
        }
        do {
            return try outcome.withLock { $0! }.get()
        } catch let error as PSQLError {
            throw PostgresStoreError.database(error)
        }
    }
}
