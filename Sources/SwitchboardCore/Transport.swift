/// A way of reaching the bus.
public enum Transport: String, Codable, Sendable, CaseIterable, Comparable {
    case shortPoll = "short-poll"
    case longPoll = "long-poll"
    case sse
    case tcp

    public static func < (lhs: Transport, rhs: Transport) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
