import Synchronization

/// Members being added to each conversation, asked for but not yet
/// stored: the cap on members is checked against the members a group has
/// and those on their way, so that additions asked for at once (each seeing
/// the group one short of its cap) cannot take it past the cap together.
final class PendingAdditions: Sendable {
    private let pending = Mutex<[String: Int]>([:])

    /// Takes a place for one more member of `room`, which has `members`
    /// now: false when that and those on their way reach `cap`.
    func reserve(_ room: String, members: Int, cap: Int) -> Bool {
        pending.withLock { pending in
            let coming = pending[room, default: 0]
            guard members + coming < cap else { return false }
            pending[room] = coming + 1
            return true
        }
    }

    /// Gives back a place ``reserve(_:members:cap:)`` took, once the
    /// addition is stored (the member now counts) or refused.
    func release(_ room: String) {
        pending.withLock { pending in
            let left = pending[room, default: 1] - 1
            pending[room] = left > 0 ? left : nil
        }
    }
}
