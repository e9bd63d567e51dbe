/// Where a JSON string's bytes stop being plain: the first `"`, `\` or
/// byte below 0x20, the bytes that end a string as written and the ones a
/// writer escapes. The reader of a client's JSON (``ClientMessageJSON``)
/// and the writer of a message's (``MessageJSON``) look for exactly these,
/// in every string of every publish, and most strings hold none.
///
/// Eight bytes at a time: a word holds one of them when it has a byte
/// below 0x20, or a zero byte once XORed with `"` or `\` in every byte
/// (the classic "has a byte less than n" and "has a zero byte" tests). A
/// test may also mark a byte after a true one (a borrow carried up), never
/// one before it, so the lowest marked byte of the word read as a
/// little-endian number is the first special one. A loop over bytes was
/// about 9 instructions a byte (callgrind: a publish's 48-byte text), this
/// about 4; a reader's short key is found in the first word.
enum JSONStringScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let high: UInt64 = 0x8080_8080_8080_8080
    private static let spaces: UInt64 = 0x2020_2020_2020_2020
    private static let quotes: UInt64 = 0x2222_2222_2222_2222
    private static let backslashes: UInt64 = 0x5C5C_5C5C_5C5C_5C5C

    /// Whether `byte` ends a plain run: `"`, `\` or a control character.
    static func isSpecial(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// The index of the first special byte of `bytes` at or after `start`,
    /// or `bytes.count` when there is none.
    @inline(__always)
    static func firstSpecial(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return bytes.count }
        var at = start
        while at &+ 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
            let quote = word ^ quotes, backslash = word ^ backslashes
            let control = (word &- spaces) & ~word
            let found = (control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & high
            if found != 0 { return at &+ found.trailingZeroBitCount &>> 3 }
            at &+= 8
        }
        while at < bytes.count, !isSpecial(bytes[at]) { at += 1 }
        return at
    }
}
