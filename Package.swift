// swift-tools-version:6.0
import Foundation
import PackageDescription

let strict: [SwiftSetting] = [.unsafeFlags(["-warnings-as-errors"])]
/// Exclusivity is checked at run time in every build. The hot path's loop-confined and
/// lock-guarded stored properties (`Connection`, `EventLoop`, `SharedState`) are marked
/// `@exclusivity(unchecked)` instead: a check costs ~80 instructions per access, and with all
/// of them the server spent ~9% more per PING (`Scripts/instructions`: 8,473 against 7,768).
let server: [SwiftSetting] = strict

let package = Package(
    name: "Tabula",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tabulad", targets: ["tabulad"]),
        .executable(name: "tabula", targets: ["tabula"]),
        .executable(name: "tabula-bench", targets: ["tabula-bench"]),
        // For Swift apps and tools: `LiveList`, `AsyncTabulaConnection`, `TabulaConnection`.
        .library(name: "TabulaClient", targets: ["TabulaClient"]),
        .executable(name: "tabula-livelist-example", targets: ["tabula-livelist-example"]),
    ],
    targets: [
        .target(name: "CLinuxShims"),
        .target(
            name: "CTLSShim",
            // DWARF 4, which valgrind (Scripts' callgrind measurements) can read.
            cSettings: [.unsafeFlags(["-gdwarf-4"])],
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),
        .systemLibrary(name: "CReadline", providers: [.apt(["libreadline-dev"])]),
        .systemLibrary(name: "CNcurses", providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(name: "CSQLite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLibPQ", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CHTTPParser", providers: [.apt(["libhttp-parser-dev"])]),
        .systemLibrary(name: "CJemalloc", providers: [.apt(["libjemalloc-dev"])]),
        .target(name: "TabulaProtocol", swiftSettings: strict),
        .target(name: "TabulaHTTP", dependencies: ["CHTTPParser"], swiftSettings: strict),
        .target(name: "TabulaCommandLine", dependencies: ["TabulaProtocol"], swiftSettings: strict),
        .target(name: "TabulaModel", dependencies: ["TabulaProtocol"], swiftSettings: strict),
        .target(name: "TabulaStorage", dependencies: ["TabulaModel", "CSQLite3", "CLibPQ"], swiftSettings: strict),
        .target(name: "TabulaAccess", dependencies: ["TabulaModel", "COpenSSL"], swiftSettings: strict),
        .target(
            name: "TabulaServer",
            dependencies: [
                "TabulaProtocol", "TabulaModel", "TabulaStorage", "TabulaAccess", "TabulaHTTP", "CLinuxShims",
                "CTLSShim",
            ],
            swiftSettings: server),
        .target(
            name: "TabulaClient", dependencies: ["TabulaProtocol", "TabulaModel", "TabulaCommandLine", "CTLSShim"],
            swiftSettings: strict),
        .executableTarget(
            name: "tabulad", dependencies: ["TabulaServer", "TabulaAccess", "TabulaCommandLine", "CJemalloc"],
            swiftSettings: strict),
        .executableTarget(
            name: "tabula",
            dependencies: ["TabulaClient", "TabulaCommandLine", "CReadline", "CNcurses", "CLinuxShims"],
            swiftSettings: strict),
        // Uses only TabulaClient's public API (README's LiveList section); built with the rest.
        .executableTarget(
            name: "tabula-livelist-example", dependencies: ["TabulaClient"], path: "Examples/LiveListExample",
            swiftSettings: strict),
        .executableTarget(
            name: "tabula-bench", dependencies: ["TabulaProtocol", "TabulaCommandLine", "CLinuxShims"],
            swiftSettings: strict),
        .testTarget(name: "TabulaProtocolTests", dependencies: ["TabulaProtocol"]),
        .testTarget(name: "TabulaModelTests", dependencies: ["TabulaModel"]),
        // What the test targets that need PostgreSQL share (one copy, not one per target).
        .target(
            name: "TabulaTestSupport", dependencies: ["TabulaStorage"], path: "Tests/TabulaTestSupport",
            swiftSettings: strict),
        .testTarget(name: "TabulaStorageTests", dependencies: ["TabulaStorage", "TabulaTestSupport"]),
        .testTarget(name: "TabulaAccessTests", dependencies: ["TabulaAccess"]),
        .testTarget(name: "TabulaHTTPTests", dependencies: ["TabulaHTTP"]),
        .testTarget(
            name: "TabulaServerTests",
            dependencies: ["TabulaServer", "TabulaClient", "TabulaStorage", "TabulaAccess", "TabulaTestSupport"]),
        .testTarget(
            name: "TabulaClientTests",
            dependencies: [
                "TabulaClient", "TabulaServer", "TabulaStorage", "TabulaAccess", "TabulaCommandLine",
                "TabulaTestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer target exists only when asked for, since libFuzzer supplies its own main:
//   TABULA_FUZZ=1 swift build --scratch-path .build-fuzz --product tabula-fuzz --sanitize fuzzer
if ProcessInfo.processInfo.environment["TABULA_FUZZ"] != nil {
    package.products.append(.executable(name: "tabula-fuzz", targets: ["tabula-fuzz"]))
    package.targets.append(
        .executableTarget(
            name: "tabula-fuzz",
            dependencies: ["TabulaProtocol", "TabulaModel", "TabulaAccess", "TabulaHTTP", "TabulaServer", "CTLSShim"],
            swiftSettings: strict))
}
