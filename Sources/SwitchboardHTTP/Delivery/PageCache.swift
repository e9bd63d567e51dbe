import MicroHTTPD
import Synchronization
import SwitchboardCore

/// The pages polls were answered with lately, each made once as a
/// ``SharedResponse``: when a message wakes a thousand long polls waiting
/// at the same cursor, they all answer `{"messages":[that one],"next":N}`,
/// and each answer is then a reference to one response, not a page, a
/// response and its headers made, copied and freed a thousand times. Short
/// polls at the same cursor share theirs the same way.
///
/// A page is known by its messages (the very ``EncodedMessage`` objects,
/// whose bytes never change) and its `next`, so a kept page is never stale.
/// A few are kept, the oldest replaced first; each holds its messages and
/// two copies of its bytes (ours and libmicrohttpd's) until replaced. Only
/// pages of at most `maxKeptBytes` are kept: a live poll's page is a message
/// or a few, and a catch-up of a thousand long messages (up to megabytes,
/// and rarely anyone else's) would otherwise stay in memory, eight of them
/// for any client that asks for eight such pages.
final class PageCache: Sendable {
    private struct Page {
        let messages: [EncodedMessage]
        let next: Int64
        let response: SharedResponse

        func matches(_ messages: some Collection<EncodedMessage>, next: Int64) -> Bool {
            guard self.next == next, self.messages.count == messages.count else { return false }
            for (kept, asked) in zip(self.messages, messages) where kept !== asked { return false }
            return true
        }
    }

    private struct Pages {
        var kept: [Page] = []
        /// Where the next page goes once `kept` is full.
        var oldest = 0
    }

    private let pages = Mutex(Pages())
    private let capacity: Int
    private let maxKeptBytes: Int

    /// - Parameter capacity: most pages kept.
    /// - Parameter maxKeptBytes: the largest page kept; a larger one is made for its one answer.
    init(capacity: Int = 8, maxKeptBytes: Int = 64 * 1024) {
        self.capacity = max(1, capacity)
        self.maxKeptBytes = maxKeptBytes
    }

    /// `{"messages":[...],"next":N}` as a `200`: a kept page, or one made now and kept
    /// (a long poll's batch is made an array only then).
    func page(_ messages: some Collection<EncodedMessage>, next: Int64) -> HTTPResponse {
        if let kept = pages.withLock({ $0.kept.first { $0.matches(messages, next: next) }?.response }) {
            return HTTPResponse(status: 200, body: .shared(kept))
        }
        let bytes = HTTPJSON.page(messages, next: next)
        guard bytes.count <= maxKeptBytes else { return .json(200, bytes) }
        let made = SharedResponse(headers: HTTPResponse.jsonHeaders, bytes: bytes)
        let page = Page(messages: Array(messages), next: next, response: made)
        pages.withLock { pages in
            if pages.kept.count < capacity {
                pages.kept.append(page)
            } else {
                pages.kept[pages.oldest] = page
                pages.oldest = (pages.oldest + 1) % capacity
            }
        }
        return HTTPResponse(status: 200, body: .shared(made))
    }
}
