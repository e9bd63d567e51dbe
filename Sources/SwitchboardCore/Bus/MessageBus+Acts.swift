/// Acts (edits, unsends, reactions) and replies on the bus: stored as
/// messages, and applied to the message they name in the ring, so that a
/// read from memory shows it as a read from the store does.
extension MessageBus {
    /// Queues an act for the next group commit, like
    /// ``publish(_:completion:)``, except that an act the store finds
    /// changes nothing (a reaction that already stood so, a target unsent
    /// meanwhile) is not stored: `completion` then gets nil.
    public func publishAct(_ draft: MessageDraft,
                           completion: @escaping @Sendable (Result<EncodedMessage?, SwitchboardError>) -> Void) {
        groupCommit.submit(draft, completion: completion)
    }

    /// Message `id` as it stands, when the ring can tell without the store:
    /// `.some(nil)` when the ring covers `id` and has no such message; nil
    /// when the store must be asked (older than the ring, or newer than
    /// what this node has read in: another node's).
    public func recentMessage(id: Int64) -> EncodedMessage?? {
        switch state.withLock({ $0.recent.lookUp(id) }) {
        case .held(let message): return .some(message)
        case .absent: return .some(nil)
        case .unknown: return nil
        }
    }

    /// In the ring (under the state lock, as each message is appended):
    /// the message `act` names, as it stands after it; an unsend also
    /// scrubs the edits of it. What is older than the ring is the store's
    /// (its commit applied the act); a cached copy is dropped either way.
    func applyAct(_ act: Message, to target: Int64, in state: inout State) {
        catchUp.remove(target)
        guard case .held(let current) = state.recent.lookUp(target),
              let now = MessageActs.apply(act, to: current.message) else { return }
        state.recent.replace(EncodedMessage(now))
        if act.kind == .delete {
            for edit in state.recent.edits(of: target) {
                catchUp.remove(edit.id)
                state.recent.replace(EncodedMessage(MessageActs.scrubbed(edit.message)))
            }
        }
    }
}
