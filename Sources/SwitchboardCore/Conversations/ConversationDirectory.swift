import Synchronization

/// Every conversation and its members, in memory: what access decisions on
/// every request and every delivered message read, without a store query.
///
/// Loaded from the store at start; after that it changes only by applying
/// the conversation events of messages as they enter the bus's ring — this
/// node's commits and, on several nodes, those ingested from the shared
/// store — so every node applies the same changes in the same (id) order,
/// and a change is in force before any later message is delivered.
public final class ConversationDirectory: Sendable {
    private struct State {
        var conversations: [String: Conversation] = [:]
        /// ``ConversationRoom/directKey(_:_:)`` → room.
        var direct: [String: String] = [:]
        /// Lower-cased user → their conversations' rooms.
        var memberOf: [String: Set<String>] = [:]
        /// Lower-cased user → the access every stream of theirs reads.
        var access: [String: RoomAccess] = [:]
    }

    private let state = Mutex(State())
    private let observers = Mutex<[@Sendable ([ConversationChange]) -> Void]>([])

    public init() {}

    // MARK: Reading

    /// What a reader with `identity` may see of conversations.
    public func access(for identity: Identity) -> RoomAccess {
        switch identity {
        case .admin: return .everything
        case .guest: return .publicRooms
        case .user(let claims): return access(forUser: claims.user)
        }
    }

    /// The access of `user`'s streams (created on first use).
    public func access(forUser user: String) -> RoomAccess {
        state.withLock { state in Self.access(of: user.lowercased(), in: &state) }
    }

    /// The conversation of `room`, if there is one.
    public func conversation(_ room: String) -> Conversation? {
        state.withLock { $0.conversations[room] }
    }

    /// Whether `user` is a member of `room`'s conversation.
    public func isMember(_ user: String, of room: String) -> Bool {
        state.withLock { $0.memberOf[user.lowercased()]?.contains(room) ?? false }
    }

    /// The rooms of `user`'s conversations.
    public func rooms(of user: String) -> Set<String> {
        state.withLock { $0.memberOf[user.lowercased()] ?? [] }
    }

    /// The direct conversation between two users, if they have one.
    public func direct(between first: String, and second: String) -> Conversation? {
        state.withLock { state in
            state.direct[ConversationRoom.directKey(first, second)].flatMap { state.conversations[$0] }
        }
    }

    /// How many conversations there are.
    public var count: Int { state.withLock { $0.conversations.count } }

    // MARK: Changing

    /// Replaces everything with what the store holds (at start).
    public func load(_ conversations: [Conversation]) {
        state.withLock { state in
            state.conversations = [:]
            state.direct = [:]
            state.memberOf = [:]
            for conversation in conversations { Self.insert(conversation, into: &state) }
            for (key, access) in state.access {
                for room in state.memberOf[key] ?? [] { access.admit(room) }
            }
        }
    }

    /// Applies the event `message` carries, if any; returns who gained or
    /// lost access. Called by the bus under its lock as the message enters
    /// the ring, so it must not call back into the bus.
    public func apply(_ message: Message) -> [ConversationChange] {
        guard let event = message.event, ConversationRoom.isConversation(message.room) else { return [] }
        let room = message.room
        return state.withLock { state -> [ConversationChange] in
            switch event.type {
            case .created:
                let members = event.members ?? [event.actor]
                Self.insert(Conversation(room: room, title: event.title ?? "", direct: event.direct ?? false,
                                         createdBy: event.actor, members: members), into: &state)
                return members.map { ConversationChange(room: room, user: $0, isMember: true) }
            case .renamed:
                state.conversations[room]?.title = event.title ?? ""
                return []
            case .added:
                guard let user = event.user, state.conversations[room] != nil else { return [] }
                if state.conversations[room]?.hasMember(user) == false { state.conversations[room]?.members.append(user) }
                state.memberOf[user.lowercased(), default: []].insert(room)
                Self.access(of: user.lowercased(), in: &state).admit(room)
                return [ConversationChange(room: room, user: user, isMember: true)]
            case .removed, .left:
                let user = event.user ?? event.actor
                let key = user.lowercased()
                state.conversations[room]?.members.removeAll { $0.lowercased() == key }
                state.memberOf[key]?.remove(room)
                state.access[key]?.dismiss(room, after: message.id)
                return [ConversationChange(room: room, user: user, isMember: false)]
            }
        }
    }

    /// Calls `handler` with every batch of changes applied from now on
    /// (outside the bus's lock, on the thread that applied them).
    public func observe(_ handler: @escaping @Sendable ([ConversationChange]) -> Void) {
        observers.withLock { $0.append(handler) }
    }

    /// Hands `changes` to the observers.
    func notify(_ changes: [ConversationChange]) {
        guard !changes.isEmpty else { return }
        for handler in observers.withLock({ $0 }) { handler(changes) }
    }

    private static func insert(_ conversation: Conversation, into state: inout State) {
        state.conversations[conversation.room] = conversation
        if conversation.direct, conversation.members.count == 2 {
            state.direct[ConversationRoom.directKey(conversation.members[0], conversation.members[1])] = conversation.room
        }
        for member in conversation.members {
            let key = member.lowercased()
            state.memberOf[key, default: []].insert(conversation.room)
            state.access[key]?.admit(conversation.room)
        }
    }

    private static func access(of key: String, in state: inout State) -> RoomAccess {
        if let access = state.access[key] { return access }
        let access = RoomAccess.member()
        for room in state.memberOf[key] ?? [] { access.admit(room) }
        state.access[key] = access
        return access
    }
}
