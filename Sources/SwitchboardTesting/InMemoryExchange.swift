import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import MicroHTTPD
import Synchronization
import SwitchboardHTTP

/// An exchange with no socket: a request as a value, answered by an
/// ``HTTPApplication`` as libmicrohttpd would drive it — the handler on a
/// serial "worker" queue, a suspended exchange asked again (its
/// continuation, or its stream body) on that queue each time it is
/// resumed, completion handlers at the end. A streamed answer (SSE) is read
/// until it first waits; what it wrote by then is the body.
public final class InMemoryExchange: HTTPExchanging, @unchecked Sendable {
    public let method: String
    public let path: String
    public let body: [UInt8]
    public let request: HTTPRequest
    public var responseHeaders: [(name: String, value: String)] = []
    public let clientAddress: String?
    private let headers: [String: String]
    private let queryItems: [String: String]
    private let worker: DispatchQueue

    // Touched on the worker only.
    private var continuation: (any HTTPContinuation)?
    private var stream: (body: any HTTPStreamBody, blockSize: Int, status: Int, headers: [(name: String, value: String)], bytes: [UInt8])?
    private var completions: [@Sendable (HTTPCompletion) -> Void] = []
    private var answered: (@Sendable (TestHTTPResponse) -> Void)?
    private var bodySink: (any HTTPBodySink)?
    public private(set) var bodyFailure: String?

    /// - Parameters:
    ///   - target: the path with its query, e.g. `/api/rooms/lobby/messages?since=3`.
    init(method: String, target: String, headers: [String: String], body: [UInt8], maxBodyBytes: Int, worker: DispatchQueue) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = Self.percentDecoded(String(parts[0]))
        var query: [String: String] = [:]
        if parts.count == 2 {
            for item in parts[1].split(separator: "&") {
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query[Self.percentDecoded(String(pair[0]))] = pair.count == 2 ? Self.percentDecoded(String(pair[1])) : ""
            }
        }
        let lowered = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.method = method
        self.path = path
        self.body = Array(body.prefix(maxBodyBytes))
        self.headers = lowered
        self.queryItems = query
        self.clientAddress = "127.0.0.1"
        self.worker = worker
        // As libmicrohttpd reads it: a body over the limit is cut there, and said to be too large.
        request = HTTPRequest(method: method, path: path, headers: lowered, query: query, body: Array(body.prefix(maxBodyBytes)),
                              bodyTooLarge: body.count > maxBodyBytes)
    }

    public func query(_ name: String) -> String? { queryItems[name] }
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
    public func onCompletion(_ handler: @escaping @Sendable (HTTPCompletion) -> Void) { completions.append(handler) }
    public func suspend() {}
    public func suspend(continuingWith continuation: any HTTPContinuation) { self.continuation = continuation }
    public func askAgain(continuingWith continuation: any HTTPContinuation) { self.continuation = continuation }
    /// No client can leave an exchange that has none.
    public func watchHangup(_ handler: @escaping @Sendable () -> Void) {}

    public func resume() {
        worker.async { [self] in
            if let stream {
                read(stream.body)
            } else {
                askContinuation()
            }
        }
    }

    public func resumeInTurn() { resume() }

    public func takeBodySink() -> (any HTTPBodySink)? {
        defer { bodySink = nil }
        return bodySink
    }

    /// The body as libmicrohttpd would hand it over when the application
    /// streams it: all of it to the sink (multipart is libmicrohttpd's to
    /// read, so it is refused here). True when the handler is to be called
    /// at once (a refusal).
    private func feedBody(_ application: HTTPApplication) -> Bool {
        switch application.bodyReading(for: self) {
        case .buffer:
            return false
        case .refuse:
            return true
        case .multipart(_, let sink):
            sink.abandon()
            bodyFailure = "multipart bodies are read by libmicrohttpd only"
            return true
        case .stream(let sink):
            bodySink = sink
            if !body.withUnsafeBytes({ sink.write($0) }) { bodyFailure = sink.refusal ?? "refused" }
            return bodyFailure != nil
        }
    }

    /// Hands the exchange to `application` on the worker; `answered` gets the response once there is one.
    func start(_ application: HTTPApplication, answered: @escaping @Sendable (TestHTTPResponse) -> Void) {
        worker.async { [self] in
            self.answered = answered
            _ = feedBody(application)
            carryOut(application.respond(to: self))
            if let sink = takeBodySink() { sink.abandon() }
        }
    }

    private func carryOut(_ result: HTTPHandlerResult) {
        if case .askedAgain = result {
            worker.async { [self] in askContinuation() }  // as libmicrohttpd's next pass
            return
        }
        guard case .respond(let response) = result else { return }  // suspended: a resume asks again
        let headers = response.headers + responseHeaders
        switch response.body {
        case .bytes(let bytes):
            finish(TestHTTPResponse(status: response.status, headers: headers, body: bytes))
        case .shared(let shared):
            finish(TestHTTPResponse(status: response.status, headers: shared.headers + headers, body: shared.bytes))
        case .stream(let body, let blockSize):
            stream = (body, blockSize, response.status, headers, [])
            read(body)
        case .upgrade:
            finish(TestHTTPResponse(status: response.status, headers: headers, body: []))
        case .file(let descriptor, let offset, let length):
            var bytes = [UInt8](repeating: 0, count: Int(length))
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, Int(length), off_t(offset)) }
            close(descriptor)
            finish(TestHTTPResponse(status: response.status, headers: headers, body: Array(bytes.prefix(max(0, read)))))
        }
    }

    /// Asks the continuation (once): resumed, or asked again at the next pass. Worker only.
    private func askContinuation() {
        guard let continuation else { return }
        self.continuation = nil
        carryOut(continuation.resumed(self))
    }

    /// Reads a streamed body until it waits or ends.
    private func read(_ body: any HTTPStreamBody) {
        guard var current = stream else { return }
        var buffer = [UInt8](repeating: 0, count: current.blockSize)
        loop: while true {
            let outcome = buffer.withUnsafeMutableBytes { body.read(into: $0, exchange: self) }
            switch outcome {
            case .wrote(let count): current.bytes += buffer[..<count]
            case .suspended, .end, .abort: break loop
            }
        }
        stream = nil
        body.finish()
        finish(TestHTTPResponse(status: current.status, headers: current.headers, body: current.bytes))
    }

    private func finish(_ response: TestHTTPResponse) {
        for handler in completions.reversed() { handler(.completed) }
        completions = []
        answered?(response)
        answered = nil
    }

    private static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
               let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
