/// A room as listed by `GET /api/rooms`.
public struct RoomSummary: Codable, Sendable, Equatable {
    /// The room's name.
    public var name: String
    /// Messages currently stored in the room.
    public var messageCount: Int
    /// The highest message id in the room.
    public var lastID: Int64

    public init(name: String, messageCount: Int, lastID: Int64) {
        self.name = name
        self.messageCount = messageCount
        self.lastID = lastID
    }

    enum CodingKeys: String, CodingKey {
        case name
        case messageCount = "message_count"
        case lastID = "last_id"
    }
}
