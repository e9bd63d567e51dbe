import SwitchboardCore

/// A room as the API shows it: name, message count, last id, and who is
/// online in it (their names in `GET /api/rooms`, how many in the admin's stats).
struct RoomJSON<Online: Encodable & Sendable>: Encodable, Sendable {
    var name: String
    var messageCount: Int
    var lastID: Int64
    var online: Online

    init(_ summary: RoomSummary, online: Online) {
        name = summary.name
        messageCount = summary.messageCount
        lastID = summary.lastID
        self.online = online
    }

    enum CodingKeys: String, CodingKey {
        case name, online
        case messageCount = "message_count"
        case lastID = "last_id"
    }
}
