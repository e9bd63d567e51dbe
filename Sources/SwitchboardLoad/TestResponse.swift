import Foundation
import SwitchboardCore

#if canImport(Glibc)
import Glibc
#endif

/// A response read off the wire.
public struct TestResponse {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
    public func json() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:]
    }
    public var errorCode: String? { ((try? json())?["error"] as? [String: Any])?["code"] as? String }
    public func page() throws -> (messages: [Message], next: Int64) {
        struct Page: Decodable { var messages: [Message]; var next: Int64 }
        let page = try JSONDecoder().decode(Page.self, from: Data(body))
        return (page.messages, page.next)
    }
    public func message() throws -> Message { try JSONDecoder().decode(Message.self, from: Data(body)) }
}
