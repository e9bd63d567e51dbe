import Testing
import SwitchboardCore

@Suite("Trimming spaces")
struct TrimmingSpacesTests {
    @Test func spacesAtEitherEndGoAndEverythingElseStays() {
        #expect("  a token  ".trimmingSpaces() == "a token")
        #expect("token".trimmingSpaces() == "token")
        #expect("    ".trimmingSpaces() == "")
        #expect("".trimmingSpaces() == "")
        #expect("\ttab\t".trimmingSpaces() == "\ttab\t")  // spaces only
        // A space with a combining accent is one character, not a space.
        #expect(" \u{301}x ".trimmingSpaces() == " \u{301}x")
        #expect("  naïve 🙂  ".dropFirst().trimmingSpaces() == "naïve 🙂")
        let long = String(repeating: "t", count: 10_000)
        #expect(("  " + long + "  ").trimmingSpaces() == long)
    }
}
