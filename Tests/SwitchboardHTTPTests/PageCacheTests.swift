import MicroHTTPD
import SwitchboardCore
import Testing
@testable import SwitchboardHTTP

@Suite("Poll pages made once")
struct PageCacheTests {
    static func encoded(_ id: Int64, _ text: String = "hi") -> EncodedMessage {
        EncodedMessage(Message(id: id, room: "lobby", user: "luke", text: text, kind: .message, ts: 1))
    }

    static func shared(_ response: HTTPResponse) -> SharedResponse? {
        if case .shared(let shared) = response.body { return shared }
        return nil
    }

    @Test func theSameMessagesAndNextAreOneResponseWithThePagesBytes() throws {
        let cache = PageCache()
        let batch = [Self.encoded(7), Self.encoded(8)]
        let first = cache.page(batch, next: 8)
        let again = cache.page(batch, next: 8)
        #expect(first.status == 200)
        let made = try #require(Self.shared(first))
        #expect(Self.shared(again) === made)
        #expect(made.bytes == HTTPJSON.page(batch, next: 8))
        #expect(made.headers.map(\.name) == ["Content-Type", "Cache-Control"])
        // A long poll's batch (one message held in place, no array) finds the page made of the same one.
        let one = [Self.encoded(9)]
        var read = MessageBatch()
        read.append(one[0])
        #expect(Self.shared(cache.page(read, next: 9)) === Self.shared(cache.page(one, next: 9)))
        // An empty page is known by its next alone.
        #expect(Self.shared(cache.page([], next: 3)) === Self.shared(cache.page([], next: 3)))
        #expect(Self.shared(cache.page([], next: 3)) !== Self.shared(cache.page([], next: 4)))
    }

    /// A page is known by its messages themselves, not by their ids: a
    /// message encoded anew (from the store, say) makes a page of its own,
    /// with its own bytes.
    @Test func anotherMessageWithTheSameIDMakesAPageOfItsOwn() throws {
        let cache = PageCache()
        let old = try #require(Self.shared(cache.page([Self.encoded(7, "before")], next: 7)))
        let new = try #require(Self.shared(cache.page([Self.encoded(7, "after")], next: 7)))
        #expect(old !== new)
        #expect(String(decoding: new.bytes, as: UTF8.self).contains("after"))
        let (seven, eight) = (Self.encoded(7), Self.encoded(8))
        #expect(Self.shared(cache.page([seven, eight], next: 9)) !== Self.shared(cache.page([seven], next: 9)))
    }

    @Test func theOldestPageMakesWayOnceTheCacheIsFull() throws {
        let cache = PageCache(capacity: 2)
        let batch = [Self.encoded(1)]
        let first = try #require(Self.shared(cache.page(batch, next: 1)))
        _ = cache.page(batch, next: 2)
        #expect(Self.shared(cache.page(batch, next: 1)) === first)
        _ = cache.page(batch, next: 3)  // replaces next 1's page, the oldest
        let remade = try #require(Self.shared(cache.page(batch, next: 1)))
        #expect(remade !== first)
        #expect(remade.bytes == first.bytes)
    }

    /// A page larger than the cache keeps is answered as bytes of its own
    /// and not kept: a client asking for large catch-ups pins no memory.
    @Test func aPageLargerThanTheLimitIsAnsweredButNotKept() throws {
        let cache = PageCache(capacity: 2, maxKeptBytes: 200)
        let long = [Self.encoded(1, String(repeating: "x", count: 300))]
        let first = cache.page(long, next: 1)
        #expect(Self.shared(first) == nil)
        guard case .bytes(let bytes) = first.body else { Issue.record("not bytes: \(first.body)"); return }
        #expect(bytes == HTTPJSON.page(long, next: 1))
        #expect(first.headers.map(\.name) == ["Content-Type", "Cache-Control"])
        // A short page is still kept.
        let short = [Self.encoded(2)]
        #expect(Self.shared(cache.page(short, next: 2)) === Self.shared(cache.page(short, next: 2)))
    }
}

