import MicroHTTPD
import Synchronization
import SwitchboardCore

/// A poll's one batch: what the pump delivers after `since`, answered as a page.
class PollSubscriber: Subscriber, @unchecked Sendable {
    let transport: Transport
    let parkingSpot = ParkingSpot()
    let filter: RoomFilter
    let access: RoomAccess
    /// Where its page is made, or found made (``PageCache``).
    private let pages: PageCache
    // `@exclusivity(unchecked)` below: touched on the pump's thread, one at a time
    // (docs/ARCHITECTURE.md, "Exclusivity checked where it can fail").
    @exclusivity(unchecked) var cursor: Int64
    /// Its catch-ups from the store, read off the thread that serves it.
    /// Made when first needed (the pump's thread only): most polls are answered from the ring.
    lazy var storeFetch: StoreFetch? = StoreFetch()
    /// The cursor the poll asked from: `next` when nothing is new.
    @exclusivity(unchecked) private(set) var since: Int64
    @exclusivity(unchecked) private(set) var messages = MessageBatch()
    /// Un-parks the request (a short poll's, after a store read; a
    /// ``LongPoll`` resumes its own exchange instead).
    var onWake: @Sendable () -> Void = {}
    /// Set, from any thread, when the connection must end (a kick, a ban,
    /// the token expired or revoked).
    private let ended = Atomic<Bool>(false)
    private let reason = Mutex<ConnectionEnd?>(nil)
    private let left = Atomic<Bool>(false)

    /// Whether the client closed its socket while the poll waited.
    var clientLeft: Bool { left.load(ordering: .acquiring) }

    /// The client closed its socket (from the hang-up watch's thread).
    func markClientLeft() { left.store(true, ordering: .releasing) }

    init(transport: Transport, room: String, since: Int64, access: RoomAccess, pages: PageCache) {
        self.transport = transport
        self.pages = pages
        self.filter = .room(room)
        self.access = access
        self.since = since
        self.cursor = since
    }

    /// Reads after `since` from now on (before the first pump).
    func start(after since: Int64) {
        self.since = since
        cursor = since
    }

    func deliver(_ batch: MessageBatch) -> Bool {
        messages = batch
        return false
    }

    func wake() { onWake() }

    var isCancelled: Bool { ended.load(ordering: .acquiring) }

    /// Ends the poll, from any thread: it answers with `reason`'s refusal.
    func end(_ reason: ConnectionEnd) {
        self.reason.withLock { $0 = reason }
        ended.store(true, ordering: .releasing)
    }

    /// Why the poll was ended, once it was.
    var endReason: ConnectionEnd? { reason.withLock { $0 } }

    /// `{"messages":[...],"next":M}`, M the id to poll after next time.
    var page: HTTPResponse {
        pages.page(messages, next: messages.last?.id ?? since)
    }
}
