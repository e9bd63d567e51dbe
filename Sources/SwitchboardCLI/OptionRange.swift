import ArgumentParser

/// The values a numeric option may take, checked before the server starts.
/// Each has a top as well as a bottom: a value the parser takes (an `Int`
/// of 2^63, a `Double` of 1e300) reached arithmetic that traps, at the
/// start (`--max-connections`, `--keepalive`) or later while serving (the
/// first edit under `--edit-window 9223372036854775807`), or a system call
/// that refuses it (a `--tcp-keepalive` over 32,767 reset every raw TCP client).
enum OptionRange {
    /// Throws "`name`: `range`'s bounds`unit`." unless `value` lies in `range` (NaN never does).
    static func check<Value: Comparable>(_ name: String, _ value: Value, _ range: ClosedRange<Value>, _ unit: String = "") throws {
        guard range.contains(value) else {
            throw ValidationError("\(name): \(range.lowerBound) to \(range.upperBound)\(unit), not \(value).")
        }
    }

    /// The longest time an option names, ten years in seconds: a session, an edit window.
    static let tenYears = 315_360_000
}
