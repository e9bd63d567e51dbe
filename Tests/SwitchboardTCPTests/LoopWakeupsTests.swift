import Dispatch
import NIOCore
import NIOEmbedded
import NIOPosix
import Synchronization
import Testing
import SwitchboardCore
@testable import SwitchboardTCP

/// A loop's wake-ups gathered into turns, on an embedded loop (turns run
/// when told) and on a real one woken from several threads.
@Suite("Raw TCP: a loop's wake-ups")
struct LoopWakeupsTests {
    /// Which subscribers were pumped, in order.
    final class Pumped: Sendable {
        let names = Mutex<[Int]>([])
        func append(_ name: Int) { names.withLock { $0.append(name) } }
        var all: [Int] { names.withLock { $0 } }
    }

    /// The handler a subscriber writes from, as a client's writes from its chat handler (nothing is written here).
    final class Output: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
    }

    /// An ``Output`` added to `channel`, its context (on the channel's loop).
    func output(on channel: any Channel) throws -> ChannelHandlerContext {
        try channel.pipeline.syncOperations.addHandler(Output())
        return try channel.pipeline.syncOperations.context(handlerType: Output.self)
    }

    /// On the output's loop: the subscriber's pump is bound there.
    func subscriber(_ name: Int, writingTo output: ChannelHandlerContext, wakeups: LoopWakeups, pumped: Pumped,
                    onLoop: (@Sendable () -> Void)? = nil) -> LineSubscriber {
        LineSubscriber(room: "lobby", after: 0, access: AccessControl(verifier: nil).readerAccess(.guest),
                       output: output, wakeups: wakeups) {
            onLoop?()
            pumped.append(name)
        }
    }

    /// Wake-ups wait for the loop's turn, which pumps them all in the
    /// order woken (one woken twice, twice); a wake-up after the turn
    /// waits for the next.
    @Test func wakeUpsWaitForOneTurnAndArePumpedInOrder() throws {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(loop: loop)
        let wakeups = LoopWakeups(eventLoop: loop)
        let pumped = Pumped()
        let output = try output(on: channel)
        let subscribers = (0..<3).map { subscriber($0, writingTo: output, wakeups: wakeups, pumped: pumped) }
        for index in [2, 0, 1, 2] { subscribers[index].wake() }
        #expect(pumped.all.isEmpty && wakeups.waiting == 4)
        loop.run()
        #expect(pumped.all == [2, 0, 1, 2] && wakeups.waiting == 0)
        subscribers[1].wake()
        #expect(wakeups.waiting == 1)
        loop.run()
        #expect(pumped.all == [2, 0, 1, 2, 1])
        _ = try channel.finish()
    }

    /// Woken from four threads at once: every wake-up is pumped, once, on the loop.
    @Test func wakeUpsFromManyThreadsAreEachPumpedOnceOnTheLoop() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        // A real channel on that loop, never written: a subscriber's pump is
        // bound to its channel's loop (NIOLoopBound checks it), which must
        // be the loop its wake-ups run on. An EmbeddedChannel's own loop here
        // was asked from the other thread (NIO's "API misuse", 400 a run).
        let channel = try DatagramBootstrap(group: loop).bind(host: "127.0.0.1", port: 0).wait()
        defer { try? channel.close().wait() }
        let wakeups = LoopWakeups(eventLoop: loop)
        let pumped = Pumped()
        let offLoop = Atomic<Int>(0)
        // Made on the loop, as the server makes a client's (its pump is bound there).
        let subscribers = try loop.submit { [self] in
            let output = try output(on: channel)
            return (0..<400).map {
                subscriber($0, writingTo: output, wakeups: wakeups, pumped: pumped,
                           onLoop: { if !loop.inEventLoop { offLoop.add(1, ordering: .relaxed) } })
            }
        }.wait()
        DispatchQueue.concurrentPerform(iterations: 4) { part in
            for index in stride(from: part, to: 400, by: 4) { subscribers[index].wake() }
        }
        let until = DispatchTime.now().uptimeNanoseconds + 10_000_000_000
        while pumped.all.count < 400, DispatchTime.now().uptimeNanoseconds < until { usleep(1_000) }
        #expect(pumped.all.sorted() == Array(0..<400))
        #expect(offLoop.load(ordering: .relaxed) == 0 && wakeups.waiting == 0)
    }
}
