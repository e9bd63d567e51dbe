import Testing
@testable import SwitchboardLoad

/// The load client's per-message timeline (`bench --timeline`): what it
/// says of each message, and whether it tells a stall from slow readers.
@Suite("Message timeline (load client)")
struct MessageTimingTests {
    let start: UInt64 = 1_000_000_000
    /// Three messages sent 20 ms apart; id 11 was never delivered.
    var sentAt: [Int64: UInt64] { [10: start, 11: start + 20_000_000, 12: start + 40_000_000] }

    @Test func eachMessageHasItsSendTimeAnswerAndDeliveries() {
        let deliveries: [(id: Int64, milliseconds: Double)] = [(12, 9), (10, 3), (10, 1), (10, 2), (12, 7)]
        let timeline = MessageTiming.timeline(sentAt: sentAt, start: start, answers: [10: 0.5, 12: 0.8],
                                              deliveries: deliveries, lateAfter: 2.5)
        #expect(timeline.map(\.id) == [10, 11, 12])
        #expect(timeline.map(\.sentAfterMilliseconds) == [0, 20, 40])
        #expect(timeline.map(\.answerMilliseconds) == [0.5, nil, 0.8])
        #expect(timeline.map(\.deliveries) == [3, 0, 2])
        #expect(timeline[0].p50Milliseconds == 2 && timeline[0].maxMilliseconds == 3)
        #expect(timeline[2].p50Milliseconds == 9 && timeline[2].p99Milliseconds == 9 && timeline[2].maxMilliseconds == 9)
        #expect(timeline.map(\.late) == [1, 0, 2])
        #expect(timeline[1].maxMilliseconds == 0)

        let csv = MessageTiming.csv(timeline).split(separator: "\n")
        #expect(csv.count == 4)
        #expect(csv[0] == "id,sent_ms,answer_ms,deliveries,p50_ms,p99_ms,max_ms,late")
        #expect(csv[1] == "10,0.000,0.500,3,2.000,3.000,3.000,1")
        #expect(csv[2] == "11,20.000,,0,0.000,0.000,0.000,0")
    }

    /// Every subscriber late for one message (a stalled commit or fan-out)
    /// reads differently from a few late in every message (slow readers).
    @Test func theSummaryTellsABunchedTailFromASpreadOne() {
        var many: [Int64: UInt64] = [:]
        for id in Int64(1)...100 { many[id] = start + UInt64(id) * 20_000_000 }
        let bunched = (1...100).flatMap { id in (0..<10).map { _ in (id: Int64(id), milliseconds: id == 42 ? 90.0 : 5.0) } }
        let stalled = MessageTiming.tailSummary(
            MessageTiming.timeline(sentAt: many, start: start, answers: [42: 60], deliveries: bunched, lateAfter: 10), lateAfter: 10)
        #expect(stalled.hasPrefix("tail: 10 deliveries slower than p99 (10.0 ms) in 1 of 100 messages (half in 1); the most, 10 of 10, in id 42"))
        #expect(stalled.hasSuffix("(sent at 840 ms, its p50 90.0 ms), answered in 60.0 ms"))

        let spread = (1...100).flatMap { id in (0..<10).map { (id: Int64(id), milliseconds: $0 == 0 ? 50.0 : 5.0) } }
        let slowReaders = MessageTiming.tailSummary(
            MessageTiming.timeline(sentAt: many, start: start, answers: [:], deliveries: spread, lateAfter: 10), lateAfter: 10)
        #expect(slowReaders.hasPrefix("tail: 100 deliveries slower than p99 (10.0 ms) in 100 of 100 messages (half in 50); the most, 1 of 10"))
        #expect(slowReaders.hasSuffix("answered in ?"))

        let none = MessageTiming.timeline(sentAt: many, start: start, answers: [:], deliveries: [], lateAfter: 10)
        #expect(MessageTiming.tailSummary(none, lateAfter: 10) == "tail: no delivery slower than p99 (10.0 ms)")
    }
}
