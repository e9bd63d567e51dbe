import ArgumentParser
import Foundation
import SwitchboardLoad

#if canImport(Glibc)
import Glibc
#endif

/// A `switchboard serve` child process for `compare` and `bench`, on free
/// loopback ports with a throwaway database.
enum SpawnedServer {
    /// Starts `switchboard serve` (this same binary) on free ports with a
    /// throwaway SQLite database, or on `database` when given (a shared one).
    static func start(name: String, database: String? = nil) throws -> (Process, Int, Int) {
        let httpPort = try freePort(), tcpPort = try freePort()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["serve", "--http", "127.0.0.1:\(httpPort)", "--tcp", "127.0.0.1:\(tcpPort)",
                             "--db", database ?? folder.appendingPathComponent("\(name).sqlite").path, "--log-level", "warning",
                             "--admin-token", UUID().uuidString]
        try process.run()
        for _ in 0..<100 {
            if (try? TestHTTPClient(port: UInt16(httpPort)).get("/healthz"))?.status == 200 {
                return (process, httpPort, tcpPort)
            }
            usleep(100_000)
        }
        process.terminate()
        throw ValidationError("The server did not start.")
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(fd, pointer, length) == 0 else { return -1 }
                return getsockname(fd, pointer, &length)
            }
        }
        guard bound == 0 else { throw ValidationError("No free port.") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
