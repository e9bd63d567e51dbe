import SwitchboardCore

/// Splits a TCP byte stream into commands for the line protocol.
///
/// A command ends at `\n` (a `\r` before it is dropped), or — for clients
/// such as the DogeChat iOS app that send each command in one write with no
/// newline — when the connection has been quiet for a moment: the transport
/// then calls ``flush()``. Bytes split across segments or merged into one
/// never change the commands. A line longer than the maximum yields one
/// ``Output/tooLong`` and is discarded up to its end; reading goes on.
public struct LineFramer: Sendable {
    /// What the framer found.
    public enum Output: Equatable, Sendable {
        /// A complete command, without its line ending.
        case line([UInt8])
        /// A line passed the maximum length; it is being discarded.
        case tooLong
    }

    /// Most bytes in one line, its ending excluded.
    public let maxLineBytes: Int
    private var pending: [UInt8] = []
    private var discarding = false

    public init(maxLineBytes: Int = 8192) {
        self.maxLineBytes = maxLineBytes
    }

    /// Whether an unterminated command is waiting (so a quiet-period flush is due).
    public var hasPending: Bool { !pending.isEmpty || discarding }

    /// Feeds received bytes; returns the commands and errors they complete.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [Output] where Bytes.Element == UInt8 {
        var outputs: [Output] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if discarding {
                    discarding = false
                } else {
                    outputs.append(.line(takeLine()))
                }
                pending.removeAll(keepingCapacity: true)
                continue
            }
            if discarding { continue }
            pending.append(byte)
            // One byte of slack for a `\r` that a following `\n` would remove.
            if pending.count > maxLineBytes + 1 || (pending.count == maxLineBytes + 1 && byte != UInt8(ascii: "\r")) {
                outputs.append(.tooLong)
                pending.removeAll(keepingCapacity: true)
                discarding = true
            }
        }
        return outputs
    }

    /// The connection has been quiet: a pending unterminated command is complete
    /// (and an over-long one being discarded has ended).
    public mutating func flush() -> [Output] {
        if discarding {
            discarding = false
            pending.removeAll(keepingCapacity: true)
            return []
        }
        guard !pending.isEmpty else { return [] }
        let line = takeLine()
        pending.removeAll(keepingCapacity: true)
        return [.line(line)]
    }

    private func takeLine() -> [UInt8] {
        pending.last == UInt8(ascii: "\r") ? Array(pending.dropLast()) : pending
    }
}
