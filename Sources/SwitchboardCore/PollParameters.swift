/// The query parameters of a message read: `since`, `limit` and `wait`,
/// checked against their ranges (out of range is an error, never clamped).
public struct PollParameters: Sendable, Equatable {
    /// Messages after this id; nil for "the latest `limit`".
    public var since: Int64?
    /// Most messages in one answer (1...1000, default 100).
    public var limit: Int
    /// Seconds to hold the request when nothing is new (0...60); nil or 0: answer at once.
    public var wait: Int?

    /// Largest allowed `limit`.
    public static let maxLimit = 1000
    /// Largest allowed `wait`, in seconds.
    public static let maxWait = 60

    public init(since: Int64? = nil, limit: Int = 100, wait: Int? = nil) {
        self.since = since
        self.limit = limit
        self.wait = wait
    }

    /// Parses the raw values (nil when absent).
    /// - Throws: ``SwitchboardError`` `bad_parameter` naming the parameter.
    public init(since: String?, limit: String?, wait: String?) throws(SwitchboardError) {
        self.since = try since.map { value throws(SwitchboardError) in
            try Self.integer(value, name: "since", range: 0...Int64.max)
        }
        self.limit = try limit.map { value throws(SwitchboardError) in
            Int(try Self.integer(value, name: "limit", range: 1...Int64(Self.maxLimit)))
        } ?? 100
        self.wait = try wait.map { value throws(SwitchboardError) in
            Int(try Self.integer(value, name: "wait", range: 0...Int64(Self.maxWait)))
        }
    }

    /// A resume cursor such as `Last-Event-ID` or `since`: a non-negative integer.
    public static func cursor(_ value: String, name: String) throws(SwitchboardError) -> Int64 {
        try integer(value, name: name, range: 0...Int64.max)
    }

    private static func integer(_ value: String, name: String, range: ClosedRange<Int64>) throws(SwitchboardError) -> Int64 {
        guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let number = Int64(value)
        else { throw .badParameter(name, "must be a whole number from \(range.lowerBound) to \(range.upperBound)") }
        guard range.contains(number) else {
            throw .badParameter(name, "must be from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
