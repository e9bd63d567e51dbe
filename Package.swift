// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Switchboard",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "switchboard", targets: ["switchboard"]),
        .executable(name: "switchboard-bench", targets: ["SwitchboardBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
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
        // The domain: messages, validation, the bus, cursors, wire formats. No I/O.
        .target(name: "SwitchboardCore"),
        // Durable storage through GRDB (SQLite).
        .target(
            name: "SwitchboardStore",
            dependencies: ["SwitchboardCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The HTTP ways in (short-poll, long-poll, SSE) over MicroHTTPD.
        .target(
            name: "SwitchboardHTTP",
            dependencies: [
                "SwitchboardCore", "MicroHTTPD",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The parts composed into one server, as the CLI and the tests start it.
        .target(
            name: "Switchboard",
            dependencies: [
                "SwitchboardCore", "SwitchboardStore", "SwitchboardHTTP", "SwitchboardTCP", "MicroHTTPD",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The raw TCP way in (DogeChat line protocol) on SwiftNIO.
        .target(
            name: "SwitchboardTCP",
            dependencies: [
                "SwitchboardCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "switchboard",
            dependencies: [
                "Switchboard", "SwitchboardCore", "SwitchboardHTTP", "MicroHTTPD", "SwitchboardLoad",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Load clients for every transport (SwiftNIO): used by the benchmark and `switchboard compare`.
        .target(
            name: "SwitchboardLoad",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Load client for Scripts/bench.sh: thousands of subscribers on a few event loops.
        .executableTarget(
            name: "SwitchboardBench",
            dependencies: [
                "SwitchboardLoad",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "SwitchboardCoreTests", dependencies: ["SwitchboardCore"]),
        .testTarget(
            name: "SwitchboardIntegrationTests",
            dependencies: ["Switchboard", "SwitchboardCore", "SwitchboardStore", "SwitchboardHTTP", "SwitchboardTCP", "SwitchboardLoad", "MicroHTTPD", .product(name: "Logging", package: "swift-log")]
        ),
    ]
)
