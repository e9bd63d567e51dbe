import MicroHTTPD
import Synchronization
import SwitchboardCore

/// A poll's one batch: what the pump delivers after `since`, answered as a page.
final class PollSubscriber: Subscriber, @unchecked Sendable {
    let transport: Transport
    let filter: RoomFilter
    var cursor: Int64
    /// The cursor the poll asked from: `next` when nothing is new.
    private(set) var since: Int64
    private(set) var messages: [EncodedMessage] = []
    /// Un-parks the request (a long poll's resume).
    var onWake: @Sendable () -> Void = {}
    /// Set, from any thread, when an administrator kicked the user.
    let kicked = Atomic<Bool>(false)

    init(transport: Transport, room: String, since: Int64) {
        self.transport = transport
        self.filter = .room(room)
        self.since = since
        self.cursor = since
    }

    /// Reads after `since` from now on (before the first pump).
    func start(after since: Int64) {
        self.since = since
        cursor = since
    }

    func deliver(_ batch: [EncodedMessage]) -> Bool {
        messages = batch
        return false
    }

    func wake() { onWake() }

    var isCancelled: Bool { kicked.load(ordering: .acquiring) }

    /// `{"messages":[...],"next":M}`, M the id to poll after next time.
    var page: HTTPResponse {
        .json(200, HTTPJSON.page(messages, next: messages.last?.id ?? since))
    }
}
