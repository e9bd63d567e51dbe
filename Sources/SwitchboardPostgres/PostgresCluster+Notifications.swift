import Dispatch
import Foundation
import Logging
import PostgresNIO
import Synchronization
import SwitchboardCore

/// What the other nodes say on `switchboard` (a commit: read it) and
/// `switchboard_control` (kicks, bans, notices), heard on a connection of
/// the cluster's own that is opened again a second after any failure.
extension PostgresCluster {
    /// Opens the listening connection; on any failure, tries again a second later.
    func listen() {
        guard !state.withLock({ $0.stopped }) else { return }
        var opened: PostgresConnection?
        do {
            let listener = try connections.connect()
            opened = listener
            listener.addListener(channel: "switchboard") { [weak self] _, note in self?.committed(note.payload) }
            listener.addListener(channel: "switchboard_control") { [weak self] _, note in self?.control(note.payload) }
            try connections.query("LISTEN switchboard", on: listener)
            try connections.query("LISTEN switchboard_control", on: listener)
            let keep = state.withLock { state -> Bool in
                if !state.stopped { state.listener = listener }
                return !state.stopped
            }
            guard keep else { return PostgresConnections.closeInPassing(listener) }
            listener.closeFuture.whenComplete { [weak self] _ in
                guard let self, !self.state.withLock({ $0.stopped }) else { return }
                self.logger.warning("the database's notification connection closed; listening again")
                self.queue.asyncAfter(deadline: .now() + 1) { self.listen() }
            }
            // Whatever was committed, and whatever accounts, bans and sign-outs
            // changed, while nobody listened (at start, the listener comes up
            // after the node's first read; after a reconnect, a gap).
            ingestSoon()
            state.withLock { $0.handlers }?.accessChanged()
        } catch {
            // Opened, then a LISTEN failed: closed, never dropped open.
            if let opened { PostgresConnections.closeInPassing(opened) }
            if case PostgresStoreError.closed = error { return }  // the node is stopping
            reachable(false, error)
            queue.asyncAfter(deadline: .now() + 1) { [weak self] in self?.listen() }
        }
    }

    /// A commit was notified ("NODE LASTID"): read it, unless it was ours.
    func committed(_ payload: String) {
        if payload.split(separator: " ", maxSplits: 1).first.map(String.init) == nodeID { return }
        ingestSoon()
        refreshSoon()
    }

    /// Runs the bus's ingest on the queue, once for any number of notifications meanwhile.
    func ingestSoon() {
        let schedule = state.withLock { state -> Bool in
            defer { state.ingestPending = true }
            return !state.ingestPending
        }
        guard schedule else { return }
        queue.async { [weak self] in
            guard let self else { return }
            let handlers = self.state.withLock { state -> Handlers? in
                state.ingestPending = false
                return state.handlers
            }
            handlers?.committedElsewhere()
        }
    }

    /// "kick NODE USER", "access NODE" or "notice NODE JSON" from another node.
    func control(_ payload: String) {
        let parts = payload.split(separator: " ", maxSplits: 2).map(String.init)
        guard parts.count >= 2, parts[1] != nodeID else { return }
        switch parts[0] {
        case "kick" where parts.count == 3:
            queue.async { [weak self] in self?.state.withLock { $0.handlers }?.kick(parts[2]) }
        case "access":
            queue.async { [weak self] in self?.state.withLock { $0.handlers }?.accessChanged() }
        case "notice" where parts.count == 3:
            guard let notice = try? JSONDecoder().decode(Notice.self, from: Data(parts[2].utf8)) else { return }
            state.withLock { $0.handlers }?.notice(notice)
        default:
            break
        }
    }
}
