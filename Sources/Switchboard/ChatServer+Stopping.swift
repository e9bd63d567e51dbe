import Logging
import SwitchboardCore

extension ChatServer {
    /// Graceful stop: no new connections, waiting long-polls answered, streams
    /// ended, daemon stopped, store closed. Every acknowledged message is
    /// already on disk. Idempotent.
    public func shutdown() {
        guard !stopped else { return }
        stopped = true
        tcp?.stopAccepting()
        webSocketTLS?.close()
        http.stopAccepting()
        bus.close()  // no more publishes; every parked long poll and stream woken to finish
        http.stop()
        webSockets.closeAll()
        tcp?.closeAll()
        webPush?.stop()  // before the event loops its client runs on
        backend?.stop()
        try? eventLoops.syncShutdownGracefully()
        scheduler.stop()
        // Every connection is closed: give up the lease, so this node's users
        // leave now rather than when the lease runs out.
        cluster?.stop()
        Self.close(store, after: bus.gate, logger: logger)
        throwawayMedia?.removeEverything()
    }

    /// Closes `store` once no gate thread is inside it: what is queued on
    /// `gate` is refused, what runs is waited for (a catch-up read, or a
    /// read queued during a start that then failed, would otherwise read a
    /// closed connection). Shutdown and every failed start close it so.
    static func close(_ store: any MessageStore, after gate: StoreGate, logger: Logger) {
        if !gate.close() { logger.warning("a store call was still running when the store closed") }
        do {
            try store.close()
        } catch {
            logger.error("closing the store failed: \(error)")
        }
    }
}
