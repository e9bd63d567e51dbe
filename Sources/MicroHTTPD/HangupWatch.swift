import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Notices a client that closed the socket of a suspended connection.
///
/// libmicrohttpd stops watching a connection's socket while it is
/// suspended, so a long poll whose client went away held its slot until
/// its `wait` ran out: fifty abandoned polls filled `--max-connections 50`
/// for a minute. Here each watched socket is in one epoll set of our own
/// for `EPOLLRDHUP` (the peer's FIN) and `EPOLLHUP`/`EPOLLERR` (a reset),
/// one-shot; one thread sleeps in `epoll_wait` and calls the watcher's
/// handler when one fires. No timer per connection, no CPU while nothing
/// happens: the thread wakes only for a hang-up or to stop.
///
/// A socket is watched only while its connection is suspended: unwatch it
/// on the connection's worker thread when it resumes or its exchange
/// completes. Unwatching forgets the token and leaves the socket in the set
/// (the kernel takes it out when it is closed), so the next watch of a
/// keep-alive connection re-arms it: one `epoll_ctl` a long poll, not two.
/// A hang-up under a forgotten token only wakes the thread, which finds no
/// one to call; a socket number reused after a close is added afresh.
public final class HangupWatch: @unchecked Sendable {
    private struct Entry {
        let fd: Int32
        var handler: (@Sendable () -> Void)?
        /// Shut the socket down when the peer hangs up (see ``watch(fd:shuttingDown:handler:)``).
        var shutsDown = false
    }

    private let epoll: Int32
    private let wakeup: Int32
    private let entries = Mutex<[UInt64: Entry]>([:])
    private let nextToken = Atomic<UInt64>(1)
    private let stopped = Atomic<Bool>(false)
    /// The watching thread, started by the first ``watch(fd:handler:)``.
    private let thread = Mutex<pthread_t?>(nil)

    /// Makes the epoll set; the thread starts with the first watch.
    public init() {
        var wakeup: Int32 = -1
        epoll = sb_hangup_set_create(&wakeup)
        self.wakeup = wakeup
        if epoll < 0 { stopped.store(true, ordering: .relaxed) }
    }

    /// Starts the thread once; false when it cannot run.
    private func startThread() -> Bool {
        thread.withLock { thread in
            if thread != nil { return true }
            guard !stopped.load(ordering: .acquiring) else { return false }
            let box = Unmanaged.passRetained(self)
            var handle = pthread_t()
            let created = pthread_create(&handle, nil, { argument in
                let watch = Unmanaged<HangupWatch>.fromOpaque(argument!).takeRetainedValue()
                _ = sb_name_this_thread("mhd-hangups")
                watch.run()
                return nil
            }, box.toOpaque())
            guard created == 0 else {
                box.release()
                return false
            }
            thread = handle
            return true
        }
    }

    /// Watches `fd` until ``unwatch(_:)``; `handler` runs once, on the
    /// watching thread, if the client hangs up first. Returns the token to
    /// unwatch with, or nil when the socket cannot be watched.
    ///
    /// `shuttingDown`: on a hang-up the socket is also shut down (both
    /// ways), under the same lock ``unwatch(_:)`` takes, so never after it
    /// returned. That wakes libmicrohttpd, which may have missed the FIN:
    /// its edge-triggered epoll stops reading after a short read, so a FIN
    /// that came with a request body's last bytes is seen only at the idle
    /// timeout (an upload cut off halfway would keep its file until then).
    public func watch(fd: Int32, shuttingDown: Bool = false, handler: @escaping @Sendable () -> Void) -> UInt64? {
        guard fd >= 0, !stopped.load(ordering: .relaxed), startThread() else { return nil }
        let token = nextToken.wrappingAdd(1, ordering: .relaxed).oldValue
        entries.withLock { $0[token] = Entry(fd: fd, handler: handler, shutsDown: shuttingDown) }
        guard sb_hangup_watch(epoll, fd, token) == 0 else {
            entries.withLock { _ = $0.removeValue(forKey: token) }
            return nil
        }
        return token
    }

    /// Stops watching: the handler will not run after this returns unless
    /// it already started. The socket stays in the set, disarmed or under a
    /// token no one looks for, until it is watched again or closed.
    public func unwatch(_ token: UInt64) {
        _ = entries.withLock { $0.removeValue(forKey: token) }
    }

    /// How many sockets are watched now.
    public var count: Int { entries.withLock { $0.count } }

    /// Ends the thread and closes the epoll set. Once.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard epoll >= 0 else { return }
        sb_eventfd_signal(wakeup)
        // Taken under the lock, so no watch starts a thread after this.
        if let running = thread.withLock({ $0 }) { pthread_join(running, nil) }
        close(epoll)
        close(wakeup)
    }

    deinit { stop() }

    private func run() {
        var tokens = [UInt64](repeating: 0, count: 64)
        while !stopped.load(ordering: .acquiring) {
            let count = tokens.withUnsafeMutableBufferPointer { sb_hangup_wait(epoll, $0.baseAddress, Int32($0.count)) }
            if count < 0 { return }
            for token in tokens.prefix(Int(count)) where token != 0 {
                // Taken once (the watch was one-shot); a forgotten token finds nothing.
                let handler = entries.withLock { entries -> (@Sendable () -> Void)? in
                    defer { entries[token]?.handler = nil }
                    if let entry = entries[token], entry.shutsDown, entry.handler != nil { shutdown(entry.fd, Int32(SHUT_RDWR)) }
                    return entries[token]?.handler
                }
                handler?()
            }
        }
    }
}
