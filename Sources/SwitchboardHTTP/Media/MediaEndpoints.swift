import MicroHTTPD
import SwitchboardCore

/// `POST /api/media` (an upload, streamed to disk), `GET /api/media/{id}`
/// and its thumbnail (sent from the file, with ranges), and the admin's
/// usage and deletion: thin over ``MediaService``, which decides.
enum MediaEndpoints {
    /// Where an upload's body goes, decided when its headers are in: a
    /// refusal (a guest, too large, no media store) reads none of it.
    static func body(_ request: RouteRequest) throws -> HTTPBodyReading {
        let media = try service(request)
        try media.checkUpload(by: request.identity, announcedBytes: announcedBytes(request.exchange))
        let sink = try UploadSink(media: media)
        let type = request.exchange.header("Content-Type").map(ContentType.essence(of:))
        return type == "multipart/form-data" ? .multipart(field: "file", sink) : .stream(sink)
    }

    /// The upload, once its body is whole: 201 with what a message carries.
    static func upload(_ request: RouteRequest) throws -> HTTPHandlerResult {
        let media = try service(request)
        let exchange = request.exchange
        try media.checkUpload(by: request.identity, announcedBytes: announcedBytes(exchange))
        guard let sink = exchange.takeBodySink() as? UploadSink else {
            throw SwitchboardError.badUpload("The upload could not be read; send the file as the body of POST /api/media.")
        }
        if let failure = exchange.bodyFailure {
            sink.abandon()
            throw sink.error ?? .badUpload(failure)
        }
        try sink.finish()
        // A form's part says its own type and name (or none); a raw body has the request's.
        let declared = sink.isFormPart ? sink.contentType : exchange.header("Content-Type")
        let name = sink.isFormPart ? sink.fileName : exchange.query("name")
        let identity = request.identity
        return PendingAnswer.wait(exchange, awaiting: Result<MediaRecord, SwitchboardError>.self, until: { done in
            media.finishUpload(path: sink.path, size: sink.size, head: sink.head, declaredType: declared, name: name,
                               by: identity, completion: done)
        }, answer: { outcome in
            let record = try outcome.get()
            return .json(201, MediaJSON.uploaded(record.attachment), headers: [("Location", record.attachment.url)])
        })
    }

    /// An upload's file or thumbnail, to whoever may read it (anyone else: 404).
    static func download(_ request: RouteRequest, _ variant: MediaVariant) throws -> HTTPHandlerResult {
        let media = try service(request)
        let exchange = request.exchange
        let id = request.parameter("id")
        let range = exchange.header("Range")
        let ifRange = exchange.header("If-Range")
        let ifNoneMatch = exchange.header("If-None-Match")
        return PendingAnswer.wait(exchange, awaiting: Result<(MediaRecord, OpenedMediaFile), SwitchboardError>.self, until: { done in
            media.open(id, variant, for: request.identity, completion: done)
        }, answer: { outcome in
            let (record, file) = try outcome.get()
            return MediaResponse.make(record, file, variant, range: range, ifRange: ifRange, ifNoneMatch: ifNoneMatch)
        })
    }

    /// The admin's: storage in use, in all and per uploader.
    static func usage(_ request: RouteRequest) throws -> HTTPHandlerResult {
        let media = try service(request)
        return PendingAnswer.wait(
            request.exchange, awaiting: Result<([MediaUsage], [(record: MediaRecord, carried: Bool)]), SwitchboardError>.self,
            until: { done in media.usage(completion: done) },
            answer: { outcome in
                let (usage, recent) = try outcome.get()
                return .json(200, MediaJSON.usage(usage, recent: recent))
            })
    }

    /// The admin's: deletes an upload (204), 404 when there is none.
    static func delete(_ request: RouteRequest) throws -> HTTPHandlerResult {
        let media = try service(request)
        return PendingAnswer.wait(request.exchange, awaiting: Result<Bool, SwitchboardError>.self, until: { done in
            media.delete(request.parameter("id"), completion: done)
        }, answer: { outcome in
            guard try outcome.get() else { throw SwitchboardError.noSuchMedia }
            return HTTPResponse(status: 204)
        })
    }

    private static func service(_ request: RouteRequest) throws(SwitchboardError) -> MediaService {
        guard let media = request.services.media else {
            throw SwitchboardError.mediaUnavailable
        }
        return media
    }

    private static func announcedBytes(_ exchange: any HTTPExchanging) -> Int64? {
        exchange.header("Content-Length").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
    }
}
