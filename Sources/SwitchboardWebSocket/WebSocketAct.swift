import SwitchboardCore

/// An act a WebSocket client asks for: `{"edit":ID,"text":..}`,
/// `{"unsend":ID}` or `{"react":ID,"emoji":..,"on":true|false}` (each may
/// name its `room` and `user`, as a publish may), decided by Core's
/// ``MessageActService`` like the same request over HTTP.
struct WebSocketAct: Equatable {
    enum What: Equatable {
        case edit(text: String)
        case unsend
        case react(emoji: String, on: Bool)
    }

    var what: What
    var room: String
    var id: Int64
    /// The name given (`user`, or the socket's `?user=`); nil: the token's.
    var user: String?

    /// The act `members` ask for, or nil when they ask for none.
    init?(_ members: [String: JSONValue], room: () throws(SwitchboardError) -> String, user: String?) throws(SwitchboardError) {
        let asked: (name: String, value: JSONValue)
        if let value = members["edit"] {
            asked = ("edit", value)
        } else if let value = members["unsend"] {
            asked = ("unsend", value)
        } else if let value = members["react"] {
            asked = ("react", value)
        } else {
            return nil
        }
        guard case .number(let digits) = asked.value, let id = Int64(digits), id > 0 else {
            throw SwitchboardError(.invalid, code: "invalid_id", message: "'\(asked.name)' must be a message id (a positive whole number).")
        }
        switch asked.name {
        case "edit":
            guard case .string(let text) = members["text"] else {
                throw SwitchboardError(.malformed, code: "malformed_json", message: "An edit needs 'text', a string.")
            }
            what = .edit(text: text)
        case "unsend":
            what = .unsend
        default:
            guard case .string(let emoji) = members["emoji"] else { throw .invalidEmoji }
            var on = true
            if let given = members["on"], given != .null {
                guard case .bool(let value) = given else {
                    throw SwitchboardError(.malformed, code: "malformed_json", message: "'on' must be true or false.")
                }
                on = value
            }
            what = .react(emoji: emoji, on: on)
        }
        self.id = id
        self.room = try room()
        self.user = user
        if case .string(let named) = members["user"] { self.user = named }
    }
}
