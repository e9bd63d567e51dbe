/// The refusals of replies, edits, unsends, reactions and locations
/// (SPEC: "Replies, edits, unsend, reactions, location").
extension SwitchboardError {
    /// 404: no message with that id in that room that acts may name (none,
    /// another room's, or unsent).
    public static func noSuchMessage(_ id: Int64, in room: String) -> SwitchboardError {
        SwitchboardError(.notFound, code: "no_such_message", message: "Room \(room) has no message \(id).")
    }
    /// 422: the message named is itself an act or a server's message.
    public static func notActable(_ id: Int64) -> SwitchboardError {
        SwitchboardError(.invalid, code: "not_a_message",
                         message: "Message \(id) is not something a user said: it cannot be replied to, edited, unsent or reacted to.")
    }
    /// 403: an edit or unsend of someone else's message.
    public static let notYourMessage = SwitchboardError(.forbidden, code: "not_your_message",
                                                        message: "Only its author may edit or unsend a message.")
    /// 403: an edit or unsend after `--edit-window`.
    public static func editWindowPassed(seconds: Int) -> SwitchboardError {
        SwitchboardError(.forbidden, code: "edit_window_passed",
                         message: seconds == 0 ? "Editing and unsending are turned off on this server."
                                               : "A message may be edited or unsent for \(seconds) seconds after it is sent.")
    }
    /// 422: a reaction's emoji out of bounds.
    public static let invalidEmoji = SwitchboardError(.invalid, code: "invalid_emoji",
                                                      message: "An emoji is 1 to 16 bytes of UTF-8 with something to see: no spaces, control or text-direction characters.")
    /// 422: a reaction past ``Reactions/mostByOneUser`` of one user's on one message.
    public static let tooManyReactions = SwitchboardError(.invalid, code: "too_many_reactions",
                                                          message: "One person may have at most \(Reactions.mostByOneUser) reactions on a message: turn one off first.")
    /// 422: an HTTP publish whose `Idempotency-Key` and `client_id` name two ids.
    public static let clientIDsDiffer = SwitchboardError(.invalid, code: "invalid_client_id",
                                                         message: "The Idempotency-Key header and the 'client_id' field name two client ids: send one, or the same in both.")
    /// 409: a client id already used by this user for another text or room.
    public static let clientIDReused = SwitchboardError(.conflict, code: "client_id_reused",
                                                        message: "This client id was already used for another message (its text or room differs).")
    /// 422: a location out of range or not numbers.
    public static func invalidLocation(_ detail: String) -> SwitchboardError {
        SwitchboardError(.invalid, code: "invalid_location", message: detail)
    }
}
