import Dispatch
import Foundation
import Synchronization
import Testing
import SwitchboardTesting
@testable import SwitchboardCore

@Suite("Delivery stats")
struct DeliveryStatsTests {
    final class RecordingSink: DeliveryStatsSink {
        let calls = Mutex<[String]>([])
        func published(_ count: Int, storeSeconds: Double) { calls.withLock { $0.append("published \(count)") } }
    }

    func message(id: Int64, ts: Int64) -> EncodedMessage {
        EncodedMessage(Message(id: id, room: "r", user: "u", text: "t", kind: .message, ts: ts))
    }

    @Test func countsPerTransportWithLatencyPercentiles() {
        let sink = RecordingSink()
        let stats = DeliveryStats(sampleCount: 100, sink: sink, clock: { 1_000 })
        stats.published()
        for latency in 1...100 {
            stats.delivered([message(id: Int64(latency), ts: 1_000 - Int64(latency))], transport: .sse)
        }
        stats.delivered([message(id: 1, ts: 990), message(id: 2, ts: 995)], transport: .tcp)
        let figures = stats.figures()
        #expect(figures[.sse] == .init(delivered: 100, p50Milliseconds: 51, p99Milliseconds: 100))
        #expect(figures[.tcp] == .init(delivered: 2, p50Milliseconds: 10, p99Milliseconds: 10))
        #expect(figures[.longPoll] == .init(delivered: 0, p50Milliseconds: nil, p99Milliseconds: nil))
        #expect(stats.publishedCount == 1)
        #expect(sink.calls.withLock { $0 } == ["published 1"])
    }

    /// A group commit's messages are counted as messages, and its append
    /// told to the sink (whose timer is `/metrics`' store appends) once.
    @Test func aGroupsMessagesAreCountedAndItsAppendToldOnce() throws {
        let sink = RecordingSink()
        let stats = DeliveryStats(sink: sink)
        let bus = try MessageBus(store: InMemoryMessageStore(), stats: stats)
        let acked = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let loop = Thread {
            // As libmicrohttpd's loop does: a pass's publishes go as one group.
            bus.deferCommitWakesOnThisThread()
            for index in 0..<5 {
                bus.publish(MessageDraft(room: "r", user: "u", text: "m\(index)", kind: .message)) { _ in acked.signal() }
            }
            bus.endDeferringCommitWakes()
            finished.signal()
        }
        loop.start()
        #expect(finished.wait(timeout: .now() + 5) == .success)
        for _ in 0..<5 { #expect(acked.wait(timeout: .now() + 5) == .success) }
        #expect(stats.publishedCount == 5)
        #expect(sink.calls.withLock { $0 } == ["published 5"])
    }

    /// `/metrics`' histogram: each write counted once, in the first bucket
    /// whose bound it does not exceed (a bound is inclusive), over 10 s in +Inf only.
    @Test func aWritesLatencyFallsInItsBucket() throws {
        let now = Mutex<Int64>(100_000)
        let stats = DeliveryStats(sampleCount: 10, clock: { now.withLock { $0 } })
        for latency: Int64 in [0, 5, 6, 10, 11, 250, 10_000, 10_001, 60_000] {
            stats.delivered([message(id: 1, ts: 100_000 - latency), message(id: 2, ts: 100_000)], transport: .websocket)
        }
        now.withLock { $0 = 99_000 }  // a clock that stepped back: 0, never negative
        stats.delivered([message(id: 3, ts: 100_000)], transport: .websocket)
        let totals = stats.totals()
        let histogram = try #require(totals[.websocket]?.latency)
        #expect(totals[.websocket]?.delivered == 19)
        #expect(histogram.count == 10 && histogram.sumMilliseconds == 80_283)
        // le:               5  10 25 50 100 250 500 1s 2.5s 5s 10s
        #expect(histogram.cumulative == [3, 5, 6, 6, 6, 7, 7, 7, 7, 7, 8])
        #expect(totals[.sse]?.latency == DeliveryLatencyHistogram() && totals[.sse]?.delivered == 0)
    }

    @Test func keepsOnlyTheMostRecentSamples() {
        let stats = DeliveryStats(sampleCount: 10, clock: { 1_000 })
        for _ in 0..<10 { stats.delivered([message(id: 1, ts: 0)], transport: .sse) }  // 1000 ms each
        for _ in 0..<10 { stats.delivered([message(id: 1, ts: 995)], transport: .sse) }  // 5 ms each
        #expect(stats.figures()[.sse]?.p99Milliseconds == 5)
        #expect(stats.figures()[.sse]?.delivered == 20)
    }
}
