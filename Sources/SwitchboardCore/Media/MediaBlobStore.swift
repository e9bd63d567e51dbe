/// A database that keeps uploads' bytes itself (PostgreSQL), so that every
/// node serves every file: each node's folder is then only a cache
/// (``MediaFileStore`` over it: SwitchboardMedia's `SharedMediaFiles`).
/// Files go in and out in pieces, never whole in memory.
public protocol MediaBlobStore: Sendable {
    /// Stores the file at `path` as `id`'s `variant` (all of it or none).
    func putBlob(from path: String, as id: String, _ variant: MediaVariant) throws
    /// Writes `id`'s `variant` into `write`, piece by piece; false when there is none.
    func getBlob(_ id: String, _ variant: MediaVariant, into write: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool
    /// Removes every variant of `id` (none is fine).
    func deleteBlobs(_ id: String) throws
    /// The ids with bytes stored before `storedBefore` (milliseconds since the epoch).
    func blobIDs(storedBefore: Int64) throws -> [String]
}
