// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Switchboard",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "switchboard", targets: ["SwitchboardCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        // C, kept at the edge: the one module map over libmicrohttpd.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // The only Swift module that imports CMicroHTTPD. Knows nothing about chat.
        .target(name: "MicroHTTPD", dependencies: ["CMicroHTTPD"]),
        // ICU (Debian's libicu-dev): TR39 confusable skeletons and NFKC, behind
        // a header with no ICU type in it (Foundation's own ICU would clash).
        .target(
            name: "CICU",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]
        ),
        // The only Swift module that imports CICU: names as a reader sees them.
        .target(name: "NameSecurity", dependencies: ["CICU"]),
        // The domain: messages, validation, the bus and its one delivery loop,
        // subscribers, connections and presence. No I/O.
        // glibc's malloc_trim, which the Glibc module does not export.
        .systemLibrary(name: "CMalloc"),
        .target(name: "SwitchboardCore", dependencies: ["NameSecurity", "CMalloc"]),
        // libvips (Debian's libvips-dev): photos re-encoded without metadata, thumbnails.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        // Uploads' files on disk and photos through libvips: the only importer of CVips.
        .target(name: "SwitchboardMedia", dependencies: ["SwitchboardCore", "CVips"]),
        // sqlite3_config (variadic, so not callable from Swift): SQLite's
        // memory statistics, turned off once before the first connection.
        .systemLibrary(name: "CSQLiteConfig"),
        // Durable storage through GRDB (SQLite).
        .target(
            name: "SwitchboardStore",
            dependencies: [
                "SwitchboardCore", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the one statement every publish runs (MessageInsert).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "CSQLiteConfig",
            ]
        ),
        // Shared storage for several nodes: PostgreSQL through postgres-nio,
        // with LISTEN/NOTIFY between the nodes and presence claims with leases.
        .target(
            name: "SwitchboardPostgres",
            dependencies: [
                "SwitchboardCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Identity: JWTs checked and minted with jwt-kit, passwords hashed
        // with bcrypt (HummingbirdBcrypt), accounts, sessions and bans.
        .target(
            name: "SwitchboardAuth",
            dependencies: [
                "SwitchboardCore",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The HTTP ways in (short poll, long poll, SSE), accounts and the admin API, over MicroHTTPD.
        .target(
            name: "SwitchboardHTTP",
            dependencies: [
                "SwitchboardCore", "SwitchboardAuth", "MicroHTTPD", "SwitchboardWebPush",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The raw TCP way in (the DogeChat line protocol) on SwiftNIO, and over TLS with NIOSSL.
        // What the two push connections on SwiftNIO (raw TCP, WebSocket) share:
        // publishing with the answer back on the loop, the delivery step, shutdown.
        .target(
            name: "SwitchboardPush",
            dependencies: [
                "SwitchboardCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Web Push (RFC 8030, 8291, 8292): payloads encrypted for a browser with
        // swift-crypto, VAPID tokens signed with jwt-kit, endpoints checked against SSRF.
        .target(
            name: "SwitchboardWebPush",
            dependencies: [
                "SwitchboardCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // An application's backend: signed webhooks from a durable queue, and
        // the publish hook, over async-http-client; HMAC with swift-crypto.
        .target(
            name: "SwitchboardHooks",
            dependencies: [
                "SwitchboardCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "SwitchboardTCP",
            dependencies: [
                "SwitchboardCore", "SwitchboardPush",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The WebSocket way in, all of it: its paths and handshake (behind the
        // HTTP side's upgrade hook), sockets upgraded by libmicrohttpd, framed by NIOWebSocket;
        // and wss on a port of its own, TLS and handshake in SwiftNIO (NIOSSL, NIOHTTP1).
        .target(
            name: "SwitchboardWebSocket",
            dependencies: [
                "SwitchboardCore", "SwitchboardHTTP", "MicroHTTPD", "SwitchboardPush",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The parts composed into one server, as the CLI and the tests start it.
        .target(
            name: "Switchboard",
            dependencies: [
                "SwitchboardCore", "SwitchboardAuth", "SwitchboardStore", "SwitchboardPostgres", "SwitchboardHTTP", "SwitchboardTCP",
                "SwitchboardWebSocket", "SwitchboardMedia", "SwitchboardWebPush", "SwitchboardHooks", "MicroHTTPD",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Linux's epoll, which the Glibc module does not export.
        .systemLibrary(name: "CEpoll"),
        // Load clients for every transport (SwiftNIO; raw TCP's on epoll), a
        // blocking HTTP client, and the comparison engine behind `switchboard
        // compare` and `switchboard bench`. Shipped in the binary; no test fixtures.
        .target(
            name: "SwitchboardLoad",
            dependencies: [
                "SwitchboardCore", "CEpoll",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Test fixtures, linked by tests only: a real server in-process, fake
        // and stalling stores, blocking line and WebSocket clients, PostgreSQL.
        .target(
            name: "SwitchboardTesting",
            dependencies: [
                "Switchboard", "SwitchboardCore", "SwitchboardAuth", "SwitchboardHTTP", "MicroHTTPD", "SwitchboardTCP", "SwitchboardWebSocket",
                "SwitchboardLoad", "SwitchboardStore", "SwitchboardPostgres",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `switchboard serve | backup | compare | bench`.
        .executableTarget(
            name: "SwitchboardCLI",
            dependencies: [
                "Switchboard", "SwitchboardCore", "SwitchboardAuth", "SwitchboardHTTP", "SwitchboardWebSocket", "SwitchboardLoad", "MicroHTTPD",
                "SwitchboardWebPush", "SwitchboardHooks", "SwitchboardStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "SwitchboardCoreTests", dependencies: ["SwitchboardCore", "NameSecurity", "SwitchboardTesting"]),
        .testTarget(name: "SwitchboardHTTPTests", dependencies: ["SwitchboardHTTP", "SwitchboardCore", "SwitchboardTesting", "MicroHTTPD",
                                                          .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "SwitchboardTCPTests",
            dependencies: ["SwitchboardTCP", "SwitchboardCore", "SwitchboardPush", "SwitchboardTesting",
                           .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "MicroHTTPDTests", dependencies: ["MicroHTTPD", "CMicroHTTPD", "SwitchboardLoad"]),
        .testTarget(name: "SwitchboardLoadTests", dependencies: ["SwitchboardLoad"]),
        .testTarget(
            name: "SwitchboardAuthTests",
            dependencies: ["SwitchboardAuth", "SwitchboardCore", .product(name: "Crypto", package: "swift-crypto"),
                           .product(name: "HummingbirdBcrypt", package: "hummingbird-auth")]
        ),
        .testTarget(
            name: "SwitchboardWebPushTests",
            dependencies: ["SwitchboardWebPush", "SwitchboardCore", .product(name: "Crypto", package: "swift-crypto"),
                           .product(name: "JWTKit", package: "jwt-kit"), .product(name: "AsyncHTTPClient", package: "async-http-client"),
                           .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                           .product(name: "NIOSSL", package: "swift-nio-ssl")]
        ),
        .testTarget(
            name: "SwitchboardHooksTests",
            dependencies: ["SwitchboardHooks", "SwitchboardCore", "SwitchboardStore", "SwitchboardPostgres", "SwitchboardTesting",
                           .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "SwitchboardWebSocketTests", dependencies: [
            "SwitchboardWebSocket", "SwitchboardCore",
            .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio"),
        ]),
        .testTarget(
            name: "SwitchboardScaleOutTests",
            dependencies: ["Switchboard", "SwitchboardCore", "SwitchboardTesting"]
        ),
        .testTarget(
            name: "SwitchboardIntegrationTests",
            dependencies: ["Switchboard", "SwitchboardCore", "SwitchboardAuth", "SwitchboardStore", "SwitchboardHTTP", "SwitchboardTCP",
                           "SwitchboardPostgres", "SwitchboardMedia", "SwitchboardTesting", "SwitchboardLoad", "MicroHTTPD", .product(name: "Logging", package: "swift-log"),
                           .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
                           .product(name: "Crypto", package: "swift-crypto")]
        ),
    ]
)
