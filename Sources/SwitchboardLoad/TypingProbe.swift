import Dispatch
import Foundation
import Synchronization
import SwitchboardCore

/// The signal that expires in seconds: a raw TCP client says `typing:` in a
/// fresh room a few times (once per throttle interval), and one watcher per
/// transport reports whether each notice reached it, and how fast. Polling
/// has nothing to carry it with: its rows say so rather than wait.
public enum TypingProbe {
    /// One transport's row.
    public struct Result: Codable, Sendable {
        public var transport: Transport
        public var sent: Int
        /// Nil: the transport cannot carry a notice at all.
        public var delivered: Int?
        public var latencyP50Milliseconds: Double?
        public var latencyMaxMilliseconds: Double?
    }

    /// Runs the probe on `httpPort` and `tcpPort` with `notices` typing notices.
    public static func run(httpPort: Int, tcpPort: Int, transports: [Transport], notices: Int = 5) throws -> [Result] {
        let room = "typing-\(UInt32.random(in: 0...UInt32.max))"
        // What each transport's notice looks like on the wire (a message naming typist must not count).
        let notice = "{\"room\":\"\(room)\",\"user\":\"typist\"}"
        let needles: [Transport: [UInt8]] = [.sse: Array("event: typing\ndata: \(notice)".utf8),
                                             .websocket: Array("{\"typing\":\(notice)}".utf8), .tcp: Array("typing:typist\n".utf8)]
        var watchers: [(Transport, BlockingSocket)] = []
        for transport in transports {
            switch transport {
            case .sse:
                let socket = try BlockingSocket(port: httpPort)
                try socket.send("GET /api/rooms/\(room)/events?user=w-sse HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                watchers.append((transport, socket))
            case .websocket:
                let socket = try BlockingSocket(port: httpPort)
                try socket.send("GET /api/rooms/\(room)/ws?user=w-ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                watchers.append((transport, socket))
            case .tcp:
                // A line client hears typing once it has said it types itself.
                let socket = try BlockingSocket(port: tcpPort)
                try socket.send("join:\(room)\niam:w-tcp\ntyping:\n")
                watchers.append((transport, socket))
            case .shortPoll, .longPoll:
                continue
            }
        }
        let receipts = Mutex<[Transport: [UInt64]]>([:])
        let stop = Atomic<Bool>(false)
        let readers = DispatchGroup()
        for (transport, socket) in watchers {
            readers.enter()
            let needle = needles[transport]!
            Thread {
                defer { readers.leave() }
                var seen: [UInt8] = []
                while !stop.load(ordering: .relaxed), let bytes = socket.readSome() {
                    guard !bytes.isEmpty else { continue }
                    let at = DispatchTime.now().uptimeNanoseconds
                    seen += bytes
                    // Each notice once: count the needle's occurrences, then keep only the tail.
                    while let range = firstRange(of: needle, in: seen) {
                        receipts.withLock { $0[transport, default: []].append(at) }
                        seen.removeSubrange(..<range.upperBound)
                    }
                    if seen.count > 4096 { seen.removeFirst(seen.count - needle.count) }
                }
            }.start()
        }
        Thread.sleep(forTimeInterval: 0.5)  // every watcher subscribed
        let typist = try BlockingSocket(port: tcpPort)
        try typist.send("join:\(room)\niam:typist\n")
        Thread.sleep(forTimeInterval: 0.2)
        var sentAt: [UInt64] = []
        for _ in 0..<notices {
            sentAt.append(DispatchTime.now().uptimeNanoseconds)
            try typist.send("typing:\n")
            Thread.sleep(forTimeInterval: Double(NoticeBoard.typingInterval) / 1000 + 0.1)
        }
        Thread.sleep(forTimeInterval: 0.5)
        stop.store(true, ordering: .relaxed)
        readers.wait()
        let got = receipts.withLock { $0 }
        return transports.map { transport in
            guard transport != .shortPoll, transport != .longPoll else {
                return Result(transport: transport, sent: notices, delivered: nil)
            }
            let times = got[transport] ?? []
            let latencies = zip(sentAt, times).map { Double($1 &- $0) / 1e6 }.sorted()
            return Result(transport: transport, sent: notices, delivered: min(times.count, notices),
                          latencyP50Milliseconds: latencies.nearestRank(0.5),
                          latencyMaxMilliseconds: latencies.last)
        }
    }

    private static func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start..<(start + needle.count) }
        }
        return nil
    }
}
