import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization
import SwitchboardCore

/// `--publish-hook`: asks the application's backend about each message
/// before it is stored (``PublishReview`` decides what the answer means).
/// One HTTP client with connections kept alive to the backend, on the
/// server's event loops; the answer comes back on one of them, and nothing
/// waits for it but the publisher.
public final class PublishHookClient: PublishHook {
    let url: String
    let signature: HookSignature
    let timeoutMilliseconds: Int64
    let client: Mutex<HTTPClient?>
    let counters: BackendCounters
    let clock: @Sendable () -> Int64

    /// - Parameter connections: kept open to the backend at most (as many
    ///   as publishes in flight, up to this; more wait for one).
    public init(url: String, secret: String, timeoutMilliseconds: Int, group: any EventLoopGroup, connections: Int = 64,
                counters: BackendCounters,
                clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }) {
        self.url = url
        signature = HookSignature(secret: secret)
        self.timeoutMilliseconds = Int64(timeoutMilliseconds)
        client = Mutex(SignedPost.client(on: group, connections: connections))
        self.counters = counters
        self.clock = clock
    }

    public func review(_ draft: MessageDraft, media: [String],
                       completion: @escaping @Sendable (Result<PublishVerdict, PublishHookFailure>) -> Void) {
        let now = clock()
        let body = PublishHookRequest.body(draft, media: media, ts: now)
        let (timeout, counters) = (timeoutMilliseconds, counters)
        guard let client = client.withLock({ $0 }) else { return completion(.failure(PublishHookFailure("the server is stopping"))) }
        let request: HTTPClient.Request
        do {
            request = try SignedPost.request(url: url, body: body, signature: signature, now: now, event: "publish")
        } catch {
            return completion(.failure(PublishHookFailure("its URL cannot be used: \(error)")))
        }
        SignedPost.send(request, on: client, deadline: .now() + .milliseconds(timeout)).whenComplete { result in
            let verdict: Result<PublishVerdict, PublishHookFailure>
            switch result {
            case .success(let response):
                verdict = PublishHookAnswer.verdict(status: Int(response.status.code), body: response.body.map { Array($0.readableBytesView) } ?? [])
            case .failure(let error as HTTPClientError) where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout:
                verdict = .failure(PublishHookFailure("it did not answer within \(timeout) ms"))
            case .failure(let error):
                verdict = .failure(PublishHookFailure("\(error)"))
            }
            counters.update { figures in
                switch verdict {
                case .success(.allow): figures.allowed += 1
                case .success(.deny): figures.denied += 1
                case .success(.modify): figures.modified += 1
                case .failure: figures.hookFailed += 1
                }
            }
            completion(verdict)
        }
    }

    /// Closes the connections; later reviews fail. Call from any thread but an event loop.
    public func shutdown() {
        let made = client.withLock { client in defer { client = nil }; return client }
        try? made?.syncShutdown()
    }
}
