import Testing
@testable import SwitchboardCore

/// The cursor and the other whole-number parameters (`since`, `limit`,
/// `wait`, `before`, `Last-Event-ID`, `since:N`): plain ASCII digits in
/// range, anything else refused with the parameter's name.
@Suite("Cursor")
struct CursorTests {
    @Test func plainDigitsAreRead() throws {
        #expect(try Cursor.parse("0", name: "since") == 0)
        #expect(try Cursor.parse("42", name: "since") == 42)
        #expect(try Cursor.parse("007", name: "since") == 7)
        #expect(try Cursor.parse(String(repeating: "0", count: 500) + "9", name: "since") == 9)
        #expect(try Cursor.parse("9223372036854775807", name: "since") == Int64.max)
        // One made from a substring reads the same.
        #expect(try Cursor.parse(String("x123x".dropFirst().dropLast()), name: "since") == 123)
    }

    @Test func anythingButDigitsIsRefused() {
        for value in ["", "-1", "+1", " 1", "1 ", "1e3", "0x10", "1.0", "١٢", "１２", "9223372036854775808",
                      "99999999999999999999", "1\u{0}2", "1:", "/1"] {
            #expect(throws: SwitchboardError.self) { try Cursor.parse(value, name: "since") }
        }
    }

    @Test func theRangeIsChecked() throws {
        #expect(try Cursor.integer("1000", name: "limit", range: 1...1000) == 1000)
        let over = #expect(throws: SwitchboardError.self) { try Cursor.integer("1001", name: "limit", range: 1...1000) }
        #expect(over?.code == "bad_parameter")
        #expect(over?.message.contains("limit") == true)
        let notANumber = #expect(throws: SwitchboardError.self) { try Cursor.integer("ten", name: "wait", range: 0...60) }
        #expect(notANumber?.message.contains("whole number from 0 to 60") == true)
        #expect(throws: SwitchboardError.self) { try Cursor.integer("0", name: "limit", range: 1...1000) }
    }
}
