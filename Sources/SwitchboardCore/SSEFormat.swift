/// The Server-Sent Events wire format (WHATWG HTML, "Server-sent events").
///
/// Only ids (integers), event names from ``MessageKind`` and JSON (which never
/// contains a raw CR or LF) are written, so no input can forge a field.
public enum SSEFormat {
    /// `retry: MS\n\n`, sent first so browsers reconnect after `ms`.
    public static func retry(milliseconds: Int) -> [UInt8] {
        Array("retry: \(milliseconds)\n\n".utf8)
    }

    /// A comment that keeps the connection alive and reveals vanished clients.
    public static let keepalive: [UInt8] = Array(": keepalive\n\n".utf8)

    /// `id: ID\nevent: KIND\ndata: DATA\n\n`. `data` must not contain CR or LF.
    public static func event(id: Int64, kind: String, data: [UInt8]) -> [UInt8] {
        precondition(!data.contains(10) && !data.contains(13), "SSE data must be a single line")
        var out: [UInt8] = []
        out.reserveCapacity(data.count + kind.utf8.count + 40)
        out.append(contentsOf: "id: \(id)\nevent: \(kind)\ndata: ".utf8)
        out.append(contentsOf: data)
        out.append(contentsOf: "\n\n".utf8)
        return out
    }
}
