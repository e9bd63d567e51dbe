import SwitchboardCore

/// One raw-TCP client's conversation as a state machine: commands in, actions
/// out. The transport carries the actions out (publish, subscribe, reply) and
/// knows nothing of the protocol.
///
/// Commands: `iam:NAME` (join room `lobby` as NAME), `msg:TEXT`, and the
/// extensions `auth:TOKEN` (sign in: answered `auth:NAME`, and the client
/// joins as NAME; `iam:` may then be left out), `join:ROOM`, `who:`,
/// `since:ID`, `ping:` (answered `pong:` with the same text, a
/// heartbeat) and `typing:` (the others in the room hear `typing:NAME`; a
/// client hears theirs only once it has sent one itself, so the DogeChat
/// app, which never does, sees no line it cannot show). A refused command gets one `error:` line and the connection
/// stays open. A second `iam:` with the same name does nothing; with
/// another name it is refused (reconnect to change name), so a name seen in
/// a room is always the same person. Who may use which name and room is
/// ``AccessControl``'s decision, as on every transport.
public struct LineSession: Sendable {
    /// What the transport should do.
    public enum Action: Equatable, Sendable {
        /// Send this line (ending included) to the client.
        case send([UInt8])
        /// The client is now `user` in `room`: mark it present and start
        /// delivering the room's messages.
        case enter(user: String, room: String)
        /// Move the client from one room to another.
        case move(user: String, from: String, to: String)
        /// Store and deliver this message (the sender gets it back like everyone).
        case publish(MessageDraft)
        /// Reply with who is online in the room.
        case who(room: String)
        /// Send the room's stored messages after this id.
        case replay(room: String, after: Int64)
        /// The client signed in: its connection now holds this identity
        /// (closed when the token expires or is revoked, or the user banned).
        case authenticated(Identity)
        /// `user` is typing in `room`: tell the room's other readers (and,
        /// from now on, tell this client when others type).
        case typing(user: String, room: String)
    }

    /// The name given by `iam:`, once given.
    public private(set) var user: String?
    /// The room the client is in.
    public private(set) var room: String
    /// Who the client is: a guest until `auth:`.
    public private(set) var identity = Identity.guest
    private let limits: MessageLimits
    private let maxLineBytes: Int
    private let access: AccessControl
    /// Asked whether entering a room is a `join` (nil: each one is).
    private let presence: Presence?
    /// The client's address: a guest's publish rate is counted by it.
    private let client: String

    public init(limits: MessageLimits = MessageLimits(), room: String = "lobby", maxLineBytes: Int = 8192,
                access: AccessControl, presence: Presence? = nil, client: String = "unknown") {
        self.limits = limits
        self.room = room
        self.maxLineBytes = maxLineBytes
        self.access = access
        self.presence = presence
        self.client = client
    }

    /// The client's user is no longer a member of conversation `room`: if
    /// the client is in it, it is told and moved to `lobby`.
    public mutating func lostAccess(to lost: String) -> [Action] {
        guard lost == room else { return [] }
        room = "lobby"
        let notice = Action.send(LineFormat.line("\(MessageLimits.systemUser):you are no longer in \(lost)"))
        guard let user else { return [notice] }
        return [notice, .move(user: user, from: lost, to: room)]
    }

    /// Handles one framed command.
    public mutating func receive(_ input: LineFramer.Output) -> [Action] {
        switch input {
        case .tooLong:
            return [.send(LineFormat.error("line longer than \(maxLineBytes) bytes, discarded"))]
        case .line(let bytes):
            guard let line = bytes.validUTF8String else {
                return [.send(LineFormat.error("not valid UTF-8"))]
            }
            return command(line)
        }
    }

    private mutating func command(_ line: String) -> [Action] {
        if line.isEmpty { return [] }  // a bare Enter in nc
        guard let colon = line.firstIndex(of: ":") else {
            return [.send(LineFormat.error("unknown command; use iam:NAME, msg:TEXT, join:ROOM, who:, since:ID, ping:, auth:TOKEN"))]
        }
        let name = line[..<colon]
        let argument = String(line[line.index(after: colon)...])
        do throws(SwitchboardError) {
            switch name {
            case "auth":
                return try authenticate(argument)
            case "iam":
                let user = try limits.validUser(argument)
                if let current = self.user {
                    if identity.user != nil, current != user { throw SwitchboardError.notYourName(current) }
                    return current == user ? [] : [.send(LineFormat.error("already joined as \(current); reconnect to use another name"))]
                }
                guard let speaker = try access.speaker(identity, claimed: user) else { return [] }
                try access.checkRoom(identity, room)
                try access.admitRoom(identity, room, client: client)
                try access.admitPresence(identity, user: speaker, room: room, presence: presence, client: client)
                self.user = speaker
                return [.enter(user: speaker, room: room)]
            case "msg":
                guard let user else { return [.send(LineFormat.error("send iam:NAME first"))] }
                return [.publish(try access.draft(identity, room: room, user: user, text: argument, limits: limits, client: client))]
            case "join":
                let target = try limits.validRoom(argument)
                guard target != room else { return [] }
                try access.checkRoom(identity, target)
                try access.admitRoom(identity, target, client: client)
                if let user { try access.admitPresence(identity, user: user, room: target, presence: presence, client: client) }
                let previous = room
                room = target
                guard let user else { return [] }  // not present yet: just where iam: will enter
                return [.move(user: user, from: previous, to: target)]
            case "who":
                try access.checkRoom(identity, room)
                return [.who(room: room)]
            case "ping":
                return [.send(LineFormat.pong(argument))]
            case "typing":
                guard let user else { return [.send(LineFormat.error("send iam:NAME first"))] }
                try access.checkRoom(identity, room)
                return [.typing(user: user, room: room)]
            case "since":
                try access.checkRoom(identity, room)
                return [.replay(room: room, after: try Cursor.parse(argument, name: "since"))]
            default:
                return [.send(LineFormat.error("unknown command '\(name.prefix(32))'; use iam:NAME, msg:TEXT, join:ROOM, who:, since:ID, ping:, typing:"))]
            }
        } catch {
            return [.send(LineFormat.refusal(error))]
        }
    }

    /// `auth:TOKEN`: the token's user signs in and, unless already in as
    /// that user, joins the room (so `iam:` may be left out).
    private mutating func authenticate(_ token: String) throws(SwitchboardError) -> [Action] {
        let identity = try access.identify(token: token.isEmpty ? nil : token)
        guard let name = identity.user else { throw .unauthorized }
        if let current = user, current != name {
            return [.send(LineFormat.error("already joined as \(current); reconnect to sign in as someone else"))]
        }
        if let current = self.identity.user, current != name {
            return [.send(LineFormat.error("signed in as \(current) already; reconnect to sign in as someone else"))]
        }
        try access.checkRoom(identity, room)
        if user == nil {
            try access.admitRoom(identity, room, client: client)
            try access.admitPresence(identity, user: name, room: room, presence: presence, client: client)
        }
        self.identity = identity
        var actions: [Action] = [.authenticated(identity), .send(LineFormat.line("auth:\(name)"))]
        if user == nil {
            user = name
            actions.append(.enter(user: name, room: room))
        }
        return actions
    }
}
