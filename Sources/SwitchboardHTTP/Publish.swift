import MicroHTTPD
import SwitchboardCore

/// `POST /api/rooms/{room}/messages` and the admin's system messages: the
/// body decoded and validated, stored through the bus, answered 201 with the
/// stored message once it is durable.
enum Publish {
    /// A user's message: the connection waits, suspended, for the group commit.
    static func message(room: String, exchange: HTTPExchange, services: HTTPServices) throws -> HTTPHandlerResult {
        let draft = try PublishRequest.draft(room: room, contentType: exchange.header("Content-Type"),
                                             body: exchange.body, limits: services.limits)
        return PendingAnswer.publish(draft, exchange: exchange, bus: services.bus)
    }

    /// A message from the server, as user `system`, to every transport in the room.
    static func systemMessage(room: String, exchange: HTTPExchange, services: HTTPServices) throws -> HTTPHandlerResult {
        let request = try PublishRequest.draft(room: room, contentType: exchange.header("Content-Type"),
                                               body: exchange.body, limits: services.limits, requireUser: false)
        let draft = MessageDraft(room: room, user: MessageLimits.systemUser, text: request.text, kind: .system)
        return PendingAnswer.publish(draft, exchange: exchange, bus: services.bus)
    }

    static func created(_ stored: EncodedMessage) -> HTTPResponse {
        .json(201, stored.json, headers: [("Location", "/api/rooms/\(stored.message.room)/messages/\(stored.id)")])
    }
}
