import SwitchboardCore

/// The query parameters of a message read: `since`, `limit` and `wait`,
/// checked against their ranges (out of range is an error, never clamped).
struct PollParameters: Sendable, Equatable {
    /// Messages after this id; nil for "the latest `limit`".
    var since: Int64?
    /// Most messages in one answer (1...1000, default 100).
    var limit: Int
    /// Seconds to hold the request when nothing is new (0...60); nil or 0: answer at once.
    var wait: Int?
    /// Paging back: the latest `limit` messages before this id.
    var before: Int64?

    /// Largest allowed `limit`.
    static let maxLimit = 1000
    /// Largest allowed `wait`, in seconds.
    static let maxWait = 60

    init(since: Int64? = nil, limit: Int = 100, wait: Int? = nil, before: Int64? = nil) {
        self.since = since
        self.before = before
        self.limit = limit
        self.wait = wait
    }

    /// Parses the raw values (nil when absent).
    /// - Throws: ``SwitchboardError`` `bad_parameter` naming the parameter.
    init(since: String?, limit: String?, wait: String?, before: String? = nil) throws(SwitchboardError) {
        self.since = try since.map { value throws(SwitchboardError) in
            try Cursor.integer(value, name: "since", range: 0...Int64.max)
        }
        self.limit = try limit.map { value throws(SwitchboardError) in
            Int(try Cursor.integer(value, name: "limit", range: 1...Int64(Self.maxLimit)))
        } ?? 100
        self.wait = try wait.map { value throws(SwitchboardError) in
            Int(try Cursor.integer(value, name: "wait", range: 0...Int64(Self.maxWait)))
        }
        self.before = try before.map { value throws(SwitchboardError) in
            try Cursor.integer(value, name: "before", range: 1...Int64.max)
        }
        if self.before != nil, self.since != nil || (self.wait ?? 0) > 0 {
            throw .badParameter("before", "pages back; it cannot be combined with 'since' or 'wait'")
        }
    }
}
