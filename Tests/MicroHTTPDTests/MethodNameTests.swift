import SwitchboardLoad
import Testing
@testable import MicroHTTPD

/// A request's method as the handler sees it: HTTP's own methods are
/// literals (no string made a request), any other method as it came.
@Suite("Request methods")
struct MethodNameTests {
    @Test(arguments: ["GET", "POST", "PUT", "PATCH", "HEAD", "DELETE", "OPTIONS",
                      "PROPFIND", "GETX", "GE", "G", "POS", "POSTS", "PUTT", "P", "get", "Delete", "OPTION", "TRACE", ""])
    func aMethodIsReadAsItCame(method: String) {
        #expect(method.withCString(methodName) == method)
    }

    /// Answers with the method it was given.
    final class Echo: HTTPRequestHandler {
        func handle(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
            .respond(HTTPResponse(status: 200, body: .bytes(Array(exchange.method.utf8))))
        }
    }

    @Test func aDaemonHandsOnEveryMethod() throws {
        let daemon = try HTTPDaemon(configuration: HTTPDaemonConfiguration(port: 0, threadPoolSize: 1), handler: Echo())
        defer { daemon.stop() }
        let client = try TestHTTPConnection(port: daemon.port)
        for method in ["GET", "PATCH", "DELETE", "PROPFIND", "POSTX"] {
            try client.sendRequest(method, "/x")
            let response = try client.readResponse()
            #expect(response.status == 200 && String(decoding: response.body, as: UTF8.self) == method, "\(method)")
        }
    }
}
