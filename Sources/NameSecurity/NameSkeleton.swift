internal import CICU

/// Names as a reader sees them (Unicode TR39, through ICU's `uspoof`):
/// two names with the same skeleton cannot be told apart on screen, so
/// they are one name (`luke`, `Luke`, `Ｌｕｋｅ`, `ℓuke` and `lukе` with a
/// Cyrillic `е` all have the skeleton of `luke`).
public enum NameSkeleton {
    /// The comparison key of `name`: TR39's skeleton of its NFKC case
    /// fold. Equal keys: names a reader cannot tell apart.
    /// Remembered for the last names asked (``NameKeyMemo``): a guest's
    /// name is checked at each of its publishes.
    public static func key(_ name: String) -> String {
        memo.key(name, skeleton)
    }

    /// The key of `name` as it is written, before any case fold: TR39's
    /// skeleton of its NFKC form, case-folded, and the skeleton of that.
    /// A capital that looks like another letter's small form meets it here
    /// (`I`, a small `L` on screen in most fonts: `Iuke` is `luke`), where
    /// ``key(_:)`` folds first and makes it `i`, a letter that looks like
    /// no `l`. Two names are one when either key is the same (``key(_:)``
    /// alone: `Ian` and `ian`; this one alone: `Iuke` and `luke`).
    public static func shownKey(_ name: String) -> String {
        shownMemo.key(name, shownSkeleton)
    }

    /// Opens ICU's confusable data and normalisers now and works out one
    /// name's keys, so that the first name a client gives after a start does
    /// not pay for it (about 2.9 million instructions: the spoof checker's
    /// sets built, the Swift runtime's first look-ups for UTF-16 text; a
    /// fresh server's first publish 3.3 million instructions, now 0.43).
    /// Returns false when ICU's spoof checker cannot be opened: then names
    /// that only look alike (a Cyrillic `е` for an `e`) would not be told apart.
    public static func prepare() -> Bool {
        _ = shownSkeleton(preparedName)
        return checker != nil
    }

    /// The name ``prepare()`` works out (full-width, so NFKC has work), kept in no memo.
    static let preparedName = "Ｐrepare"

    /// ``key(_:)`` worked out by ICU, without the memo.
    static func skeleton(_ name: String) -> String {
        guard let folded = transform(name, sb_nfkc_casefold) else { return name.lowercased() }
        guard let checker else { return folded }
        return transform(folded) { text, length, out, capacity in sb_spoof_skeleton(checker.pointer, text, length, out, capacity) }
            ?? folded
    }

    /// ``shownKey(_:)`` worked out by ICU, without the memo.
    static func shownSkeleton(_ name: String) -> String {
        guard let checker, let nfkc = transform(name, sb_nfkc) else { return skeleton(name) }
        let skeleton = { (text: String) in
            transform(text) { text, length, out, capacity in sb_spoof_skeleton(checker.pointer, text, length, out, capacity) }
        }
        guard let shown = skeleton(nfkc), let folded = transform(shown, sb_nfkc_casefold) else { return Self.skeleton(name) }
        return skeleton(folded) ?? folded
    }

    /// `name` in NFKC: full-width letters, ligatures and letter-like
    /// symbols (`ℓ`) in their plain form, as a name is kept.
    public static func normalized(_ name: String) -> String {
        transform(name, sb_nfkc) ?? name
    }

    /// Whether `scalar` may never stand in a name: it shows nothing
    /// (default-ignorable: zero-width joiners and spaces, soft hyphens,
    /// word joiners, variation selectors, tag characters) or reorders what
    /// is shown (bidirectional controls such as the right-to-left override).
    public static func isInvisibleOrBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isDefaultIgnorableCodePoint || scalar.properties.isBidiControl
    }

    private final class Checker: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
        init?() {
            guard let pointer = sb_spoof_open() else { return nil }
            self.pointer = pointer
        }
        deinit { sb_spoof_close(pointer) }
    }

    /// One checker for the process: ICU's skeleton reads it only, from any thread.
    private static let checker = Checker()

    /// The keys of the names asked last; like the checker, one for the
    /// process: a pure function's answers, the same whoever asks.
    static let memo = NameKeyMemo(capacity: 1024)
    /// ``memo`` for ``shownKey(_:)``.
    static let shownMemo = NameKeyMemo(capacity: 1024)

    private typealias Transform = (UnsafePointer<UInt16>?, Int32, UnsafeMutablePointer<UInt16>?, Int32) -> Int32

    /// Runs an ICU UTF-16 transform, growing the output once if it must.
    private static func transform(_ text: String, _ body: Transform) -> String? {
        let input = Array(text.utf16)
        var capacity = max(16, input.count * 2)
        for _ in 0..<2 {
            var output = [UInt16](repeating: 0, count: capacity)
            let written = input.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { out in
                    body(input.baseAddress, Int32(input.count), out.baseAddress, Int32(capacity))
                }
            }
            if written < 0 { return nil }
            if Int(written) <= capacity { return String(decoding: output[..<Int(written)], as: UTF16.self) }
            capacity = Int(written)
        }
        return nil
    }
}
