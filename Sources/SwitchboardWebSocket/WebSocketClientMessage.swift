import SwitchboardCore

/// A client's text frame, parsed (by the same JSON reader as an HTTP
/// publish) and decided by ``AccessControl`` (as on every transport): a
/// publish, a script-level ping, or something refused (with the `ref` to
/// answer, when there was one).
enum WebSocketClientMessage: Equatable {
    /// A message to store, with the uploads it carries (ids, checked by ``MediaService``).
    case publish(MessageDraft, media: [String], ref: JSONValue?)
    case ping(JSONValue)
    /// `{"typing":true,"room":..}`: the sender is typing in `room`.
    case typing(room: String, user: String)
    /// `{"edit":ID,"text"}`, `{"unsend":ID}` or `{"react":ID,"emoji","on"}`.
    case act(WebSocketAct, ref: JSONValue?)
    case refused(SwitchboardError, ref: JSONValue?)

    private static let names: Set<String> = ["text", "user", "room", "ref", "ping", "typing", "media", "reply_to", "location",
                                             "edit", "unsend", "react", "emoji", "on", "client_id"]

    /// Parses `{"text":..,"ref":..}`, `{"user":..,"text":..,"room":..}` or
    /// `{"ping":X}` for a socket of `user` following `filter`, opened as `identity`.
    static func parse(_ text: String, user: String?, filter: RoomFilter, limits: MessageLimits,
                      access: AccessControl, identity: Identity, client: String) -> WebSocketClientMessage {
        let members: [String: JSONValue]
        do {
            members = try ClientMessageJSON.members(of: Array(text.utf8), named: names)
        } catch {
            return .refused(SwitchboardError(.malformed, code: "malformed_json",
                                             message: "Send a JSON object, e.g. {\"text\":\"hi\"}: \(error.reason)."), ref: nil)
        }
        // What comes back as sent must be something that can: an array or object came back null,
        // after the message was stored, and its sender could not tell which ack was its.
        let ref = members["ref"]
        if let ping = members["ping"] { return ping.isScalar ? .ping(ping) : notEchoable("ping") }
        if let ref, !ref.isScalar { return notEchoable("ref") }
        do throws(SwitchboardError) {
            if case .bool(true)? = members["typing"] {
                let room = try room(members, filter: filter, limits: limits)
                try access.checkRoom(identity, room)
                var named = user
                if case .string(let given) = members["user"] { named = given }
                guard let typist = try access.speaker(identity, naming: named, limits: limits) else {
                    throw SwitchboardError(.invalid, code: "user_required", message: "Give 'user', or open the socket with ?user=NAME.")
                }
                return .typing(room: room, user: typist)
            }
            if let act = try WebSocketAct(members, room: { () throws(SwitchboardError) in try Self.room(members, filter: filter, limits: limits) },
                                          user: user) {
                return .act(act, ref: ref)
            }
            let media: [String]
            do {
                media = try members["media"]?.stringsOrNull("media") ?? []
            } catch {
                throw SwitchboardError(.malformed, code: "malformed_json", message: "'media' must be an array of upload ids.")
            }
            var fields = PublishFields(user: nil, text: nil, media: media)
            try fields.read(replyTo: members["reply_to"], location: members["location"], clientID: members["client_id"])
            var rawText = ""
            if case .string(let given) = members["text"] {
                rawText = given
            } else if members["text"] != nil && members["text"] != .null {
                throw SwitchboardError(.malformed, code: "malformed_json", message: "'text' must be a string.")
            } else if !fields.carriesMore {
                // Nothing this frame asks for: name every frame there is.
                throw SwitchboardError(.malformed, code: "malformed_json", message: Self.frames)
            }
            var sender = user
            if case .string(let named) = members["user"] { sender = named }
            guard sender != nil || identity.user != nil else {
                throw SwitchboardError(.invalid, code: "user_required", message: "Give 'user', or open the socket with ?user=NAME.")
            }
            let room = try room(members, filter: filter, limits: limits)
            var draft = try access.draft(identity, room: room, user: sender, text: rawText, limits: limits,
                                         carriesMedia: fields.carriesMore, client: client)
            (draft.replyTo, draft.location, draft.clientID) = (fields.replyTo, fields.location, fields.clientID)
            return .publish(draft, media: media, ref: ref)
        } catch {
            return .refused(error, ref: ref)
        }
    }

    /// A `ref` or `ping` that could not come back as sent (an array or object), refused.
    private static func notEchoable(_ name: String) -> WebSocketClientMessage {
        .refused(SwitchboardError(.malformed, code: "malformed_json",
                                  message: "'\(name)' must be a number, a string, true, false or null: it comes back as sent."), ref: nil)
    }

    /// What a frame with none of these asks is told.
    static let frames = #"A frame is {"text":..} to publish (or with "media" or "location"), {"ping":X}, {"typing":true}, "#
        + #"{"edit":ID,"text":..}, {"unsend":ID} or {"react":ID,"emoji":..}."#

    /// The room a frame is for: its `room`, which the socket must follow,
    /// or the socket's one room.
    private static func room(_ members: [String: JSONValue], filter: RoomFilter, limits: MessageLimits) throws(SwitchboardError) -> String {
        if case .string(let named) = members["room"] {
            let room = try limits.validRoom(named)
            guard filter.contains(room) else {
                throw SwitchboardError(.invalid, code: "not_subscribed", message: "This socket does not follow room \(room).")
            }
            return room
        }
        if let only = filter.soleRoom { return only }
        throw SwitchboardError(.invalid, code: "room_required", message: "This socket follows several rooms: give 'room'.")
    }

    /// `{"typing":{"room":..,"user":..}}` or `{"read":{"room":..,"user":..,"id":N}}`.
    static func notice(_ notice: Notice) -> [UInt8] {
        Array("{\"\(notice.name)\":".utf8) + notice.json + [UInt8(ascii: "}")]
    }

    /// `{"ack":REF,"id":ID}`, or `{"ack":REF,"id":null}` for an act that changed nothing.
    static func ack(ref: JSONValue?, id: Int64?) -> [UInt8] {
        Array(#"{"ack":"#.utf8) + (ref ?? .null).json + Array(#","id":\#(id.map(String.init) ?? "null")}"#.utf8)
    }

    /// `{"pong":X}`.
    static func pong(_ value: JSONValue) -> [UInt8] {
        Array(#"{"pong":"#.utf8) + value.json + [UInt8(ascii: "}")]
    }

    /// `{"error":{"code":..,"message":..},"ref":REF}`.
    static func error(_ error: SwitchboardError, ref: JSONValue?) -> [UInt8] {
        var out = Array(#"{"error":{"code":"#.utf8)
        MessageJSON.appendString(error.code, to: &out)
        out += Array(#","message":"#.utf8)
        MessageJSON.appendString(error.message, to: &out)
        out.append(UInt8(ascii: "}"))
        if let ref { out += Array(#","ref":"#.utf8) + ref.json }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
