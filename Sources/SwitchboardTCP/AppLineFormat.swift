import SwitchboardCore

/// What the DogeChat app can show. It reads up to 4,096 bytes at a time and
/// shows each read as one message, split on `:`; a line break would end up
/// in the bubble. So a client that never ends its commands with a newline
/// gets each message as its own write, without the line break, and at most
/// 4,096 bytes: a longer one (a 4,096-byte text plus `NAME:`) is cut at a
/// character boundary and ends with `…`, so it is one bubble, not two.
/// (When the app reads more slowly than messages arrive, its socket can
/// still hand it two writes in one read; TCP keeps no message boundaries.)
public enum AppLineFormat: MessageFrameFormat {
    /// The app's read size.
    public static let maxBytes = 4096

    public static func frame(for message: EncodedMessage) -> [UInt8] {
        fit(message.frame(LineFormat.self))
    }

    /// A protocol line as the app can show it: no line break, at most ``maxBytes``.
    public static func fit(_ line: [UInt8]) -> [UInt8] {
        var bytes = line.last == UInt8(ascii: "\n") ? Array(line.dropLast()) : line
        guard bytes.count > maxBytes else { return bytes }
        let ellipsis = Array("…".utf8)
        var end = maxBytes - ellipsis.count
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }  // not inside a character
        bytes.removeSubrange(end...)
        return bytes + ellipsis
    }
}
