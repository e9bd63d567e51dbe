import SwitchboardCore

/// The server's side of the DogeChat line protocol: what a message looks like
/// on a raw TCP connection. Every line ends with `\n`; CR, LF and every other
/// control character inside a text are sent as spaces, so no text can forge a
/// line or drive the terminal `nc` prints it on.
public enum LineFormat: MessageFrameFormat {
    /// A message's line: ``line(for:)`` of the stored message.
    public static func frame(for message: EncodedMessage) -> [UInt8] {
        line(for: message.message)
    }

    /// `NAME:TEXT`, `NAME has joined`, `NAME has left` or `system:TEXT`;
    /// for acts `NAME (reply to OTHER):TEXT`, `NAME edited:TEXT`, `NAME
    /// unsent a message`, `NAME reacted EMOJI` (a reaction taken back has
    /// no line, nor has the admin's removal: the protocol cannot take a
    /// line back), and `NAME shared a location geo:LAT,LON`.
    /// Each attachment follows the text as `[KIND URL]` (`[photo
    /// http://HOST:PORT/api/media/ID]`), its URL after `mediaBase`.
    public static func line(for message: Message, mediaBase: String = "") -> [UInt8] {
        switch message.kind {
        case .delete: return message.target == nil ? [] : line("\(message.user) unsent a message")
        case .edit: return line("\(message.user) edited:\(flatten(message.text))")
        case .reaction:
            guard message.on != false, let emoji = message.emoji else { return [] }
            return line("\(message.user) reacted \(flatten(emoji))")
        case .message:
            var text = flatten(message.text)
            for attachment in message.media ?? [] {
                text += (text.isEmpty ? "" : " ") + "[\(attachment.kind.rawValue) \(mediaBase)\(attachment.url)]"
            }
            if let location = message.location {
                if text.isEmpty { return line("\(message.user) shared a location \(location.geoURI)") }
                text += " [location \(location.geoURI)]"
            }
            if message.replyTo != nil {
                return line("\(message.user) (reply to \(message.replyToUser ?? "a message")):\(text)")
            }
            return line("\(message.user):\(text)")
        case .join: return line("\(message.user) has joined")
        case .leave: return line("\(message.user) has left")
        case .system: return line("\(MessageLimits.systemUser):\(flatten(message.text))")
        }
    }

    /// `error:DETAIL`, for a command the server refused.
    public static func error(_ detail: String) -> [UInt8] {
        line("error:\(flatten(detail))")
    }

    /// The line for a refusal: `error:CODE` for identity and access
    /// (`error:name_reserved`, `error:unauthorized`, `error:banned`,
    /// `error:rate_limited`, `error:invalid_user`: a client can match it), `error:MESSAGE` for
    /// input a person typed wrong.
    public static func refusal(_ error: SwitchboardError) -> [UInt8] {
        switch error.kind {
        // SPEC: a store that does not answer (or fails) is `error:store_unavailable`, whatever the detail.
        case .unauthenticated, .forbidden, .rateLimited, .unavailable: return self.error(error.code)
        // SPEC: a name refused (invisible or text-direction characters among the reasons) is `error:invalid_user`.
        case .invalid where error.code == "invalid_user": return self.error(error.code)
        default: return self.error(error.message)
        }
    }

    /// `pong:TEXT`, the answer to `ping:TEXT`.
    public static func pong(_ text: String) -> [UInt8] {
        line("pong:\(flatten(text))")
    }

    /// Any text as one protocol line.
    public static func line(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// `text` as it may stand inside one line: each control character (C0
    /// but tab, DEL, C1) a space, a CR LF pair one. A line feed would forge a
    /// line; an escape sequence (`ESC [2K`), a carriage return or backspaces
    /// would rewrite the line on the screen of someone reading with `nc`
    /// ("luke:" made "leia:"), and others set a terminal's title or colours.
    private static func flatten(_ text: String) -> String {
        // Most texts have none: one pass over the bytes, no copy. 0xC2 leads C1's two bytes.
        guard text.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        var shown = String.UnicodeScalarView()
        var afterReturn = false
        for scalar in text.unicodeScalars {
            defer { afterReturn = scalar == "\r" }
            if scalar == "\n", afterReturn { continue }
            shown.append(scalar.properties.generalCategory == .control && scalar != "\t" ? " " : scalar)
        }
        return String(shown)
    }
}
