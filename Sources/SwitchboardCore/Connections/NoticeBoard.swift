import Synchronization

/// Where notices (``Notice``) reach the open streams of a room's readers on
/// this node: each push transport's connection listens while it is open,
/// and a notice goes to every listener that follows its room and may see
/// it, except the one it is about. Polling has no listener: it cannot carry
/// a signal that expires in seconds.
///
/// A typing notice is passed on at most once per user per room per
/// ``typingInterval`` milliseconds; the rest are dropped here.
public final class NoticeBoard: Sendable {
    /// Identifies one listener.
    public struct Token: Hashable, Sendable { fileprivate let value: UInt64 }

    private struct Listener {
        var filter: RoomFilter
        var access: RoomAccess
        var user: String?
        var hear: @Sendable (Notice) -> Void
    }

    private struct State {
        var next: UInt64 = 0
        var listeners: [UInt64: Listener] = [:]
        /// "room\nuser" → when the last typing notice was passed on (ms).
        var lastTyping: [String: Int64] = [:]
    }

    /// Least time between two typing notices of one user in one room.
    public static let typingInterval: Int64 = 1000

    private let state = Mutex(State())
    private let clock: @Sendable () -> Int64
    /// The other nodes, told what is said here; nil on one node.
    private let cluster: (any Cluster)?

    /// - Parameter cluster: the other nodes on a shared store, which hear
    ///   every notice said on this one (``say(_:)``).
    public init(cluster: (any Cluster)? = nil, clock: @escaping @Sendable () -> Int64 = MessageBus.systemClock) {
        self.cluster = cluster
        self.clock = clock
    }

    /// A client of this node said `notice`: this node's listeners hear it
    /// (``post(_:)``) and, unless it was dropped for coming too soon, so do
    /// the other nodes'.
    public func say(_ notice: Notice) {
        if post(notice) != nil { cluster?.notice(notice) }
    }

    /// A connection of `user` reading `filter` with `access` hears notices
    /// through `hear` (called on the poster's thread) until ``remove(_:)``.
    public func listen(filter: RoomFilter, access: RoomAccess, user: String?,
                       hear: @escaping @Sendable (Notice) -> Void) -> Token {
        state.withLock { state in
            state.next += 1
            state.listeners[state.next] = Listener(filter: filter, access: access, user: user?.lowercased(), hear: hear)
            return Token(value: state.next)
        }
    }

    /// The connection stopped listening.
    public func remove(_ token: Token) {
        _ = state.withLock { $0.listeners.removeValue(forKey: token.value) }
    }

    /// Says `notice` to this node's listeners of its room (one said here, or
    /// heard from another node); returns how many heard it,
    /// or nil when it was a typing notice dropped for coming too soon.
    @discardableResult
    public func post(_ notice: Notice) -> Int? {
        let now = clock()
        let about = notice.user.lowercased()
        let hearers = state.withLock { state -> [@Sendable (Notice) -> Void]? in
            if case .typing = notice {
                let key = notice.room + "\n" + about
                if let last = state.lastTyping[key], now - last < Self.typingInterval { return nil }
                state.lastTyping[key] = now
                if state.lastTyping.count > 10_000 { state.lastTyping = state.lastTyping.filter { now - $0.value < Self.typingInterval } }
            }
            return state.listeners.values.compactMap { listener in
                guard listener.user != about, listener.filter.contains(notice.room) else { return nil }
                if ConversationRoom.isConversation(notice.room), !listener.access.isMember(of: notice.room) { return nil }
                return listener.hear
            }
        }
        guard let hearers else { return nil }
        for hear in hearers { hear(notice) }
        return hearers.count
    }

    /// How many connections listen.
    public var count: Int { state.withLock { $0.listeners.count } }
}
