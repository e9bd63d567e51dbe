import SwitchboardCore

/// The Server-Sent Events wire format (WHATWG HTML, "Server-sent events").
///
/// Only ids (integers), event names from ``MessageKind`` and JSON (which never
/// contains a raw CR or LF) are written, so no input can forge a field.
enum SSEEvent: MessageFrameFormat {
    /// A message as `id: ID\nevent: KIND\ndata: JSON\n\n`.
    static func frame(for message: EncodedMessage) -> [UInt8] {
        event(id: message.id, kind: message.message.kind.rawValue, data: message.json)
    }

    /// `retry: MS\n\n`, sent first so browsers reconnect after `ms`.
    static func retry(milliseconds: Int) -> [UInt8] {
        Array("retry: \(milliseconds)\n\n".utf8)
    }

    /// A comment that keeps the connection alive and reveals vanished clients.
    static let keepalive: [UInt8] = Array(": keepalive\n\n".utf8)

    /// `event: NAME\ndata: DATA\n\n`, an event with no id (the admin's stats).
    static func event(_ name: String, data: [UInt8]) -> [UInt8] {
        precondition(!data.contains(10) && !data.contains(13), "SSE data must be a single line")
        return Array("event: \(name)\ndata: ".utf8) + data + Array("\n\n".utf8)
    }

    /// `id: ID\nevent: KIND\ndata: DATA\n\n`. `data` must not contain CR or LF.
    static func event(id: Int64, kind: String, data: [UInt8]) -> [UInt8] {
        precondition(!data.contains(10) && !data.contains(13), "SSE data must be a single line")
        var out: [UInt8] = []
        out.reserveCapacity(data.count + kind.utf8.count + 40)
        out.append(contentsOf: "id: \(id)\nevent: \(kind)\ndata: ".utf8)
        out.append(contentsOf: data)
        out.append(contentsOf: "\n\n".utf8)
        return out
    }

    /// The response head of every event stream.
    static let headers: [(name: String, value: String)] = [
        ("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-cache"), ("X-Accel-Buffering", "no"),
    ]
}
