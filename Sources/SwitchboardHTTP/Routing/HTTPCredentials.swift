import MicroHTTPD
import SwitchboardCore

/// What a request presented to say who it is, read the ways each client
/// can send it: `Authorization: Bearer TOKEN` (the admin token or a JWT),
/// `?access_token=TOKEN` (EventSource and WebSocket cannot set headers), or
/// the `switchboard_session` cookie (the web page). The first present wins.
struct HTTPCredentials: Sendable {
    /// Where the token came from.
    enum Source: Sendable, Equatable {
        case header, query, cookie
    }

    /// The session cookie's name.
    static let cookieName = "switchboard_session"

    /// A JWT, if one was presented (never the admin token).
    var token: String?
    /// Where ``token`` was found.
    var source: Source?
    /// The Bearer token was the admin token.
    var isAdmin = false

    /// `borrowing`: an initializer's parameter is otherwise the caller's copy
    /// (its four references retained, then released here, at every request).
    init(_ request: borrowing HTTPRequest, adminToken: String) {
        if let authorization = request.header("Authorization"), let bearer = Self.bearer(authorization) {
            if AdminToken.matches(bearer, token: adminToken) {
                isAdmin = true
            } else {
                token = bearer
                source = .header
            }
            return
        }
        if let value = request.query("access_token"), !value.isEmpty {
            token = value
            source = .query
        } else if let cookie = request.header("Cookie"), let value = Self.cookie(Self.cookieName, in: cookie), !value.isEmpty {
            token = value
            source = .cookie
        }
    }

    /// The credential of an `Authorization` header in the Bearer scheme
    /// (its name in any case, RFC 7235), without the spaces around it, empty
    /// when nothing follows (a bad token, refused: SPEC, never a guest); nil
    /// for another scheme. Read by bytes: counting the header's characters
    /// walked every one of them.
    static func bearer(_ authorization: String) -> String? {
        var header = authorization
        let isBearer = header.withUTF8 { bytes in
            bytes.count >= scheme.count
                && zip(bytes, scheme).allSatisfy { $0 == $1 || (65...90).contains($0) && $0 + 32 == $1 }
        }
        guard isBearer else { return nil }
        return header[header.utf8.index(header.startIndex, offsetBy: scheme.count)...].trimmingSpaces()
    }

    /// The Bearer scheme's name and its space, lowercased.
    private static let scheme = Array("bearer ".utf8)

    /// The value of cookie `name` in a `Cookie` header.
    static func cookie(_ name: String, in header: String) -> String? {
        for pair in header.split(separator: ";") {
            let trimmed = pair.drop { $0 == " " }
            if trimmed.hasPrefix(name + "=") { return String(trimmed.dropFirst(name.count + 1)) }
        }
        return nil
    }

    /// The cookie that signs the browser in with `token` for `seconds`.
    static func sessionCookie(_ token: String, seconds: Int64, secure: Bool) -> (name: String, value: String) {
        ("Set-Cookie", "\(cookieName)=\(token); Max-Age=\(max(0, seconds)); Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : ""))
    }

    /// The cookie that signs the browser out.
    static func clearedCookie(secure: Bool) -> (name: String, value: String) {
        sessionCookie("", seconds: 0, secure: secure)
    }
}
