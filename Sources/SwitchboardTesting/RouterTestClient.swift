import Dispatch
import Foundation
import MicroHTTPD
import SwitchboardHTTP

/// What ``RouterTestClient`` got back.
public struct TestHTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    /// A header's value (case-insensitive name).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as JSON (nil when it is not an object).
    public var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }

    /// The error code of a JSON error answer.
    public var errorCode: String? {
        (json?["error"] as? [String: Any])?["code"] as? String
    }
}

/// Runs requests through an ``HTTPApplication``'s router with no socket
/// (Hummingbird's `.router` test mode is the model), beside the live
/// ``TestServer``: every layer, route, access check and endpoint runs as
/// on a libmicrohttpd worker, suspensions and resumes included.
public struct RouterTestClient: Sendable {
    public let application: HTTPApplication
    private let worker = DispatchQueue(label: "switchboard-router-test")

    public init(application: HTTPApplication) {
        self.application = application
    }

    /// Sends one request (`target` is the path with its query) and waits for its answer.
    public func send(_ method: String, _ target: String, headers: [String: String] = [:], body: [UInt8] = [],
                     timeout: Double = 10) async throws -> TestHTTPResponse {
        let exchange = InMemoryExchange(method: method, target: target, headers: headers, body: body,
                                        maxBodyBytes: application.maxBodyBytes, worker: worker)
        return try await withCheckedThrowingContinuation { continuation in
            let once = OnceFlag()
            exchange.start(application) { response in
                if once.take() { continuation.resume(returning: response) }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                if once.take() { continuation.resume(throwing: RouterTestTimeout(method: method, target: target)) }
            }
        }
    }

    /// ``send(_:_:headers:body:timeout:)`` with a JSON body.
    public func send(_ method: String, _ target: String, json: String, headers: [String: String] = [:]) async throws -> TestHTTPResponse {
        try await send(method, target, headers: headers.merging(["Content-Type": "application/json"]) { given, _ in given },
                       body: Array(json.utf8))
    }
}

/// No answer in time.
public struct RouterTestTimeout: Error, CustomStringConvertible {
    public let method: String
    public let target: String
    public var description: String { "\(method) \(target): no answer in time" }
}

/// True the first time only.
final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var taken = false

    func take() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if taken { return false }
        taken = true
        return true
    }
}
