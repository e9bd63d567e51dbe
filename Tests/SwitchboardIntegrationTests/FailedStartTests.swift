import Foundation
import Logging
import Synchronization
import Testing
import Switchboard
import SwitchboardCore
import SwitchboardTesting

/// A start that fails part way (a port in use, a key that is not the
/// certificate's) undoes what it started without crashing: the store is
/// closed only once no store call started during the start is inside it.
/// (CI caught `switchboard serve` with a mismatched key dying of SIGSEGV
/// about once in sixty: the media usage's first read ran on a gate thread
/// while the failed start closed the SQLite connection under it.)
@Suite("A start that fails")
struct FailedStartTests {
    @Test func aFailedStartClosesTheStoreOnlyOnceNoStoreCallIsInsideIt() throws {
        let occupant = try TestServer()
        let store = SlowReadMediaStore(readSeconds: 0.3)
        var configuration = occupant.configuration
        configuration.http.port = occupant.port  // taken: the HTTP side cannot start
        configuration.tcp = nil
        configuration.mediaDirectory = NSTemporaryDirectory() + "switchboard-failed-start-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: configuration.mediaDirectory!) }

        #expect(throws: (any Error).self) {
            _ = try ChatServer(configuration: configuration, store: store, logger: Logger(label: "failed-start"))
        }
        // Long enough for a read queued during the start to have run, had the gate let it.
        Thread.sleep(forTimeInterval: 0.6)
        #expect(store.closed)
        #expect(store.violations.isEmpty, "\(store.violations)")
        // The server on the port serves on.
        #expect(try occupant.client.get("/healthz").status == 200)
    }

    /// A `--media-dir` that cannot be used names itself and the option, not only the system's call.
    @Test func aMediaFolderThatCannotBeUsedSaysWhichAndWhy() throws {
        let occupant = try TestServer()
        var configuration = occupant.configuration
        configuration.http.port = 0
        configuration.tcp = nil
        let file = NSTemporaryDirectory() + "switchboard-not-a-folder-\(UInt32.random(in: 0...UInt32.max))"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("a file".utf8)))
        defer { try? FileManager.default.removeItem(atPath: file) }
        configuration.mediaDirectory = file
        let error = #expect(throws: MediaFolderError.self) {
            _ = try ChatServer(configuration: configuration, store: SlowReadMediaStore(readSeconds: 0), logger: Logger(label: "media-folder"))
        }
        #expect(error?.description == "cannot use the folder for uploads' files \(file) (--media-dir): opendir \(file): Not a directory",
                "\(error.map { "\($0)" } ?? "")")
    }
}

/// A store that keeps uploads (so the media service reads their usage at
/// start) whose usage read takes `readSeconds`, and that records every
/// close during a read and every read after its close.
final class SlowReadMediaStore: ForwardingMessageStore, MediaStore {
    let inner = InMemoryMessageStore()
    private let readSeconds: Double
    private let state = Mutex((reading: 0, closed: false, violations: [String]()))

    init(readSeconds: Double) { self.readSeconds = readSeconds }

    var closed: Bool { state.withLock { $0.closed } }
    var violations: [String] { state.withLock { $0.violations } }

    func close() throws {
        state.withLock { state in
            if state.reading > 0 { state.violations.append("closed during a read") }
            state.closed = true
        }
    }

    func mediaUsage() throws -> [MediaUsage] {
        state.withLock { state in
            if state.closed { state.violations.append("read after the close") }
            state.reading += 1
        }
        Thread.sleep(forTimeInterval: readSeconds)
        state.withLock { $0.reading -= 1 }
        return []
    }

    func insertMedia(_ record: MediaRecord) throws {}
    func mediaRecords(_ ids: [String]) throws -> [MediaRecord] { [] }
    func firstCarrier(of id: String, after room: String) throws -> MediaCarrier? { nil }
    func mediaBytes(of user: String) throws -> Int64 { 0 }
    func recentMedia(limit: Int) throws -> [(record: MediaRecord, carried: Bool)] { [] }
    func deleteMedia(_ id: String) throws -> Bool { false }
    func sweepableMedia(uploadedBefore: Int64) throws -> [String] { [] }
}
