import SwitchboardCore

/// The HTTP API's own JSON shapes: a page of messages and the error envelope.
enum HTTPJSON {
    /// `{"messages":[m1,m2,...],"next":N}` from already-encoded messages.
    /// `{"messages":[...],"prev":P}`: a page back through the history;
    /// `prev` (the next `before`) is left out at the start of the history.
    static func olderPage(_ messages: [EncodedMessage], prev: Int64?) -> [UInt8] {
        var out: [UInt8] = Array(#"{"messages":["#.utf8)
        for (index, message) in messages.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: message.json)
        }
        out.append(UInt8(ascii: "]"))
        if let prev {
            out.append(contentsOf: #","prev":"#.utf8)
            out.appendDecimal(prev)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    static func page(_ messages: some Collection<EncodedMessage>, next: Int64) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(32 + messages.reduce(0) { $0 + $1.json.count + 1 })
        out.append(contentsOf: #"{"messages":["#.utf8)
        for (index, message) in messages.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: message.json)
        }
        out.append(contentsOf: #"],"next":"#.utf8)
        out.appendDecimal(next)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `{"error":{"code":..,"message":..}}`.
    static func error(_ error: SwitchboardError) -> [UInt8] {
        MessageJSON.encode(ErrorEnvelope(error: .init(code: error.code, message: error.message)))
    }

    private struct ErrorEnvelope: Encodable {
        struct Body: Encodable {
            var code: String
            var message: String
        }
        var error: Body
    }
}
