import Foundation
import Testing
@testable import Switchboard

/// A server killed with a throwaway media folder (`:memory:`, a PostgreSQL
/// node's cache) left it in /tmp for good: 152 of them on this machine
/// after a day of tests and benchmarks. The next such server removes them.
@Suite("Throwaway media folders")
struct ThrowawayMediaFoldersTests {
    @Test func foldersOfProcessesGoneAreRemovedAndNoOtherFile() throws {
        let directory = NSTemporaryDirectory() + "throwaway-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let own = ProcessInfo.processInfo.processIdentifier
        // Beyond any pid_max: no process has it.
        let names = ["switchboard-media-\(Int32.max - 1)-1", "switchboard-media-\(Int32.max - 2)-7", "switchboard-media-\(own)-2",
                     "switchboard-media-1-3", "switchboard-media-x-4", "switchboard-other", "kept"]
        for name in names {
            try FileManager.default.createDirectory(atPath: directory + "/" + name, withIntermediateDirectories: true)
        }
        #expect(ThrowawayMediaFolders.removeAbandoned(in: directory) == 2)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        // This process's, init's (pid 1 runs) and names that carry no pid stay.
        #expect(left == ["kept", "switchboard-media-1-3", "switchboard-media-\(own)-2", "switchboard-media-x-4", "switchboard-other"])
        #expect(ThrowawayMediaFolders.newPath(in: directory).hasPrefix(directory + "/switchboard-media-\(own)-"))
    }
}
