import MicroHTTPD
import SwitchboardAuth
import SwitchboardCore

/// Accounts and sessions (`/api/accounts`, `/api/sessions`, `/api/me`) and
/// the admin's accounts and bans. Password work runs on the services'
/// account queue while the request is suspended: bcrypt takes tens of
/// milliseconds, and a libmicrohttpd worker serves many connections.
enum AccountEndpoints {
    /// `POST /api/accounts {"user","password"}` → 201 `{"user"}`.
    static func register(_ exchange: any HTTPExchanging, identity: Identity, services: HTTPServices) throws -> HTTPHandlerResult {
        let accounts = try service(services)
        let fields = try RequestFields.decode(["user", "password"], contentType: exchange.header("Content-Type"), body: exchange.body)
        let (user, password) = (try RequestFields.string(fields, "user"), try RequestFields.string(fields, "password"))
        let address = exchange.clientAddress
        return offWorker(exchange, services) {
            let account = try accounts.register(user: user, password: password, byAdmin: identity == .admin, address: address)
            return (201, MessageJSON.encode(["user": account.user]), [])
        }
    }

    /// `POST /api/sessions {"user","password"}` → 201 `{"token","user","expires"}` and the session cookie.
    static func signIn(_ exchange: any HTTPExchanging, services: HTTPServices) throws -> HTTPHandlerResult {
        let accounts = try service(services)
        let fields = try RequestFields.decode(["user", "password"], contentType: exchange.header("Content-Type"), body: exchange.body)
        let (user, password) = (try RequestFields.string(fields, "user"), try RequestFields.string(fields, "password"))
        let secure = services.configuration.secureCookies
        let address = exchange.clientAddress
        return offWorker(exchange, services) {
            let session = try accounts.signIn(user: user, password: password, address: address)
            struct Body: Encodable { var token: String; var user: String; var expires: Int64 }
            let seconds = (session.expires - MessageBus.systemClock()) / 1000
            return (201, MessageJSON.encode(Body(token: session.token, user: session.user, expires: session.expires)),
                    [HTTPCredentials.sessionCookie(session.token, seconds: seconds, secure: secure)])
        }
    }

    /// `DELETE /api/sessions/current` → 204: the presented token is refused
    /// everywhere from now on, and the cookie is cleared.
    static func signOut(_ exchange: any HTTPExchanging, identity: Identity, services: HTTPServices) throws -> HTTPHandlerResult {
        let accounts = try service(services)
        guard let claims = identity.claims else { throw SwitchboardError.unauthorized }
        let secure = services.configuration.secureCookies
        return offWorker(exchange, services) {
            try accounts.signOut(claims)
            return (204, [], [HTTPCredentials.clearedCookie(secure: secure)])
        }
    }

    /// `GET /api/me` → `{"user","expires","unread"}` (`unread`: other
    /// people's messages not read in conversations not muted), or 401 without a token.
    static func me(_ exchange: any HTTPExchanging, identity: Identity, services: HTTPServices) throws -> HTTPHandlerResult {
        guard let claims = identity.claims else { throw SwitchboardError.unauthorized }
        return offWorker(exchange, services) {
            struct Me: Encodable { var user: String; var expires: Int64; var unread: Int? }
            let unread = try services.conversations.unread(of: claims.user)
            return (200, MessageJSON.encode(Me(user: claims.user, expires: claims.expires, unread: unread)), [])
        }
    }

    /// `GET /api/admin/accounts`: every account (with its ban), and who is
    /// connected with a token on this node.
    static func list(_ exchange: any HTTPExchanging, services: HTTPServices) throws -> HTTPHandlerResult {
        let accounts = try service(services)
        let connections = services.connections
        return offWorker(exchange, services) {
            struct Row: Encodable {
                var user: String; var created: Int64; var bannedUntil: Int64?
                enum CodingKeys: String, CodingKey { case user, created; case bannedUntil = "banned_until" }
            }
            struct SignedIn: Encodable { var user: String; var transports: [Transport] }
            struct Body: Encodable {
                var accounts: [Row]; var signedIn: [SignedIn]; var bans: [String: Int64]
                enum CodingKeys: String, CodingKey { case accounts, bans; case signedIn = "signed_in" }
            }
            let rows = try accounts.accounts().map { Row(user: $0.account.user, created: $0.account.created, bannedUntil: $0.bannedUntil) }
            let signedIn = connections.signedIn().sorted { $0.key < $1.key }.map { SignedIn(user: $0.key, transports: $0.value.sorted()) }
            return (200, MessageJSON.encode(Body(accounts: rows, signedIn: signedIn, bans: services.access.bans())), [])
        }
    }

    /// `POST /api/admin/users/{user}/ban {"seconds":N}`.
    static func ban(user: String, exchange: any HTTPExchanging, services: HTTPServices) throws -> HTTPHandlerResult {
        let accounts = try service(services)
        let fields = try RequestFields.decode(["seconds"], contentType: exchange.header("Content-Type"), body: exchange.body)
        var seconds: Double?
        switch fields["seconds"] {
        case .number(let text)?: seconds = Double(text)
        case .string(let text)?: seconds = Double(text)
        default: seconds = nil
        }
        guard let seconds else {
            throw SwitchboardError(.invalid, code: "invalid_seconds", message: "Field 'seconds' (a number above 0) is required.")
        }
        return offWorker(exchange, services) {
            let until = try accounts.ban(user: user, seconds: seconds)
            struct Banned: Encodable { var user: String; var until: Int64 }
            return (200, MessageJSON.encode(Banned(user: user, until: until)), [])
        }
    }

    /// `DELETE /api/admin/users/{user}/ban` → 204.
    static func lift(user: String, exchange: any HTTPExchanging, services: HTTPServices) throws -> HTTPHandlerResult {
        let accounts = try service(services)
        return offWorker(exchange, services) {
            try accounts.lift(user: user)
            return (204, [], [])
        }
    }

    private static func service(_ services: HTTPServices) throws -> AccountService {
        guard let accounts = services.accounts else {
            throw SwitchboardError(.unavailable, code: "no_accounts", message: "This server keeps no accounts.")
        }
        return accounts
    }

    private static func offWorker(_ exchange: any HTTPExchanging, _ services: HTTPServices,
                                  _ work: @escaping @Sendable () throws -> QueuedAnswer.Answer) -> HTTPHandlerResult {
        QueuedAnswer.run(exchange, services, what: "account request", work)
    }
}
