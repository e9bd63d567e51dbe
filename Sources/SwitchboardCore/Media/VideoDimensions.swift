/// A video's width and height as its container states them, read without
/// decoding anything: an MP4 or QuickTime file's first video track header
/// (`moov/trak/tkhd`, turned when its matrix turns the picture a quarter,
/// as a phone's portrait video is), a WebM file's first `Video` element
/// (`PixelWidth`, `PixelHeight`). Nil when the container does not say
/// (SPEC: width and height "for video when known"). Pure: the bytes come
/// through `read`, which answers what it can of a range of the file.
public enum VideoDimensions {
    /// The most of an MP4's `moov` box read (it holds every track's tables; larger ones are not read).
    static let maxMovieBytes = 8 << 20
    /// How far into a WebM file its tracks are looked for.
    static let webmScanBytes = 1 << 20

    /// The dimensions of a video of `type`, `size` bytes long.
    /// - Parameter read: the bytes at `offset`, at most `count` (fewer at the end).
    public static func of(_ type: MediaType, size: Int64, read: (_ offset: Int64, _ count: Int) -> [UInt8]) -> (width: Int, height: Int)? {
        switch type {
        case .mp4, .quicktime: return mp4(size: size, read: read)
        case .webm: return webm(read(0, webmScanBytes))
        default: return nil
        }
    }

    // MARK: MP4 and QuickTime

    static func mp4(size: Int64, read: (Int64, Int) -> [UInt8]) -> (width: Int, height: Int)? {
        // The top-level boxes, each skipped by its size, until `moov`.
        var offset: Int64 = 0
        while offset + 8 <= size {
            let header = read(offset, 16)
            guard header.count >= 8 else { return nil }
            var length = Int64(bigEndian32(header, 0))
            var headerLength: Int64 = 8
            if length == 1 {
                guard header.count >= 16 else { return nil }
                length = Int64(bitPattern: bigEndian64(header, 8))
                headerLength = 16
            } else if length == 0 {
                length = size - offset
            }
            // `length <= size - offset`, not `offset + length <= size`: a 64-bit length near
            // Int64.max after the first box overflowed the sum, and the trap ended the server.
            guard length >= headerLength, length <= size - offset else { return nil }
            if header[4..<8].elementsEqual("moov".utf8) {
                guard length - headerLength <= Int64(maxMovieBytes) else { return nil }
                let movie = read(offset + headerLength, Int(length - headerLength))
                return firstVideoTrack(in: movie[...])
            }
            offset += length
        }
        return nil
    }

    /// The first `trak` whose `tkhd` gives a picture, in a `moov`'s contents.
    private static func firstVideoTrack(in movie: ArraySlice<UInt8>) -> (width: Int, height: Int)? {
        for track in boxes(in: movie) where track.type == "trak" {
            for header in boxes(in: track.body) where header.type == "tkhd" {
                if let dimensions = trackHeader(header.body) { return dimensions }
            }
        }
        return nil
    }

    /// A `tkhd`'s width and height (16.16 fixed point), turned by its matrix.
    private static func trackHeader(_ body: ArraySlice<UInt8>) -> (width: Int, height: Int)? {
        guard let version = body.first else { return nil }
        // version and flags, then the times, id and duration (32- or 64-bit), 8 reserved, layer,
        // group, volume, 2 reserved: the matrix (9 × 4 bytes), then width and height.
        let matrixAt = body.startIndex + (version == 1 ? 4 + 32 : 4 + 20) + 16
        guard body.endIndex >= matrixAt + 36 + 8 else { return nil }
        let bytes = Array(body)
        let base = matrixAt - body.startIndex
        let width = Int(bigEndian32(bytes, base + 36) >> 16), height = Int(bigEndian32(bytes, base + 40) >> 16)
        guard width > 0, height > 0 else { return nil }
        let a = Int32(bitPattern: bigEndian32(bytes, base)), b = Int32(bitPattern: bigEndian32(bytes, base + 4))
        let quarterTurn = a == 0 && (b == 0x10000 || b == -0x10000)
        return quarterTurn ? (height, width) : (width, height)
    }

    /// The boxes inside a box's contents: type and contents, each once.
    private static func boxes(in data: ArraySlice<UInt8>) -> [(type: String, body: ArraySlice<UInt8>)] {
        var found: [(type: String, body: ArraySlice<UInt8>)] = []
        var at = data.startIndex
        let bytes = Array(data)
        while at + 8 <= data.endIndex {
            let local = at - data.startIndex
            var length = Int(bigEndian32(bytes, local))
            var headerLength = 8
            if length == 1 {
                guard at + 16 <= data.endIndex else { break }
                let large = bigEndian64(bytes, local + 8)
                guard large <= UInt64(data.count) else { break }
                length = Int(large)
                headerLength = 16
            } else if length == 0 {
                length = data.endIndex - at
            }
            guard length >= headerLength, at + length <= data.endIndex else { break }
            let type = String(decoding: bytes[(local + 4)..<(local + 8)], as: UTF8.self)
            found.append((type, data[(at + headerLength)..<(at + length)]))
            at += length
        }
        return found
    }

    // MARK: WebM (Matroska's EBML)

    private static let segment: UInt32 = 0x1853_8067, tracks: UInt32 = 0x1654_AE6B, trackEntry: UInt32 = 0xAE
    private static let video: UInt32 = 0xE0, pixelWidth: UInt32 = 0xB0, pixelHeight: UInt32 = 0xBA
    private static let cluster: UInt32 = 0x1F43_B675

    static func webm(_ head: [UInt8]) -> (width: Int, height: Int)? {
        var at = 0
        // Top level: skip the EBML header, enter the Segment.
        while let element = element(head, at) {
            if element.id == segment { return inSegment(head, element.bodyStart, element.end) }
            guard let end = element.end else { return nil }
            at = end
        }
        return nil
    }

    private static func inSegment(_ bytes: [UInt8], _ start: Int, _ end: Int?) -> (width: Int, height: Int)? {
        var at = start
        while at < (end ?? bytes.count), let element = element(bytes, at) {
            if element.id == cluster { return nil }  // the tracks come before the first cluster
            if [tracks, trackEntry, video].contains(element.id) {
                at = element.bodyStart  // enter
                if element.id == video, let dimensions = pictureSize(bytes, element.bodyStart, element.end ?? bytes.count) {
                    return dimensions
                }
                continue
            }
            guard let next = element.end else { return nil }
            at = next
        }
        return nil
    }

    private static func pictureSize(_ bytes: [UInt8], _ start: Int, _ end: Int) -> (width: Int, height: Int)? {
        var width = 0, height = 0, at = start
        while at < min(end, bytes.count), let element = element(bytes, at), let next = element.end, next <= bytes.count {
            if element.id == pixelWidth || element.id == pixelHeight {
                let value = bytes[element.bodyStart..<next].prefix(8).reduce(0) { $0 << 8 | Int($1) }
                if element.id == pixelWidth { width = value } else { height = value }
            }
            at = next
        }
        return width > 0 && height > 0 ? (width, height) : nil
    }

    /// The element at `at`: its id (marker kept), where its body starts and
    /// ends (nil: unknown size, or past what was read).
    private static func element(_ bytes: [UInt8], _ at: Int) -> (id: UInt32, bodyStart: Int, end: Int?)? {
        guard at < bytes.count else { return nil }
        let first = bytes[at]
        guard first != 0 else { return nil }
        let idLength = first.leadingZeroBitCount + 1
        guard idLength <= 4, at + idLength < bytes.count else { return nil }
        let id = bytes[at..<(at + idLength)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let sizeAt = at + idLength
        let sizeFirst = bytes[sizeAt]
        guard sizeFirst != 0 else { return nil }
        let sizeLength = sizeFirst.leadingZeroBitCount + 1
        guard sizeAt + sizeLength <= bytes.count else { return nil }
        var size = UInt64(sizeFirst & (0xFF >> sizeLength))
        var unknown = size == UInt64(0xFF >> sizeLength)
        for byte in bytes[(sizeAt + 1)..<(sizeAt + sizeLength)] {
            size = size << 8 | UInt64(byte)
            unknown = unknown && byte == 0xFF
        }
        let bodyStart = sizeAt + sizeLength
        guard !unknown, size <= UInt64(Int.max - bodyStart) else { return (id, bodyStart, nil) }
        return (id, bodyStart, bodyStart + Int(size))
    }

    // MARK: Bytes

    private static func bigEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        guard at >= 0, at + 4 <= bytes.count else { return 0 }
        return bytes[at..<(at + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    private static func bigEndian64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        guard at >= 0, at + 8 <= bytes.count else { return 0 }
        return bytes[at..<(at + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
}
