import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardMedia

/// The uploads' folder on a real disk: its probe (what the sweep asks while
/// uploads are refused) writes and leaves nothing, and fails where an
/// upload's bytes would.
@Suite("Media folder")
struct MediaDirectoryTests {
    @Test func itsProbeWritesLeavesNothingAndFailsWhereAnUploadWould() throws {
        let path = NSTemporaryDirectory() + "switchboard-media-probe-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let folder = try MediaDirectory(path: path)
        try folder.checkWritable()
        try folder.checkWritable()
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).isEmpty)
        // The folder gone (a disk unmounted, a folder removed by hand): it fails as an upload's file would.
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: MediaFileError.self) { try folder.checkWritable() }
        #expect(throws: MediaFileError.self) { _ = try folder.temporaryFile() }
    }
}
