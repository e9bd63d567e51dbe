import Dispatch
import Foundation
import Logging
import NIOCore
import NIOEmbedded
import Synchronization
import Testing
import SwitchboardCore
import SwitchboardTesting
@testable import SwitchboardTCP

/// Counts the reads the handler lets through to the socket.
final class ReadCounter: ChannelOutboundHandler, @unchecked Sendable {
    typealias OutboundIn = ByteBuffer
    var reads = 0
    func read(context: ChannelHandlerContext) {
        reads += 1
        context.read()
    }
}

@Suite("Raw TCP back-pressure")
struct TCPBackPressureTests {
    @Test func readsAreHeldWhileTooManyStoresWaitAndResumeWhenTheyDrain() async throws {
        let store = GatedMessageStore()
        // The stores must still be pending when the read is asked for: with the
        // default 5 s deadline a loaded machine (CI runs 372 tests at once
        // on 2 cores) answered them "timed out" first,
        // which lets the read through; the deadline is not what is tested here.
        let bus = try MessageBus(store: store, gate: StoreGate(timeoutSeconds: 600))
        let presence = Presence(bus: bus)
        let connections = ConnectionDirectory(presence: presence)
        let channel = NIOAsyncTestingChannel()
        let loop = channel.testingEventLoop
        let counter = ReadCounter()
        try await loop.executeInContext {
            let handler = TCPChatHandler(bus: bus, presence: presence, connections: connections, access: AccessControl(verifier: nil),
                                         notices: NoticeBoard(), configuration: TCPServerConfiguration(maxPendingStores: 8), client: "test", logger: Logger(label: "test"))
            try channel.pipeline.syncOperations.addHandlers([counter, handler])
        }
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).get()

        var lines = "iam:flood\n"
        for index in 0..<20 { lines += "msg:\(index)\n" }
        try await channel.writeInbound(channel.allocator.buffer(string: lines))
        channel.read()
        await loop.run()
        #expect(try await loop.executeInContext { counter.reads } == 0, "20 stores pending, more than 8: the read is held")

        store.openGate()
        let drainedBy = DispatchTime.now() + 10
        while try await loop.executeInContext({ counter.reads }) == 0, DispatchTime.now() < drainedBy {
            await loop.run()  // the stores' completions hop back to the loop
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(try await loop.executeInContext { counter.reads } == 1, "the held read goes through once the stores drain")
        // Nothing was dropped: the join and the 20 messages are stored, in order.
        while bus.lastID < 21, DispatchTime.now() < drainedBy { try await Task.sleep(for: .milliseconds(1)) }
        let stored = try bus.read(after: 0, in: .all, access: .everything, limit: 100).messages.map(\.message.text)
        #expect(stored == ["flood has joined"] + (0..<20).map { "\($0)" })
        _ = try? await channel.finish()
    }
}
