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
        // The same descriptor can be watched again (re-armed): the hang-up
        // that came while nobody watched is reported to the new watch.
        let again = watch.watch(fd: mine) { calls.add(1, ordering: .relaxed) }
        #expect(again != nil)
        #expect(waitFor { calls.load(ordering: .relaxed) == 1 })
        watch.unwatch(again!)
        close(mine)
    }

    /// A keep-alive connection's long polls watch its socket one after
    /// another: each watch re-arms it (unwatching leaves it in the set), and
    /// a hang-up reaches only the watch of the moment.
    @Test func aSocketWatchedAgainAndAgainCallsOnlyItsLatestWatch() {
        let watch = HangupWatch()
        defer { watch.stop() }
        let (mine, peer) = pair()
        let earlier = Atomic<Int>(0)
        let latest = Atomic<Int>(0)
        for _ in 0..<3 {
            let token = watch.watch(fd: mine) { earlier.add(1, ordering: .relaxed) }
            #expect(token != nil)
            watch.unwatch(token!)
        }
        let token = watch.watch(fd: mine) { latest.add(1, ordering: .relaxed) }
        #expect(token != nil)
        close(peer)
        #expect(waitFor { latest.load(ordering: .relaxed) == 1 })
        Thread.sleep(forTimeInterval: 0.2)
        #expect(earlier.load(ordering: .relaxed) == 0 && latest.load(ordering: .relaxed) == 1)
        watch.unwatch(token!)
        close(mine)
    }

    /// A socket closed while still in the set leaves it with the close: its
    /// number, reused by the next connection, is watched afresh (and a
    /// hang-up of the old one's peer is not the new one's).
    @Test func aClosedSocketsNumberReusedIsWatchedAfresh() {
        let watch = HangupWatch()
        defer { watch.stop() }
        let (old, oldPeer) = pair()
        let oldCalls = Atomic<Int>(0)
        let oldToken = watch.watch(fd: old) { oldCalls.add(1, ordering: .relaxed) }
        #expect(oldToken != nil)
        watch.unwatch(oldToken!)
        close(old)
        close(oldPeer)
        let (new, newPeer) = pair()  // the lowest free numbers: most likely the old ones
        let newCalls = Atomic<Int>(0)
        let newToken = watch.watch(fd: new) { newCalls.add(1, ordering: .relaxed) }
        #expect(newToken != nil)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(newCalls.load(ordering: .relaxed) == 0)  // its peer is still there
        close(newPeer)
        #expect(waitFor { newCalls.load(ordering: .relaxed) == 1 })
        #expect(oldCalls.load(ordering: .relaxed) == 0)
        watch.unwatch(newToken!)
        close(new)
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
