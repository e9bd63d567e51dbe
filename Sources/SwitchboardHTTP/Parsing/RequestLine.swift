import Foundation
import MicroHTTPD
import SwitchboardCore

/// An HTTP request that did not come through libmicrohttpd (the wss
/// listener's handshake, parsed by SwiftNIO), as the value the router and
/// the endpoints read: the path percent-decoded, the query decoded as a form.
public enum RequestLine {
    /// `uri` is the request target (`/api/ws?rooms=a,b`); header names match case-insensitively.
    public static func request(method: String, uri: String, headers: [(String, String)], clientAddress: String?) throws(SwitchboardError)
        -> HTTPRequest
    {
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let path = String(parts.first ?? "").removingPercentEncoding else { throw .targetNotUTF8 }
        var query: [String: String] = [:]
        if parts.count == 2 {
            let fields: [(name: String, value: String)]
            do { fields = try FormURLEncoded.decode(Array(parts[1].utf8)) } catch { throw error == .invalidUTF8 ? .targetNotUTF8 : error }
            for field in fields where query[field.name] == nil { query[field.name] = field.value }
        }
        var table: [String: String] = [:]
        for (name, value) in headers where table[name.lowercased()] == nil { table[name.lowercased()] = value }
        return HTTPRequest(method: method, path: path, headers: table, query: query, clientAddress: clientAddress)
    }
}
