import SwitchboardCore

/// A message as a server's WebSocket text frame (RFC 6455 §5.2: final,
/// unmasked, the message's JSON as its payload), encoded once and shared
/// by every reader, as raw TCP's line and SSE's event are: a delivery
/// writes these bytes, not a `WebSocketFrame` for NIO's encoder to take
/// apart again (about 5,000 of a WebSocket delivery's 12,600 instructions).
enum WebSocketTextFrame: MessageFrameFormat {
    static func frame(for message: EncodedMessage) -> [UInt8] {
        frame(text: message.json)
    }

    /// `payload` in one final text frame, its length in the shortest form.
    static func frame(text payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + 10)
        bytes.append(0x81)  // FIN, opcode 1 (text)
        switch payload.count {
        case ..<126:
            bytes.append(UInt8(payload.count))
        case ...0xFFFF:
            bytes.append(126)
            bytes.append(UInt8(payload.count >> 8))
            bytes.append(UInt8(payload.count & 0xFF))
        default:
            bytes.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        bytes.append(contentsOf: payload)
        return bytes
    }
}
