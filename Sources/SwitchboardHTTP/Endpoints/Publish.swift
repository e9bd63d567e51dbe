import MicroHTTPD
import SwitchboardCore

/// `POST /api/rooms/{room}/messages` and the admin's system messages: the
/// body decoded and validated, stored through the bus, answered 201 with the
/// stored message once it is durable.
enum Publish {
    /// A user's message, spoken as ``AccessControl`` decides for
    /// `identity`: the connection waits, suspended, for the group commit.
    static func message(room: String, identity: Identity, exchange: any HTTPExchanging, services: HTTPServices) throws -> HTTPHandlerResult {
        let fields = try PublishRequest.fields(contentType: exchange.header("Content-Type"), body: exchange.body)
        let media = fields.media ?? []
        guard let text = fields.text ?? (fields.carriesMore ? "" : nil) else {
            throw SwitchboardError(.invalid, code: "empty_text", message: "Field 'text' is required.")
        }
        // `room` was validated, and checked against the identity, when the route was decided.
        var draft = try services.access.draft(identity, room: room, user: fields.user, text: text, limits: services.limits,
                                              carriesMedia: fields.carriesMore, client: exchange.clientAddress ?? "unknown")
        (draft.replyTo, draft.location) = (fields.replyTo, fields.location)
        // `Idempotency-Key` (the IETF draft's header) names the same thing as `client_id`. Both,
        // naming two ids, are refused: the header won, so a client library's key made anew at
        // each attempt, beside the app's own id, stored a retry twice.
        let key = try exchange.header("Idempotency-Key").map { key throws(SwitchboardError) in
            try ClientID.valid(key, field: "Idempotency-Key")
        }
        if let key, let field = fields.clientID, key != field { throw SwitchboardError.clientIDsDiffer }
        draft.clientID = key ?? fields.clientID
        return PendingAnswer.published(exchange, until: { [draft] done in
            services.acts.publish(draft, media: media, by: identity, completion: done)
        })
    }

    /// A message from the server, as user `system`, to every transport in the room.
    static func systemMessage(room: String, exchange: any HTTPExchanging, services: HTTPServices) throws -> HTTPHandlerResult {
        let fields = try PublishRequest.fields(contentType: exchange.header("Content-Type"), body: exchange.body)
        guard let text = fields.text else {
            throw SwitchboardError(.invalid, code: "empty_text", message: "Field 'text' is required.")
        }
        let draft = MessageDraft(room: room, user: MessageLimits.systemUser, text: try services.limits.validText(text), kind: .system)
        return PendingAnswer.publish(draft, exchange: exchange, bus: services.bus)
    }

    /// 201 with the stored message; 200 with the one stored before, for a client id sent again.
    static func created(_ stored: EncodedMessage) -> HTTPResponse {
        // The JSON headers but `Cache-Control: no-store`, in one array with the `Location`:
        // an answer to a POST is never stored without freshness it does not carry (RFC 9110
        // 9.3.3), and the header was about 1,400 of a publish's instructions on the loop,
        // libmicrohttpd's copy and free of it included (callgrind).
        HTTPResponse(status: stored.message.replayed ? 200 : 201,
                     headers: [("Content-Type", HTTPResponse.jsonContentType),
                               ("Location", location(room: stored.message.room, id: stored.id))],
                     body: .bytes(stored.json))
    }

    /// `/api/rooms/{room}/messages/{id}`, written into the string's one
    /// allocation (string interpolation, with `.json`'s header concatenation,
    /// was about 2,800 instructions of a publish's 50,000 on the loop, callgrind).
    static func location(room: String, id: Int64) -> String {
        let prefix: StaticString = "/api/rooms/", middle: StaticString = "/messages/"
        var room = room
        return room.withUTF8 { room in
            String(unsafeUninitializedCapacity: prefix.utf8CodeUnitCount + room.count + middle.utf8CodeUnitCount
                       + DecimalDigits.maxCount) { out in
                var count = 0
                func write(_ part: UnsafeBufferPointer<UInt8>) {
                    count += UnsafeMutableBufferPointer(rebasing: out[count...]).initialize(fromContentsOf: part)
                }
                write(UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
                write(room)
                write(UnsafeBufferPointer(start: middle.utf8Start, count: middle.utf8CodeUnitCount))
                return count + DecimalDigits.write(id, into: UnsafeMutableBufferPointer(rebasing: out[count...]))
            }
        }
    }
}
