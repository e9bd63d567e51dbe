import Synchronization
import SwitchboardCore

/// A fake store for pure unit tests of the bus (the real one is SQLite).
public final class InMemoryMessageStore: MessageStore {
    private let state = Mutex<(messages: [Message], lastID: Int64)>(([], 0))
    /// Called inside every read, to interleave events with a read in progress.
    public let onRead = Mutex<(@Sendable () -> Void)?>(nil)
    /// Which drafts a group commit keeps (all, unless set): stands for a
    /// shared store that does not announce a user present on another node.
    public let keeps = Mutex<(@Sendable (MessageDraft) -> Bool)?>(nil)

    public init(messages: [Message] = []) {
        state.withLock { $0 = (messages, messages.last?.id ?? 0) }
    }

    public func append(_ drafts: [MessageDraft], timestamp: Int64) throws -> [Message] {
        state.withLock { state in
            drafts.compactMap { draft in Self.store(draft, timestamp: timestamp, in: &state) }
        }
    }

    public func commit(_ drafts: [MessageDraft], timestamp: Int64) throws -> [Message?] {
        let keeps = self.keeps.withLock { $0 } ?? { _ in true }
        return drafts.map { draft in
            keeps(draft) ? state.withLock { Self.store(draft, timestamp: timestamp, in: &$0) } : nil
        }
    }

    /// Stores `draft`, an act applied to its message as SQLite's commit does (nil: it changed nothing).
    private static func store(_ draft: MessageDraft, timestamp: Int64, in state: inout (messages: [Message], lastID: Int64)) -> Message? {
        if let clientID = draft.clientID, var earlier = state.messages.first(where: { $0.user == draft.user && $0.clientID == clientID }) {
            earlier.replayed = true
            return earlier
        }
        if let target = draft.target ?? draft.replyTo {
            guard let index = state.messages.firstIndex(where: { $0.id == target }),
                  let now = MessageActs.apply(draft.stored(id: 0, timestamp: timestamp), to: state.messages[index])
            else { return nil }
            state.messages[index] = now
            if draft.kind == .delete {
                for (position, edit) in state.messages.enumerated() where edit.kind == .edit && edit.target == target {
                    state.messages[position] = MessageActs.scrubbed(edit)
                }
            }
        }
        state.lastID += 1
        let message = draft.stored(id: state.lastID, timestamp: timestamp)
        state.messages.append(message)
        return message
    }

    public func replies(to id: Int64, in room: String, after cursor: Int64, limit: Int) throws -> [Message] {
        Array(state.withLock { $0.messages }.filter { $0.replyTo == id && $0.room == room && $0.id > cursor && $0.kind == .message }.prefix(limit))
    }

    public func messages(after cursor: Int64, in filter: RoomFilter, limit: Int) throws -> StoreBatch {
        let snapshot = state.withLock { $0 }
        onRead.withLock { $0 }?()
        let found = Array(snapshot.messages.filter { $0.id > cursor && filter.contains($0.room) }.prefix(limit))
        return StoreBatch(messages: found, scannedThrough: found.count == limit ? found.last!.id : max(cursor, snapshot.lastID))
    }

    public func latest(in room: String, limit: Int) throws -> [Message] {
        Array(state.withLock { $0.messages }.filter { $0.room == room }.suffix(limit))
    }

    public func messages(in room: String, before id: Int64, limit: Int) throws -> [Message] {
        Array(state.withLock { $0.messages }.filter { $0.room == room && $0.id < id }.suffix(limit))
    }

    public func delete(id: Int64) throws -> Message? {
        state.withLock { state in
            guard let index = state.messages.firstIndex(where: { $0.id == id }) else { return nil }
            return state.messages.remove(at: index)
        }
    }

    public func lastAssignedID() throws -> Int64 { state.withLock { $0.lastID } }
    public func rooms() throws -> [RoomSummary] {
        var summaries: [String: RoomSummary] = [:]
        for message in state.withLock({ $0.messages }) {
            let count = summaries[message.room]?.messageCount ?? 0
            summaries[message.room] = RoomSummary(name: message.room, messageCount: count + 1, lastID: message.id)
        }
        return summaries.values.sorted { $0.name < $1.name }
    }
    public func checkWritable() throws {}
    public func checkDurableWrite() throws {}
    public func sizeInBytes() -> Int64 { 0 }
    public func close() throws {}
}
