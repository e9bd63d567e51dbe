import Foundation

/// The PostgreSQL server the scale-out tests use, when there is one:
/// `SWITCHBOARD_TEST_POSTGRES` (a URL), set by `Scripts/test.sh` after it
/// starts a throwaway server with `Scripts/postgres.sh`.
public enum TestPostgres {
    /// The server's URL, or nil when no server was started for the tests.
    public static let serverURL: String? = ProcessInfo.processInfo.environment["SWITCHBOARD_TEST_POSTGRES"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// Why the scale-out tests are skipped, for the test report.
    public static let skipReason = "SWITCHBOARD_TEST_POSTGRES is not set: run Scripts/test.sh, which starts PostgreSQL 15 for these tests"

    /// A new, empty database on the server (tests never share one), as a URL.
    public static func freshDatabase() throws -> String {
        guard let serverURL, let slash = serverURL.range(of: "/", options: .backwards) else {
            throw TestClientError(description: skipReason)
        }
        let name = "sb_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try psql(serverURL, "CREATE DATABASE \(name)")
        return serverURL[..<slash.lowerBound] + "/" + name
    }

    /// Runs one statement with `psql` against `url`.
    public static func psql(_ url: String, _ statement: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [url, "-v", "ON_ERROR_STOP=1", "-qAtc", statement]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let detail = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw TestClientError(description: "psql \(statement): \(detail)")
        }
    }

    /// The number one query (`SELECT count(*) …`) answers on `url`.
    public static func count(_ url: String, _ query: String) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [url, "-v", "ON_ERROR_STOP=1", "-qAtc", query]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let count = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestClientError(description: "psql \(query): \(text)")
        }
        return count
    }
}
