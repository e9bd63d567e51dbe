import Synchronization
import Testing
@testable import SwitchboardCore

@Suite("Delivery stats")
struct DeliveryStatsTests {
    final class RecordingSink: DeliveryStatsSink {
        let calls = Mutex<[String]>([])
        func published(storeSeconds: Double) { calls.withLock { $0.append("published") } }
        func delivered(_ count: Int, transport: Transport, latencyMilliseconds: Double) {
            calls.withLock { $0.append("\(transport.rawValue) \(count) \(Int(latencyMilliseconds))") }
        }
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
        #expect(sink.calls.withLock { $0.first } == "published")
        #expect(sink.calls.withLock { $0.last } == "tcp 2 10")
    }

    @Test func keepsOnlyTheMostRecentSamples() {
        let stats = DeliveryStats(sampleCount: 10, clock: { 1_000 })
        for _ in 0..<10 { stats.delivered([message(id: 1, ts: 0)], transport: .sse) }  // 1000 ms each
        for _ in 0..<10 { stats.delivered([message(id: 1, ts: 995)], transport: .sse) }  // 5 ms each
        #expect(stats.figures()[.sse]?.p99Milliseconds == 5)
        #expect(stats.figures()[.sse]?.delivered == 20)
    }
}
