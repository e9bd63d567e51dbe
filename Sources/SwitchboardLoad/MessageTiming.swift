import Foundation
import SwitchboardCore

/// One published message's way through a run, for telling where a tail
/// came from: when it was sent, how long its answer took, how long its
/// deliveries took, and how many of them were slower than the run's p99.
/// Late deliveries bunched in a few messages point at the server (a commit
/// or a fan-out that stalled, every subscriber late together); spread thin
/// over many messages, at clients that read late.
public struct MessageTiming: Codable, Sendable, Equatable {
    /// The message's id (the bus's order).
    public var id: Int64
    /// When its publish was sent, from the run's first publish.
    public var sentAfterMilliseconds: Double
    /// From its publish sent to its answer read (nil: no answer recorded).
    public var answerMilliseconds: Double?
    public var deliveries: Int
    public var p50Milliseconds: Double
    public var p99Milliseconds: Double
    public var maxMilliseconds: Double
    /// Deliveries slower than the run's p99.
    public var late: Int

    /// Every published message in id order, its deliveries' latencies
    /// (`deliveries`: (message id, milliseconds) of every client) summed up.
    /// - Parameters:
    ///   - sentAt: monotonic publish time by id; `start`: the run's first.
    ///   - answers: publish-to-answer milliseconds by id.
    ///   - lateAfter: the run's p99 in milliseconds.
    public static func timeline(sentAt: [Int64: UInt64], start: UInt64, answers: [Int64: Double],
                                deliveries: [(id: Int64, milliseconds: Double)], lateAfter: Double) -> [MessageTiming] {
        var byID = [Int64: [Double]](minimumCapacity: sentAt.count)
        for delivery in deliveries { byID[delivery.id, default: []].append(delivery.milliseconds) }
        return sentAt.keys.sorted().map { id in
            let latencies = (byID[id] ?? []).sorted()
            return MessageTiming(id: id, sentAfterMilliseconds: Double((sentAt[id] ?? start) - min(sentAt[id] ?? start, start)) / 1e6,
                                 answerMilliseconds: answers[id], deliveries: latencies.count,
                                 p50Milliseconds: latencies.nearestRank(0.5) ?? 0, p99Milliseconds: latencies.nearestRank(0.99) ?? 0,
                                 maxMilliseconds: latencies.last ?? 0, late: latencies.count { $0 > lateAfter })
        }
    }

    /// The timeline as CSV, a header line first.
    public static func csv(_ timeline: [MessageTiming]) -> String {
        func format(_ value: Double) -> String { String(format: "%.3f", value) }
        return "id,sent_ms,answer_ms,deliveries,p50_ms,p99_ms,max_ms,late\n" + timeline.map {
            [String($0.id), format($0.sentAfterMilliseconds), $0.answerMilliseconds.map(format) ?? "", String($0.deliveries),
             format($0.p50Milliseconds), format($0.p99Milliseconds), format($0.maxMilliseconds), String($0.late)]
                .joined(separator: ",") + "\n"
        }.joined()
    }

    /// One line: how the late deliveries are spread over the messages (in
    /// how many, and the fewest that hold half of them), and the message
    /// with the most.
    public static func tailSummary(_ timeline: [MessageTiming], lateAfter: Double) -> String {
        let late = timeline.reduce(0) { $0 + $1.late }
        guard late > 0, let worst = timeline.max(by: { $0.late < $1.late }) else {
            return String(format: "tail: no delivery slower than p99 (%.1f ms)", lateAfter)
        }
        // The fewest messages that hold half the late deliveries.
        var half = 0, held = 0
        for count in timeline.map(\.late).sorted(by: >) where held * 2 < late { held += count; half += 1 }
        let answered = worst.answerMilliseconds.map { String(format: "%.1f ms", $0) } ?? "?"
        return String(format: "tail: %d deliveries slower than p99 (%.1f ms) in %d of %d messages (half in %d); the most, %d of %d, in id %lld",
                      late, lateAfter, timeline.count { $0.late > 0 }, timeline.count, half, worst.late, worst.deliveries, worst.id)
            + String(format: " (sent at %.0f ms, its p50 %.1f ms), answered in ", worst.sentAfterMilliseconds, worst.p50Milliseconds) + answered
    }
}
