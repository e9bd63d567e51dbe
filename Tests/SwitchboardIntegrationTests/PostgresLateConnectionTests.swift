import Foundation
import Logging
import Synchronization
import Testing
@testable import SwitchboardPostgres

#if canImport(Glibc)
import Glibc
#endif

/// A database that answers a connection only after the store gave up on it
/// (a PostgreSQL frozen, then thawed: the chaos soak's case). A small
/// server on loopback speaks just enough of PostgreSQL's protocol: it reads
/// the startup message, waits, then says "authenticated, ready" and records
/// what the client does next.
@Suite("PostgreSQL: a connection that opens too late")
struct PostgresLateConnectionTests {
    /// Listens on a free loopback port; serves one client on a thread of its own.
    final class LateDatabase: @unchecked Sendable {
        let port: Int
        private let listener: Int32
        /// What the client did after the late answer: "terminated" (it sent
        /// Terminate), "closed" (its socket), or "kept open" (nothing in 5 s).
        let outcome = Mutex<String?>(nil)

        init(answerAfter seconds: Double) throws {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.listener = listener
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    bind(listener, address, length) == 0 && listen(listener, 4) == 0
                        && getsockname(listener, address, &length) == 0
                }
            }
            guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
            port = Int(UInt16(bigEndian: address.sin_port))
            let thread = Thread { [self] in serve(answerAfter: seconds) }
            thread.start()
        }

        private func serve(answerAfter seconds: Double) {
            let client = accept(listener, nil, nil)
            defer { close(client); close(listener) }
            guard client >= 0 else { return }
            // The startup message: its length first.
            var header = [UInt8](repeating: 0, count: 4)
            guard read(client, &header, 4) == 4 else { return }
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            var rest = [UInt8](repeating: 0, count: max(0, length - 4))
            var got = 0
            while got < rest.count {
                let count = rest.withUnsafeMutableBytes { read(client, $0.baseAddress! + got, $0.count - got) }
                guard count > 0 else { return }
                got += count
            }
            Thread.sleep(forTimeInterval: seconds)
            // AuthenticationOk, BackendKeyData, ReadyForQuery (idle).
            let answer: [UInt8] = [0x52, 0, 0, 0, 8, 0, 0, 0, 0,
                                   0x4B, 0, 0, 0, 12, 0, 0, 0, 42, 0, 0, 0, 7,
                                   0x5A, 0, 0, 0, 5, 0x49]
            _ = answer.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var byte: UInt8 = 0
            let first = read(client, &byte, 1)
            outcome.withLock { $0 = first == 1 && byte == 0x58 ? "terminated" : first == 0 ? "closed" : "kept open" }
        }
    }

    /// The store waits `timeoutSeconds` for a connection, and postgres-nio
    /// as long on its side: a database that answers just as the wait gives
    /// up (a PostgreSQL thawed at that moment) opens a connection nobody
    /// takes. Here postgres-nio waits 4 s and the store 1 s, so the answer
    /// at 2 s always falls in that window. Before: the connection was
    /// dropped without being closed (its socket and backend leaked;
    /// postgres-nio's debug build traps on it, which is how the chaos soak
    /// found it). Now it is closed.
    @Test func aConnectionGivenUpOnIsClosedWhenItOpensAtLast() throws {
        let database = try LateDatabase(answerAfter: 2)
        let url = try PostgresURL("postgres://switchboard@127.0.0.1:\(database.port)/switchboard")
        let connections = PostgresConnections(url: url, timeoutSeconds: 1, connectTimeoutSeconds: 4, logger: Logger(label: "test"))
        defer { connections.close() }
        #expect(throws: PostgresStoreError.self) { try connections.connect() }
        let until = Date().addingTimeInterval(10)
        while database.outcome.withLock({ $0 }) == nil, Date() < until { Thread.sleep(forTimeInterval: 0.05) }
        // Closed, with or without a Terminate first; never kept open.
        #expect(["terminated", "closed"].contains(database.outcome.withLock { $0 }))
    }
}
