/// A reaction's emoji as a client sends it: 1–16 bytes of UTF-8, no
/// white space and no control characters (any emoji, with its modifiers and
/// joiners, fits; a sentence does not). Nor a text-direction control (a
/// right-to-left override reversed the names shown beside the reaction),
/// nor only characters nothing is drawn for (a zero-width space, a
/// variation selector alone): an emoji nobody sees.
public enum ReactionEmoji {
    /// The longest emoji in bytes.
    public static let maxBytes = 16

    /// `emoji` when it may be a reaction; 422 `invalid_emoji` otherwise.
    public static func valid(_ emoji: String) throws(SwitchboardError) -> String {
        let bytes = emoji.utf8.count
        guard bytes >= 1, bytes <= maxBytes,
              !emoji.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control
                                                         || $0.properties.isBidiControl }),
              emoji.unicodeScalars.contains(where: { !$0.properties.isDefaultIgnorableCodePoint })
        else { throw .invalidEmoji }
        return emoji
    }
}
