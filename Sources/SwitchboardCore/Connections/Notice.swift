/// Something said to a room's readers that is never stored, has no id and is
/// never replayed: "leia is typing", "leia read up to 42". A reader who is
/// not connected when it is said never hears it.
public enum Notice: Codable, Sendable, Equatable {
    /// `user` is typing in `room`.
    case typing(room: String, user: String)
    /// `user` read `room` up to message `id` (a read receipt).
    case read(room: String, user: String, id: Int64)

    /// The room it is said in.
    public var room: String {
        switch self {
        case .typing(let room, _), .read(let room, _, _): return room
        }
    }

    /// Who it is about.
    public var user: String {
        switch self {
        case .typing(_, let user), .read(_, let user, _): return user
        }
    }

    /// Its name on the wire: SSE's `event:`, WebSocket's key.
    public var name: String {
        switch self {
        case .typing: return "typing"
        case .read: return "read"
        }
    }

    /// Its JSON object: `{"room":..,"user":..}`, and `"id"` for a read.
    public var json: [UInt8] {
        var out = Array(#"{"room":"#.utf8)
        MessageJSON.appendString(room, to: &out)
        out += Array(#","user":"#.utf8)
        MessageJSON.appendString(user, to: &out)
        if case .read(_, _, let id) = self { out += Array(#","id":\#(id)"#.utf8) }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
