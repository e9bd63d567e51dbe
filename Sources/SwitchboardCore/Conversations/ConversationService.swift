/// Every rule about who may do what to a conversation, in one place that
/// every transport calls: who is the caller, which members a new one gets
/// (each an account, each once, the caller among them), whether it is
/// direct (one per pair) or a group, who may rename, add, remove or leave,
/// and that read markers and mutes are a member's own. Changes are stored
/// as `system` messages with their event through the bus's group commit;
/// reads of the store (lists, markers, mutes) run on the store gate. No
/// HTTP, no sockets: the transports turn requests into these calls and
/// the results into their answers.
public final class ConversationService: Sendable {
    private let bus: MessageBus
    private let access: AccessControl
    private let store: (any ConversationStore)?
    private let notices: NoticeBoard
    private let limits: MessageLimits
    private let additions = PendingAdditions()

    /// - Parameters:
    ///   - store: where lists, read markers and mutes are kept; nil: a store that keeps none.
    ///   - notices: where typing notices and read receipts go.
    public init(bus: MessageBus, access: AccessControl, store: (any ConversationStore)?, notices: NoticeBoard,
                limits: MessageLimits) {
        self.bus = bus
        self.access = access
        self.store = store
        self.notices = notices
        self.limits = limits
    }

    /// What creating a conversation did.
    public enum Creation: Sendable {
        /// A new conversation, stored (with its event) in `room`.
        case created(ConversationEvent, room: String)
        /// The pair's direct conversation, which existed already.
        case existing(Conversation)
    }

    /// The signed-in user a conversation request is made as.
    public static func caller(_ identity: Identity) throws(SwitchboardError) -> String {
        guard let user = identity.user else { throw .signInRequired }
        return user
    }

    /// Whether `identity` may use `room` as a conversation's member (the
    /// admin may): a room that is not a conversation is not one here.
    public func checkMember(_ identity: Identity, of room: String) throws(SwitchboardError) -> String {
        _ = try Self.caller(identity)
        let room = try limits.validRoom(room)
        guard ConversationRoom.isConversation(room) else { throw SwitchboardError.notAMember(room) }
        try access.checkRoom(identity, room)
        return room
    }

    /// Creates a group (a title, or several others) or the pair's direct
    /// conversation (one other, no title; the existing one if there is).
    /// Refusals are thrown at once; `completion` gets what was done once stored.
    public func create(by identity: Identity, title: String?, members: [String], client: @autoclosure () -> String,
                       completion: @escaping @Sendable (Result<Creation, SwitchboardError>) -> Void) throws(SwitchboardError) {
        let user = try Self.caller(identity)
        var others: [String] = []
        var named: Set<String> = [user.lowercased()]
        for name in members {
            let member = try account(name)
            guard named.insert(member.lowercased()).inserted else { continue }
            others.append(member)
            if others.count >= limits.maxConversationMembers { throw tooManyMembers(.invalid) }
        }
        guard let other = others.first else {
            throw SwitchboardError(.invalid, code: "no_members", message: "Name at least one other member in 'members'.")
        }
        let title = try title.map(Self.validTitle)
        let direct = others.count == 1 && title == nil
        let conversations = bus.conversations
        if direct, let existing = conversations.direct(between: user, and: other) { return completion(.success(.existing(existing))) }
        try access.admitPublish(identity, speaker: user, client: client())
        try access.admitNewConversation(identity, client: client())
        let event = ConversationEvent(type: .created, actor: user, title: direct ? nil : title ?? others.joined(separator: ", "),
                                      members: [user] + others, direct: direct)
        bus.announce(event.draft(room: ConversationRoom.unnamed)) { result in
            completion(result.flatMap { stored in
                if let stored { return .success(.created(event, room: stored.message.room)) }
                // Another request made the pair's conversation first.
                guard let existing = conversations.direct(between: user, and: other) else { return .failure(.storeFailure("not kept")) }
                return .success(.existing(existing))
            })
        }
    }

    /// Renames a group; nil `completion` value: the title was already that (nothing stored).
    public func rename(_ room: String, by identity: Identity, title: String,
                       completion: @escaping @Sendable (Result<Conversation, SwitchboardError>) -> Void) throws(SwitchboardError) {
        let user = try Self.caller(identity)
        let conversation = try group(room)
        let title = try Self.validTitle(title)
        guard title != conversation.title else { return completion(.success(conversation)) }
        change(ConversationEvent(type: .renamed, actor: user, title: title), in: room, completion: completion)
    }

    /// Adds an account to a group (a member already: nothing stored).
    public func add(_ name: String, to room: String, by identity: Identity,
                    completion: @escaping @Sendable (Result<Conversation, SwitchboardError>) -> Void) throws(SwitchboardError) {
        let user = try Self.caller(identity)
        let conversation = try group(room)
        let member = try account(name)
        if conversation.hasMember(member) { return completion(.success(conversation)) }
        // Against the members and those on their way: two additions at once cannot pass the cap together.
        guard additions.reserve(room, members: conversation.members.count, cap: limits.maxConversationMembers) else {
            throw tooManyMembers(.conflict)
        }
        change(ConversationEvent(type: .added, actor: user, user: member), in: room) { [additions] result in
            additions.release(room)
            completion(result)
        }
    }

    /// Removes a member of a group, or (`me`, or the caller's own name) leaves it.
    public func remove(_ name: String, from room: String, by identity: Identity,
                       completion: @escaping @Sendable (Result<Void, SwitchboardError>) -> Void) throws(SwitchboardError) {
        let user = try Self.caller(identity)
        let conversation = try group(room)
        let leaving = name == "me" || name.lowercased() == user.lowercased()
        guard let member = leaving ? user : conversation.members.first(where: { $0.lowercased() == name.lowercased() }) else {
            throw SwitchboardError(.notFound, code: "no_such_member", message: "'\(name)' is not a member of \(room).")
        }
        let event = leaving ? ConversationEvent(type: .left, actor: user, user: user)
            : ConversationEvent(type: .removed, actor: user, user: member)
        bus.announce(event.draft(room: room)) { result in completion(result.map { _ in () }) }
    }

    /// Mutes or unmutes `room` for the caller.
    public func setMuted(_ room: String, muted: Bool, by identity: Identity,
                         completion: @escaping @Sendable (Result<Bool, SwitchboardError>) -> Void) throws(SwitchboardError) {
        let user = try Self.caller(identity)
        try requireMember(user, of: room)
        let store = try keeper()
        bus.gate.run("a mute", {
            guard try store.setMuted(room: room, user: user, muted: muted) else { throw SwitchboardError.notAMember(room) }
            return muted
        }, completion: completion)
    }

    /// Moves the caller's read marker in `room` forward to `id`, at most to
    /// the last message stored (a marker past it would mark messages read
    /// before they exist, and every member's receipts say so); the other
    /// members' open streams hear the receipt. `completion` gets the marker now.
    public func markRead(_ room: String, id: Int64, by identity: Identity,
                         completion: @escaping @Sendable (Result<Int64, SwitchboardError>) -> Void) throws(SwitchboardError) {
        let user = try Self.caller(identity)
        try requireMember(user, of: room)
        let id = min(id, bus.lastID)
        let store = try keeper()
        let notices = notices
        bus.gate.run("a read marker", {
            guard let marker = try store.markRead(room: room, user: user, id: id) else { throw SwitchboardError.notAMember(room) }
            if marker == id { notices.say(.read(room: room, user: user, id: marker)) }
            return marker
        }, completion: completion)
    }

    /// Tells the other members' open streams that the caller is typing.
    public func typing(in room: String, by identity: Identity) throws(SwitchboardError) {
        notices.say(.typing(room: room, user: try Self.caller(identity)))
    }

    /// A page of the caller's conversations with their last message and
    /// unread count (at most `limit` after `cursor`), and the caller's
    /// unread total over all of them, muted ones left out.
    public func list(for identity: Identity, after cursor: ConversationCursor?, limit: Int,
                     completion: @escaping @Sendable (Result<(page: ConversationPage, unread: Int), SwitchboardError>) -> Void)
        throws(SwitchboardError)
    {
        let user = try Self.caller(identity), store = try keeper()
        bus.gate.run("the conversation list", { () throws -> (page: ConversationPage, unread: Int) in
            (try store.summaries(for: user, after: cursor, limit: limit), try store.unread(for: user))
        }, completion: completion)
    }

    /// One of the caller's conversations, with every member's read marker.
    public func one(_ room: String, for identity: Identity,
                    completion: @escaping @Sendable (Result<(ConversationSummary, [String: Int64]), SwitchboardError>) -> Void)
        throws(SwitchboardError)
    {
        let user = try Self.caller(identity), store = try keeper()
        bus.gate.run("a conversation", { () throws -> (ConversationSummary, [String: Int64]) in
            guard let summary = try store.summary(for: user, in: room) else {
                throw SwitchboardError.notAMember(room)
            }
            return (summary, try store.readMarkers(in: room))
        }, completion: completion)
    }

    /// `user`'s unread total over conversations not muted; nil: this store keeps none.
    /// On the caller's thread: run it on the gate.
    public func unread(of user: String) throws -> Int? {
        try store?.unread(for: user)
    }

    // MARK: -

    /// Stores `event` in `room`; `completion` gets the conversation as it then stands.
    private func change(_ event: ConversationEvent, in room: String,
                        completion: @escaping @Sendable (Result<Conversation, SwitchboardError>) -> Void) {
        let conversations = bus.conversations
        bus.announce(event.draft(room: room)) { result in
            completion(result.flatMap { _ in
                conversations.conversation(room).map { .success($0) } ?? .failure(.notAMember(room))
            })
        }
    }

    /// Markers and mutes are a member's own: decided here, from the
    /// directory (the store's own check stays as a guard against a removal
    /// committed in between).
    private func requireMember(_ user: String, of room: String) throws(SwitchboardError) {
        guard bus.conversations.isMember(user, of: room) else { throw .notAMember(room) }
    }

    /// The group conversation of `room` (a direct one is refused: it has
    /// two members for good, and no title).
    private func group(_ room: String) throws(SwitchboardError) -> Conversation {
        guard let conversation = bus.conversations.conversation(room) else { throw .notAMember(room) }
        if conversation.direct {
            throw SwitchboardError(.conflict, code: "direct_conversation",
                                   message: "A direct conversation keeps its two members and has no title; start a group instead.")
        }
        return conversation
    }

    /// The account named `name` (in any case), as it spells itself.
    private func account(_ name: String) throws(SwitchboardError) -> String {
        guard let member = access.registeredName(try limits.validUser(name)) else {
            throw SwitchboardError(.notFound, code: "no_such_user", message: "There is no account named '\(name)'.")
        }
        return member
    }

    /// A conversation at ``MessageLimits/maxConversationMembers`` (each message
    /// costs the commit a row per member: the cap bounds one group's share).
    private func tooManyMembers(_ kind: SwitchboardError.Kind) -> SwitchboardError {
        SwitchboardError(kind, code: "too_many_members", message: "A conversation has at most \(limits.maxConversationMembers) members.")
    }

    private func keeper() throws(SwitchboardError) -> any ConversationStore {
        guard let store else {
            throw SwitchboardError(.unavailable, code: "no_conversations", message: "This server's store keeps no conversations.")
        }
        return store
    }
}
