/// A registered user, as the admin lists them.
public struct Account: Sendable, Equatable {
    /// The name, as registered.
    public var user: String
    /// When it was registered, ms since the epoch.
    public var created: Int64

    public init(user: String, created: Int64) {
        self.user = user
        self.created = created
    }
}
