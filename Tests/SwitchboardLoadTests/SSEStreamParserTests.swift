import Testing
@testable import SwitchboardLoad

/// The load client's SSE parser, on Switchboard's stream and on a peer's.
@Suite("SSE stream parser (load client)")
struct SSEStreamParserTests {
    func ids(_ text: String, splitEvery size: Int) -> (ids: [Int64], parser: SSEStreamParser) {
        var parser = SSEStreamParser()
        var ids: [Int64] = []
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: size) {
            parser.feed(bytes[start..<min(bytes.count, start + size)]) { ids.append($0) }
        }
        return (ids, parser)
    }

    @Test func switchboardsChunkedStreamReportsTheIdLines() {
        let body = "retry: 2000\n\nid: 7\nevent: message\ndata: {\"id\":7}\n\nid: 8\ndata: {\"id\":8}\n\n"
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n"
        for size in [1, 5, 1000] {
            let (ids, parser) = ids(chunked, splitEvery: size)
            #expect(ids == [7, 8])
            #expect(parser.status == 200 && parser.opened && parser.ended)
        }
    }

    @Test func aPeersUnframedStreamWithIdsOfItsOwnReportsTheIdsInTheData() {
        // Nchan: no chunked framing, ids like "1795397382:0", the published JSON as data.
        let stream = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n: hi\n\nid: 1795397382:0\ndata: {\"id\":1,\"text\":\"x\"}\n\n"
            + "id: 1795397382:1\ndata: {\"id\":2,\"text\":\"y\"}\n\n"
        for size in [1, 7, 1000] {
            let (ids, parser) = ids(stream, splitEvery: size)
            #expect(ids == [1, 2])
            #expect(parser.opened && !parser.ended)
        }
    }
}
