/// What a client's publish says, on every way in that takes JSON or a
/// form: who speaks (if named), the text, the uploads it carries, the
/// message it answers and the place it shares.
public struct PublishFields: Sendable, Equatable {
    /// `user`, absent or null: the caller's own name.
    public var user: String?
    /// `text`; may be absent or empty when `media` is given.
    public var text: String?
    /// `media`: upload ids (``MediaID``), or nil.
    public var media: [String]?
    /// `reply_to`: the message it answers, or nil.
    public var replyTo: Int64?
    /// `location`: a place it shares (validated), or nil.
    public var location: Location?
    /// `client_id`: the sender's own id for it (validated, ``ClientID``), or nil.
    public var clientID: String?

    public init(user: String?, text: String?, media: [String]? = nil, replyTo: Int64? = nil, location: Location? = nil) {
        self.user = user
        self.text = text
        self.media = media
        self.replyTo = replyTo
        self.location = location
    }

    /// Whether the text may be empty: the message carries something else.
    public var carriesMore: Bool { !(media ?? []).isEmpty || location != nil }
}

extension PublishFields {
    /// Reads a client's `reply_to` (a positive message id, or null),
    /// `location` (an object, or null) and `client_id` (``ClientID``), as
    /// every transport that takes JSON does: 422 `invalid_reply_to`,
    /// `invalid_location` or `invalid_client_id` otherwise.
    public mutating func read(replyTo: JSONValue?, location: JSONValue?, clientID: JSONValue? = nil) throws(SwitchboardError) {
        if let clientID, clientID != .null {
            guard case .string(let given) = clientID else {
                throw SwitchboardError(.invalid, code: "invalid_client_id", message: "'client_id' must be a string.")
            }
            self.clientID = try ClientID.valid(given)
        }
        if let replyTo, replyTo != .null {
            guard case .number(let digits) = replyTo, let id = Int64(digits), id > 0 else {
                throw SwitchboardError(.invalid, code: "invalid_reply_to", message: "'reply_to' must be a message id (a positive whole number).")
            }
            self.replyTo = id
        }
        if let location, location != .null {
            guard case .object(let members) = location else {
                throw .invalidLocation("'location' must be an object like {\"lat\":51.5,\"lon\":-0.12}.")
            }
            self.location = try Location(validating: members)
        }
    }
}
