/// A group or direct conversation as the server keeps it in memory: enough
/// to decide access on every request and to name it.
public struct Conversation: Sendable, Equatable {
    /// Its room, e.g. `c.17`.
    public var room: String
    /// Its title ("" for a direct conversation).
    public var title: String
    /// Whether it is a direct conversation of two (one per pair; not renamed, no one added).
    public var direct: Bool
    /// Who created it.
    public var createdBy: String
    /// Its members, in the order they joined.
    public var members: [String]

    public init(room: String, title: String, direct: Bool, createdBy: String, members: [String]) {
        self.room = room
        self.title = title
        self.direct = direct
        self.createdBy = createdBy
        self.members = members
    }

    /// Whether `user` (in any case) is a member.
    public func hasMember(_ user: String) -> Bool {
        let key = user.lowercased()
        return members.contains { $0.lowercased() == key }
    }
}
