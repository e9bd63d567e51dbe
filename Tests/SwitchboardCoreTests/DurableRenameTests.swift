import Foundation
import Testing
@testable import SwitchboardCore

@Suite("Durable rename")
struct DurableRenameTests {
    @Test func aFileIsKeptUnderItsNameWithItsModeAndAMissingOneSaysWhy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("durable-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(FileManager.default.createFile(atPath: folder + "/tmp-1", contents: Data("kept".utf8)))
        #expect(DurableRename.keep(folder + "/tmp-1", as: folder + "/final", mode: 0o600) == nil)
        #expect(FileManager.default.contents(atPath: folder + "/final") == Data("kept".utf8))
        #expect(!FileManager.default.fileExists(atPath: folder + "/tmp-1"))
        #expect(try FileManager.default.attributesOfItem(atPath: folder + "/final")[.posixPermissions] as? Int == 0o600)
        let failure = DurableRename.keep(folder + "/tmp-2", as: folder + "/other")
        #expect(failure?.step == "open \(folder)/tmp-2" && failure?.errno == ENOENT)
        #expect(!FileManager.default.fileExists(atPath: folder + "/other"))
    }
}
