/// Attaching uploads to messages and reading them: the uploader attaches,
/// whoever may read a carrying message reads.
extension MediaService {
    /// How every transport publishes a draft that may carry uploads: with
    /// none, straight to the bus; with some, through `service` (refused,
    /// through `completion`, by a server that keeps no uploads, or for ids
    /// that cannot be attached before anything is read).
    public static func publish(_ draft: MessageDraft, media ids: [String], by identity: Identity, through service: MediaService?,
                               bus: MessageBus,
                               completion: @escaping @Sendable (Result<EncodedMessage, SwitchboardError>) -> Void) {
        guard !ids.isEmpty else { return bus.publish(draft, completion: completion) }
        guard let service else { return completion(.failure(.mediaUnavailable)) }
        do {
            try service.checkAttachable(ids)
        } catch {
            return completion(.failure(error))
        }
        service.publish(draft, media: ids, by: identity, completion: completion)
    }

    /// Publishes `draft` carrying the uploads `ids` (none: a plain publish):
    /// each must exist and be `identity`'s own (the admin may attach any).
    public func publish(_ draft: MessageDraft, media ids: [String], by identity: Identity,
                        completion: @escaping @Sendable (Result<EncodedMessage, SwitchboardError>) -> Void) {
        guard !ids.isEmpty else { return bus.publish(draft, completion: completion) }
        bus.gate.run("attach", { [store] in try store.mediaRecords(ids) }, completion: { [self] result in
            do {
                var draft = draft
                draft.media = try attachments(ids, records: result.get(), by: identity)
                bus.publish(draft, completion: completion)
            } catch {
                completion(.failure(.storeUnavailable(because: error)))
            }
        })
    }

    /// Refuses what may not be attached before anything is asked of the store.
    public func checkAttachable(_ ids: [String]) throws(SwitchboardError) {
        if ids.count > limits.maxAttachments { throw .tooManyAttachments(limits.maxAttachments) }
        for id in ids where !MediaID.isValid(id) { throw .noSuchMedia }
    }

    /// The attachments for `ids` (in their order, each once) from their
    /// records: refused when one is missing or not `identity`'s upload.
    public func attachments(_ ids: [String], records: [MediaRecord], by identity: Identity) throws(SwitchboardError) -> [MediaAttachment] {
        try checkAttachable(ids)
        var seen = Set<String>()
        var attachments: [MediaAttachment] = []
        for id in ids where seen.insert(id).inserted {
            guard let record = records.first(where: { $0.id == id }) else { throw .noSuchMedia }
            if identity != .admin {
                guard let user = identity.user, user.lowercased() == record.owner.lowercased() else { throw .notYourMedia }
            }
            attachments.append(record.attachment)
        }
        return attachments
    }

    // MARK: Reading

    /// Whether `identity` may read upload `record`: the admin and the
    /// uploader may; anyone else when they may read one of the messages
    /// that carry it.
    ///
    /// `firstCarrier(after)` gives the carriers room by room, each room's
    /// earliest (``MediaStore/firstCarrier(of:after:)``): a reader who sees
    /// any message of a conversation sees its earlier ones, so that one
    /// decides for its room. Asked until a room answers yes.
    public func mayRead(_ record: MediaRecord, identity: Identity,
                        firstCarrier: (_ after: String) throws -> MediaCarrier?) rethrows -> Bool {
        if identity == .admin { return true }
        if let user = identity.user, user.lowercased() == record.owner.lowercased() { return true }
        let readable = access.readerAccess(identity)
        var after = ""
        while let carrier = try firstCarrier(after) {
            if (try? access.checkRoom(identity, carrier.room)) != nil,
               !ConversationRoom.isConversation(carrier.room) || readable.sees(room: carrier.room, id: carrier.id) { return true }
            after = carrier.room
        }
        return false
    }

    /// Opens upload `id`'s `variant` for `identity`, on the gate: its record
    /// and file, or 404 `no_such_media` for anyone who may not read it.
    public func open(_ id: String, _ variant: MediaVariant, for identity: Identity,
                     completion: @escaping @Sendable (Result<(MediaRecord, OpenedMediaFile), SwitchboardError>) -> Void) {
        guard MediaID.isValid(id) else { return completion(.failure(.noSuchMedia)) }
        bus.gate.run("media", { [self] in
            guard let record = try store.mediaRecords([id]).first else { throw SwitchboardError.noSuchMedia }
            guard try mayRead(record, identity: identity, firstCarrier: { try store.firstCarrier(of: id, after: $0) }) else {
                throw SwitchboardError.noSuchMedia
            }
            guard let file = try files.open(id, variant) else { throw SwitchboardError.noSuchMedia }
            return (record, file)
        }, completion: completion)
    }
}
