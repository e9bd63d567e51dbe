import Testing
#if canImport(Glibc)
import Glibc
#endif
import MicroHTTPD
import SwitchboardCore
@testable import SwitchboardHTTP

/// Ranges (RFC 9110 §14) and the headers of a download, with no socket.
@Suite("Media responses")
struct MediaResponseTests {
    @Test func oneRangeIsServedAndEverythingElseIsTheWholeFile() {
        #expect(ByteRange(header: nil, size: 100) == .whole)
        #expect(ByteRange(header: "bytes=0-9", size: 100) == .part(start: 0, end: 9))
        #expect(ByteRange(header: "bytes=90-", size: 100) == .part(start: 90, end: 99))
        #expect(ByteRange(header: "bytes=90-500", size: 100) == .part(start: 90, end: 99))
        #expect(ByteRange(header: "bytes=-10", size: 100) == .part(start: 90, end: 99))
        #expect(ByteRange(header: "bytes=-500", size: 100) == .part(start: 0, end: 99))
        #expect(ByteRange(header: " Bytes=5-5 ", size: 100) == .part(start: 5, end: 5))
        // Unreadable, reversed or several: ignored, as RFC 9110 lets a server do.
        for header in ["bytes=9-0", "bytes=0-1,5-6", "items=0-1", "bytes=a-b", "bytes=", "bytes=-", "bytes=1-2-3",
                       "bytes=" + String(repeating: "9", count: 40) + "-", "bytes=+1-2", "bytes=0x1-2"] {
            #expect(ByteRange(header: header, size: 100) == .whole, "\(header)")
        }
        #expect(ByteRange(header: "bytes=100-", size: 100) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=-0", size: 100) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=0-", size: 0) == .unsatisfiable)
    }

    /// RFC 9110 13.1.5: a range asked `If-Range` another version (an ETag
    /// not this file's, or a date: none is ever given) is the whole file.
    @Test func aRangeIfAnotherVersionIsTheWholeFile() {
        let etag = headers(MediaResponse.make(Self.record, file(100), .original, range: nil, ifNoneMatch: nil))["ETag"]!
        let same = MediaResponse.make(Self.record, file(100), .original, range: "bytes=0-9", ifRange: etag, ifNoneMatch: nil)
        #expect(same.status == 206 && headers(same)["Content-Range"] == "bytes 0-9/100")
        for other in ["\"b\"", "W/" + etag, "Wed, 21 Oct 2015 07:28:00 GMT", ""] {
            let whole = MediaResponse.make(Self.record, file(100), .original, range: "bytes=0-9", ifRange: other, ifNoneMatch: nil)
            #expect(whole.status == 200 && headers(whole)["Content-Range"] == nil, "\(other)")
        }
        let thumbnail = MediaResponse.make(Self.record, file(10), .thumbnail, range: "bytes=0-0", ifRange: etag, ifNoneMatch: nil)
        #expect(thumbnail.status == 200)
    }

    static let record = MediaRecord(attachment: MediaAttachment(id: String(repeating: "a", count: 32), type: "image/png", size: 100,
                                                                name: "ph\u{f6}to \"1\".png", hasThumbnail: true),
                                    owner: "luke", uploadedAt: 0, thumbnailType: "image/jpeg")

    /// An open descriptor (of /dev/null) standing for the file; a response that takes it closes it here.
    func file(_ size: Int64) -> OpenedMediaFile { OpenedMediaFile(descriptor: open("/dev/null", O_RDONLY), size: size) }

    func headers(_ response: HTTPResponse) -> [String: String] {
        Dictionary(response.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func aDownloadIsCachedPrivatelyNeverSniffedAndSandboxed() {
        let response = MediaResponse.make(Self.record, file(100), .original, range: nil, ifNoneMatch: nil)
        let headers = headers(response)
        #expect(headers["Content-Type"] == "image/png")
        #expect(headers["Cache-Control"] == "private, max-age=31536000, immutable")
        #expect(headers["X-Content-Type-Options"] == "nosniff" && headers["Content-Security-Policy"] == "sandbox")
        #expect(headers["Accept-Ranges"] == "bytes")
        #expect(headers["Content-Disposition"] == "inline; filename=\"ph_to _1_.png\"; filename*=UTF-8''ph%C3%B6to%20%221%22.png")
        let thumbnail = MediaResponse.make(Self.record, file(10), .thumbnail, range: nil, ifNoneMatch: nil)
        #expect(self.headers(thumbnail)["Content-Type"] == "image/jpeg")
        #expect(self.headers(thumbnail)["ETag"] != headers["ETag"])
    }

    @Test func aMatchingETagIs304AndARangePastTheEndIs416() {
        let etag = headers(MediaResponse.make(Self.record, file(100), .original, range: nil,
                                              ifNoneMatch: nil))["ETag"]!
        let unchanged = MediaResponse.make(Self.record, file(100), .original, range: nil,
                                           ifNoneMatch: "\"x\", " + etag)
        #expect(unchanged.status == 304)
        // If-None-Match compares weakly (RFC 9110 13.1.2): W/ before this tag matches it; `*` anywhere in the list.
        for list in ["W/" + etag, "\"x\", W/" + etag, "\"x\", *"] {
            #expect(MediaResponse.make(Self.record, file(100), .original, range: nil, ifNoneMatch: list).status == 304, "\(list)")
        }
        let other = MediaResponse.make(Self.record, file(100), .original, range: nil, ifNoneMatch: "W/\"x\"")
        #expect(other.status == 200)
        if case .file(let descriptor, _, _) = other.body { close(descriptor) }
        let past = MediaResponse.make(Self.record, file(100), .original, range: "bytes=200-", ifNoneMatch: nil)
        #expect(past.status == 416 && headers(past)["Content-Range"] == "bytes */100")
        let part = MediaResponse.make(Self.record, file(100), .original, range: "bytes=10-19", ifNoneMatch: nil)
        #expect(part.status == 206 && headers(part)["Content-Range"] == "bytes 10-19/100")
        if case .file(let descriptor, let offset, let length) = part.body {
            #expect(offset == 10 && length == 10)
            close(descriptor)
        } else {
            Issue.record("not a file body")
        }
    }
}
