import Dispatch
import Foundation
import CEpoll
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Raw TCP (DogeChat protocol) load clients read by epoll loops of their
/// own: each sends `join:ROOM` and `iam:NAME`, then a ``LineReceiver``
/// records its lines. Not SwiftNIO, whose pipeline cost the 5,000 clients
/// of `switchboard bench --transport tcp` more CPU than the server's fan-out
/// to them (docs/BENCHMARKS.md, "Fan-out"): on a machine the two share, what
/// the clients spend the server cannot have. A loop reads each
/// ready socket once (level-triggered) into one buffer of its own; a client
/// that ends is taken out of its loop's epoll set and closed with the rest by ``close()``.
public final class EpollLineClients: Sendable {
    private struct Client {
        let fd: Int32
        var receiver: LineReceiver
    }

    private final class Loop: Sendable {
        let epoll: Int32 = epoll_create1(Int32(EPOLL_CLOEXEC))
        /// Added to by the connecting thread, read by the loop's: one lock a wake-up, not a read.
        let clients = Mutex<[Client]>([])
    }

    private let loops: [Loop]
    private let stopping = Atomic<Bool>(false)
    private let running = DispatchGroup()
    /// Clients connected.
    public var count: Int { loops.reduce(0) { total, loop in total + loop.clients.withLock { $0.count } } }

    /// Connects a client for each record (`c0`, `c1`, … in `room`), spread
    /// over `threads` loops; a client that cannot connect has its record failed.
    /// - Parameter port: the server port of client `index` (nodes in turn).
    public init(records: [StreamRecord], room: String, host: String, threads: Int, port: (Int) -> Int) {
        loops = (0..<max(1, threads)).map { _ in Loop() }
        for loop in loops {
            running.enter()
            Thread { [self] in
                defer { running.leave() }
                run(loop)
            }.start()
        }
        for (index, record) in records.enumerated() {
            let name = "c\(index)"
            do {
                let fd = try LoopbackSocket.connect(port: port(index), readTimeoutMicroseconds: 0, host: host)
                let hello = Array("join:\(room)\niam:\(name)\n".utf8)
                guard send(fd, hello, hello.count, Int32(MSG_NOSIGNAL)) == hello.count else {
                    let reason = String(cString: strerror(errno))
                    Glibc.close(fd)
                    throw TestClientError(description: "send: \(reason)")
                }
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                // Its slot is the list's next, taken under the lock that the loop reads it under
                // (a loop with no epoll set fails here, EBADF).
                let loop = loops[index % loops.count]
                let refusal: String? = loop.clients.withLock { clients in
                    var event = epoll_event()
                    event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
                    event.data.u64 = UInt64(clients.count)
                    guard epoll_ctl(loop.epoll, EPOLL_CTL_ADD, fd, &event) == 0 else { return String(cString: strerror(errno)) }
                    clients.append(Client(fd: fd, receiver: LineReceiver(name: name, record: record)))
                    return nil
                }
                if let refusal {
                    Glibc.close(fd)
                    throw TestClientError(description: "epoll_ctl: \(refusal)")
                }
            } catch {
                record.markFailed("connect: \(error)")
            }
        }
    }

    /// Stops the loops and closes every client.
    public func close() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        running.wait()
        for loop in loops {
            loop.clients.withLock { clients in for client in clients { Glibc.close(client.fd) } }
            Glibc.close(loop.epoll)
        }
    }

    /// One loop: waits for ready clients (a tenth of a second at most, to see
    /// ``close()``), reads each once and hands the bytes to its receiver.
    private func run(_ loop: Loop) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while !stopping.load(ordering: .acquiring) {
            let ready = Int(epoll_wait(loop.epoll, &events, Int32(events.count), 100))
            if ready < 0, errno != EINTR { return }  // no epoll set (its clients were failed): nothing to wait for
            guard ready > 0 else { continue }
            loop.clients.withLock { clients in
                for event in events[..<ready] {
                    let slot = Int(event.data.u64)
                    let got = read(clients[slot].fd, buffer.baseAddress, buffer.count)
                    if got > 0 {
                        let now = DispatchTime.now().uptimeNanoseconds
                        clients[slot].receiver.receive(UnsafeRawBufferPointer(rebasing: buffer[..<got]), at: now)
                    } else if got == 0 || (errno != EAGAIN && errno != EINTR) {
                        // Out of the set, so never ready again; its descriptor stays open (not reused) until close().
                        clients[slot].receiver.ended(failure: got < 0 ? "read: \(String(cString: strerror(errno)))" : nil)
                        epoll_ctl(loop.epoll, EPOLL_CTL_DEL, clients[slot].fd, nil)
                    }
                }
            }
        }
    }
}
