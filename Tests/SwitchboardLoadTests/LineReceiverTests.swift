import Testing
@testable import SwitchboardLoad

/// The raw TCP load client's lines: what it records of a server's bytes,
/// however they are cut into reads.
@Suite("Line receiver (load client)")
struct LineReceiverTests {
    /// Feeds `text` in reads of `size` bytes, each at its own time (its offset).
    func received(_ text: String, splitEvery size: Int) -> StreamRecord {
        let record = StreamRecord()
        var receiver = LineReceiver(name: "c7", record: record)
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: size) {
            bytes[start..<min(bytes.count, start + size)].withUnsafeBytes { receiver.receive($0, at: UInt64(start)) }
        }
        return record
    }

    @Test func recordsEachBenchmarkLineByItsIndexAndItsOwnJoin() {
        let text = "c3 has joined\nc7 has joined\nbench:m0\nc70 has joined\nbench:m12\nluke:hi\nbench:m345\n"
        for size in [1, 3, 8, 1000] {
            let record = received(text, splitEvery: size)
            #expect(record.opened, "\(size)")
            #expect(record.receipts.map(\.id) == [0, 12, 345], "\(size)")
            #expect(record.costs.bytes == text.utf8.count)
        }
    }

    @Test func aLineIsTimedByTheReadThatEndsIt() {
        let record = received("bench:m4\nbench:m5\n", splitEvery: 12)  // reads at 0 ("bench:m4\nben") and 12
        #expect(record.receipts.map(\.id) == [4, 5])
        #expect(record.receipts.map(\.at) == [0, 12])
    }

    @Test func othersLinesAndBrokenOnesAreSkipped() {
        // Another client's join (a prefix of its own name, and its name as a prefix), a long
        // line of someone's text, a prefix with no digits or with other bytes, a number too big.
        let long = String(repeating: "x", count: 200)
        let text = "c7 has joined too\nc has joined\nsomeone:\(long)bench:m9\nbench:m\nbench:m1x\nbench:m99999999999999999999\nbench:m8\n"
        for size in [1, 7, 1000] {
            let record = received(text, splitEvery: size)
            #expect(!record.opened, "\(size)")
            #expect(record.receipts.map(\.id) == [8], "\(size)")
        }
    }
}
