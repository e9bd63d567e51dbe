/// What a message on the bus is.
public enum MessageKind: String, Codable, Sendable, CaseIterable {
    /// Something a user said.
    case message
    /// A user came online in the room.
    case join
    /// A user's last connection to the room ended.
    case leave
    /// Said by the server (or an admin) as user `system`.
    case system
    /// A tombstone: the message whose id is this one's `text` was deleted.
    /// Clients remove it; it has no line on raw TCP.
    case delete
}
