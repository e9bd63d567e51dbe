/// A way of reaching the bus.
public enum Transport: String, Codable, Sendable, CaseIterable, Comparable {
    case shortPoll = "short-poll"
    case longPoll = "long-poll"
    case sse
    case tcp
    case websocket

    /// Its place in ``allCases``: an index for per-transport tables.
    public var ordinal: Int {
        switch self {
        case .shortPoll: return 0
        case .longPoll: return 1
        case .sse: return 2
        case .tcp: return 3
        case .websocket: return 4
        }
    }

    /// Whether a connection stays open and is written to as messages come
    /// (SSE, raw TCP, WebSocket), not answered once (the polls).
    public var streams: Bool {
        switch self {
        case .shortPoll, .longPoll: return false
        case .sse, .tcp, .websocket: return true
        }
    }

    public static func < (lhs: Transport, rhs: Transport) -> Bool {
        lhs.ordinal < rhs.ordinal
    }
}
