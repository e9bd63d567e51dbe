import Testing
import SwitchboardCore

/// Titles and reactions shown beside other text cannot change how it reads.
@Suite struct ShownTextTests {
    @Test func textInAnyScriptIsShowable() {
        for text in ["Trip", "rebel base", "שלום", "مرحبا", "👩🏽‍🚀", "❤️", "日本"] {
            #expect(ShownText.isShowable(text), "\(text)")
        }
    }

    @Test func controlsDirectionAndNothingToSeeAreNot() {
        for text in ["", " ", "\u{200B}", "\u{FE0F}", "\u{200D}\u{2060}", "a\u{202E}b", "\u{2067}a", "a\u{200F}", "a\u{1}", "a\u{7F}"] {
            #expect(!ShownText.isShowable(text), "\(text.unicodeScalars.map(\.value))")
        }
    }
}
