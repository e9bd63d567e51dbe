/// A message that carries an upload: where it is, to decide who may read the upload.
public struct MediaCarrier: Sendable, Equatable {
    /// The message's room.
    public var room: String
    /// The message's id.
    public var id: Int64

    public init(room: String, id: Int64) {
        self.room = room
        self.id = id
    }
}
