import SwitchboardCore

/// One raw-TCP client's conversation as a state machine: commands in, actions
/// out. The transport carries the actions out (publish, subscribe, reply) and
/// knows nothing of the protocol.
///
/// Commands: `iam:NAME` (join room `lobby` as NAME), `msg:TEXT`, and the
/// extensions `join:ROOM`, `who:`, `since:ID` and `ping:` (answered
/// `pong:` with the same text, a heartbeat). A refused command gets one
/// `error:` line and the connection stays open. A second `iam:` with the same
/// name does nothing; with another name it is refused (reconnect to change
/// name), so a name seen in a room is always the same person.
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
    }

    /// The name given by `iam:`, once given.
    public private(set) var user: String?
    /// The room the client is in.
    public private(set) var room: String
    private let limits: MessageLimits
    private let maxLineBytes: Int

    public init(limits: MessageLimits = MessageLimits(), room: String = "lobby", maxLineBytes: Int = 8192) {
        self.limits = limits
        self.room = room
        self.maxLineBytes = maxLineBytes
    }

    /// Handles one framed command.
    public mutating func receive(_ input: LineFramer.Output) -> [Action] {
        switch input {
        case .tooLong:
            return [.send(LineFormat.error("line longer than \(maxLineBytes) bytes, discarded"))]
        case .line(let bytes):
            guard let line = String(validating: bytes, as: UTF8.self) else {
                return [.send(LineFormat.error("not valid UTF-8"))]
            }
            return command(line)
        }
    }

    private mutating func command(_ line: String) -> [Action] {
        if line.isEmpty { return [] }  // a bare Enter in nc
        guard let colon = line.firstIndex(of: ":") else {
            return [.send(LineFormat.error("unknown command; use iam:NAME, msg:TEXT, join:ROOM, who:, since:ID, ping:"))]
        }
        let name = line[..<colon]
        let argument = String(line[line.index(after: colon)...])
        do throws(SwitchboardError) {
            switch name {
            case "iam":
                let user = try limits.validUser(argument)
                if let current = self.user {
                    return current == user ? [] : [.send(LineFormat.error("already joined as \(current); reconnect to use another name"))]
                }
                self.user = user
                return [.enter(user: user, room: room)]
            case "msg":
                guard let user else { return [.send(LineFormat.error("send iam:NAME first"))] }
                return [.publish(try MessageDraft(room: room, user: user, text: argument, limits: limits))]
            case "join":
                let target = try limits.validRoom(argument)
                guard target != room else { return [] }
                let previous = room
                room = target
                guard let user else { return [] }  // not present yet: just where iam: will enter
                return [.move(user: user, from: previous, to: target)]
            case "who":
                return [.who(room: room)]
            case "ping":
                return [.send(LineFormat.pong(argument))]
            case "since":
                return [.replay(room: room, after: try Cursor.parse(argument, name: "since"))]
            default:
                return [.send(LineFormat.error("unknown command '\(name.prefix(32))'; use iam:NAME, msg:TEXT, join:ROOM, who:, since:ID, ping:"))]
            }
        } catch {
            return [.send(LineFormat.error(error.message))]
        }
    }
}
