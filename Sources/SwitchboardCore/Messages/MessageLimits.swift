import NameSecurity

/// The configurable limits on names and text, and the validation that applies them.
public struct MessageLimits: Sendable, Equatable {
    /// Most bytes of text after trimming trailing CR/LF (4,096: one DogeChat read).
    public var maxTextBytes: Int
    /// Most code points in a user name.
    public var maxUserLength: Int
    /// Most characters in a room name.
    public var maxRoomLength: Int
    /// `--edit-window`: seconds after sending in which its author may edit
    /// or unsend a message (0: never).
    public var editWindowSeconds: Int
    /// `--max-group-members`: most members of one conversation, its creator
    /// among them (each message costs the commit a row per member).
    public var maxConversationMembers: Int

    public init(maxTextBytes: Int = 4096, maxUserLength: Int = 32, maxRoomLength: Int = 64, editWindowSeconds: Int = 900,
                maxConversationMembers: Int = 1_000) {
        self.maxConversationMembers = max(2, maxConversationMembers)
        self.maxTextBytes = maxTextBytes
        self.maxUserLength = maxUserLength
        self.maxRoomLength = maxRoomLength
        self.editWindowSeconds = max(0, editWindowSeconds)
    }

    /// The user name every server-written message uses; no client may take it.
    public static let systemUser = "system"
    /// Names no client may take: `system`, and the words raw TCP starts its
    /// own lines with. A chat message there is `NAME:TEXT`, so a user named
    /// `error` saying `unauthorized` was the line `error:unauthorized`, and
    /// `auth`, `who`, `pong` and `typing` forged those replies the same way.
    public static let reservedUsers = [systemUser, "error", "auth", "who", "pong", "typing"]
    /// What the reserved names look like to a reader (``NameSkeleton``).
    static let reservedKeys = reservedUsers.map(NameSkeleton.key)

    /// Makes ready at start what checking a name needs on first use (ICU's
    /// data, ``NameSkeleton/prepare()``, and the reserved names' keys); false
    /// when names that only look alike could not be told apart.
    public static func prepareNameChecks() -> Bool {
        _ = reservedKeys
        return NameSkeleton.prepare()
    }

    /// A room name: 1 to ``maxRoomLength`` characters of `[A-Za-z0-9_.-]`,
    /// not `.` or `..`: a URL's path cannot carry those (a dot segment), so
    /// a room `iam:` and `join:..` made was one no HTTP client could read.
    public func validRoom(_ room: String) throws(SwitchboardError) -> String {
        let bytes = room.utf8
        guard !bytes.isEmpty, bytes.count <= maxRoomLength,
              room.everyUTF8Byte({ Self.isRoomByte($0) }),
              // Not `.` or `..`: two String comparisons were 73 instructions a publish.
              bytes.count > 2 || bytes.contains(where: { $0 != UInt8(ascii: ".") })
        else {
            throw SwitchboardError(.malformed, code: "invalid_room",
                                   message: "A room name is 1-\(maxRoomLength) characters of A-Z a-z 0-9 _ . -, and not '.' or '..'")
        }
        return room
    }

    /// Most rooms one stream or socket names (``validRooms(_:)``), as Nchan
    /// caps a multiplexed subscriber's channels at 255. A stream waits in
    /// every room it names: 1,000 streams of 1,000 rooms each held 220 KB
    /// apiece (not 13), and each wake-up and park of one walked all its rooms
    /// under the bus's lock. Every room is one name fewer: leave `rooms` out.
    public static let maxRoomsPerStream = 256

    /// A comma-separated list of rooms (`a,b`) as a filter; absent or empty
    /// means every room. Each name must be valid, and at most
    /// ``maxRoomsPerStream`` different ones (422 `too_many_rooms`).
    public func validRooms(_ list: String?) throws(SwitchboardError) -> RoomFilter {
        guard let list, !list.isEmpty else { return .all }
        var rooms = Set<String>()
        for name in list.split(separator: ",", omittingEmptySubsequences: true) {
            rooms.insert(try validRoom(String(name)))
            guard rooms.count <= Self.maxRoomsPerStream else {
                throw SwitchboardError(.invalid, code: "too_many_rooms",
                                       message: "A stream names at most \(Self.maxRoomsPerStream) rooms; leave out 'rooms' for every room.")
            }
        }
        return .named(rooms)
    }

    /// A user name, trimmed of white space and in NFKC (`Ｌｕｋｅ` is `Luke`,
    /// `ℓuke` is `luke`): 1 to ``maxUserLength`` printable code points, no
    /// `:`, no control or line-separator characters, nothing invisible
    /// (zero-width characters, soft hyphens, variation selectors, tags) and
    /// no bidirectional controls, and not one of ``reservedUsers`` or a
    /// name that looks like one (the key is case-folded: `System` too).
    public func validUser(_ user: String) throws(SwitchboardError) -> String {
        // The common name (`luke`, `bench_7`) has nothing to trim, normalize
        // or look up scalar by scalar: it is read as one buffer (this runs at
        // every publish, and the long way costs ten times as much).
        let name = isPlainASCIIName(user) ? user : try normalizedName(user)
        let key = NameSkeleton.key(name)
        if let reserved = Self.reservedKeys.firstIndex(of: key) {
            throw SwitchboardError(.invalid, code: "reserved_user",
                                   message: "The name '\(Self.reservedUsers[reserved])' is reserved for the server.")
        }
        return name
    }

    /// 1 to ``maxUserLength`` bytes of printable ASCII with no space or `:`:
    /// a name as it is, for ``validUser(_:)`` to check against the reserved names only.
    private func isPlainASCIIName(_ user: String) -> Bool {
        let count = user.utf8.count
        return count > 0 && count <= maxUserLength
            && user.everyUTF8Byte({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") })
    }

    /// Any other name, trimmed, in NFKC, and checked code point by code point.
    private func normalizedName(_ user: String) throws(SwitchboardError) -> String {
        var trimmed = Self.trimWhitespace(user)
        if !trimmed.utf8.allSatisfy({ $0 < 0x80 }) {
            for scalar in trimmed.unicodeScalars where NameSkeleton.isInvisibleOrBidiControl(scalar) {
                throw SwitchboardError(.invalid, code: "invalid_user",
                                       message: "A user name cannot contain invisible or text-direction characters "
                                           + "(U+\(String(scalar.value, radix: 16, uppercase: true))).")
            }
            trimmed = Self.trimWhitespace(NameSkeleton.normalized(trimmed))
        }
        let scalars = trimmed.unicodeScalars
        guard !scalars.isEmpty else {
            throw SwitchboardError(.invalid, code: "invalid_user", message: "A user name is required.")
        }
        guard scalars.count <= maxUserLength else {
            throw SwitchboardError(.invalid, code: "invalid_user",
                                   message: "A user name is at most \(maxUserLength) characters.")
        }
        for scalar in scalars where scalar == ":" || !Self.isPrintable(scalar) {
            throw SwitchboardError(.invalid, code: "invalid_user",
                                   message: "A user name cannot contain ':' or control characters.")
        }
        return trimmed
    }

    /// Text with trailing CR/LF trimmed: 1 to ``maxTextBytes`` bytes of UTF-8,
    /// inner newlines allowed, no NUL.
    public func validText(_ text: String) throws(SwitchboardError) -> String {
        // Trailing line breaks are trimmed; the common text has none and is
        // checked as it is (a substring made back into a string was a copy
        // of every text published, 780 instructions with the checks).
        var valid = text
        if let last = text.utf8.last, last == 0x0A || last == 0x0D {
            var trimmed = Substring(text)
            while let last = trimmed.unicodeScalars.last, last == "\n" || last == "\r" {
                trimmed.unicodeScalars.removeLast()
            }
            valid = String(trimmed)
        }
        let count = valid.utf8.count
        guard count > 0 else {
            throw SwitchboardError(.invalid, code: "empty_text", message: "The text is empty.")
        }
        guard count <= maxTextBytes else {
            throw SwitchboardError(.invalid, code: "too_long",
                                   message: "The text is \(count) bytes; at most \(maxTextBytes) are allowed.")
        }
        guard !valid.containsUTF8Byte(0) else {
            throw SwitchboardError(.invalid, code: "invalid_text", message: "The text cannot contain NUL characters.")
        }
        return valid
    }

    private static func isRoomByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate, .privateUse:
            return false
        default:
            return true
        }
    }

    private static func trimWhitespace(_ string: String) -> String {
        let scalars = string.unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }
}
