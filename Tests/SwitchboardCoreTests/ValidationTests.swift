import NameSecurity
import Testing
@testable import SwitchboardCore

@Suite("Names, text and parameters")
struct ValidationTests {
    let limits = MessageLimits()

    @Test(arguments: ["lobby", "a", "Room_1.x-y", String(repeating: "r", count: 64), "...", ".a", "a..", "-"])
    func validRooms(_ room: String) throws {
        #expect(try limits.validRoom(room) == room)
    }

    // `.` and `..` are dot segments: no URL's path can name them.
    @Test(arguments: ["", "has space", "ümlaut", "a/b", "a\nb", String(repeating: "r", count: 65), ".", "..",
                      String(repeating: "é", count: 40)])
    func invalidRooms(_ room: String) {
        #expect(throws: SwitchboardError.self) { try limits.validRoom(room) }
    }

    /// Each of the 128 ASCII bytes, at the start, inside and at the end of a
    /// room name, is allowed exactly when it is A-Z a-z 0-9 _ . or -.
    @Test func everyASCIIByteIsAllowedInARoomNameOrNot() {
        let allowed = Set(Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-".utf8))
        for byte in UInt8(0)..<128 {
            let text = String(decoding: [byte], as: UTF8.self)
            // The last two are longer than a string stored inline (15 bytes).
            for room in ["\(text)ab", "a\(text)b", "ab\(text)", "abcdefgh\(text)", "\(text)abcdefghijklmnopqrst",
                         "abcdefghijklmnopqrst\(text)"] {
                #expect(((try? limits.validRoom(room)) != nil) == allowed.contains(byte), "\(byte) in \(room.debugDescription)")
            }
        }
    }

    /// A conversation's room is `c.` or `C.` and anything after it (inline
    /// strings and longer ones alike); nothing else is.
    @Test func conversationRoomsAreTheNamesThatStartWithCDot() {
        for room in ["c.1", "C.17", "c.", "c.new", "c.12345678901234567890", "C.room-with-a-long-name"] {
            #expect(ConversationRoom.isConversation(room), "\(room)")
        }
        for room in ["", "c", "C", "cc.1", "d.1", "#.1", "C1", "lobby", "c-1", ".c", "a-room-with-a-long-name.c."] {
            #expect(!ConversationRoom.isConversation(room), "\(room)")
        }
    }

    /// `?rooms=`: none is every room, one is a single room (no set to hash
    /// per message), a repeat is one room, and several pass only themselves.
    @Test func roomListsBecomeTheFilterTheyName() throws {
        #expect(try limits.validRooms(nil) == .all && limits.validRooms("") == .all && limits.validRooms(",") == .all)
        let one = try limits.validRooms("lobby,lobby")
        #expect(one == .room("lobby") && one.soleRoom == "lobby" && one.names == ["lobby"])
        #expect(one.contains("lobby") && !one.contains("lobby2"))
        let two = try limits.validRooms("b,a,b")
        #expect(two == .rooms(["a", "b"]) && two.soleRoom == nil && two.names == ["a", "b"])
        #expect(two.contains("a") && two.contains("b") && !two.contains("c"))
        #expect(RoomFilter.all.names.isEmpty && RoomFilter.all.contains("anything") && RoomFilter.all.soleRoom == nil)
        #expect(throws: SwitchboardError.self) { try limits.validRooms("a,b c") }
    }

    /// At most 256 different rooms a stream: a repeat counts once, one more is refused.
    @Test func aStreamNamesAtMost256Rooms() throws {
        let most = (1...MessageLimits.maxRoomsPerStream).map { "r\($0)" }
        #expect(try limits.validRooms((most + ["r1", "r2"]).joined(separator: ",")).names.count == 256)
        let error = #expect(throws: SwitchboardError.self) { try limits.validRooms((most + ["r257"]).joined(separator: ",")) }
        #expect(error?.code == "too_many_rooms")
    }

    @Test func userNamesAreTrimmedAndCountedInCodePoints() throws {
        #expect(try limits.validUser("  luke\t") == "luke")
        #expect(try limits.validUser(String(repeating: "é", count: 32)).unicodeScalars.count == 32)
        #expect(throws: SwitchboardError.self) { try limits.validUser(String(repeating: "é", count: 33)) }
        #expect(try limits.validUser("Léia 🚀") == "Léia 🚀")
    }

    @Test(arguments: ["", "   ", "a:b", "a\nb", "a\rb", "a\u{0}b", "a\u{7}b", "a\u{2028}b", "system", "SYSTEM", "error", "Auth",
                      "who", "pong", "TYPING", "\u{0435}rror"])
    func invalidUsers(_ user: String) {
        #expect(throws: SwitchboardError.self) { try limits.validUser(user) }
    }

    /// Plain ASCII names take a short way (no trimming or normalizing to
    /// do); with spaces around them they take the long one: the same answer.
    @Test func plainASCIINamesAreJudgedAsByTheFullRules() throws {
        for name in ["luke", "Luke_Skywalker-2", "a~b", "x", String(repeating: "y", count: 32), "R2-D2", "sy5tem"] {
            #expect(try limits.validUser(name) == name)
            #expect(try limits.validUser(" \(name)\t") == name)
        }
        for name in [String(repeating: "y", count: 33), "a:b", "a\u{7F}b", "system", "System", "SYSTEM"] {
            #expect(throws: SwitchboardError.self, "\(name)") { try limits.validUser(name) }
            #expect(throws: SwitchboardError.self, "\(name)") { try limits.validUser(" \(name) ") }
        }
    }

    /// Invisible characters and text-direction controls are never part of a name.
    @Test(arguments: ["luke\u{200D}", "lu\u{200B}ke", "lu\u{00AD}ke", "lu\u{2060}ke", "luke\u{FE0F}", "luke\u{E0041}",
                      "\u{202E}ekul", "a\u{200E}b", "\u{2066}luke\u{2069}", "lu\u{180E}ke"])
    func invisibleAndBidiCharactersAreRefused(_ user: String) {
        #expect(throws: SwitchboardError.self) { try limits.validUser(user) }
    }

    /// Names are kept in NFKC: what a full-width or letter-like spelling shows is what is stored.
    @Test func namesAreKeptInTheirPlainForm() throws {
        #expect(try limits.validUser("\u{FF2C}\u{FF55}\u{FF4B}\u{FF45}") == "Luke")
        #expect(try limits.validUser("\u{2113}uke") == "luke")
        #expect(try limits.validUser("e\u{0301}mile") == "\u{00E9}mile")
        #expect(throws: SwitchboardError.self) { try limits.validUser("\u{FF53}\u{FF59}\u{FF53}\u{FF54}\u{FF45}\u{FF4D}") }  // ｓｙｓｔｅｍ
        #expect(throws: SwitchboardError.self) { try limits.validUser("syst\u{0435}m") }  // Cyrillic е
    }

    /// TR39 skeletons: names a reader cannot tell apart have one key; others do not.
    @Test func lookalikesShareASkeleton() {
        let luke = NameSkeleton.key("luke")
        for same in ["Luke", "LUKE", "luk\u{0435}", "\u{FF2C}\u{FF55}\u{FF4B}\u{FF45}", "\u{2113}uke", "1uke"] {
            #expect(NameSkeleton.key(same) == luke, "\(same)")
        }
        for other in ["leia", "lukas", "luke2", "lu ke"] {
            #expect(NameSkeleton.key(other) != luke, "\(other)")
        }
        #expect(NameSkeleton.key("rn") == NameSkeleton.key("m"))
        // A capital that is another letter's small form on screen: the key as written.
        for (written, lookalike) in [("Iuke", "luke"), ("\u{0196}uke", "luke"), ("AI", "Al"), ("B0b", "Bob"), ("Ian", "lan")] {
            #expect(NameSkeleton.shownKey(written) == NameSkeleton.shownKey(lookalike), "\(written)")
        }
        for (one, other) in [("iuke", "luke"), ("ian", "lan"), ("leia", "lela")] {
            #expect(NameSkeleton.shownKey(one) != NameSkeleton.shownKey(other) && NameSkeleton.key(one) != NameSkeleton.key(other), "\(one)")
        }
    }

    @Test func aRegisteredNameReservesItsLookalikes() throws {
        let access = AccessControl(verifier: nil)
        access.registered("luke")
        for lookalike in ["Luke", "luk\u{0435}", "\u{2113}uke", "Iuke", "\u{0196}uke", "IUKE"] {
            #expect(throws: SwitchboardError.nameReserved(lookalike)) { try access.speaker(.guest, claimed: lookalike) }
        }
        #expect(try access.speaker(.guest, claimed: "leia") == "leia")
        #expect(try access.speaker(.guest, claimed: "iuke") == "iuke", "a small i is no l")
        #expect(access.registeredName("LUK\u{0415}") == "luke" && access.registeredName("Iuke") == "luke")
        // Loaded from the store as registered one by one; a capital I in the account's name too.
        let loaded = AccessControl(verifier: nil)
        loaded.load(accounts: ["luke", "Ian"], bans: [:], revoked: [:])
        for lookalike in ["Iuke", "lan", "ian", "IAN"] {
            #expect(throws: SwitchboardError.nameReserved(lookalike)) { try loaded.speaker(.guest, claimed: lookalike) }
        }
    }

    @Test func textIsTrimmedOfTrailingLineEndsOnly() throws {
        #expect(try limits.validText("hi\r\n\n") == "hi")
        #expect(try limits.validText("  two\nlines  ") == "  two\nlines  ")
        #expect(try limits.validText(String(repeating: "x", count: 4096)).utf8.count == 4096)
        #expect(throws: SwitchboardError.self) { try limits.validText("\r\n") }
        #expect(throws: SwitchboardError.self) { try limits.validText(String(repeating: "x", count: 4097)) }
        #expect(throws: SwitchboardError.self) { try limits.validText("a\u{0}") }
        // Without a line end to trim (the text as it came) and with one.
        #expect(throws: SwitchboardError.self) { try limits.validText("") }
        #expect(throws: SwitchboardError.self) { try limits.validText("a\u{0}b\r") }
        #expect(try limits.validText("cr\r") == "cr")
        #expect(try limits.validText(String(repeating: "x", count: 4096) + "\n\r").utf8.count == 4096)
        do {
            _ = try limits.validText(String(repeating: "é", count: 2049))
            Issue.record("4098 bytes accepted")
        } catch {
            #expect(error.code == "too_long")
        }
    }
}
