import MicroHTTPD
import SwitchboardCore

/// An upload sent from its file: the whole (200), one range (206, if
/// `If-Range` is absent or this file's) or none that fits (416); unchanged
/// for a matching `If-None-Match` (304). Every
/// answer is cached for a year by the reader only (the id's bytes never
/// change), named for saving, never sniffed, and sandboxed should a browser
/// open it as a page.
enum MediaResponse {
    static func make(_ record: MediaRecord, _ file: OpenedMediaFile, _ variant: MediaVariant, range header: String?,
                     ifRange: String? = nil, ifNoneMatch: String?) -> HTTPResponse {
        let attachment = record.attachment
        let etag = "\"\(attachment.id)\(variant == .thumbnail ? "-t" : "")\""
        let type = variant == .thumbnail ? (record.thumbnailType ?? "image/jpeg") : attachment.type
        var headers: [(name: String, value: String)] = [
            ("Content-Type", type),
            ("ETag", etag),
            ("Cache-Control", "private, max-age=31536000, immutable"),
            ("Accept-Ranges", "bytes"),
            ("X-Content-Type-Options", "nosniff"),
            ("Content-Security-Policy", "sandbox"),
            ("Content-Disposition", disposition(attachment.name, kind: attachment.kind)),
        ]
        if let ifNoneMatch, EntityTags.listed(etag, in: ifNoneMatch) {
            return HTTPResponse(status: 304, headers: headers)
        }
        let range = ByteRange(header: header, size: file.size, ifRange: ifRange, etag: etag)
        if range == .unsatisfiable {
            headers.append(("Content-Range", "bytes */\(file.size)"))
            return HTTPResponse(status: 416, headers: headers)
        }
        // The descriptor goes to libmicrohttpd, which closes it when the response is done.
        guard let descriptor = file.take() else { return .error(.noSuchMedia) }
        switch range {
        case .whole, .unsatisfiable:
            return HTTPResponse(status: 200, headers: headers, body: .file(descriptor: descriptor, offset: 0, length: file.size))
        case .part(let start, let end):
            headers.append(("Content-Range", "bytes \(start)-\(end)/\(file.size)"))
            return HTTPResponse(status: 206, headers: headers, body: .file(descriptor: descriptor, offset: start, length: end - start + 1))
        }
    }

    /// `inline` (photos, video and sound play in the page) with the name
    /// both plain (ASCII, for old readers) and as RFC 8187 UTF-8.
    static func disposition(_ name: String, kind: MediaKind) -> String {
        let ascii = String(name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" && $0 != "%" ? Character($0) : "_" })
        var encoded = ""
        for byte in name.utf8 {
            let unreserved = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || [UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~")].contains(byte)
            encoded += unreserved ? String(UnicodeScalar(byte)) : "%" + String(byte, radix: 16, uppercase: true).leftPadded()
        }
        return "inline; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }
}

private extension String {
    func leftPadded() -> String { count == 1 ? "0" + self : self }
}
