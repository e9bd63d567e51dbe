// libFuzzer target for what reads an upload's bytes and a download's
// request: the type sniffed from a file's first bytes (against a declared
// type), the name it is kept under, a video's size from its container, and the
// Range header. (The multipart
// body itself is libmicrohttpd's post processor, C: Tests/Media/media_test.py
// sends it mutated bodies against the running server.) Built by
// Scripts/fuzz.sh (TARGET=uploads) with SwitchboardCore's sources and
// ByteRange as one module.
//
// Input layout: the first byte picks the reader; the rest is its input
// (for sniffing, a declared type and the head split at the first 0xFF).

@_cdecl("LLVMFuzzerTestOneInput")
public func uploadReadersFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let input = Array(bytes.dropFirst())
    switch first % 5 {
    case 0:
        let parts = input.split(separator: 0xFF, maxSplits: 1, omittingEmptySubsequences: false)
        let declared = parts.count == 2 ? String(decoding: parts[0], as: UTF8.self) : nil
        let head = Array(parts.last ?? [])
        if let type = try? MediaSniffer.sniff(head, declared: declared) {
            // Whatever is accepted is a listed type whose magic the head really has.
            precondition(MediaSniffer.container(of: head) != nil, "accepted only with a known container")
            precondition(!type.mimeType.contains("html") && !type.mimeType.contains("svg"), "never a page or SVG")
            if declared == nil { precondition(MediaSniffer.container(of: head) == type, "undeclared: the container's own type") }
        }
    case 1:
        let name = MediaName.clean(String(decoding: input, as: UTF8.self), type: .jpeg)
        precondition(!name.isEmpty && name.count <= 200, "a name of 1 to 200 characters")
        precondition(!name.contains("/") && !name.contains("\\") && !name.contains("\"") && name != "." && name != "..", "no path, no quote")
        precondition(!name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "no control character")
    case 2:
        let size = Int64(input.first ?? 0) * 1000 + Int64(input.count)
        let header = String(decoding: input.dropFirst(), as: UTF8.self)
        switch ByteRange(header: header, size: size) {
        case .whole: break
        case .unsatisfiable: break
        case .part(let start, let end):
            precondition(start >= 0 && start <= end && end < size, "a served range lies inside the file")
        }
    case 3:
        // A video's container read for its size: never a trap, never a zero or negative size.
        for type in [MediaType.mp4, .webm] {
            let found = VideoDimensions.of(type, size: Int64(input.count)) { offset, count in
                guard offset >= 0, offset < input.count, count > 0 else { return [] }
                return Array(input[Int(offset)..<min(input.count, Int(offset) + count)])
            }
            if let found { precondition(found.width > 0 && found.height > 0, "a size is positive") }
        }
    default:
        let text = String(decoding: input, as: UTF8.self)
        if MediaID.isValid(text) { precondition(text.utf8.count == 32 && !text.contains("/") && !text.contains("."), "an id is 32 hex digits") }
    }
    return 0
}
