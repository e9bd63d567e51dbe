import Testing
@testable import SwitchboardCore

/// A video's size from its container's own words, with no decoding: MP4
/// and QuickTime track headers (turned by their matrix), WebM's Video element.
@Suite("Video dimensions")
struct VideoDimensionsTests {
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + body.count)) + Array(type.utf8) + body
    }
    static func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    /// A version-0 `tkhd` with this matrix's first two numbers and size.
    static func trackHeader(width: UInt32, height: UInt32, a: Int32 = 0x10000, b: Int32 = 0, version: UInt8 = 0) -> [UInt8] {
        var body: [UInt8] = [version, 0, 0, 3] + Array(repeating: 0, count: version == 1 ? 32 : 20) + Array(repeating: 0, count: 16)
        let c: Int32 = b == 0 ? 0 : -b
        let d: Int32 = b == 0 ? 0x10000 : 0
        let matrix: [UInt32] = [UInt32(bitPattern: a), UInt32(bitPattern: b), 0, UInt32(bitPattern: c), UInt32(bitPattern: d), 0, 0, 0, 0x4000_0000]
        body += matrix.flatMap(be32) + be32(width << 16) + be32(height << 16)
        return box("tkhd", body)
    }

    static func mp4(_ tracks: [[UInt8]], movieFirst: Bool = false) -> [UInt8] {
        let ftyp = box("ftyp", Array("isom".utf8) + [0, 0, 2, 0])
        let mdat = box("mdat", Array(repeating: 0xAB, count: 5000))
        let moov = box("moov", box("mvhd", Array(repeating: 0, count: 100)) + tracks.flatMap { box("trak", $0) })
        return movieFirst ? ftyp + moov + mdat : ftyp + mdat + moov
    }

    func dimensions(_ file: [UInt8], _ type: MediaType = .mp4) -> (width: Int, height: Int)? {
        VideoDimensions.of(type, size: Int64(file.count)) { offset, count in
            guard offset < file.count else { return [] }
            return Array(file[Int(offset)..<min(file.count, Int(offset) + count)])
        }
    }

    @Test func anMP4sFirstPictureTrackWhereverItsMovieBoxIs() {
        let sound = Self.trackHeader(width: 0, height: 0)
        let picture = Self.trackHeader(width: 1920, height: 1080)
        for movieFirst in [false, true] {
            let found = dimensions(Self.mp4([sound, picture], movieFirst: movieFirst))
            #expect(found?.width == 1920 && found?.height == 1080, "moov \(movieFirst ? "first" : "last")")
        }
        let v1 = dimensions(Self.mp4([Self.trackHeader(width: 640, height: 360, version: 1)]))
        #expect(v1?.width == 640 && v1?.height == 360)
        #expect(dimensions(Self.mp4([sound])) == nil, "sound only: no size")
    }

    @Test func aPortraitPhoneVideoIsTurned() {
        for b: Int32 in [0x10000, -0x10000] {
            let found = dimensions(Self.mp4([Self.trackHeader(width: 1920, height: 1080, a: 0, b: b)]), .quicktime)
            #expect(found?.width == 1080 && found?.height == 1920)
        }
    }

    @Test func brokenBoxesGiveNoSize() {
        let file = Self.mp4([Self.trackHeader(width: 320, height: 240)])
        #expect(dimensions(Array(file.prefix(file.count - 10))) == nil, "cut off inside moov")
        var lying = file
        lying.replaceSubrange(0..<4, with: Self.be32(0xFFFF_FFF0))
        #expect(dimensions(lying) == nil, "a box longer than the file")
        #expect(dimensions(Self.box("ftyp", []) + Self.be32(4) + Array("moov".utf8)) == nil, "a box shorter than its header")
        #expect(dimensions([]) == nil)
    }

    /// A 64-bit box length near Int64.max after a first box: its end
    /// overflowed, and the trap ended the server (a 32-byte upload).
    @Test func aLengthThatOverflowsItsEndGivesNoSize() {
        let ftyp = Self.box("ftyp", Array("isom".utf8) + [0, 0, 0, 0])
        for large: UInt64 in [0x7FFF_FFFF_FFFF_FFFF, 0x7FFF_FFFF_FFFF_FFF8, 0x8000_0000_0000_0000, 0xFFFF_FFFF_FFFF_FFFF] {
            let big = Self.be32(1) + Array("free".utf8) + Self.be32(UInt32(large >> 32)) + Self.be32(UInt32(large & 0xFFFF_FFFF))
            #expect(dimensions(ftyp + big + Array(repeating: 0, count: 64)) == nil, "\(large)")
            #expect(dimensions(ftyp + big + Array(repeating: 0, count: 64), .quicktime) == nil, "\(large)")
        }
    }

    /// Any bytes give an answer or nil, never a trap: boxes and elements
    /// put together at random with lengths at their edges (0, 1 and a
    /// 64-bit length, all ones, past the end), and good files with bytes
    /// overwritten and cut short.
    @Test func damagedFilesNeverTrap() {
        var random = SystemRandomNumberGenerator()
        let larges: [UInt64] = [0, 8, 16, 0x7FFF_FFFF_FFFF_FFFF, 0x8000_0000_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 1 << 32, 100]
        func randomBoxes(depth: Int) -> [UInt8] {
            (0..<Int.random(in: 1...4, using: &random)).flatMap { _ -> [UInt8] in
                let type = ["ftyp", "moov", "trak", "tkhd", "free", "mdat"].randomElement(using: &random)!
                let body = depth < 3 && Bool.random(using: &random) ? randomBoxes(depth: depth + 1)
                    : (0..<Int.random(in: 0...100, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                switch Int.random(in: 0..<4, using: &random) {
                case 0: return Self.box(type, body)
                case 1: let large = larges.randomElement(using: &random)!
                    return Self.be32(1) + Array(type.utf8) + Self.be32(UInt32(large >> 32)) + Self.be32(UInt32(truncatingIfNeeded: large)) + body
                case 2: return Self.be32(0) + Array(type.utf8) + body
                default: return Self.be32(UInt32.random(in: 0...UInt32.max, using: &random)) + Array(type.utf8) + body
                }
            }
        }
        func randomElements(depth: Int) -> [UInt8] {
            (0..<Int.random(in: 1...4, using: &random)).flatMap { _ -> [UInt8] in
                let id: [UInt8] = [[0x18, 0x53, 0x80, 0x67], [0x16, 0x54, 0xAE, 0x6B], [0xAE], [0xE0], [0xB0], [0xBA], [0x1F, 0x43, 0xB6, 0x75]]
                    .randomElement(using: &random)!
                let body = depth < 4 && Bool.random(using: &random) ? randomElements(depth: depth + 1)
                    : (0..<Int.random(in: 0...12, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                let sizeLength = Int.random(in: 1...8, using: &random)
                let size: [UInt8] = Bool.random(using: &random)
                    ? [UInt8(0x80 >> (sizeLength - 1)) | UInt8(0xFF >> sizeLength)] + Array(repeating: 0xFF, count: sizeLength - 1)
                    : [UInt8(0x80 >> (sizeLength - 1))] + (1..<sizeLength).map { _ in UInt8.random(in: 0...255, using: &random) }
                return id + size + body
            }
        }
        for _ in 0..<3_000 {
            _ = dimensions(Self.box("ftyp", Array("isom".utf8)) + randomBoxes(depth: 0), .mp4)
            _ = dimensions(randomElements(depth: 0), .webm)
        }
        let edges: [[UInt8]] = [[0, 0, 0, 0], [0, 0, 0, 1], [0xFF, 0xFF, 0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xFF], [0x80, 0, 0, 0], [0x01], [0xFF]]
        for (file, type) in [(Self.mp4([Self.trackHeader(width: 320, height: 240)]), MediaType.mp4), (Self.webm(), .webm)] {
            for _ in 0..<3_000 {
                var damaged = file
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let edge = edges.randomElement(using: &random)!
                    let at = Int.random(in: 0..<damaged.count, using: &random)
                    for (index, byte) in edge.enumerated() where at + index < damaged.count { damaged[at + index] = byte }
                }
                if Bool.random(using: &random) { damaged = Array(damaged.prefix(Int.random(in: 0...damaged.count, using: &random))) }
                _ = dimensions(damaged, type)
            }
        }
    }

    static func element(_ id: [UInt8], _ body: [UInt8]) -> [UInt8] {
        precondition(body.count < 0x4000)
        return id + [0x40 | UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    }

    /// A WebM file of 640 × 480: its header, a Segment of unknown size, its tracks, a cluster.
    static func webm() -> [UInt8] {
        let header = Self.element([0x1A, 0x45, 0xDF, 0xA3], Self.element([0x42, 0x82], Array("webm".utf8)))
        let video = Self.element([0xAE], Self.element([0xD7], [2])
                                 + Self.element([0xE0], Self.element([0xB0], [0x02, 0x80]) + Self.element([0xBA], [0x01, 0xE0])))
        let cluster = Self.element([0x1F, 0x43, 0xB6, 0x75], Array(repeating: 0, count: 100))
        return header + [0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + Self.element([0x16, 0x54, 0xAE, 0x6B], video) + cluster
    }

    @Test func aWebMsVideoElement() {
        #expect(dimensions(Self.webm(), .webm)?.width == 640)
        let header = Self.element([0x1A, 0x45, 0xDF, 0xA3], Self.element([0x42, 0x82], Array("webm".utf8)))
        let info = Self.element([0x15, 0x49, 0xA9, 0x66], Array(repeating: 1, count: 20))
        let audio = Self.element([0xAE], Self.element([0xD7], [1]) + Self.element([0xE1], Self.element([0xB5], [0x40, 0xE7, 0x70, 0, 0, 0, 0, 0])))
        let video = Self.element([0xAE], Self.element([0xD7], [2])
                                 + Self.element([0xE0], Self.element([0xB0], [0x02, 0x80]) + Self.element([0xBA], [0x01, 0xE0])))
        let tracks = Self.element([0x16, 0x54, 0xAE, 0x6B], audio + video)
        let cluster = Self.element([0x1F, 0x43, 0xB6, 0x75], Array(repeating: 0, count: 100))
        // A live recording's Segment has an unknown size (all ones).
        let file = header + [0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + info + tracks + cluster
        let found = dimensions(file, .webm)
        #expect(found?.width == 640 && found?.height == 480)
        #expect(dimensions(header + [0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + info + cluster + tracks, .webm) == nil,
                "tracks after the first cluster are not looked for")
        #expect(dimensions(Array(file.prefix(60)), .webm) == nil)
        #expect(dimensions(file, .webmAudio) == nil, "sound has no size")
    }
}
