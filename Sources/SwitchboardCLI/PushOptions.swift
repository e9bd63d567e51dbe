import ArgumentParser
import Foundation
import Switchboard
import SwitchboardWebPush

/// `switchboard serve`'s options for Web Push: the VAPID key and contact, and hosts admitted as push services.
struct PushOptions: ParsableArguments {
    @Option(name: .customLong("vapid-private-key"), help: ArgumentHelp(
        "PEM file of the P-256 key push services know this server by (default: one made at first start and kept in the database).",
        valueName: "file"))
    var privateKeyFile: String?

    @Option(name: .customLong("vapid-subject"), help: "A mailto: or https: contact for push services (default: --public-url).")
    var subject: String?

    @Option(name: .customLong("push-allow-host"), help: ArgumentHelp(
        "A host whose push endpoints are taken over http:// or https:// whatever its addresses (repeatable), e.g. a test push service on 127.0.0.1.",
        valueName: "host"))
    var allowedHosts: [String] = []

    func validate() throws {
        if let subject, !(subject.hasPrefix("mailto:") || subject.hasPrefix("https://")) {
            throw ValidationError("--vapid-subject: a mailto: or https: URL.")
        }
    }

    func apply(to configuration: inout ChatServerConfiguration) throws {
        if let privateKeyFile {
            let pem: String
            do { pem = try String(contentsOfFile: privateKeyFile, encoding: .utf8) } catch {
                throw ValidationError("--vapid-private-key: cannot read \(privateKeyFile): \(error.localizedDescription)")
            }
            guard (try? VAPIDKey(pem: pem)) != nil else { throw ValidationError("--vapid-private-key: not a P-256 private key in PEM.") }
            configuration.webPush.privateKeyPEM = pem
        }
        configuration.webPush.subject = subject
        configuration.webPush.allowedHosts = Set(allowedHosts)
    }
}
