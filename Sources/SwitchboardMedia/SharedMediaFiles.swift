import SwitchboardCore

/// Uploads' bytes in a shared database (``MediaBlobStore``: PostgreSQL),
/// with this node's folder as its cache: a file taken in here is stored in
/// the database and kept in the folder; a file another node took in is
/// copied into the folder (piece by piece, under a temporary name, then
/// renamed) the first time it is asked for here, and sent from there with
/// sendfile like any other.
public final class SharedMediaFiles: MediaFileStore {
    private let cache: MediaDirectory
    private let blobs: any MediaBlobStore

    public init(cache: MediaDirectory, blobs: any MediaBlobStore) {
        self.cache = cache
        self.blobs = blobs
    }

    public func temporaryFile() throws -> TemporaryMediaFile {
        try cache.temporaryFile()
    }

    /// The cache folder's disk: the database's writes are the store's health.
    public func checkWritable() throws {
        try cache.checkWritable()
    }

    public func keep(_ path: String, as id: String, _ variant: MediaVariant) throws {
        try blobs.putBlob(from: path, as: id, variant)
        try cache.keep(path, as: id, variant)
    }

    public func open(_ id: String, _ variant: MediaVariant) throws -> OpenedMediaFile? {
        if let cached = try cache.open(id, variant) { return cached }
        let temporary = try cache.temporaryFile()
        let found: Bool
        do {
            found = try blobs.getBlob(id, variant) { bytes in try temporary.write(bytes) }
            try temporary.finish()
        } catch {
            temporary.close()
            cache.discard(temporary.path)
            throw error
        }
        guard found else {
            cache.discard(temporary.path)
            return nil
        }
        try cache.keep(temporary.path, as: id, variant)
        return try cache.open(id, variant)
    }

    public func discard(_ path: String) {
        cache.discard(path)
    }

    public func bytes(of temporary: String, at offset: Int64, count: Int) -> [UInt8] {
        cache.bytes(of: temporary, at: offset, count: count)
    }

    /// Those in the database and those in this node's cache (a file deleted
    /// on another node lingers in this cache until the sweep finds no record).
    public func keptIDs(storedBefore: Int64) throws -> [String] {
        Array(Set(try blobs.blobIDs(storedBefore: storedBefore)).union(try cache.keptIDs(storedBefore: storedBefore))).sorted()
    }

    /// Removes `id` from the database and this node's cache.
    public func remove(_ id: String) throws {
        try blobs.deleteBlobs(id)
        try cache.remove(id)
    }
}
