import SwitchboardCore

/// A route's path, e.g. `/api/rooms/{room}/messages`: literal segments,
/// compared byte for byte, and named parameters, taken as they come.
struct RoutePattern: Sendable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal([UInt8])
        case parameter(String)
    }

    let segments: [Segment]
    let description: String
    /// The parameters' names, in order.
    let parameterNames: [String]
    /// Where `{room}` is among the parameters, if the path has one.
    let roomIndex: Int?

    /// Reads `/a/{b}/c`; a pattern is written once, in the route table.
    init(_ pattern: String) {
        description = pattern
        segments = pattern.split(separator: "/").map { part in
            if part.first == "{", part.last == "}" { return .parameter(String(part.dropFirst().dropLast())) }
            return .literal(Array(part.utf8))
        }
        parameterNames = segments.compactMap { if case .parameter(let name) = $0 { return name } else { return nil } }
        roomIndex = parameterNames.firstIndex(of: "room")
    }

    /// Whether `path` (as ``RequestPath`` read it) fits: its literals equal, byte for byte. No allocation.
    func fits(_ path: [String]) -> Bool {
        guard path.count == segments.count else { return false }
        for (segment, given) in zip(segments, path) {
            // One buffer against another (walking a UTF8View index by index cost 1,800 instructions a publish).
            if case .literal(let bytes) = segment, !bytes.withUnsafeBufferPointer({ given.utf8Equals($0) }) { return false }
        }
        return true
    }

    /// The parameters' values in `path` (one that ``fits(_:)``), in order.
    func parameters(_ path: [String]) -> [String] {
        guard !parameterNames.isEmpty else { return [] }
        var values: [String] = []
        values.reserveCapacity(parameterNames.count)
        for (segment, given) in zip(segments, path) {
            if case .parameter = segment { values.append(given) }
        }
        return values
    }
}
