/// Short text shown beside other text, a conversation's title or a
/// reaction's emoji: it may not change how the text around it reads. No
/// control character, no text-direction control (a right-to-left override
/// in a title reversed the rest of "alice created “…” with bobby", and the
/// names beside a reaction), and something drawn (not only zero-width
/// spaces, joiners or variation selectors: a title or reaction nobody sees).
/// Text in a language written right to left needs none of these controls.
public enum ShownText {
    /// Whether `text` may be shown beside other text.
    public static func isShowable(_ text: String) -> Bool {
        var drawn = false
        for scalar in text.unicodeScalars {
            let properties = scalar.properties
            if properties.generalCategory == .control || properties.isBidiControl { return false }
            if !drawn, !properties.isWhitespace, !properties.isDefaultIgnorableCodePoint { drawn = true }
        }
        return drawn
    }
}
