import NameSecurity
import Synchronization

/// The one place that turns what a client presented into an ``Identity``
/// and decides what that identity may do: read a room, speak under a name,
/// publish now. Every transport asks it; none decides by itself.
///
/// It keeps in memory what every decision needs (registered names, bans,
/// revoked tokens), loaded from the store at start and kept current by the
/// node that makes a change and, on several nodes, by the cluster. So every
/// decision is a lookup: no request waits on the store to be let in.
public final class AccessControl: Sendable {
    /// What the lock says of a name or a token.
    private enum NameStanding {
        case free, registered, revoked
        case banned(until: Int64)
    }

    struct State {
        /// Registered names by their ``NameSkeleton`` key: a name a reader cannot tell from one is the same name.
        var registered: [String: String] = [:]
        /// The same by ``NameSkeleton/shownKey(_:)`` (`Iuke` is `luke`): one name when either key is.
        var registeredShown: [String: String] = [:]
        /// Lower-cased user → end of the ban (ms since the epoch).
        var bans: [String: Int64] = [:]
        /// Revocation key → the token's expiry (after which it needs no entry).
        var revoked: [String: Int64] = [:]
    }

    /// Whether guests may use the server.
    public let mode: AccessMode
    private let verifier: (any TokenVerifier)?
    private let rateLimiter: PublishRateLimiter?
    /// Whether publishes are counted against a rate (`--publish-rate`).
    public var limitsPublishing: Bool { rateLimiter != nil }
    private let roomCreation: RoomCreationLimiter?
    let clock: @Sendable () -> Int64
    /// What every decision reads; changed by AccessControl+Changes.swift.
    let state = Mutex(State())
    /// Conversations and their members: a conversation's room is its members' only.
    public let conversations: ConversationDirectory

    /// - Parameters:
    ///   - verifier: checks tokens; nil: no token can be accepted (every one is refused).
    ///   - rateLimiter: per-user publish rate; nil: unlimited (the default, as in every peer).
    ///   - roomCreation: how fast each client may make new rooms; nil: unlimited.
    ///   - conversations: the membership of conversations (the bus's).
    ///   - clock: milliseconds since the epoch.
    public init(mode: AccessMode = .open, verifier: (any TokenVerifier)?, rateLimiter: PublishRateLimiter? = nil,
                roomCreation: RoomCreationLimiter? = nil, conversations: ConversationDirectory = ConversationDirectory(),
                clock: @escaping @Sendable () -> Int64 = MessageBus.systemClock) {
        self.mode = mode
        self.roomCreation = roomCreation
        self.conversations = conversations
        self.verifier = verifier
        self.rateLimiter = rateLimiter
        self.clock = clock
    }

    // MARK: Who is it

    /// The identity of a client that presented `token` (nil: none), or the
    /// admin token. A bad token is refused, never taken for a guest.
    public func identify(token: String?, isAdmin: Bool = false) throws(SwitchboardError) -> Identity {
        if isAdmin { return .admin }
        guard let token else { return .guest }
        guard let verifier else { throw .invalidToken("this server accepts no tokens") }
        let now = clock()
        let claims = try verifier.verify(token, now: now)
        let standing = state.withLock { state -> NameStanding in
            if state.revoked[claims.revocationKey] != nil { return .revoked }
            if let until = state.bans[claims.user.lowercased()] { return .banned(until: until) }
            return .free
        }
        switch standing {
        case .revoked: throw .tokenRevoked
        case .banned(let until) where until > now: throw .banned(until: until)
        default: return .user(claims)
        }
    }

    /// Why a connection opened as `identity` must end now, or nil while it
    /// may stay: its token revoked or expired, or its user banned.
    public func ending(_ identity: Identity) -> ConnectionEnd? {
        guard case .user(let claims) = identity else { return nil }
        let now = clock()
        if claims.expires <= now { return .tokenExpired }
        return state.withLock { state in
            if state.revoked[claims.revocationKey] != nil { return .tokenRevoked }
            if let until = state.bans[claims.user.lowercased()], until > now { return .banned }
            return nil
        }
    }

    /// ``ending(_:)`` for a connection that also goes by `user` (a guest's
    /// chosen name, which can be banned too).
    public func ending(_ identity: Identity, named user: String?) -> ConnectionEnd? {
        if let reason = ending(identity) { return reason }
        guard case .guest = identity, let user else { return nil }
        let now = clock()
        return state.withLock { state in
            guard !state.bans.isEmpty, let until = state.bans[user.lowercased()], until > now else { return nil }
            return .banned
        }
    }

    // MARK: What may it do

    /// Who speaks, or is present, when `identity` names `claimed` (a valid
    /// name, or nil when the client named nobody): the token's user, the
    /// name a guest chose, anyone for the admin token.
    public func speaker(_ identity: Identity, claimed: String?) throws(SwitchboardError) -> String? {
        switch identity {
        case .admin:
            return claimed
        case .user(let claims):
            if let claimed, claimed != claims.user { throw .notYourName(claims.user) }
            return claims.user
        case .guest:
            guard mode == .open else { throw .unauthorized }
            guard let claimed else { return nil }
            // On every guest publish: one lock, a nominal answer (a tuple through
            // the generic lock had the runtime look its type up each time), and
            // no lower-casing while no name is registered or banned.
            // Registered names are compared as a reader sees them (``NameSkeleton``),
            // worked out outside the lock and only when some name is taken.
            let anyTaken = state.withLock { !($0.registered.isEmpty && $0.bans.isEmpty) }
            let standing: NameStanding
            if anyTaken {
                let (key, shown, lower) = (NameSkeleton.key(claimed), NameSkeleton.shownKey(claimed), claimed.lowercased())
                standing = state.withLock { state -> NameStanding in
                    if state.registered[key] != nil || state.registeredShown[shown] != nil { return .registered }
                    if let until = state.bans[lower] { return .banned(until: until) }
                    return .free
                }
            } else {
                standing = .free
            }
            switch standing {
            case .registered: throw .nameReserved(claimed)
            case .banned(let until) where until > clock(): throw .banned(until: until)
            default: return claimed
            }
        }
    }

    /// ``speaker(_:claimed:)`` for a name as the client sent it (validated first).
    public func speaker(_ identity: Identity, naming name: String?, limits: MessageLimits) throws(SwitchboardError) -> String? {
        let claimed = try name.map { name throws(SwitchboardError) in try limits.validUser(name) }
        return try speaker(identity, claimed: claimed)
    }

    /// A message `identity` publishes in `room` (a valid room name), naming
    /// `user` (or nobody: the token's user speaks): the room allowed, the
    /// speaker decided (its name validated once), the text validated, then
    /// one publish taken from the rate (`client`, read only when a guest's
    /// rate is counted). Every transport's publish comes through here.
    /// A message that carries media (`carriesMedia`) may have empty text.
    public func draft(_ identity: Identity, room: String, user: String?, text: String, limits: MessageLimits,
                      carriesMedia: Bool = false, client: @autoclosure () -> String) throws(SwitchboardError) -> MessageDraft {
        try checkRoom(identity, room)
        guard let speaker = try speaker(identity, naming: user, limits: limits) else {
            throw SwitchboardError(.invalid, code: "invalid_user", message: "Name the user who speaks ('user'), or sign in.")
        }
        let emptyBeside = carriesMedia && text.unicodeScalars.allSatisfy { $0 == "\n" || $0 == "\r" }
        let draft = MessageDraft(room: room, user: speaker, text: emptyBeside ? "" : try limits.validText(text), kind: .message)
        // Counted only once the message is valid: a refused one makes no room.
        try admitRoom(identity, room, client: client())
        try admitPublish(identity, speaker: speaker, client: client())
        return draft
    }

    /// Refuses `identity` reading or writing `room` when it may not: a
    /// conversation's room is for its members (a guest is asked to sign in;
    /// anyone else hears "not a member", whether or not it exists).
    public func checkRoom(_ identity: Identity, _ room: String) throws(SwitchboardError) {
        switch identity {
        case .admin:
            // Every room, but a conversation's only once it is one: `c.ID` is the conversation
            // message ID made, and what the admin wrote there before would be its members' history.
            if ConversationRoom.isConversation(room), conversations.conversation(room) == nil { throw .noSuchConversation(room) }
        case .guest:
            if mode == .required || ConversationRoom.isConversation(room) { throw .unauthorized }
        case .user(let claims):
            if !claims.rooms.allows(room) { throw .roomForbidden(room) }
            if ConversationRoom.isConversation(room), !conversations.isMember(claims.user, of: room) { throw .notAMember(room) }
        }
    }

    /// What `identity`'s streams may see of conversations.
    public func readerAccess(_ identity: Identity) -> RoomAccess {
        conversations.access(for: identity)
    }

    /// Refuses `identity` reading the rooms of `filter` when it may not.
    public func checkRooms(_ identity: Identity, _ filter: RoomFilter) throws(SwitchboardError) {
        switch filter {
        case .all:
            switch identity {
            case .admin: return
            case .guest: if mode == .required { throw .unauthorized }
            case .user(let claims): if !claims.rooms.isUnlimited { throw .allRoomsForbidden }
            }
        case .room(let room):
            try checkRoom(identity, room)
        case .rooms(let rooms):
            for room in rooms { try checkRoom(identity, room) }
        }
    }

    /// Counts `room` against how fast `identity` (a guest: its `client`
    /// address) may bring new rooms into being (``RoomCreationLimiter``):
    /// called wherever a client enters or writes a room, on every transport.
    /// Known rooms and the admin are never counted.
    public func admitRoom(_ identity: Identity, _ room: String, client: @autoclosure () -> String) throws(SwitchboardError) {
        guard let roomCreation, identity != .admin else { return }
        try roomCreation.admit(room, key: Self.roomKey(identity, client()))
    }

    /// Counts a conversation `identity` creates as a new room of theirs
    /// (`--room-rate`): its room is new by definition. The admin is never limited.
    public func admitNewConversation(_ identity: Identity, client: @autoclosure () -> String) throws(SwitchboardError) {
        guard let roomCreation, identity != .admin else { return }
        try roomCreation.admitNamedByServer(key: Self.roomKey(identity, client()))
    }

    /// Whose bucket of new rooms `identity` takes from: the user's, or a guest's address's.
    private static func roomKey(_ identity: Identity, _ client: @autoclosure () -> String) -> String {
        identity.user.map { "user:" + $0.lowercased() } ?? "address:" + client()
    }

    /// Refuses a guest where a token is needed (`--auth required`).
    public func checkSignedIn(_ identity: Identity) throws(SwitchboardError) {
        if identity == .guest, mode == .required { throw .unauthorized }
    }

    /// Takes one publish from `speaker`'s bucket (`client`, e.g. the
    /// address, for a guest); refuses it over the rate. The admin is never limited.
    public func admitPublish(_ identity: Identity, speaker: String, client: @autoclosure () -> String) throws(SwitchboardError) {
        guard let rateLimiter, identity != .admin else { return }
        let key = identity == .guest ? "guest " + client() : "user " + speaker
        if let wait = rateLimiter.take(key) { throw .rateLimited(retryAfter: wait) }
    }
}
