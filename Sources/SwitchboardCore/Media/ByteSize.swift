/// A number of bytes as a person reads it (an upload's refusal, what a
/// backup copied): `1,000 bytes` under a KiB, else KiB or MiB to the
/// nearest tenth, a whole number without its `.0` (`802.7 KiB`, `1 MiB`,
/// `25.5 MiB`). A refusal that spoke in whole MiB only said "0 MiB are in
/// use" of 800 KiB of uploads.
public enum ByteSize {
    /// `bytes` in the largest unit (bytes, KiB, MiB) it reaches, to the nearest tenth.
    public static func describe(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(grouped(max(0, bytes))) byte\(bytes == 1 ? "" : "s")" }
        let (unit, size): (String, Int64) = bytes < 1 << 20 ? ("KiB", 1024) : ("MiB", 1 << 20)
        // Tenths of the remainder only: `bytes * 10` overflowed for a quota past 800,000 TiB.
        var (whole, tenth) = (bytes / size, ((bytes % size) * 10 + size / 2) / size)
        if tenth == 10 { (whole, tenth) = (whole + 1, 0) }
        return tenth == 0 ? "\(grouped(whole)) \(unit)" : "\(grouped(whole)).\(tenth) \(unit)"
    }

    /// `1234567` as `1,234,567`.
    private static func grouped(_ value: Int64) -> String {
        let digits = Array(String(value))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
