/// Who may act, and on what.
extension MessageActService {
    /// Who acts when `identity` names `user` in `room`: the room allowed
    /// (a conversation's members only), the name decided as a publish's
    /// is, one publish taken from the rate. Nil for the admin naming nobody.
    func actor(_ identity: Identity, room: String, user: String?, client: String) throws(SwitchboardError) -> String? {
        try access.checkRoom(identity, room)
        let speaker = try access.speaker(identity, naming: user, limits: limits)
        if let speaker { try access.admitPublish(identity, speaker: speaker, client: client) }
        if speaker == nil, identity != .admin {
            throw SwitchboardError(.invalid, code: "invalid_user", message: "Name the user who acts ('user'), or sign in.")
        }
        return speaker
    }

    /// Refuses an edit (or unsend) of `target` by `author`: someone
    /// else's (the admin may unsend anyone's), or after the window.
    func mayChange(_ target: Message, by author: String?, identity: Identity, unsending: Bool) throws(SwitchboardError) {
        if unsending, identity == .admin { return }
        guard let author, author == target.user else { throw .notYourMessage }
        let windowEnds = target.ts + Int64(editWindowSeconds) * 1000
        guard editWindowSeconds > 0, bus.clock() <= windowEnds else { throw .editWindowPassed(seconds: editWindowSeconds) }
    }

    /// Message `id` of `room` as it stands, when acts may name it: from
    /// the ring, or read on the gate. 404 when there is none in that room
    /// (or it was unsent, unless `unsentToo`), 422 when it is an act or
    /// the server's own.
    func target(_ id: Int64, in room: String, unsentToo: Bool = false, completion: @escaping Completion<Message>) {
        let check = { @Sendable (found: EncodedMessage?) -> Result<Message, SwitchboardError> in
            guard let message = found?.message, message.room == room, unsentToo || !message.isDeleted else {
                return .failure(.noSuchMessage(id, in: room))
            }
            guard message.kind == .message else { return .failure(.notActable(id)) }
            return .success(message)
        }
        guard id > 0 else { return completion(.failure(.noSuchMessage(id, in: room))) }
        if let recent = bus.recentMessage(id: id) { return completion(check(recent)) }
        bus.gate.run("an act's message", { [bus] in try bus.message(id: id, in: room) }) { result in
            completion(result.flatMap(check))
        }
    }
}
