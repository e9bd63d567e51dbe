import Dispatch
import Foundation
import Synchronization
import Testing
import SwitchboardTesting
@testable import SwitchboardCore

/// The rules of uploads with no HTTP, no disk and no libvips: who may
/// upload, attach and read, the quota, and that a refused upload keeps
/// nothing. (The store, files and images are small fakes; the real ones
/// are exercised by Tests/Media/media_test.py against the binary.)
@Suite("Media service")
struct MediaServiceTests {
    final class Records: MediaStore, @unchecked Sendable {
        let lock = NSLock()
        var records: [String: MediaRecord] = [:]
        var carried: [String: [MediaCarrier]] = [:]
        func insertMedia(_ record: MediaRecord) throws { lock.withLock { records[record.id] = record } }
        func mediaRecords(_ ids: [String]) throws -> [MediaRecord] { lock.withLock { ids.compactMap { records[$0] } } }
        func firstCarrier(of id: String, after room: String) throws -> MediaCarrier? {
            lock.withLock { MediaServiceTests.first(of: carried[id] ?? [], after: room) }
        }
        func mediaBytes(of user: String) throws -> Int64 {
            lock.withLock { records.values.filter { $0.owner.lowercased() == user.lowercased() }.reduce(0) { $0 + $1.size } }
        }
        func mediaUsage() throws -> [MediaUsage] { [] }
        func recentMedia(limit: Int) throws -> [(record: MediaRecord, carried: Bool)] { [] }
        func deleteMedia(_ id: String) throws -> Bool { lock.withLock { records.removeValue(forKey: id) != nil } }
        func sweepableMedia(uploadedBefore: Int64) throws -> [String] {
            lock.withLock { records.values.filter { $0.uploadedAt < uploadedBefore && carried[$0.id] == nil }.map(\.id) }
        }
    }

    final class Files: MediaFileStore, @unchecked Sendable {
        let lock = NSLock()
        var kept: [String] = []
        var discarded: [String] = []
        var removed: [String] = []
        func temporaryFile() throws -> TemporaryMediaFile { fatalError("not used") }
        /// Set: every keep fails as a full disk's would, naming the folder.
        var refusesKeeps = false
        struct Refusal: Error, CustomStringConvertible { var description: String }
        func keep(_ path: String, as id: String, _ variant: MediaVariant) throws {
            try lock.withLock {
                if refusesKeeps { throw Refusal(description: "rename /srv/switchboard/media/\(id): No space left on device") }
                kept.append("\(id).\(variant.rawValue)")
            }
        }
        func open(_ id: String, _ variant: MediaVariant) throws -> OpenedMediaFile? { nil }
        func remove(_ id: String) throws { lock.withLock { removed.append(id) } }
        func discard(_ path: String) { lock.withLock { discarded.append(path) } }
        var onDisk: [String] = []
        func keptIDs(storedBefore: Int64) throws -> [String] { lock.withLock { onDisk } }
        func bytes(of temporary: String, at offset: Int64, count: Int) -> [UInt8] { [] }
        func checkWritable() throws {
            try lock.withLock { if refusesKeeps { throw Refusal(description: "write: No space left on device") } }
        }
    }

    /// Cleans every photo into 3 x 2 pixels; with `hold`, each waits for a signal first (libvips at work).
    final class Images: ImageProcessing, @unchecked Sendable {
        let hold: DispatchSemaphore?
        let lock = NSLock()
        var maxPixels: [Int64] = []
        init(hold: DispatchSemaphore? = nil) { self.hold = hold }
        func clean(_ path: String, type: MediaType, thumbnailSize: Int, maxPixels: Int64) throws -> CleanedImage {
            lock.withLock { self.maxPixels.append(maxPixels) }
            hold?.wait()
            return CleanedImage(path: path + ".clean", size: 10, width: 3, height: 2, thumbnailPath: path + ".thumb", thumbnailType: "image/jpeg")
        }
    }

    let bus: MessageBus
    let directory = ConversationDirectory()
    let records = Records()
    let files = Files()
    let service: MediaService

    init() throws {
        bus = try MessageBus(store: InMemoryMessageStore(), conversations: directory)
        let access = AccessControl(verifier: nil, conversations: directory)
        service = MediaService(bus: bus, access: access, store: records, files: files, images: Images(),
                               limits: MediaLimits(maxUploadBytes: 1000, quotaBytes: 1500))
    }

    static func user(_ name: String) -> Identity { .user(TokenClaims(user: name, expires: 4_000_000_000_000, revocationKey: name)) }
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
    static let ogg: [UInt8] = Array("OggS".utf8) + [0, 2]

    func upload(_ head: [UInt8], size: Int64, declared: String? = nil, as identity: Identity) -> Result<MediaRecord, SwitchboardError> {
        let done = DispatchSemaphore(value: 0)
        let cell = StoreGateTests.Cell<Result<MediaRecord, SwitchboardError>>()
        service.finishUpload(path: "/tmp/upload", size: size, head: head, declaredType: declared, name: "a.bin", by: identity) {
            cell.value = $0
            done.signal()
        }
        _ = done.wait(timeout: .now() + 10)
        return cell.value ?? .failure(.storeUnavailable("no answer"))
    }

    @Test func guestsMayNotUploadAndTheAdminMay() throws {
        #expect(throws: SwitchboardError.signInRequired) { try service.checkUpload(by: .guest, announcedBytes: 10) }
        try service.checkUpload(by: .admin, announcedBytes: 10)
        #expect(throws: SwitchboardError.uploadTooLarge(maxBytes: 1000)) { try service.checkUpload(by: Self.user("luke"), announcedBytes: 1001) }
        #expect(try MediaService.uploader(.admin) == "admin")
    }

    @Test func aPhotoIsCleanedAndKeptWithItsThumbnailASoundAsItIs() throws {
        let photo = try upload(Self.jpeg, size: 100, as: Self.user("luke")).get()
        #expect(photo.attachment.type == "image/jpeg" && photo.attachment.width == 3 && photo.attachment.thumbnail != nil && photo.size == 10)
        #expect(files.kept.contains("\(photo.id).original") && files.kept.contains("\(photo.id).thumbnail"))
        #expect(files.discarded.contains("/tmp/upload"), "the original, with its metadata, is not kept")
        let voice = try upload(Self.ogg, size: 100, as: Self.user("luke")).get()
        #expect(voice.attachment.type == "audio/ogg" && voice.attachment.thumbnail == nil && voice.size == 100)
        #expect(try records.mediaRecords([photo.id, voice.id]).count == 2)
    }

    @Test func refusedUploadsKeepNothing() throws {
        #expect(throws: SwitchboardError.self) { try upload(Array("<html>".utf8), size: 6, as: Self.user("luke")).get() }
        #expect(throws: SwitchboardError.self) { try upload(Self.jpeg, size: 6, declared: "image/png", as: Self.user("luke")).get() }
        #expect(throws: SwitchboardError.self) { try upload(Self.jpeg, size: 0, as: Self.user("luke")).get() }
        #expect(throws: SwitchboardError.uploadTooLarge(maxBytes: 1000)) { try upload(Self.ogg, size: 1001, as: Self.user("luke")).get() }
        #expect(throws: SwitchboardError.signInRequired) { try upload(Self.ogg, size: 10, as: .guest).get() }
        #expect(records.records.isEmpty && files.kept.isEmpty)
        #expect(files.discarded.count == 5)
    }

    /// A full disk: each upload 503 without the folder's path, and the
    /// operator told why once, and once when an upload is kept again.
    @Test func uploadsADiskRefusesAreSaidOnceEachWayAndNameNoPath() throws {
        let told = Mutex<[String?]>([])
        service.writes.observe { why in told.withLock { $0.append(why) } }
        files.lock.withLock { files.refusesKeeps = true }
        for _ in 0..<3 {
            let refused = upload(Self.ogg, size: 100, as: Self.user("luke"))
            #expect(throws: SwitchboardError.storeUnavailable("the upload could not be written")) { try refused.get() }
        }
        #expect(told.withLock { $0.count == 1 && $0[0]?.hasSuffix("No space left on device") == true } && service.writes.isFailing)
        files.lock.withLock { files.refusesKeeps = false }
        _ = try upload(Self.ogg, size: 100, as: Self.user("luke")).get()
        _ = try upload(Self.ogg, size: 100, as: Self.user("luke")).get()
        #expect(told.withLock { $0.count == 2 && $0[1] == nil } && !service.writes.isFailing)
        #expect(records.records.count == 2)
    }

    /// Refused uploads, then nobody uploads: the sweep's probe says when
    /// there is room again, once no upload was refused for a minute.
    @Test func theSweepFindsUploadsWritableAgainOnAQuietServer() throws {
        let told = Mutex<[String?]>([])
        service.writes.observe { why in told.withLock { $0.append(why) } }
        files.lock.withLock { files.refusesKeeps = true }
        _ = upload(Self.ogg, size: 100, as: Self.user("luke"))
        let refusedAt = MessageBus.systemClock()
        func sweep(at now: Int64) {
            let done = DispatchSemaphore(value: 0)
            service.sweep(nowMilliseconds: now) { _ in done.signal() }
            _ = done.wait(timeout: .now() + 10)
        }
        sweep(at: refusedAt + 120_000)
        #expect(service.writes.isFailing, "the disk is still full: the probe fails")
        files.lock.withLock { files.refusesKeeps = false }
        sweep(at: refusedAt + 30_000)
        #expect(service.writes.isFailing, "within a minute of a refusal, no probe")
        sweep(at: refusedAt + 120_000)
        #expect(!service.writes.isFailing && told.withLock { $0.count == 2 && $0[1] == nil }, "\(told.withLock { $0 })")
    }

    @Test func theQuotaCountsEveryUploadOfTheUserInAnyCase() throws {
        _ = try upload(Self.ogg, size: 800, as: Self.user("han")).get()
        _ = try upload(Self.ogg, size: 700, as: Self.user("HAN")).get()
        let refused = upload(Self.ogg, size: 1, as: Self.user("han"))
        #expect(throws: SwitchboardError.quotaExceeded(quotaBytes: 1500, usedBytes: 1500)) { try refused.get() }
        _ = try upload(Self.ogg, size: 900, as: Self.user("leia")).get()
        #expect(records.records.count == 3)
    }

    @Test func onlyTheUploaderAttachesAndEachIdOnce() throws {
        let mine = try upload(Self.ogg, size: 10, as: Self.user("luke")).get()
        let records = [mine]
        #expect(try service.attachments([mine.id, mine.id], records: records, by: Self.user("LUKE")).count == 1)
        #expect(try service.attachments([mine.id], records: records, by: .admin) == [mine.attachment])
        #expect(throws: SwitchboardError.notYourMedia) { try service.attachments([mine.id], records: records, by: Self.user("leia")) }
        #expect(throws: SwitchboardError.notYourMedia) { try service.attachments([mine.id], records: records, by: .guest) }
        #expect(throws: SwitchboardError.noSuchMedia) { try service.attachments([MediaID.make()], records: records, by: Self.user("luke")) }
        #expect(throws: SwitchboardError.noSuchMedia) { try service.attachments(["../x"], records: records, by: Self.user("luke")) }
        #expect(throws: SwitchboardError.tooManyAttachments(10)) {
            try service.attachments(Array(repeating: mine.id, count: 11), records: records, by: Self.user("luke"))
        }
    }

    /// The media queue is one photo at a time: an uploader with as many as
    /// allowed waiting for it is refused one more (429, at once) rather
    /// than queued, and the limit of pixels is the one the service was given.
    @Test func anUploaderHasAtMostTheLimitInTheQueue() throws {
        #expect(MediaLimits().maxUploadsWaiting == MediaLimits().maxAttachments, "a message's worth of photos at once")
        let hold = DispatchSemaphore(value: 0)
        let images = Images(hold: hold)
        let service = MediaService(bus: bus, access: AccessControl(verifier: nil, conversations: directory), store: records,
                                   files: files, images: images, limits: MediaLimits(maxImagePixels: 12_345, maxUploadsWaiting: 4))
        let results = Mutex<[Result<MediaRecord, SwitchboardError>]>([])
        let finished = DispatchSemaphore(value: 0)
        func send(_ user: String) {
            service.finishUpload(path: "/tmp/upload", size: 100, head: Self.jpeg, declaredType: nil, name: "a.jpg", by: Self.user(user)) {
                result in
                results.withLock { $0.append(result) }
                finished.signal()
            }
        }
        send("han")  // holds the queue (the image processor waits) while luke's come
        for _ in 0..<4 { send("luke") }
        send("luke")
        #expect(finished.wait(timeout: .now() + 5) == .success, "the fifth is answered at once")
        #expect(throws: SwitchboardError.uploadsWaiting(4)) { try results.withLock { $0 }.first?.get() }
        send("LUKE")  // the same uploader, however spelt
        #expect(finished.wait(timeout: .now() + 5) == .success)
        #expect(throws: SwitchboardError.uploadsWaiting(4)) { try results.withLock { $0 }.last?.get() }
        send("leia")  // another uploader's share is her own
        for _ in 0..<6 { hold.signal() }
        for _ in 0..<6 { #expect(finished.wait(timeout: .now() + 5) == .success) }
        #expect(results.withLock { $0 }.dropFirst(2).allSatisfy { (try? $0.get()) != nil })
        send("luke")  // the queue is free again
        hold.signal()
        #expect(finished.wait(timeout: .now() + 5) == .success)
        #expect((try? results.withLock { $0 }.last?.get()) != nil)
        #expect(images.lock.withLock { images.maxPixels } == Array(repeating: 12_345, count: 7))
    }

    /// The earliest of `carriers` in the first room after `room`, as a store gives them.
    static func first(of carriers: [MediaCarrier], after room: String) -> MediaCarrier? {
        carriers.filter { $0.room > room }.min { ($0.room, $0.id) < ($1.room, $1.id) }
    }

    /// `mayRead` asking the carriers room by room, counting the rooms asked.
    func mayRead(_ record: MediaRecord, carriers: [MediaCarrier], identity: Identity, asked: inout Int) -> Bool {
        var count = 0
        defer { asked = count }
        return service.mayRead(record, identity: identity) { after in
            count += 1
            return Self.first(of: carriers, after: after)
        }
    }

    func mayRead(_ record: MediaRecord, carriers: [MediaCarrier], identity: Identity) -> Bool {
        var asked = 0
        return mayRead(record, carriers: carriers, identity: identity, asked: &asked)
    }

    @Test func readersAreTheUploaderTheAdminAndWhoeverMayReadACarrier() throws {
        let record = try upload(Self.ogg, size: 10, as: Self.user("luke")).get()
        #expect(mayRead(record, carriers: [], identity: Self.user("Luke")))
        #expect(mayRead(record, carriers: [], identity: .admin))
        #expect(!mayRead(record, carriers: [], identity: Self.user("leia")))
        #expect(!mayRead(record, carriers: [], identity: .guest))
        #expect(mayRead(record, carriers: [MediaCarrier(room: "lobby", id: 5)], identity: .guest))
        // A conversation of luke and han, made at id 10; han removed at id 20.
        let event = ConversationEvent(type: .created, actor: "luke", title: "t", members: ["luke", "han"])
        _ = directory.apply(Message(id: 10, room: "c.10", user: "system", text: "", kind: .system, ts: 0, event: event))
        let inside = [MediaCarrier(room: "c.10", id: 15)]
        #expect(mayRead(record, carriers: inside, identity: Self.user("han")))
        #expect(!mayRead(record, carriers: inside, identity: Self.user("leia")))
        #expect(!mayRead(record, carriers: inside, identity: .guest))
        let removal = ConversationEvent(type: .removed, actor: "luke", user: "han")
        _ = directory.apply(Message(id: 20, room: "c.10", user: "system", text: "", kind: .system, ts: 0, event: removal))
        #expect(!mayRead(record, carriers: inside, identity: Self.user("han")), "a removed member reads no more of it")
        #expect(mayRead(record, carriers: inside + [MediaCarrier(room: "lobby", id: 30)], identity: Self.user("han")),
                "forwarded to a public room, anyone reads it")
        // Several carriers in one room are one question; the first room that answers yes ends the asking.
        let again = inside + [MediaCarrier(room: "c.10", id: 25), MediaCarrier(room: "c.10", id: 40)]
        var asked = 0
        #expect(!mayRead(record, carriers: again, identity: Self.user("han"), asked: &asked) && asked == 2, "one room, asked once, then none left")
        #expect(mayRead(record, carriers: again + [MediaCarrier(room: "b", id: 50)], identity: .guest, asked: &asked) && asked == 1,
                "the first room that answers yes ends the asking")
    }

    @Test func theSweepTakesUncarriedUploadsAndFilesNoRecordNames() throws {
        let kept = try upload(Self.ogg, size: 10, as: Self.user("luke")).get()
        let orphan = MediaID.make()
        files.onDisk = [kept.id, orphan]
        let done = DispatchSemaphore(value: 0)
        let cell = StoreGateTests.Cell<Result<Int, SwitchboardError>>()
        // A day and a bit later: the upload no message carried goes, and so does the file with no record.
        service.sweep(nowMilliseconds: kept.uploadedAt + 25 * 3_600_000) { cell.value = $0; done.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(try cell.value?.get() == 1)
        #expect(records.records.isEmpty)
        #expect(Set(files.removed) == [kept.id, orphan])
    }
}
