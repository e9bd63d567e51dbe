extension AccessControl {
    /// A named reader or connection about to make `user` present in `room`
    /// (a poll, a stream, a socket, a line client's `iam:`): when that is a
    /// `join` (the user is not present there on this node), it takes one
    /// publish from the user's rate (`--publish-rate`; a guest's from the
    /// address's), as a join is stored in the room's log like a message.
    /// Without it, a guest polling under a new name each time wrote a join,
    /// and 30 s later a leave, for every request, past the rate; a socket
    /// reconnecting in a loop did the same. Nothing is looked up without a
    /// rate; the admin is never limited. `presence` nil (a protocol test):
    /// every entry counts as a join.
    public func admitPresence(_ identity: Identity, user: String, room: String, presence: Presence?,
                              client: @autoclosure () -> String) throws(SwitchboardError) {
        guard limitsPublishing, presence?.isPresent(user: user, room: room) != true else { return }
        try admitPublish(identity, speaker: user, client: client())
    }
}
