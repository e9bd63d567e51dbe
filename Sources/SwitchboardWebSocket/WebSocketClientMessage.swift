import Foundation
import SwitchboardCore

/// A client's text frame, parsed: a publish, a script-level ping, or
/// something refused (with the `ref` to answer, when there was one).
enum WebSocketClientMessage: Equatable {
    case publish(MessageDraft, ref: JSONValue?)
    case ping(JSONValue)
    case refused(SwitchboardError, ref: JSONValue?)

    /// A JSON scalar echoed back as it came (`ref`, `ping`).
    enum JSONValue: Equatable, Sendable {
        case number(Double), string(String), bool(Bool), null
        init?(_ any: Any) {
            switch any {
            case let value as String: self = .string(value)
            case is NSNull: self = .null
            case let value as NSNumber:
                // JSONSerialization gives booleans as NSNumber too; they say which they are.
                self = String(cString: value.objCType) == "c" || type(of: any) == Bool.self ? .bool(value.boolValue) : .number(value.doubleValue)
            case let value as Bool: self = .bool(value)
            default: return nil
            }
        }
        var object: Any {
            switch self {
            case .number(let value): return value.rounded() == value && abs(value) < 1e15 ? Int64(value) as Any : value
            case .string(let value): return value
            case .bool(let value): return value
            case .null: return NSNull()
            }
        }
    }

    /// Parses `{"text":..,"ref":..}`, `{"user":..,"text":..,"room":..}` or
    /// `{"ping":X}` for a socket of `user` following `filter`.
    static func parse(_ text: String, user: String?, filter: RoomFilter, limits: MessageLimits) -> WebSocketClientMessage {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            return .refused(SwitchboardError(status: 400, code: "malformed_json", message: "Send a JSON object, e.g. {\"text\":\"hi\"}."), ref: nil)
        }
        let ref = object["ref"].flatMap(JSONValue.init)
        if let ping = object["ping"] {
            return .ping(JSONValue(ping) ?? .null)
        }
        do throws(SwitchboardError) {
            guard let rawText = object["text"] as? String else {
                throw SwitchboardError(status: 400, code: "malformed_json", message: "'text' must be a string.")
            }
            let sender = try (object["user"] as? String ?? user).map { name throws(SwitchboardError) in try limits.validUser(name) }
            guard let sender else {
                throw SwitchboardError(status: 422, code: "user_required", message: "Give 'user', or open the socket with ?user=NAME.")
            }
            let room: String
            if let named = object["room"] as? String {
                room = try limits.validRoom(named)
                guard filter.contains(room) else {
                    throw SwitchboardError(status: 422, code: "not_subscribed", message: "This socket does not follow room \(room).")
                }
            } else if case .rooms(let rooms) = filter, rooms.count == 1, let only = rooms.first {
                room = only
            } else {
                throw SwitchboardError(status: 422, code: "room_required", message: "This socket follows several rooms: give 'room'.")
            }
            return .publish(MessageDraft(room: room, user: sender, text: try limits.validText(rawText), kind: .message), ref: ref)
        } catch {
            return .refused(error, ref: ref)
        }
    }

    /// `{"ack":REF,"id":ID}`.
    static func ack(ref: JSONValue?, id: Int64) -> [UInt8] {
        encode(["ack": ref?.object ?? NSNull(), "id": id])
    }

    /// `{"pong":X}`.
    static func pong(_ value: JSONValue) -> [UInt8] {
        encode(["pong": value.object])
    }

    /// `{"error":{"code":..,"message":..},"ref":REF}`.
    static func error(_ error: SwitchboardError, ref: JSONValue?) -> [UInt8] {
        var object: [String: Any] = ["error": ["code": error.code, "message": error.message]]
        if let ref { object["ref"] = ref.object }
        return encode(object)
    }

    private static func encode(_ object: [String: Any]) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8))
    }
}
