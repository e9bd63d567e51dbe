import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A JSON POST to an application's backend, signed (``HookSignature``):
/// what webhooks and the publish hook both send.
enum SignedPost {
    /// The request for `body` to `url` at `now` (milliseconds), with `event` as `X-Switchboard-Event`.
    static func request(url: String, body: [UInt8], signature: HookSignature, now: Int64, event: String) throws -> HTTPClient.Request {
        let timestamp = now / 1000
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "User-Agent", value: "Switchboard")
        headers.add(name: "X-Switchboard-Event", value: event)
        headers.add(name: "X-Switchboard-Timestamp", value: String(timestamp))
        headers.add(name: "X-Switchboard-Signature", value: signature.header(timestamp: timestamp, body: body))
        return try HTTPClient.Request(url: url, method: .POST, headers: headers, body: .bytes(body))
    }

    /// Sends `request` by `deadline`; the answer's body is read up to 16 KiB
    /// (a backend answering more is failing, not filling the server's memory).
    static func send(_ request: HTTPClient.Request, on client: HTTPClient, deadline: NIODeadline) -> EventLoopFuture<HTTPClient.Response> {
        client.execute(request: request, delegate: ResponseAccumulator(request: request, maxBodySize: 16_384), deadline: deadline).futureResult
    }

    /// A client for one backend: connections kept alive (`connections` at
    /// once, each idle for a minute at most), redirects never followed. No
    /// read timeout: every request has a deadline (``send(_:on:deadline:)``),
    /// and a read timeout is a timer set and cancelled at every read.
    static func client(on group: any EventLoopGroup, connections: Int) -> HTTPClient {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow,
                                                     timeout: .init(connect: .seconds(5), read: nil))
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        return HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
    }
}
