import ArgumentParser
import Foundation
import MicroHTTPD

/// `switchboard serve`'s TLS options: HTTPS and wss on the HTTP port.
struct TLSOptions: ParsableArguments {
    @Option(name: .customLong("tls-cert"), help: "Serve HTTPS and wss with this certificate (PEM); needs --tls-key.")
    var certificate: String?

    @Option(name: .customLong("tls-key"), help: "The private key (PEM) of --tls-cert.")
    var key: String?

    @Flag(name: .customLong("tcp-tls"), help: "Serve the raw TCP line protocol over TLS too, with the same certificate.")
    var tcp = false

    @Option(name: .customLong("wss"), help: ArgumentHelp(
        "Also serve wss on this HOST:PORT of its own, TLS in SwiftNIO (no libmicrohttpd relay), with the same certificate.",
        valueName: "host:port"))
    var webSocket: String?

    func validate() throws {
        guard (certificate == nil) == (key == nil) else { throw ValidationError("--tls-cert and --tls-key go together.") }
        guard !tcp || certificate != nil else { throw ValidationError("--tcp-tls needs --tls-cert and --tls-key.") }
        guard webSocket == nil || certificate != nil else { throw ValidationError("--wss needs --tls-cert and --tls-key.") }
    }

    /// The credentials, read from their files; a missing or unreadable file,
    /// or one that is not PEM, stops the start with a message naming it.
    func credentials() throws -> TLSCredentials? {
        guard let certificate, let key else { return nil }
        return TLSCredentials(certificatePEM: try Self.pem(certificate, flag: "--tls-cert", kind: "CERTIFICATE"),
                              keyPEM: try Self.pem(key, flag: "--tls-key", kind: "PRIVATE KEY"))
    }

    private static func pem(_ path: String, flag: String, kind: String) throws -> String {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ValidationError("\(flag) \(path): cannot read it (\(error.localizedDescription)).")
        }
        guard text.contains("-----BEGIN") && text.contains(kind) else {
            throw ValidationError("\(flag) \(path): not a PEM \(kind.lowercased()).")
        }
        return text
    }
}
