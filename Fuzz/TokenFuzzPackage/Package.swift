// swift-tools-version:6.0
// The token fuzz target (Scripts/fuzz.sh, TARGETS=token) as a package of
// its own: jwt-kit and swift-crypto, and one module that fuzz.sh fills with
// SwitchboardCore's sources, the verifier's files and Fuzz/TokenFuzz.swift.
// Built with -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library;
// FuzzerEntry (C) is the main that runs libFuzzer's driver on it.
import PackageDescription

let package = Package(
    name: "TokenFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        .executableTarget(
            name: "TokenFuzz",
            dependencies: ["FuzzerEntry", "CICU", "CMalloc", .product(name: "JWTKit", package: "jwt-kit"),
                           .product(name: "Crypto", package: "swift-crypto")]
        ),
        // Copied in by fuzz.sh from Sources/: what SwitchboardCore and NameSecurity import.
        .target(name: "CICU", linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]),
        .systemLibrary(name: "CMalloc"),
        .target(name: "FuzzerEntry"),
    ]
)
