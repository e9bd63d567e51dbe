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
    /// An unsend (`target`: the message unsent; reads show it `deleted`),
    /// or the admin's removal of a message (no `target`; `text` is the
    /// removed id, and reads no longer show it).
    case delete
    /// An edit of `target`: `text` is its new text.
    case edit
    /// A reaction to `target`: `emoji` turned `on` or off by `user`.
    case reaction

    /// An act on another message (``Message/target``): never unread, never
    /// itself a target.
    public var isAct: Bool { self == .delete || self == .edit || self == .reaction }
}
