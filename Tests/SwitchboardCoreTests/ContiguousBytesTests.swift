import Foundation
import Testing
import SwitchboardCore

/// `everyUTF8Byte` reads a native string as one buffer and anything else
/// byte by byte: the answers must be the same either way.
struct ContiguousBytesTests {
    @Test(arguments: ["lobby", "a-room-name-longer-than-fifteen-bytes", "héllo", ""])
    func everyByteAgreesWithTheUTF8View(_ text: String) {
        let isLetter: (UInt8) -> Bool = { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
        let bridged = NSString(string: text) as String  // not necessarily native
        for form in [text, bridged, String(text.dropFirst(0))] {
            #expect(form.everyUTF8Byte(isLetter) == text.utf8.allSatisfy(isLetter))
        }
        #expect(text.dropFirst().everyUTF8Byte(isLetter) == text.utf8.dropFirst().allSatisfy(isLetter))
    }

    /// `containsUTF8Byte` finds a byte anywhere, in native strings and others alike.
    @Test(arguments: ["", "a", "nul\u{0}inside", "\u{0}", "ends with nul\u{0}", "a text of ordinary length, with no nul in it", "héllo"])
    func aByteIsFoundAsTheUTF8ViewFindsIt(_ text: String) {
        let bridged = NSString(string: text) as String
        for form in [text, bridged, String(text.dropFirst(0))] {
            for byte: UInt8 in [0, UInt8(ascii: "a"), 0xC3, 0xFF] {
                #expect(form.containsUTF8Byte(byte) == text.utf8.contains(byte), "\(byte) in \(text.debugDescription)")
            }
        }
        #expect(text.dropFirst().containsUTF8Byte(0) == text.utf8.dropFirst().contains(0))
    }

    /// `isValidUTF8` and `validUTF8String` (UTF8Span) decide as the standard
    /// library's `String(validating:as:)` does, on valid text, every kind of
    /// malformed sequence, and a sequence cut off at the end.
    @Test(arguments: [
        Array("plain".utf8), Array("héllo wörld 🐶".utf8), [], [0x00],
        [0xFF], [0x80], [0xC0, 0xAF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0xF0, 0x9F, 0x98], [0xF0, 0x9F, 0x98, 0x41], [0x41, 0xE2, 0x82], Array("ok".utf8) + [0xC3],
    ] as [[UInt8]])
    func utf8ValidityAgreesWithTheStandardLibrary(_ bytes: [UInt8]) {
        let expected = String(validating: bytes, as: UTF8.self)
        #expect(bytes.isValidUTF8 == (expected != nil))
        #expect(bytes.validUTF8String == expected)
    }

    @Test(arguments: [0, 1, 9, 10, 99, 100, 1_000_000, -1, -10, Int64.max, Int64.min, Int64.min + 1] as [Int64])
    func decimalDigitsSpellANumberAsTheStandardLibraryDoes(_ value: Int64) {
        var bytes: [UInt8] = Array("id:".utf8)
        bytes.appendDecimal(value)
        #expect(String(decoding: bytes, as: UTF8.self) == "id:\(value)")
    }
}
