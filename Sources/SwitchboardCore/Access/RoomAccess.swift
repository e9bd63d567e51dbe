import Synchronization

/// Which conversation rooms one reader may see, consulted for every private
/// message a stream would deliver (public rooms pass without a look): the
/// admin sees everything, a guest no conversation, a signed-in user the
/// conversations they are in. One per user, shared by all their streams and
/// kept current by ``ConversationDirectory`` as membership changes, so a
/// member removed stops receiving at once, on every stream: everything up to
/// and including the message that removed them, nothing after.
public final class RoomAccess: Sendable {
    private enum Scope: Sendable { case everything, publicRooms, member }

    /// The admin's (and the server's own readers').
    public static let everything = RoomAccess(scope: .everything)
    /// A guest's: public rooms only.
    public static let publicRooms = RoomAccess(scope: .publicRooms)

    private let scope: Scope
    /// Conversation room → the last id visible in it (`Int64.max` while a member).
    private let visible = Mutex<[String: Int64]>([:])

    private init(scope: Scope) {
        self.scope = scope
    }

    /// A signed-in user's, seeing nothing private until told.
    public static func member() -> RoomAccess { RoomAccess(scope: .member) }

    /// Whether a reader with this access may be given `message`.
    @inline(__always)
    public func sees(_ message: EncodedMessage) -> Bool {
        guard message.isPrivate else { return true }
        return sees(room: message.message.room, id: message.id)
    }

    /// Whether message `id` of conversation `room` is visible.
    public func sees(room: String, id: Int64) -> Bool {
        switch scope {
        case .everything: return true
        case .publicRooms: return false
        case .member: return visible.withLock { ($0[room] ?? 0) >= id }
        }
    }

    /// Whether the reader is a member of `room` now.
    public func isMember(of room: String) -> Bool { sees(room: room, id: .max) }

    /// The reader became a member of `room`: its whole history is visible.
    func admit(_ room: String) {
        visible.withLock { $0[room] = .max }
    }

    /// The reader stopped being a member of `room` with message `id`: that
    /// message is its last.
    func dismiss(_ room: String, after id: Int64) {
        visible.withLock { $0[room] = id }
    }
}
