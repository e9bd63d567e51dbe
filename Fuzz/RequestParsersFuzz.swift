// libFuzzer target for every parser that reads an HTTP or WebSocket
// client's bytes: the publish body (JSON and form), form decoding, the
// account endpoints' fields, the poll parameters, the SSE `Last-Event-ID`,
// and a WebSocket client's text frame. Built by Scripts/fuzz.sh
// (TARGET=requests) with `swiftc -sanitize=fuzzer,address`, together with
// SwitchboardCore's sources and the parsers' files as one module.
//
// Input layout: the first byte picks the parser; the rest is its input
// (for the poll parameters, four values split at 0xFF bytes).

private let access = AccessControl(verifier: nil)
private let limits = MessageLimits()

@_cdecl("LLVMFuzzerTestOneInput")
public func requestParsersFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let input = Array(bytes.dropFirst())
    let text = String(decoding: input, as: UTF8.self)
    switch first % 7 {
    case 0, 1:
        let type: String? = first % 7 == 0 ? "application/json" : "application/x-www-form-urlencoded; charset=utf-8"
        if let fields = try? PublishRequest.fields(contentType: type, body: input) {
            // What the parser lets through is valid text, and the access check decides the rest.
            if let media = fields.media { precondition(media.count <= input.count, "no more ids than bytes") }
            if let body = fields.text, let draft = try? access.draft(.guest, room: "lobby", user: fields.user ?? "fuzz", text: body,
                                                                    limits: limits, client: "fuzz") {
                precondition(!draft.text.isEmpty && draft.text.utf8.count <= limits.maxTextBytes, "text within limits")
                precondition(!draft.text.utf8.contains(0), "no NUL stored")
                checkName(draft.user)
            }
        }
    case 2:
        if let fields = try? FormURLEncoded.decode(input) {
            for field in fields { precondition(String(validating: Array(field.value.utf8), as: UTF8.self) != nil) }
        }
    case 3:
        _ = try? RequestFields.decode(["user", "password", "title", "members"], contentType: nil, body: input)
    case 4:
        let parts = input.split(separator: 0xFF, maxSplits: 3, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        let value = { (index: Int) -> String? in index < parts.count && !parts[index].isEmpty ? parts[index] : nil }
        if let parameters = try? PollParameters(since: value(0), limit: value(1), wait: value(2), before: value(3)) {
            precondition((1...PollParameters.maxLimit).contains(parameters.limit), "limit in range")
            precondition((parameters.since ?? 0) >= 0 && (parameters.wait ?? 0) <= PollParameters.maxWait, "since and wait in range")
        }
    case 5:
        if let cursor = try? Cursor.parse(text, name: "Last-Event-ID") { precondition(cursor >= 0, "a cursor is never negative") }
    default:
        let parsed = WebSocketClientMessage.parse(text, user: "fuzz", filter: .room("lobby"), limits: limits,
                                                  access: access, identity: .guest, client: "fuzz")
        if case .publish(let draft, let media, _) = parsed {
            precondition(!draft.text.isEmpty || !media.isEmpty || draft.location != nil, "an empty text only beside media or a location")
            precondition(draft.room == "lobby" && draft.text.utf8.count <= limits.maxTextBytes, "a publish stays in its room and limits")
            precondition((draft.replyTo ?? 1) > 0, "a reply names a positive id")
            if let clientID = draft.clientID { precondition((try? ClientID.valid(clientID)) == clientID, "a client id as the SPEC gives it") }
            if let place = draft.location {
                precondition(abs(place.lat) <= 90 && abs(place.lon) <= 180 && (place.accuracy ?? 0) >= 0, "a location in range")
            }
        }
        if case .act(let act, _) = parsed {
            precondition(act.id > 0 && act.room == "lobby", "an act names a positive id in the socket's room")
        }
    }
    return 0
}

/// A name let through shows nothing hidden and compares as a reader sees it.
private func checkName(_ name: String) {
    precondition(!name.unicodeScalars.contains(where: NameSkeleton.isInvisibleOrBidiControl), "no invisible or bidi character in a name")
    let key = NameSkeleton.key(name)
    precondition(!key.isEmpty, "every name has a skeleton")
    if name.utf8.allSatisfy({ $0 < 0x80 }) { precondition(key == NameSkeleton.key(name.lowercased()), "case never matters") }
}
