import Testing
@testable import SwitchboardCore

/// A read's batch: one message held in place, more in an array, always the
/// messages appended in their order, whatever their number.
@Suite("Message batch")
struct MessageBatchTests {
    static func message(_ id: Int64) -> EncodedMessage {
        EncodedMessage(Message(id: id, room: "lobby", user: "luke", text: "m\(id)", kind: .message, ts: 1_000 + id))
    }

    @Test(arguments: [0, 1, 2, 3, 65])
    func holdsWhatWasAppendedInOrder(_ count: Int) {
        var batch = MessageBatch()
        let messages = (0..<count).map { Self.message(Int64($0) + 1) }
        for message in messages { batch.append(message) }
        #expect(batch.count == count && batch.isEmpty == (count == 0))
        #expect(batch.map(\.id) == messages.map(\.id))
        #expect(batch.array.map(\.id) == messages.map(\.id))
        #expect(batch.first?.id == messages.first?.id && batch.last?.id == messages.last?.id)
        #expect(Array(batch.indices) == Array(0..<count))
    }

    @Test func aStoreReadsArrayIsKeptAsItIs() {
        let messages = (1...3).map { Self.message(Int64($0)) }
        #expect(MessageBatch(messages).map(\.message.text) == ["m1", "m2", "m3"])
        #expect(MessageBatch([]).isEmpty && MessageBatch([]).array.isEmpty)
        // A copy appended to leaves the one it was copied from as it was.
        let two = MessageBatch(Array(messages.prefix(2)))
        var three = two
        three.append(messages[2])
        #expect(two.map(\.id) == [1, 2] && three.map(\.id) == [1, 2, 3])
    }
}
