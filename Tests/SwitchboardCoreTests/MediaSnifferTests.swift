import Testing
@testable import SwitchboardCore

/// What an upload is, decided by its bytes: every accepted container, the
/// declared type only choosing between readings of one container, and
/// everything else refused.
@Suite("Media sniffing")
struct MediaSnifferTests {
    static let heads: [(String, [UInt8], MediaType)] = [
        ("JPEG", [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8), .jpeg),
        ("PNG", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], .png),
        ("GIF87a", Array("GIF87a".utf8) + [1, 0], .gif),
        ("GIF89a", Array("GIF89a".utf8) + [1, 0], .gif),
        ("WebP", Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webp),
        ("WAV", Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVEfmt ".utf8), .wav),
        ("Ogg", Array("OggS".utf8) + [0, 2] + Array(repeating: 0, count: 22) + Array("OpusHead".utf8), .ogg),
        ("WebM", [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84] + Array("webm".utf8), .webm),
        ("MP4", [0, 0, 0, 0x20] + Array("ftypisom".utf8) + [0, 0, 2, 0], .mp4),
        ("M4A", [0, 0, 0, 0x20] + Array("ftypM4A ".utf8) + [0, 0, 2, 0], .m4a),
        ("QuickTime", [0, 0, 0, 0x14] + Array("ftypqt  ".utf8) + [0, 0, 2, 0], .quicktime),
        ("MP3 with ID3", Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0], .mp3),
        ("MP3 frame", [0xFF, 0xFB, 0x90, 0x64, 0, 0], .mp3),
    ]

    @Test(arguments: heads.map { ($0.0, $0.1, $0.2) })
    func eachContainerIsKnownByItsBytes(name: String, head: [UInt8], type: MediaType) throws {
        #expect(try MediaSniffer.sniff(head, declared: nil) == type, "\(name)")
        #expect(try MediaSniffer.sniff(head, declared: "application/octet-stream") == type, "\(name)")
        #expect(try MediaSniffer.sniff(head, declared: "application/x-www-form-urlencoded") == type, "\(name): curl's default")
        #expect(try MediaSniffer.sniff(head, declared: type.mimeType + "; charset=binary") == type, "\(name)")
    }

    @Test func theDeclaredTypeChoosesSoundOrPictureInOneContainer() throws {
        let webm = Self.heads.first { $0.0 == "WebM" }!.1
        let mp4 = Self.heads.first { $0.0 == "MP4" }!.1
        #expect(try MediaSniffer.sniff(webm, declared: "audio/webm;codecs=opus") == .webmAudio)
        #expect(try MediaSniffer.sniff(webm, declared: "video/webm") == .webm)
        #expect(try MediaSniffer.sniff(mp4, declared: "audio/mp4") == .m4a)
        #expect(try MediaSniffer.sniff(mp4, declared: "AUDIO/X-M4A") == .m4a)
        #expect(MediaType.webmAudio.kind == .voice && MediaType.webm.kind == .video && MediaType.jpeg.kind == .photo)
    }

    @Test func contentThatContradictsTheDeclaredTypeIsRefused() {
        let jpeg = Self.heads[0].1
        for declared in ["image/png", "text/html", "image/svg+xml", "video/mp4", "audio/mpeg"] {
            #expect(throws: SwitchboardError.self, "\(declared)") { try MediaSniffer.sniff(jpeg, declared: declared) }
        }
    }

    @Test func anythingUnlistedIsRefused() {
        let refused: [[UInt8]] = [
            Array("<!DOCTYPE html><script>".utf8), Array("<svg xmlns=\"http://www.w3.org/2000/svg\">".utf8),
            Array("#!/bin/sh\nrm -rf /".utf8), [0x7F] + Array("ELF".utf8), Array("MZ".utf8) + [0x90, 0],
            Array("%PDF-1.7".utf8), [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x82, 0x88] + Array("matroska".utf8),
            [0, 0, 0, 0x20] + Array("ftypheic".utf8), [], [0xFF], [0xFF, 0xD8], Array("RIFF".utf8) + [0, 0, 0, 0] + Array("AVI ".utf8),
            [0xFF, 0xFF, 0xFF, 0xFF], // not an MPEG frame: the bitrate and layer bits are invalid
        ]
        for head in refused {
            do {
                let type = try MediaSniffer.sniff(head, declared: nil)
                Issue.record("\(head.prefix(12)) was taken for \(type)")
            } catch {
                #expect(error.code == "unsupported_media_type" && error.kind == .unsupported)
            }
        }
    }

    @Test func namesAreCleanedForDisk() {
        #expect(MediaName.clean("../../etc/passwd", type: .jpeg) == "passwd")
        #expect(MediaName.clean("C:\\Users\\me\\photo.jpg", type: .jpeg) == "photo.jpg")
        #expect(MediaName.clean("a\u{0}b\r\n\"c\".jpg", type: .jpeg) == "abc.jpg")
        #expect(MediaName.clean("evil\u{202E}gpj.exe", type: .jpeg) == "evilgpj.exe")
        #expect(MediaName.clean(String(repeating: "x", count: 2000), type: .png).count == 200)
        #expect(MediaName.clean(nil, type: .mp4) == "upload.mp4")
        #expect(MediaName.clean("..", type: .wav) == "upload.wav")
        #expect(MediaName.clean("  ", type: .gif) == "upload.gif")
        // Found by the uploads fuzz target: U+0600 joins the slash after it into one grapheme.
        let joined = MediaName.clean("\u{600}/\u{0}\u{0}x.png", type: .png)
        #expect(!joined.unicodeScalars.contains("/") && joined == "x.png", "\(joined.unicodeScalars.map(\.value))")
    }

    @Test func idsAreRandomAndOnlyTheirShapeIsLookedUp() {
        let ids = Set((0..<1000).map { _ in MediaID.make() })
        #expect(ids.count == 1000)
        #expect(ids.allSatisfy(MediaID.isValid))
        for bad in ["", "../etc/passwd", String(repeating: "A", count: 32), String(repeating: "0", count: 31), String(repeating: "g", count: 32)] {
            #expect(!MediaID.isValid(bad), "\(bad)")
        }
    }
}
