import SwitchboardLoad
import SwitchboardTesting

extension TestServer {
    /// Sends `request` (a whole head, and body) as it is on a connection of
    /// its own: the answer, and the connection (to ask whether the server
    /// closed it, which waits for the read timeout if it did not).
    func rawAnswer(_ request: String, method: String = "GET") throws -> (answer: TestResponse, connection: TestHTTPConnection) {
        let connection = try TestHTTPConnection(port: port)
        try connection.send(request)
        return (try connection.readResponse(method: method), connection)
    }
}
