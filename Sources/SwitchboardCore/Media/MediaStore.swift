/// Where uploads' records are kept beside the messages that carry them
/// (the files themselves: ``MediaFileStore``). A message's attachments are
/// recorded by the store in the transaction that stores the message
/// (``MessageDraft/media``), so an upload is "carried" exactly when a
/// stored message names it.
public protocol MediaStore: Sendable {
    /// Records a new upload (its file is already in place).
    func insertMedia(_ record: MediaRecord) throws
    /// The records of those of `ids` that exist, in any order.
    func mediaRecords(_ ids: [String]) throws -> [MediaRecord]
    /// The earliest stored message that carries upload `id` in the first
    /// room named after `room` (`""`: the first room), in name order, or
    /// nil when no later room has one: one room a call (an index lookup),
    /// however many messages carry it. (One upload attached to a million
    /// messages, all read at each download, cost every download 0.6 s.)
    func firstCarrier(of id: String, after room: String) throws -> MediaCarrier?
    /// The bytes of `user`'s uploads together.
    func mediaBytes(of user: String) throws -> Int64
    /// Every uploader's share, largest first.
    func mediaUsage() throws -> [MediaUsage]
    /// The latest `limit` uploads, newest first, each with whether a stored message carries it.
    func recentMedia(limit: Int) throws -> [(record: MediaRecord, carried: Bool)]
    /// Forgets upload `id` (the messages that carried it keep their
    /// attachment, which then answers 404). False when there was none.
    func deleteMedia(_ id: String) throws -> Bool
    /// Uploads no stored message carries that were uploaded before
    /// `uploadedBefore` (never attached in time) or were carried once (their
    /// messages were all deleted): the sweep deletes them.
    func sweepableMedia(uploadedBefore: Int64) throws -> [String]
}
