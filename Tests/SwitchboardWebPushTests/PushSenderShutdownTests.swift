import Foundation
import Logging
import NIOPosix
import Synchronization
import Testing
import SwitchboardCore
@testable import SwitchboardWebPush

/// A batch still being sent when the server stops: its notifications stay
/// queued for the next start (tried again), never given up and dropped.
@Suite struct PushSenderShutdownTests {
    /// A push queue that records what the sender settles, and has nothing due.
    final class Queue: PushStore {
        let finished = Mutex<[Int64]>([])
        let retried = Mutex<[Int64]>([])
        func vapidKey(candidate: [UInt8]) throws -> [UInt8] { candidate }
        func subscribe(_ subscription: PushSubscription, limit: Int) throws -> Bool { true }
        func unsubscribe(user: String, endpoint: String) throws -> Bool { true }
        func dropSubscription(endpoint: String) throws {}
        func enqueuePush(room: String, messageID: Int64, users: [String], now: Int64,
                         notification: () -> PushNotification) throws -> Int { 0 }
        func cancelPushes(messageID: Int64) throws {}
        func claimDuePushes(now: Int64, claimUntil: Int64, limit: Int) throws -> [PushJob] { [] }
        func finishPushes(ids: [Int64]) throws { finished.withLock { $0 += ids } }
        func retryPush(id: Int64, attempts: Int, due: Int64) throws { retried.withLock { $0.append(id) } }
        func pushQueue() throws -> (pending: Int, nextDue: Int64?) { (0, nil) }
    }

    @Test func aBatchUnderWayAtShutdownIsTriedAgainNotGivenUp() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let queue = Queue()
        // A name that resolves to a public address (said by the test: no DNS here).
        let sender = PushSender(store: queue, gate: StoreGate(timeoutSeconds: 5),
                                signer: VAPIDSigner(key: VAPIDKey(), subject: "mailto:ops@example.com"), group: group,
                                allowedHosts: [], logger: Logger(label: "test"), publicAddresses: { _ in ["8.8.8.8"] })
        sender.start()
        sender.shutdown()
        let subscription = PushSubscription(
            user: "leia", endpoint: "https://push.example.com/send/1",
            p256dh: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
            auth: "tBHItJI5svbpez7KI4CCXg")
        let job = PushJob(id: 7, subscription: subscription, payload: Array("{}".utf8), topic: "t", ttl: 60,
                          attempts: 0, due: 0, created: Int64(Date().timeIntervalSince1970 * 1000))
        await sender.deliver([job])
        #expect(queue.finished.withLock { $0 }.isEmpty, "given up, so dropped from the queue")
        #expect(queue.retried.withLock { $0 } == [7])
        try await group.shutdownGracefully()
    }
}
