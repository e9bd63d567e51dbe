import Synchronization
import Testing
@testable import SwitchboardCore

/// Counts how often it is asked to build a frame.
enum CountingFormat: MessageFrameFormat {
    static let builds = Atomic<Int>(0)
    static func frame(for message: EncodedMessage) -> [UInt8] {
        builds.add(1, ordering: .relaxed)
        return Array("#\(message.id)".utf8)
    }
}

enum OtherFormat: MessageFrameFormat {
    static func frame(for message: EncodedMessage) -> [UInt8] { Array("other".utf8) }
}

@Suite("Frames, encoded once")
struct FrameCacheTests {
    @Test func aFormatIsBuiltOnFirstUseOnlyAndSharedAfter() async {
        let message = EncodedMessage(Message(id: 7, room: "r", user: "u", text: "t", kind: .message, ts: 0))
        let before = CountingFormat.builds.load(ordering: .relaxed)
        #expect(CountingFormat.builds.load(ordering: .relaxed) == before)  // nothing built for no subscriber
        await withTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<200 { group.addTask { message.frame(CountingFormat.self) } }
            for await frame in group { #expect(frame == Array("#7".utf8)) }
        }
        // Racing first uses may each build it, but the cache keeps one and later uses build nothing.
        let afterRace = CountingFormat.builds.load(ordering: .relaxed) - before
        #expect(afterRace >= 1 && afterRace <= 8)
        for _ in 0..<100 { _ = message.frame(CountingFormat.self) }
        #expect(CountingFormat.builds.load(ordering: .relaxed) - before == afterRace)
        #expect(message.frame(OtherFormat.self) == Array("other".utf8))
        #expect(message.frame(CountingFormat.self) == Array("#7".utf8))
    }
}
