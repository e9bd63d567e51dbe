#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Which of an upload's files.
public enum MediaVariant: String, Sendable {
    /// The file as kept (a photo re-encoded without its metadata).
    case original
    /// A photo's thumbnail.
    case thumbnail
}

/// An upload's bytes on this node's disk, opened for sending: the
/// descriptor is closed when this goes away, unless it was taken (by the
/// response that sends it). An answer dropped on the way (a timeout, a
/// client gone) leaks nothing.
public final class OpenedMediaFile: Sendable {
    private let lock = Mutex<Int32>(-1)
    /// Its size in bytes.
    public let size: Int64

    public init(descriptor: Int32, size: Int64) {
        lock.withLock { $0 = descriptor }
        self.size = size
    }

    /// The open, readable descriptor, once: whoever takes it closes it.
    public func take() -> Int32? {
        lock.withLock { descriptor in
            defer { descriptor = -1 }
            return descriptor >= 0 ? descriptor : nil
        }
    }

    deinit {
        if let descriptor = take() { close(descriptor) }
    }
}

/// Where uploads' bytes live: a folder on one node (SQLite), or the
/// database with a node's disk as its cache (PostgreSQL, so that every node
/// serves every file). Files come in under a temporary name and are kept
/// under their id only once whole and synced; a file that is not kept is
/// removed. All of it may block (disk, network): called on the store gate
/// or the media queue, never on a thread that serves connections.
public protocol MediaFileStore: Sendable {
    /// A new empty temporary file for an upload to be written into.
    func temporaryFile() throws -> TemporaryMediaFile
    /// Keeps the (complete) temporary file at `path` as `id`'s `variant`:
    /// synced, then renamed (or copied into the database) so that no
    /// half-written file is ever found under an id.
    func keep(_ path: String, as id: String, _ variant: MediaVariant) throws
    /// Opens `id`'s `variant` for reading; nil when there is none.
    func open(_ id: String, _ variant: MediaVariant) throws -> OpenedMediaFile?
    /// Removes every file of `id` (none is fine).
    func remove(_ id: String) throws
    /// Removes a temporary file that will not be kept (none is fine).
    func discard(_ path: String)
    /// The ids with files kept before `storedBefore` (milliseconds since
    /// the epoch), for the sweep to find those no record names.
    func keptIDs(storedBefore: Int64) throws -> [String]
    /// Up to `count` bytes of a (closed) temporary file from `offset`; fewer
    /// at its end, none when it cannot be read.
    func bytes(of temporary: String, at offset: Int64, count: Int) -> [UInt8]
    /// Writes a small temporary file where uploads' bytes go and removes
    /// it: throws where an upload's would fail (a full disk).
    func checkWritable() throws
}

/// A temporary file an upload is written into, on the worker that reads
/// the request's body: `write(2)`s of a few hundred KiB into the page
/// cache; the sync to disk comes later, off the worker
/// (``MediaFileStore/keep(_:as:_:)``).
public protocol TemporaryMediaFile: AnyObject {
    /// Its path.
    var path: String { get }
    /// Appends `bytes` (perhaps buffered); throws when the disk refuses.
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Writes what is buffered and closes it, to be kept; throws when the disk refuses.
    func finish() throws
    /// Closes it, dropping what is buffered (it will be discarded).
    func close()
}

/// What makes a photo safe to keep: its metadata removed, its orientation
/// applied, a thumbnail made (libvips, behind the C wall).
public protocol ImageProcessing: Sendable {
    /// Re-encodes the image at `path` (of `type`) into a new file beside it
    /// with no metadata, and makes its thumbnail (≤ `thumbnailSize` px).
    /// - Throws: ``SwitchboardError/unsupportedMedia(_:)`` for an image that
    ///   cannot be read, or one over `maxPixels` (an animation's frames
    ///   together), refused before it is decoded.
    func clean(_ path: String, type: MediaType, thumbnailSize: Int, maxPixels: Int64) throws -> CleanedImage
}

/// A photo as ``ImageProcessing`` left it: new files the caller keeps or discards.
public struct CleanedImage: Sendable {
    /// The re-encoded file.
    public var path: String
    /// Its size in bytes.
    public var size: Int64
    /// Pixels (one frame's for an animation).
    public var width: Int
    public var height: Int
    /// The thumbnail file and its MIME type.
    public var thumbnailPath: String
    public var thumbnailType: String

    public init(path: String, size: Int64, width: Int, height: Int, thumbnailPath: String, thumbnailType: String) {
        self.path = path
        self.size = size
        self.width = width
        self.height = height
        self.thumbnailPath = thumbnailPath
        self.thumbnailType = thumbnailType
    }
}
