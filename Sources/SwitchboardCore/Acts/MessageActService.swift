/// Every rule of replies, edits, unsends and reactions, for every way in:
/// who may do what to which message, the edit window, and the one entry
/// every transport publishes through (a reply's target checked, uploads
/// attached). The message an act names is found in the bus's ring, or
/// read on the store gate; never on the caller's thread.
public final class MessageActService: Sendable {
    let bus: MessageBus
    let access: AccessControl
    let limits: MessageLimits
    let media: MediaService?
    let review: PublishReview?
    /// A speaker's publishes reach the bus in the order they came, whatever order the hook answers in.
    let sequencer = PublishSequencer()

    /// - Parameters:
    ///   - limits: names and text, and `--edit-window` (``MessageLimits/editWindowSeconds``).
    ///   - media: uploads' rules; nil where the store keeps none.
    ///   - review: `--publish-hook`: asked before a message or an edit's new text is stored; nil: none.
    public init(bus: MessageBus, access: AccessControl, limits: MessageLimits, media: MediaService?, review: PublishReview? = nil) {
        self.bus = bus
        self.access = access
        self.limits = limits
        self.media = media
        self.review = review
    }

    /// How long after sending its author may edit or unsend a message (0: never).
    public var editWindowSeconds: Int { limits.editWindowSeconds }

    public typealias Completion<T> = @Sendable (Result<T, SwitchboardError>) -> Void

    /// How every transport publishes `draft` (made by ``AccessControl``):
    /// a reply's target must be a message of the same room that acts may
    /// name; the uploads `ids` are attached as ``MediaService`` decides.
    /// A client id its user sent before stores nothing: `completion` gets
    /// the message stored then (`replayed`), or 409 `client_id_reused`
    /// when that one's text or room differs. With a publish hook
    /// (``PublishReview``) the backend is asked first, every time.
    public func publish(_ draft: MessageDraft, media ids: [String], by identity: Identity,
                        completion: @escaping Completion<EncodedMessage>) {
        guard let review else { return publishOnce(draft, as: draft, media: ids, by: identity, completion: completion) }
        let lane = draft.room + "\u{0}" + draft.user
        let ticket = sequencer.ticket(lane)
        review.check(draft, media: ids, by: identity) { [self] result in
            sequencer.finish(lane, ticket) { [self] in
                switch result {
                case .success(let reviewed): publishOnce(reviewed, as: draft, media: ids, by: identity, completion: completion)
                case .failure(let error): completion(.failure(error))
                }
            }
        }
    }

    /// `draft` stored once per client id: a replay answers the original when
    /// it is what was sent (`sent`, before a hook changed its text) or what was stored.
    private func publishOnce(_ draft: MessageDraft, as sent: MessageDraft, media ids: [String], by identity: Identity,
                             completion: @escaping Completion<EncodedMessage>) {
        guard draft.clientID != nil else { return publishChecked(draft, media: ids, by: identity, completion: completion) }
        publishChecked(draft, media: ids, by: identity) { result in
            if case .success(let stored) = result, stored.message.replayed,
               !Self.isSame(stored.message, as: draft), !Self.isSame(stored.message, as: sent) {
                return completion(.failure(.clientIDReused))
            }
            completion(result)
        }
    }

    /// Whether `stored` is what `draft` sends again: the same room, and the
    /// same text unless an edit or an unsend changed it since.
    static func isSame(_ stored: Message, as draft: MessageDraft) -> Bool {
        stored.room == draft.room && (stored.edited != nil || stored.isDeleted || stored.text == draft.text)
    }

    private func publishChecked(_ draft: MessageDraft, media ids: [String], by identity: Identity,
                                completion: @escaping Completion<EncodedMessage>) {
        guard let replyTo = draft.replyTo else {
            return MediaService.publish(draft, media: ids, by: identity, through: media, bus: bus, completion: completion)
        }
        target(replyTo, in: draft.room) { [self] found in
            switch found {
            case .failure(let error): completion(.failure(error))
            case .success(let target):
                var draft = draft
                draft.replyToUser = target.user
                MediaService.publish(draft, media: ids, by: identity, through: media, bus: bus, completion: completion)
            }
        }
    }

    /// Edits message `id` of `room` to `text`: its author, within the window.
    public func edit(room: String, id: Int64, text: String, user: String?, by identity: Identity, client: String,
                     completion: @escaping Completion<EncodedMessage>) {
        change(.edit, room: room, id: id, text: text, user: user, by: identity, client: client, completion: completion)
    }

    /// Unsends message `id` of `room`: its author within the window, the
    /// admin at any time. Its text and attachments leave the store.
    public func unsend(room: String, id: Int64, user: String?, by identity: Identity, client: String,
                       completion: @escaping Completion<EncodedMessage>) {
        change(.delete, room: room, id: id, text: nil, user: user, by: identity, client: client, completion: completion)
    }

    /// An edit (`text`) or an unsend of message `id`, as its author (or, for
    /// an unsend, the admin) may: 404 when it was unsent meanwhile.
    private func change(_ kind: MessageKind, room: String, id: Int64, text: String?, user: String?, by identity: Identity,
                        client: String, completion: @escaping Completion<EncodedMessage>) {
        do throws(SwitchboardError) {
            let author = try actor(identity, room: room, user: user, client: client)
            var draft = MessageDraft(room: room, user: author ?? MessageLimits.systemUser,
                                     text: try text.map { text throws(SwitchboardError) in try limits.validText(text) } ?? "", kind: kind)
            draft.target = id
            target(id, in: room) { [self, draft] found in
                do {
                    try mayChange(try found.get(), by: author, identity: identity, unsending: kind == .delete)
                    let store: @Sendable (MessageDraft) -> Void = { [bus] draft in
                        bus.publishAct(draft) { result in
                            completion(result.flatMap { $0.map { .success($0) } ?? .failure(.noSuchMessage(id, in: room)) })
                        }
                    }
                    // An edit's new text is a publish's: the hook is asked (an unsend says nothing new).
                    guard kind == .edit, let review else { return store(draft) }
                    review.check(draft, by: identity) { reviewed in
                        switch reviewed {
                        case .success(let draft): store(draft)
                        case .failure(let error): completion(.failure(error))
                        }
                    }
                } catch {
                    completion(.failure(.storeUnavailable(because: error)))
                }
            }
        } catch {
            completion(.failure(error))
        }
    }

    /// Turns `user`'s reaction `emoji` to message `id` of `room` on or off;
    /// nil when it already stood so (nothing stored).
    public func react(room: String, id: Int64, emoji: String, on: Bool, user: String?, by identity: Identity, client: String,
                      completion: @escaping Completion<EncodedMessage?>) {
        do throws(SwitchboardError) {
            guard let reacting = try actor(identity, room: room, user: user, client: client) else {
                throw SwitchboardError(.invalid, code: "invalid_user", message: "Name the user who reacts ('user'), or sign in.")
            }
            var draft = MessageDraft(room: room, user: reacting, text: "", kind: .reaction)
            (draft.target, draft.emoji, draft.on) = (id, try ReactionEmoji.valid(emoji), on)
            target(id, in: room) { [self, draft] found in
                if case .failure(let error) = found { return completion(.failure(error)) }
                // Decided again at the commit (a race of reactions adds none past the bound), silently there.
                if on, case .success(let message) = found, let reactions = message.reactions, let emoji = draft.emoji,
                   !reactions.admits(emoji, by: reacting) {
                    return completion(.failure(.tooManyReactions))
                }
                bus.publishAct(draft, completion: completion)
            }
        } catch {
            completion(.failure(error))
        }
    }

    /// The replies to message `id` of `room` after `cursor`, oldest first.
    public func replies(room: String, id: Int64, after cursor: Int64, limit: Int, by identity: Identity,
                        completion: @escaping Completion<[EncodedMessage]>) {
        do {
            try access.checkRoom(identity, room)
        } catch {
            return completion(.failure(error))
        }
        let readable = access.readerAccess(identity)
        target(id, in: room, unsentToo: true) { [bus] found in
            if case .failure(let error) = found { return completion(.failure(error)) }
            bus.gate.run("replies", { try bus.replies(to: id, in: room, after: cursor, limit: limit) }) { result in
                completion(result.map { $0.filter(readable.sees) })
            }
        }
    }
}
