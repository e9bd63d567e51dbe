/// A client's own id for a message it sends (`client_id`, or HTTP's
/// `Idempotency-Key`): the same id from the same user is the same message,
/// stored once however often it is sent (SPEC "Sending exactly once").
public enum ClientID {
    /// The longest client id.
    public static let maxLength = 64

    /// `value` when it is 1–64 characters of `[A-Za-z0-9_-]`; 422
    /// `invalid_client_id` naming `field` otherwise.
    public static func valid(_ value: String, field: String = "client_id") throws(SwitchboardError) -> String {
        let bytes = value.utf8
        guard !bytes.isEmpty, bytes.count <= maxLength, bytes.allSatisfy(isAllowed) else {
            throw SwitchboardError(.invalid, code: "invalid_client_id",
                                   message: "'\(field)' must be 1 to \(maxLength) characters of A-Z a-z 0-9 _ -.")
        }
        return value
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
