import MicroHTTPD
import Synchronization
import SwitchboardCore

/// One admin dashboard's SSE stream of stats: frames pushed by the
/// ``AdminStatsFeed``; parked (connection suspended) between them.
final class AdminStatsStream: HTTPStreamBody, @unchecked Sendable {
    private struct State {
        var outbox = FrameOutbox()
        var parked = false
        var ended = false
    }

    private let state = Mutex(State())
    private unowned let exchange: any HTTPExchanging
    private let onFinish: @Sendable (AdminStatsStream) -> Void

    init(exchange: any HTTPExchanging, onFinish: @escaping @Sendable (AdminStatsStream) -> Void) {
        self.exchange = exchange
        self.onFinish = onFinish
        state.withLock { $0.outbox.append(SSEEvent.retry(milliseconds: 2000)) }
    }

    /// Queues a frame and un-parks the stream.
    func push(_ frame: [UInt8]) {
        let resume = state.withLock { state -> Bool in
            state.outbox.append(frame)
            defer { state.parked = false }
            return state.parked
        }
        if resume { exchange.resume() }
    }

    /// Ends the stream at its next write.
    func end() {
        let resume = state.withLock { state -> Bool in
            state.ended = true
            defer { state.parked = false }
            return state.parked
        }
        if resume { exchange.resume() }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, exchange: any HTTPExchanging) -> HTTPStreamRead {
        state.withLock { state in
            if !state.outbox.isEmpty { return .wrote(state.outbox.drain(into: buffer)) }
            if state.ended { return .end }
            // Suspended under the lock: a push cannot resume before this.
            state.parked = true
            exchange.suspend()
            return .suspended
        }
    }

    func clientLeft() {
        end()
    }

    func finish() {
        onFinish(self)
    }
}
