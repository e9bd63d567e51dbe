import Foundation
import Synchronization
import Testing
import SwitchboardCore
import SwitchboardTesting

/// Work on the store gate that answers from memory is not the store
/// answering: during a stall it must neither make `/healthz` say 200 nor
/// the log say the stall ended.
@Suite("A stall and answers from memory")
struct StallAnswersFromMemoryTests {
    /// Calls that hang, then give up (as postgres-nio gives up on a call to a frozen database).
    final class GivingUpStore: ForwardingMessageStore {
        let inner = InMemoryMessageStore()
        let frozen = Atomic<Bool>(false)
        struct GaveUp: Error {}
        func beforeRead() throws {
            guard frozen.load(ordering: .relaxed) else { return }
            Thread.sleep(forTimeInterval: 1.5)
            throw GaveUp()
        }
        func beforeWrite() throws { try beforeRead() }
        func checkWritable() throws { try beforeRead() }
    }

    @Test func theRoomListAnsweringDuringAStallDoesNotEndIt() throws {
        let store = GivingUpStore()
        let logs = RecordedLogs()
        let server = try TestServer(store: store, storeTimeoutSeconds: 1, logger: logs.logger(level: .notice))
        let client = server.client
        let stored = try client.publish(text: "before")
        store.frozen.store(true, ordering: .relaxed)
        // A page back reads the store: refused at the timeout, and the stall is said.
        let refused = try client.get("/api/rooms/lobby/messages?before=\(stored.id + 1)")
        #expect(refused.status == 503 && refused.errorCode == "store_unavailable")
        Thread.sleep(forTimeInterval: 0.8)  // the read has given up (an error is no answer)
        #expect(logs.messages(atLeast: .error).filter { $0.hasPrefix("the store has not answered") }.count == 1,
                "\(logs.messages(atLeast: .notice))")
        #expect(try client.get("/healthz").status == 503)
        // The room list is the bus's figures: it answers, from memory.
        for _ in 0..<3 {
            let rooms = try client.get("/api/rooms")
            #expect(rooms.status == 200 && rooms.text.contains(#""name":"lobby""#), "\(rooms.status) \(rooms.text)")
        }
        let during = try client.get("/healthz")
        #expect(during.status == 503, "\(during.status) \(during.text)")
        #expect(logs.messages(atLeast: .notice).filter { $0.hasPrefix("the store answers again") }.isEmpty,
                "\(logs.messages(atLeast: .notice))")
        // The store answers a read: the stall is over, and said so once.
        store.frozen.store(false, ordering: .relaxed)
        #expect(try client.get("/api/rooms/lobby/messages?before=\(stored.id + 1)").status == 200)
        #expect(try client.get("/healthz").status == 200)
        #expect(logs.messages(atLeast: .notice).filter { $0.hasPrefix("the store answers again") }.count == 1)
    }
}
