import SwitchboardCore

/// What the publish hook is sent: `{"type":"publish","ts","data":{"room",
/// "user","text","kind"}}`, with `target` for an edit (`kind` `edit`),
/// and `reply_to`, `client_id`, `location` and `media` (upload ids) when
/// the message carries them. Written by hand, as messages are
/// (``MessageJSON/encode(_:)``): Foundation's encoder was 5 % of a
/// hooked server's time.
enum PublishHookRequest {
    static func body(_ draft: MessageDraft, media: [String], ts: Int64) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(draft.text.utf8.count + draft.room.utf8.count + draft.user.utf8.count + 96)
        out.append(contentsOf: #"{"type":"publish","ts":"#.utf8)
        out.append(contentsOf: String(ts).utf8)
        out.append(contentsOf: #","data":{"room":"#.utf8)
        MessageJSON.appendString(draft.room, to: &out)
        out.append(contentsOf: #","user":"#.utf8)
        MessageJSON.appendString(draft.user, to: &out)
        out.append(contentsOf: #","text":"#.utf8)
        MessageJSON.appendString(draft.text, to: &out)
        out.append(contentsOf: #","kind":""#.utf8)
        out.append(contentsOf: draft.kind.rawValue.utf8)
        out.append(UInt8(ascii: "\""))
        if let target = draft.target { out.append(contentsOf: #","target":\#(target)"#.utf8) }
        if let replyTo = draft.replyTo { out.append(contentsOf: #","reply_to":\#(replyTo)"#.utf8) }
        if let clientID = draft.clientID {
            out.append(contentsOf: #","client_id":"#.utf8)
            MessageJSON.appendString(clientID, to: &out)
        }
        if let location = draft.location {
            out.append(contentsOf: #","location":"#.utf8)
            out.append(contentsOf: MessageJSON.encode(location))
        }
        if !media.isEmpty {
            out.append(contentsOf: #","media":"#.utf8)
            out.append(contentsOf: MessageJSON.encode(media))
        }
        out.append(contentsOf: "}}".utf8)
        return out
    }
}
