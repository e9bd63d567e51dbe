import Foundation
import Synchronization
import Testing
@testable import MicroHTTPD

#if canImport(Glibc)
import Glibc
#endif

/// The watch on suspended connections' sockets, on real socket pairs.
@Suite("Hang-up watch")
struct HangupWatchTests {
    /// A connected pair of stream sockets.
    func pair() -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        return (fds[0], fds[1])
    }

    func waitFor(_ condition: () -> Bool) -> Bool {
        let until = Date().addingTimeInterval(5)
        while !condition() && Date() < until { Thread.sleep(forTimeInterval: 0.01) }
        return condition()
    }

    @Test func aPeerThatClosesIsNoticedOnceAndAPeerThatStaysIsNot() {
        let watch = HangupWatch()
        defer { watch.stop() }
        let (left, gone) = pair()
        let (kept, staying) = pair()
        let calls = Atomic<Int>(0)
        let stayingCalls = Atomic<Int>(0)
        let leftToken = watch.watch(fd: left) { calls.add(1, ordering: .relaxed) }
        let keptToken = watch.watch(fd: kept) { stayingCalls.add(1, ordering: .relaxed) }
        #expect(leftToken != nil && keptToken != nil)
        // Data from a client that stays is not a hang-up.
        _ = write(staying, "GET / HTTP/1.1\r\n\r\n", 18)
        close(gone)
        #expect(waitFor { calls.load(ordering: .relaxed) == 1 })
        Thread.sleep(forTimeInterval: 0.2)
        #expect(calls.load(ordering: .relaxed) == 1 && stayingCalls.load(ordering: .relaxed) == 0)
        watch.unwatch(leftToken!)
        watch.unwatch(keptToken!)
        #expect(watch.count == 0)
        close(left); close(kept); close(staying)
    }

    @Test func aSocketUnwatchedBeforeItsPeerLeavesCallsNothing() {
        let watch = HangupWatch()
        defer { watch.stop() }
        let (mine, peer) = pair()
        let calls = Atomic<Int>(0)
        let token = watch.watch(fd: mine) { calls.add(1, ordering: .relaxed) }
        watch.unwatch(token!)
        close(peer)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(calls.load(ordering: .relaxed) == 0)
        // The same descriptor can be watched again (it left the epoll set).
        let again = watch.watch(fd: mine) { calls.add(1, ordering: .relaxed) }
        #expect(again != nil)
        #expect(waitFor { calls.load(ordering: .relaxed) == 1 })
        watch.unwatch(again!)
        close(mine)
    }

    @Test func aBadDescriptorIsNotWatchedAndStopIsOnce() {
        let watch = HangupWatch()
        #expect(watch.watch(fd: -1) {} == nil)
        watch.stop()
        watch.stop()
        let (mine, peer) = pair()
        #expect(watch.watch(fd: mine) {} == nil)  // stopped
        close(mine); close(peer)
    }
}
