import ArgumentParser
import Foundation
import Switchboard
import SwitchboardAuth
import SwitchboardCore
import SwitchboardHTTP

/// `switchboard serve`'s identity and access options (SPEC "Identity and access").
struct AuthOptions: ParsableArguments {
    @Option(help: "open: guests read public rooms and speak under names nobody registered; required: every request needs a token.")
    var auth: AccessMode = .open

    @Option(help: "open: anyone may create an account (POST /api/accounts); admin: only with the admin token.")
    var registration: RegistrationMode = .open

    @Option(name: .customLong("jwt-secret"),
            help: "Accept HS256 tokens minted by your backend with this secret, 32 bytes or more (or SWITCHBOARD_JWT_SECRET).")
    var jwtSecret: String?

    @Option(name: .customLong("jwt-public-key"), help: "Accept RS256 or ES256 tokens minted by your backend: its public key, a PEM file.")
    var jwtPublicKey: String?

    @Option(name: .customLong("session-ttl"), help: "Seconds a sign-in session lasts.")
    var sessionTTL: Double = 7 * 86_400

    @Option(name: .customLong("publish-rate"), help: "Messages a second each user may publish (guests: each address); default: unlimited.")
    var publishRate: Double?

    @Option(name: .customLong("publish-burst"), help: "Messages a user may publish at once under --publish-rate (default: twice the rate).")
    var publishBurst: Double?

    @Option(name: .customLong("allowed-origin"), help: "A web origin (https://host[:port]) whose pages may use this server: CORS, WebSocket. Repeatable.")
    var allowedOrigins: [String] = []

    @Option(name: .customLong("sign-in-rate"), help: "Password attempts per account in 10 minutes (an address: three times as many a minute), then 429; 0: unlimited.")
    var signInRate: Double = 10

    @Option(name: .customLong("sign-up-rate"), help: "Registrations per address at once, then as many in 5 minutes (30: one every 10 s), then 429; 0: unlimited.")
    var signUpRate: Double = 30

    @Option(name: .customLong("room-rate"), help: "New rooms each user (a guest: each address) may bring into being at once, then as many in 100 s (100: one a second), then 429; 0: unlimited.")
    var roomRate: Double = 100

    @Option(name: .customLong("max-connections-per-address"), help: "Connections one client address (an IPv6 /64) may hold at once, on every port together; loopback is not limited (a proxy on this machine); 0: unlimited.")
    var maxConnectionsPerAddress: Int = 1_000

    @Option(name: .customLong("public-url"), help: "The URL people reach this server at (https://chat.example.com): its host is the server's name, and requests naming another Host get 421. Needed for browsers on a name when bound to 0.0.0.0.")
    var publicURL: String?

    func validate() throws {
        for (name, rate) in [("--sign-in-rate", signInRate), ("--sign-up-rate", signUpRate), ("--room-rate", roomRate)] {
            try OptionRange.check(name, rate, 0...1_000_000)
        }
        try OptionRange.check("--max-connections-per-address", maxConnectionsPerAddress, 0...1_000_000)
        if let publicURL, OriginPolicy.hostName(ofURL: publicURL) == nil || !(publicURL.hasPrefix("http://") || publicURL.hasPrefix("https://")) {
            throw ValidationError("--public-url \(publicURL): a URL is http(s)://host[:port].")
        }
        try OptionRange.check("--session-ttl", sessionTTL, 60...Double(OptionRange.tenYears), " seconds")
        if let publishRate { try OptionRange.check("--publish-rate", publishRate, 0.000_001...1_000_000) }
        if let publishBurst { try OptionRange.check("--publish-burst", publishBurst, 1...1_000_000) }
        for origin in allowedOrigins where !OriginPolicy.isOrigin(origin) {
            throw ValidationError("--allowed-origin \(origin): an origin is http(s)://host[:port].")
        }
    }

    /// The configuration, with the secret from the environment if not given
    /// and the public key read from its file (a missing or unreadable file
    /// stops the start, naming it).
    func configuration() throws -> AuthConfiguration {
        let secret = jwtSecret ?? ProcessInfo.processInfo.environment["SWITCHBOARD_JWT_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
        var pem: String?
        if let jwtPublicKey {
            do {
                pem = try String(contentsOfFile: jwtPublicKey, encoding: .utf8)
            } catch {
                throw ValidationError("--jwt-public-key \(jwtPublicKey): cannot read it (\(error.localizedDescription)).")
            }
        }
        return AuthConfiguration(mode: auth, registration: registration, jwtSecret: secret, jwtPublicKeyPEM: pem,
                                 sessionSeconds: sessionTTL, publishRate: publishRate, publishBurst: publishBurst,
                                 signInsPerAccount: signInRate > 0 ? signInRate : nil, signUpBurst: signUpRate > 0 ? signUpRate : nil,
                                 newRoomBurst: roomRate > 0 ? roomRate : nil)
    }
}

extension AccessMode: ExpressibleByArgument {}
extension RegistrationMode: ExpressibleByArgument {}
