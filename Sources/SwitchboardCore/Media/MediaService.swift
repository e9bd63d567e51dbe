import Dispatch
import Synchronization

/// Every rule about uploads, in one place that every transport calls: who
/// may upload (signed in), what is accepted (by content, ``MediaSniffer``),
/// how much (``MediaLimits``), who may attach an upload to a message (its
/// uploader), who may read it (whoever may read a message that carries it,
/// and its uploader: anyone else is told there is no such upload), and when
/// it goes (unattached for a day, or every message that carried it
/// deleted). The store's parts run on the store gate; a photo's re-encoding
/// on the media queue (one at a time: libvips's memory is bounded by it;
/// uploaders in turns, each with at most
/// ``MediaLimits/maxUploadsWaiting`` waiting: ``FairSerialQueue``).
/// No HTTP, no sockets: the transports turn requests into these calls.
public final class MediaService: Sendable {
    let bus: MessageBus
    let access: AccessControl
    let store: any MediaStore
    let files: any MediaFileStore
    private let images: any ImageProcessing
    /// The limits uploads are held to.
    public let limits: MediaLimits
    private let processing: FairSerialQueue
    /// Storage in use per uploader as last read (for `/metrics`, which never waits on the store).
    private let lastUsage = Mutex<[MediaUsage]>([])
    /// Whether uploads' bytes can be written (a full disk: every upload 503
    /// until one is written), told once each way (``WriteHealthWatch``).
    public let writes = WriteHealthWatch()

    public init(bus: MessageBus, access: AccessControl, store: any MediaStore, files: any MediaFileStore,
                images: any ImageProcessing, limits: MediaLimits) {
        self.bus = bus
        self.access = access
        self.store = store
        self.files = files
        self.images = images
        self.limits = limits
        processing = FairSerialQueue(label: "switchboard.media", limit: limits.maxUploadsWaiting)
        refreshUsage()
    }

    /// Storage in use per uploader, largest first, as last read from the
    /// store (at start and after every upload, deletion and sweep).
    public var usageAsLastRead: [MediaUsage] { lastUsage.withLock { $0 } }

    func refreshUsage() {
        bus.gate.run("media usage", { [store] in try store.mediaUsage() }) { [self] result in
            if case .success(let usage) = result { lastUsage.withLock { $0 = usage } }
        }
    }

    // MARK: Uploading

    /// The owner recorded for the admin token's uploads.
    public static let adminOwner = "admin"

    /// Who an upload is made as: a signed-in user, or `admin`. A guest is refused.
    public static func uploader(_ identity: Identity) throws(SwitchboardError) -> String {
        switch identity {
        case .admin: return Self.adminOwner
        case .user(let claims): return claims.user
        case .guest: throw .signInRequired
        }
    }

    /// Refuses, before any of the body is read, an upload `identity` may not
    /// make or one announced larger than allowed.
    public func checkUpload(by identity: Identity, announcedBytes: Int64?) throws(SwitchboardError) {
        _ = try Self.uploader(identity)
        if let announcedBytes, announcedBytes > limits.maxUploadBytes { throw .uploadTooLarge(maxBytes: limits.maxUploadBytes) }
    }

    /// A new temporary file for an upload's body.
    public func temporaryFile() throws(SwitchboardError) -> TemporaryMediaFile {
        do {
            return try files.temporaryFile()
        } catch {
            throw uploadNotWritten(error)
        }
    }

    /// An upload's bytes the disk (or the database, for PostgreSQL's
    /// files) refused: the operator hears why once (``writes``), the client
    /// is told 503 without it (it names the media folder's path).
    public func uploadNotWritten(_ error: any Error) -> SwitchboardError {
        writes.failed(String(describing: error), at: MessageBus.systemClock())
        return .storeUnavailable("the upload could not be written")
    }

    /// Removes an upload's temporary file that will not be kept (refused, interrupted).
    public func discard(_ path: String) {
        files.discard(path)
    }

    /// An upload whose body is whole in `path`: its type decided by its
    /// first bytes `head`, a photo re-encoded, the quota checked and the
    /// record stored, off the caller's thread; `completion` gets the record
    /// or the refusal. Nothing is kept unless all of it succeeds.
    public func finishUpload(path: String, size: Int64, head: [UInt8], declaredType: String?, name: String?,
                             by identity: Identity,
                             completion: @escaping @Sendable (Result<MediaRecord, SwitchboardError>) -> Void) {
        let owner: String
        let type: MediaType
        do {
            owner = try Self.uploader(identity)
            if size > limits.maxUploadBytes { throw SwitchboardError.uploadTooLarge(maxBytes: limits.maxUploadBytes) }
            if size == 0 { throw SwitchboardError.badUpload("The upload is empty.") }
            type = try MediaSniffer.sniff(head, declared: declaredType)
        } catch {
            files.discard(path)
            return completion(.failure(.storeUnavailable(because: error)))
        }
        let name = MediaName.clean(name, type: type)
        let queued = processing.enqueue(owner.lowercased()) { [self] in
            let cleaned: CleanedImage?
            do {
                cleaned = type.isImage
                    ? try images.clean(path, type: type, thumbnailSize: limits.thumbnailSize, maxPixels: limits.maxImagePixels) : nil
            } catch {
                files.discard(path)
                return completion(.failure(error as? SwitchboardError ?? .unsupportedMedia("The image could not be read.")))
            }
            if cleaned != nil { files.discard(path) }
            // A video's size when its container says it (no decoding).
            let video = type.kind == .video ? VideoDimensions.of(type, size: size) { files.bytes(of: path, at: $0, count: $1) } : nil
            let record = MediaRecord(
                attachment: MediaAttachment(id: MediaID.make(), type: type.mimeType, size: cleaned?.size ?? size, name: name,
                                            width: cleaned?.width ?? video?.width, height: cleaned?.height ?? video?.height,
                                            hasThumbnail: cleaned != nil),
                owner: owner, uploadedAt: MessageBus.systemClock(), thumbnailType: cleaned?.thumbnailType)
            let keptPath = cleaned?.path ?? path
            // The bytes are kept here, off the store gate (a large file into
            // PostgreSQL takes longer than a store call may); only the quota
            // and the record go through the gate. Files whose record never
            // comes (a refusal, a timeout, a crash) are the sweep's orphans.
            do {
                try files.keep(keptPath, as: record.id, .original)
                if let cleaned { try files.keep(cleaned.thumbnailPath, as: record.id, .thumbnail) }
            } catch {
                files.discard(keptPath)
                if let cleaned { files.discard(cleaned.thumbnailPath) }
                try? files.remove(record.id)
                return completion(.failure(uploadNotWritten(error)))
            }
            writes.succeeded()
            bus.gate.run("upload", { [self] in
                do {
                    let used = try store.mediaBytes(of: owner)
                    if used + record.size > limits.quotaBytes {
                        throw SwitchboardError.quotaExceeded(quotaBytes: limits.quotaBytes, usedBytes: used)
                    }
                    try store.insertMedia(record)
                    refreshUsage()
                    return record
                } catch {
                    try? files.remove(record.id)
                    throw error
                }
            }, completion: completion)
        }
        if !queued {
            files.discard(path)
            completion(.failure(.uploadsWaiting(limits.maxUploadsWaiting)))
        }
    }
}
