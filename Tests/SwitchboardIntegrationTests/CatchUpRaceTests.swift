import SwitchboardTesting
import Foundation
import Synchronization
import Testing
import SwitchboardCore

/// Subscribers that join while others publish must get every message after
/// their cursor exactly once, in order — whether it came from the store
/// (catch-up) or live from the bus, and across the hand-over between them.
@Suite("Catch-up and live hand-over")
struct CatchUpRaceTests {
    @Test(arguments: [4, 4096])
    func subscribersJoiningDuringConcurrentPublishingMissNothingAndGetNothingTwice(recentMessages: Int) throws {
        // A tiny ring forces readers back to the store and across the boundary.
        let server = try TestServer(recentMessages: recentMessages)
        let port = server.port
        let publishers = 3, perPublisher = 100, subscribers = 12
        let published = Mutex<[Int64]>([])
        let failures = Mutex<[String]>([])
        let publishing = DispatchGroup()
        for _ in 0..<publishers { publishing.enter() }
        let endMarker = "-- end of test --"

        // Real threads, all at once (concurrentPerform would run only one per core).
        runConcurrently(publishers + subscribers + 1) { worker in
            if worker < publishers {
                defer { publishing.leave() }
                let client = TestHTTPClient(port: port)
                for index in 0..<perPublisher {
                    do {
                        let room = index % 3 == 0 ? "other" : "lobby"
                        let message = try client.publish(room, user: "p\(worker)", text: "\(worker)-\(index)")
                        if room == "lobby" { published.withLock { $0.append(message.id) } }
                    } catch {
                        failures.withLock { $0.append("publish: \(error)") }
                    }
                }
                return
            }
            if worker == publishers + subscribers {
                // When every publisher is done, one last message tells subscribers to stop.
                publishing.wait()
                do { try TestHTTPClient(port: port).publish(user: "coordinator", text: endMarker) } catch {
                    failures.withLock { $0.append("end marker: \(error)") }
                }
                return
            }
            // Subscribers join at staggered moments with a cursor somewhere behind.
            Thread.sleep(forTimeInterval: Double(worker - publishers) * 0.03)
            let cursor = published.withLock { ids in ids.isEmpty ? 0 : ids[ids.count / 2] }
            do {
                let useHeader = worker % 2 == 0
                let stream = try TestHTTPClient(port: port).openStream(
                    useHeader ? "/api/rooms/lobby/events" : "/api/rooms/lobby/events?since=\(cursor)",
                    headers: useHeader ? [("Last-Event-ID", "\(cursor)")] : [])
                stream.deadline = Date().addingTimeInterval(30)
                var received: [Int64] = []
                while true {
                    let event = try stream.readEvents(1)[0]
                    if event.data.contains(endMarker) { break }
                    received.append(Int64(event.id ?? "") ?? -1)
                }
                let expected = published.withLock { ids in ids.filter { $0 > cursor }.sorted() }
                if received != expected {
                    let missing = Set(expected).subtracting(received).sorted()
                    let duplicates = received.count - Set(received).count
                    failures.withLock { $0.append("subscriber after \(cursor): got \(received.count), expected \(expected.count); missing \(missing.prefix(10)), duplicates \(duplicates)") }
                }
            } catch {
                failures.withLock { $0.append("subscriber: \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(published.withLock { $0.count } == publishers * (0..<perPublisher).filter { $0 % 3 != 0 }.count)
    }
}

/// Runs `body(0..<count)` on `count` threads at once and waits for all.
func runConcurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            body(index)
            group.leave()
        }.start()
    }
    group.wait()
}
