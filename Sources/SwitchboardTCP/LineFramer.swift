import SwitchboardCore

/// Splits a TCP byte stream into commands for the line protocol.
///
/// A command ends at `\n` (a `\r` before it is dropped), or — for clients
/// such as the DogeChat iOS app that send each command in one write with no
/// newline — when the connection has been quiet for a moment: the transport
/// then calls ``flush()``. The framing is chosen per connection: once a
/// command has ended with a newline, commands end only at newlines (a slow
/// `nc` user's half line is never cut), and ``flush()`` does nothing. Bytes split across segments or merged into one
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
    /// True once a command ended with a newline: this client frames by lines.
    public private(set) var newlineTerminated = false

    public init(maxLineBytes: Int = 8192) {
        self.maxLineBytes = maxLineBytes
    }

    /// Whether an unterminated command is waiting.
    public var hasPending: Bool { !pending.isEmpty || discarding }

    /// Whether a quiet-period ``flush()`` is due: part of a command waits and
    /// this client has not shown it ends commands with newlines.
    public var awaitsQuietTime: Bool { hasPending && !newlineTerminated }

    /// Feeds received bytes; returns the commands and errors they complete.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [Output] where Bytes.Element == UInt8 {
        var outputs: [Output] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                newlineTerminated = true
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
        if newlineTerminated { return [] }
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
