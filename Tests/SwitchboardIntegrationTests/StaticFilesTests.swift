import Foundation
import SwitchboardHTTP
import SwitchboardLoad
import SwitchboardTesting
import Testing

/// The pages and scripts of `Public/` (``StaticFiles``), revalidated cheaply.
@Suite struct StaticFilesTests {
    /// A browser keeps the page and asks again at each load (`no-cache`):
    /// it sent no tag, since none was given, and got every file whole again.
    @Test func aFileAskedAgainWithItsTagIs304UntilItChanges() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("static-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("app.js")
        try Data("let a = 1;\n".utf8).write(to: script)
        let files: StaticFiles = try #require(StaticFiles(root: folder.path))  // the test means nothing without them
        let server = try TestServer(publicFiles: files)

        let first = try server.client.get("/app.js")
        #expect(first.status == 200 && first.text == "let a = 1;\n")
        #expect(first.header("Cache-Control") == "no-cache")
        let etag = try #require(first.header("ETag"))
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
        #expect(try server.client.get("/app.js").header("ETag") == etag)  // the same file, the same tag

        for asked in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
            let again = try server.client.get("/app.js", headers: [("If-None-Match", asked)])
            #expect(again.status == 304 && again.body.isEmpty, "\(asked)")
            #expect(again.header("ETag") == etag && again.header("Cache-Control") == "no-cache", "\(asked)")
            #expect(again.header("X-Frame-Options") == "DENY", "\(asked)")
        }
        #expect(try server.client.get("/app.js", headers: [("If-None-Match", "\"other\"")]).status == 200)

        // Edited in place, even to the same size: a new tag, and the new bytes for the old tag.
        try Data("let b = 2;\n".utf8).write(to: script)
        // The kernel's file clock ticks every few milliseconds: the edit is dated as a person's would be, later.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 2)], ofItemAtPath: script.path)
        let edited = try server.client.get("/app.js", headers: [("If-None-Match", etag)])
        #expect(edited.status == 200 && edited.text == "let b = 2;\n")
        #expect(edited.header("ETag") != etag)

        // A folder is no file, with or without a tag; nor is a FIFO, whose open waited for a writer on the thread that serves.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub.js"), withIntermediateDirectories: true)
        #expect(try server.client.get("/sub.js").status == 404)
        #expect(try server.client.get("/sub.js", headers: [("If-None-Match", "*")]).status == 404)
        let fifo = folder.appendingPathComponent("pipe.js").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let connection = try TestHTTPConnection(port: server.server.httpPort, timeoutSeconds: 3)
        defer { connection.close() }
        try connection.sendRequest("GET", "/pipe.js", headers: [("Connection", "close")], body: nil)
        let status = try? connection.readResponse(method: "GET").status
        // A server stuck in its open is let go (a writer came), so that this fails rather than hangs.
        let writer = open(fifo, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
        #expect(status == 404 && writer < 0, "\(String(describing: status)); someone was waiting to read: \(writer >= 0)")
        #expect(try server.client.get("/app.js").status == 200)  // and the server still serves
    }
}
