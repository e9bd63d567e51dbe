import SwitchboardCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A route's path, e.g. `/api/rooms/{room}/messages`: literal segments,
/// compared byte for byte, and named parameters, taken as they come. A
/// class, as ``Route`` is: read from its route at every match, a struct of
/// arrays was copied (each retained) a request.
final class RoutePattern: Sendable, CustomStringConvertible {
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
    /// Each segment's literal as a range of ``literalBytes``, nil for a
    /// parameter: plain values, so matching retains nothing.
    private let literals: [Range<Int>?]
    private let literalBytes: [UInt8]

    /// Reads `/a/{b}/c`; a pattern is written once, in the route table.
    init(_ pattern: String) {
        description = pattern
        segments = pattern.split(separator: "/").map { part in
            if part.first == "{", part.last == "}" { return .parameter(String(part.dropFirst().dropLast())) }
            return .literal(Array(part.utf8))
        }
        parameterNames = segments.compactMap { if case .parameter(let name) = $0 { return name } else { return nil } }
        roomIndex = parameterNames.firstIndex(of: "room")
        var literalBytes: [UInt8] = []
        literals = segments.map { segment in
            guard case .literal(let bytes) = segment else { return nil }
            defer { literalBytes += bytes }
            return literalBytes.count..<(literalBytes.count + bytes.count)
        }
        self.literalBytes = literalBytes
    }

    /// Whether `path` (as ``RequestPath`` read it) fits: its literals equal,
    /// byte for byte, where they lie in the path. No allocation.
    func fits(_ path: PathSegments) -> Bool {
        guard path.count == literals.count else { return false }
        return literalBytes.withUnsafeBufferPointer { literalBytes in
            path.withBytes { bytes, bounds in
                for index in 0..<bounds.count {
                    guard let literal = literals[index] else { continue }
                    let given = bounds[index]
                    guard given.count == literal.count,
                          memcmp(bytes.baseAddress! + given.lowerBound, literalBytes.baseAddress! + literal.lowerBound, given.count) == 0
                    else { return false }
                }
                return true
            }
        }
    }

    /// The parameters' values in `path` (one that ``fits(_:)``), in order:
    /// the only segments made into strings.
    func parameters(_ path: PathSegments) -> [String] {
        guard !parameterNames.isEmpty else { return [] }
        var values: [String] = []
        values.reserveCapacity(parameterNames.count)
        for index in literals.indices where literals[index] == nil { values.append(path[index]) }
        return values
    }
}
