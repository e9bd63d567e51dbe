/// A reaction's emoji as a client sends it: 1–16 bytes of UTF-8, no
/// white space and no control characters (any emoji, with its modifiers and
/// joiners, fits; a sentence does not), and ``ShownText/isShowable(_:)``.
/// Nor a `/`, `.` or `..`, which no URL path segment can carry: such a
/// reaction, put on over WebSocket, could not be taken back over HTTP.
public enum ReactionEmoji {
    /// The longest emoji in bytes.
    public static let maxBytes = 16

    /// `emoji` when it may be a reaction; 422 `invalid_emoji` otherwise.
    public static func valid(_ emoji: String) throws(SwitchboardError) -> String {
        guard emoji.utf8.count <= maxBytes, !emoji.unicodeScalars.contains(where: \.properties.isWhitespace), ShownText.isShowable(emoji),
              !emoji.utf8.contains(UInt8(ascii: "/")), emoji != ".", emoji != ".."
        else { throw .invalidEmoji }
        return emoji
    }
}
