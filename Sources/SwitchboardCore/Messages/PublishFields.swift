/// What a client's publish says, on every way in that takes JSON or a
/// form: who speaks (if named), the text, and the uploads it carries.
public struct PublishFields: Sendable, Equatable {
    /// `user`, absent or null: the caller's own name.
    public var user: String?
    /// `text`; may be absent or empty when `media` is given.
    public var text: String?
    /// `media`: upload ids (``MediaID``), or nil.
    public var media: [String]?

    public init(user: String?, text: String?, media: [String]? = nil) {
        self.user = user
        self.text = text
        self.media = media
    }
}
