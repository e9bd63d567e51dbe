// libFuzzer target for the raw TCP line protocol: the framer and the session
// fed arbitrary bytes in arbitrary segments. Built by Scripts/fuzz.sh with
// `swiftc -sanitize=fuzzer,address` (together with SwitchboardCore's sources
// and the protocol's three files as one module), never by `swift build`.
//
// Input layout: the first byte picks the maximum line length (8...263), the
// next bytes are split into segments at every 0xFF byte; after each segment
// a quiet-time flush happens when the segment's length is odd.

/// Guests only (no token can be verified), as a client that never signed in.
private let access = AccessControl(verifier: nil)

@_cdecl("LLVMFuzzerTestOneInput")
public func lineProtocolFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let maxLine = 8 + Int(first)
    var framer = LineFramer(maxLineBytes: maxLine)
    var session = LineSession(limits: MessageLimits(maxTextBytes: maxLine), maxLineBytes: maxLine, access: access)
    var everNewline = false
    for segment in bytes.dropFirst().split(separator: 0xFF, omittingEmptySubsequences: false) {
        var outputs = framer.feed(segment)
        if segment.count % 2 == 1 { outputs += framer.flush() }
        everNewline = everNewline || segment.contains(10)
        precondition(framer.newlineTerminated == everNewline, "framing mode follows the first newline")
        for output in outputs {
            if case .line(let line) = output {
                precondition(line.count <= maxLine + 1, "a line longer than the limit came through")
                precondition(!line.contains(10), "a line holds no newline")
            }
            for action in session.receive(output) {
                switch action {
                case .send(let reply):
                    precondition(reply.last == 10 && reply.dropLast().allSatisfy { $0 != 10 }, "one reply, one line")
                    precondition(AppLineFormat.fit(reply).count <= AppLineFormat.maxBytes)
                case .enter(let user, _):
                    checkName(user)
                case .publish(let draft):
                    checkName(draft.user)
                    precondition(!draft.text.isEmpty && draft.text.utf8.count <= maxLine, "text within limits")
                    let line = LineFormat.line(for: Message(id: 1, room: draft.room, user: draft.user, text: draft.text, kind: .message, ts: 0))
                    precondition(line.filter { $0 == 10 }.count == 1, "no text forges a line")
                default:
                    break
                }
            }
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
