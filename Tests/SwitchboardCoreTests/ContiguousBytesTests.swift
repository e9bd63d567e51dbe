import Foundation
import Testing
import SwitchboardCore

/// `everyUTF8Byte` and `utf8Equals` read a native string as one buffer and
/// anything else byte by byte: the answers must be the same either way.
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

    @Test func equalityIsByteForByte() {
        let literal: StaticString = "messages"
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        #expect("messages".utf8Equals(bytes))
        #expect("rooms/lobby/messages".split(separator: "/")[2].utf8Equals(bytes))
        #expect(!"message".utf8Equals(bytes))
        #expect(!"messageS".utf8Equals(bytes))
    }
}
