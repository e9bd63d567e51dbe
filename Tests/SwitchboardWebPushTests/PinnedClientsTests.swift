import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Foundation
import Synchronization
import Testing
@testable import SwitchboardWebPush

/// A push endpoint's name is connected to the address that was checked,
/// never looked up again by the client (DNS rebinding): real HTTP servers
/// on two loopback addresses, and a name (`.invalid`, RFC 6761) that no
/// resolver answers, so a request that arrives was pinned.
@Suite struct PinnedClientsTests {
    /// An HTTP server answering 204 on `address`, recording each request's Host header.
    final class Recorder: Sendable {
        let log = HostLog()
        let channel: any Channel
        var hosts: [String] { log.hosts.withLock { $0 } }

        init(group: any EventLoopGroup, address: String, port: Int, tls: NIOSSLContext? = nil) async throws {
            let log = self.log
            channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandler(Answer(log: log))
                    }
                }
                .bind(host: address, port: port).get()
        }

        var port: Int { channel.localAddress?.port ?? 0 }
    }

    final class HostLog: Sendable {
        let hosts = Mutex<[String]>([])
    }

    final class Answer: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let log: HostLog
        init(log: HostLog) { self.log = log }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): log.hosts.withLock { $0.append(head.headers.first(name: "Host") ?? "") }
            case .body: break
            case .end:
                let head = HTTPResponseHead(version: .http1_1, status: .noContent, headers: ["Content-Length": "0"])
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }

    private static func get(_ client: HTTPClient?, _ url: String, seconds: Int64 = 10) async throws -> Int {
        let client = try #require(client)
        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(seconds))
        return Int(response.status.code)
    }

    @Test func aNameGoesToItsPinnedAddressAndMovesOnlyWhenThatOneIsGone() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let first = try await Recorder(group: group, address: "127.0.0.1", port: 0)
        let second = try await Recorder(group: group, address: "127.0.0.2", port: first.port)
        let clients = PinnedClients(configuration: .init(redirectConfiguration: .disallow), group: group)
        let url = "http://rebind.invalid:\(first.port)/push"

        let pinned = clients.client(for: "rebind.invalid", addresses: ["127.0.0.1"])
        #expect(pinned.retired.isEmpty)
        #expect(try await Self.get(pinned.client, url) == 204)
        #expect(first.hosts == ["rebind.invalid:\(first.port)"])

        // Still among the name's addresses: the same client, its connection kept.
        let again = clients.client(for: "rebind.invalid", addresses: ["127.0.0.2", "127.0.0.1"])
        #expect(again.client === pinned.client)
        #expect(again.retired.isEmpty)

        // Gone from them: a new client on the first of the new ones; the old one handed back.
        let moved = clients.client(for: "rebind.invalid", addresses: ["127.0.0.2"])
        #expect(moved.retired.count == 1 && moved.retired.first === pinned.client)
        #expect(clients.address(of: "rebind.invalid") == "127.0.0.2")
        #expect(try await Self.get(moved.client, url) == 204)
        #expect(second.hosts == ["rebind.invalid:\(first.port)"])
        #expect(first.hosts.count == 1)

        for client in moved.retired + clients.close() { try await client.shutdown() }
        #expect(clients.client(for: "rebind.invalid", addresses: ["127.0.0.1"]).client == nil)
        try await first.channel.close()
        try await second.channel.close()
        try await group.shutdownGracefully()
    }

    /// A certificate for `name` and its key (PEM), made by openssl.
    private static func certificate(for name: String) throws -> (NIOSSLCertificate, NIOSSLPrivateKey) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinned-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                             "-subj", "/CN=\(name)", "-addext", "subjectAltName=DNS:\(name)",
                             "-keyout", folder.appendingPathComponent("key.pem").path, "-out", folder.appendingPathComponent("cert.pem").path]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        return (try #require(NIOSSLCertificate.fromPEMFile(folder.appendingPathComponent("cert.pem").path).first),
                try NIOSSLPrivateKey(file: folder.appendingPathComponent("key.pem").path, format: .pem))
    }

    /// What every real push is: https to a name. Through the pin, TLS still
    /// checks the certificate for the name (sent as SNI), not for the address.
    @Test func overTLSTheCertificateIsCheckedForTheName() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let (certificate, key) = try Self.certificate(for: "push.invalid")
        let tls = try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: [.certificate(certificate)],
                                                                               privateKey: .privateKey(key)))
        let server = try await Recorder(group: group, address: "127.0.0.1", port: 0, tls: tls)
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        var trust = TLSConfiguration.makeClientConfiguration()
        trust.trustRoots = .certificates([certificate])
        configuration.tlsConfiguration = trust
        let clients = PinnedClients(configuration: configuration, group: group)

        let named = clients.client(for: "push.invalid", addresses: ["127.0.0.1"]).client
        #expect(try await Self.get(named, "https://push.invalid:\(server.port)/push") == 204)
        #expect(server.hosts == ["push.invalid:\(server.port)"])
        // Another name pinned to the same server: its certificate is not for that name.
        let other = clients.client(for: "other.invalid", addresses: ["127.0.0.1"]).client
        // (async-http-client tries the connection again until the deadline, then says why it failed.)
        await #expect(throws: NIOSSLExtraError.failedToValidateHostname) {
            try await Self.get(other, "https://other.invalid:\(server.port)/push", seconds: 1)
        }
        #expect(server.hosts.count == 1)

        for client in clients.close() { try await client.shutdown() }
        try await server.channel.close()
        try await group.shutdownGracefully()
    }

    @Test func theLeastRecentlyUsedHostGivesWayAtCapacity() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let clients = PinnedClients(configuration: .init(), group: group, capacity: 2)
        let a = clients.client(for: "a.invalid", addresses: ["8.8.8.8"])
        let b = clients.client(for: "b.invalid", addresses: ["8.8.4.4"])
        _ = clients.client(for: "a.invalid", addresses: ["8.8.8.8"])   // a used last: b is the oldest
        let c = clients.client(for: "c.invalid", addresses: ["1.1.1.1"])
        #expect(c.retired.count == 1 && c.retired.first === b.client)
        #expect(clients.address(of: "b.invalid") == nil)
        #expect(clients.address(of: "a.invalid") == "8.8.8.8")
        #expect(clients.client(for: "d.invalid", addresses: []).client == nil)
        for client in c.retired + clients.close() { try await client.shutdown() }
        _ = a
        try await group.shutdownGracefully()
    }
}
