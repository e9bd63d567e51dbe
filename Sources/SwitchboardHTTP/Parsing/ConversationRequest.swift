import Foundation
import SwitchboardCore

/// The body of `POST /api/conversations`: `{"title":..,"members":[..]}`,
/// JSON only (it carries a list).
struct ConversationRequest: Decodable {
    var title: String?
    var members: [String]

    /// Reads and checks the body (UTF-8, JSON, `members` a list of strings).
    static func decode(_ body: [UInt8], contentType: String?) throws(SwitchboardError) -> ConversationRequest {
        if let contentType, ContentType.essence(of: contentType) != "application/json" { throw .unsupportedMediaType }
        guard body.isValidUTF8 else { throw .invalidUTF8 }
        do {
            return try JSONDecoder().decode(ConversationRequest.self, from: Data(body))
        } catch {
            throw SwitchboardError(.malformed, code: "malformed_json",
                                   message: "Send {\"members\":[\"leia\"],\"title\":\"Trip\"} (members: a list of user names).")
        }
    }
}
