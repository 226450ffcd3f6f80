// swift-tools-version:6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// pkg-config's -D flags for xmlsec1-openssl, which SwiftPM drops (see ARCHITECTURE.md).
let xmlsecDefines: [CSetting] = [
    .define("XMLSEC_CRYPTO_OPENSSL", to: "1"),
    .define("XMLSEC_NO_SIZE_T"),
    .define("XMLSEC_NO_GOST", to: "1"),
    .define("XMLSEC_NO_GOST2012", to: "1"),
    .define("XMLSEC_NO_CRYPTO_DYNAMIC_LOADING", to: "1"),
    .define("XMLSEC_OPENSSL3_ENGINES", to: "1"),
    .define("__XMLSEC_FUNCTION__", to: "__func__"),
]

let package = Package(
    name: "SSOKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "SSOKitCore", targets: ["SSOKitCore"]),
        .library(name: "SSOKitOIDC", targets: ["SSOKitOIDC"]),
        .library(name: "SSOKitSAML", targets: ["SSOKitSAML"]),
        .library(name: "SSOKitStore", targets: ["SSOKitStore"]),
        .library(name: "SSOKitTokenCache", targets: ["SSOKitTokenCache"]),
        .library(name: "SSOKitRights", targets: ["SSOKitRights"]),
        .library(name: "SSOKitPostgres", targets: ["SSOKitPostgres"]),
        .library(name: "SSOKitExtension", targets: ["SSOKitExtension"]),
        .library(name: "SSOKitConformance", targets: ["SSOKitConformance"]),
        .library(name: "SSOKitTesting", targets: ["SSOKitTesting"]),
        .library(name: "SSOKitDevIdP", targets: ["SSOKitDevIdP"]),
        .library(name: "SSOKitProxy", targets: ["SSOKitProxy"]),
        .library(name: "SSOKitHummingbird", targets: ["SSOKitHummingbird"]),
        .library(name: "SSOKitDemo", targets: ["SSOKitDemo"]),
        .executable(name: "ssokit", targets: ["ssokit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // The development IdP's HTTP server; no traits: it needs neither swift-configuration nor full Foundation.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CXMLSecSystem",
            pkgConfig: "xmlsec1-openssl",
            providers: [.apt(["libxmlsec1-dev", "libxml2-dev", "libssl-dev", "zlib1g-dev"])]
        ),
        // Test doubles for concurrency and store races; it never ships in `ssokit`.
        .target(
            name: "SSOKitTesting",
            dependencies: ["SSOKitExtension", "SSOKitStore", "SSOKitTokenCache"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CXMLSec",
            dependencies: ["CXMLSecSystem"],
            cSettings: xmlsecDefines
        ),
        .target(
            name: "SSOKitSAML",
            dependencies: [
                "CXMLSec",
                "SSOKitCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // OpenSSL's CMS, for signed configuration profiles (only SSOKitExtension imports it).
        .target(
            name: "CCMS",
            dependencies: ["CLibCrypto"]
        ),
        // The redirect-extension adapter; profiles (`com.apple.extensiblesso` payloads) live in Profiles/.
        .target(
            name: "SSOKitExtension",
            dependencies: [
                "CCMS",
                "SSOKitCore",
                "SSOKitOIDC",
                "SSOKitSAML",
                "SSOKitStore",
                "SSOKitTokenCache",
                "SSOKitRights",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The record stores that the token cache and the rights share: protocols, in-memory and SQLite backends.
        .target(
            name: "SSOKitStore",
            dependencies: ["CSQLite", "SSOKitCore"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SSOKitTokenCache",
            dependencies: [
                "SSOKitCore",
                "SSOKitStore",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // The PostgreSQL backend of the stores, apart so that SQLite users do not pull postgres-nio.
        .target(
            name: "SSOKitPostgres",
            dependencies: [
                "SSOKitStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SSOKitRights",
            dependencies: [
                "SSOKitCore",
                "SSOKitStore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SSOKitCore",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SSOKitOIDC",
            dependencies: [
                "SSOKitCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        // The browser-intercepting forward proxy (issue 13 §2): adapter-independent, the host decides per request.
        .target(
            name: "SSOKitProxy",
            dependencies: [
                "SSOKitCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The kernel's peer credentials of a Unix domain socket (struct ucred), which Swift's Glibc does not declare.
        .target(name: "CPeerCredentials"),
        // The adapter as HTTP (issue 13): the app API's routes, caller identity and `ssokit serve`'s pieces.
        .target(
            name: "SSOKitHummingbird",
            dependencies: [
                "CPeerCredentials",
                "SSOKitCore",
                "SSOKitOIDC",
                "SSOKitSAML",
                "SSOKitTokenCache",
                "SSOKitExtension",
                "SSOKitProxy",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSettings
        ),
        // The fixture runners of `ssokit conformance` and the tests, with the in-memory peers they run against.
        .target(
            name: "SSOKitConformance",
            dependencies: [
                "SSOKitExtension",
                "SSOKitStore",
                "SSOKitTokenCache",
                "SSOKitCore",
                "SSOKitOIDC",
                "SSOKitSAML",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // `ssokit dev-idp`: a small OpenID Provider and SAML IdP for development, demos and tests.
        .target(
            name: "SSOKitDevIdP",
            dependencies: [
                "SSOKitCore",
                "SSOKitOIDC",
                "SSOKitSAML",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SSOKitDemo",
            dependencies: [
                "SSOKitHummingbird",
                "SSOKitCore",
                "SSOKitOIDC",
                "SSOKitSAML",
                "SSOKitStore",
                "SSOKitTokenCache",
                "SSOKitExtension",
                "SSOKitProxy",
                "SSOKitDevIdP",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "ssokit",
            dependencies: [
                "SSOKitDemo",
                "SSOKitHummingbird",
                "SSOKitProxy",
                "SSOKitDevIdP",
                "SSOKitCore",
                "SSOKitExtension",
                "SSOKitOIDC",
                "SSOKitSAML",
                "SSOKitConformance",
                "SSOKitStore",
                "SSOKitTokenCache",
                "SSOKitRights",
                "SSOKitPostgres",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "EmbedAdapterExample",
            dependencies: ["SSOKitCore", "SSOKitExtension", "SSOKitStore", "SSOKitTokenCache"],
            path: "Examples/EmbedAdapter",
            swiftSettings: strictSettings
        ),
        // A Hummingbird web app protected by SSOKitHummingbird's sign-in routes, OIDC and SAML.
        .executableTarget(
            name: "ProtectedWebAppExample",
            dependencies: [
                "SSOKitHummingbird", "SSOKitCore", "SSOKitOIDC", "SSOKitSAML",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/ProtectedWebApp",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "VerifyIDTokenExample",
            dependencies: ["SSOKitCore", "SSOKitOIDC"],
            path: "Examples/VerifyIDToken",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SSOKitCoreTests",
            dependencies: [
                "SSOKitCore", "SSOKitTesting", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SSOKitOIDCTests",
            dependencies: [
                "SSOKitOIDC", "SSOKitCore", "SSOKitConformance",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SSOKitSAMLTests",
            dependencies: [
                "SSOKitSAML", "SSOKitCore", "SSOKitConformance",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SSOKitExtensionTests",
            dependencies: [
                "SSOKitExtension", "SSOKitCore", "SSOKitOIDC", "SSOKitSAML", "SSOKitConformance", "SSOKitStore",
                "SSOKitTokenCache", "SSOKitRights",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "SQLiteLockProbe",
            dependencies: ["SSOKitStore", "SSOKitTokenCache", "SSOKitTesting"],
            path: "Tests/SQLiteLockProbe",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "TokenCacheCrashWriter",
            dependencies: ["SSOKitStore", "SSOKitTokenCache"],
            path: "Tests/TokenCacheCrashWriter",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SSOKitTokenCacheTests",
            dependencies: [
                "SSOKitTokenCache", "SSOKitStore", "SSOKitCore", "SSOKitExtension", "SSOKitConformance",
                "SSOKitTesting", "TokenCacheCrashWriter", "SQLiteLockProbe",
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "PostgresRefreshWorker",
            dependencies: ["SSOKitTokenCache", "SSOKitPostgres"],
            path: "Tests/PostgresRefreshWorker",
            swiftSettings: strictSettings
        ),
        // Finds or starts the PostgreSQL server that tests use (SSOKIT_TEST_POSTGRES_URL, else a throwaway one).
        .target(
            name: "PostgresTestSupport",
            dependencies: [
                "SSOKitPostgres", "SSOKitTokenCache",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Tests/PostgresTestSupport",
            swiftSettings: strictSettings
        ),
        // Debian's headless Chromium for real-browser tests (SSOKitProxyTests, SSOKitDemoTests).
        .target(
            name: "BrowserTestSupport",
            path: "Tests/BrowserTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SSOKitPostgresTests",
            dependencies: [
                "SSOKitPostgres", "SSOKitStore", "SSOKitTokenCache", "SSOKitCore", "SSOKitRights", "SSOKitExtension",
                "PostgresRefreshWorker", "PostgresTestSupport", "SSOKitConformance", "SSOKitTesting",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SSOKitProxyTests",
            dependencies: [
                "SSOKitProxy", "SSOKitCore", "BrowserTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SSOKitRightsTests",
            dependencies: [
                "SSOKitRights", "SSOKitStore", "SSOKitTokenCache", "SSOKitOIDC", "SSOKitCore", "SSOKitExtension",
                "SSOKitConformance", "SSOKitTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SSOKitDevIdPTests",
            dependencies: [
                "SSOKitDevIdP", "SSOKitCore", "SSOKitOIDC", "SSOKitSAML", "SSOKitConformance",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SSOKitHummingbirdTests",
            dependencies: [
                "SSOKitHummingbird", "SSOKitExtension", "SSOKitTesting", "SSOKitConformance", "SSOKitStore", "SSOKitTokenCache", "SSOKitOIDC",
                "SSOKitProxy", "SSOKitDevIdP", "SSOKitCore", "SSOKitSAML",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SSOKitDemoTests",
            dependencies: ["SSOKitDemo", "SSOKitHummingbird", "SSOKitOIDC", "BrowserTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SSOKitEndToEndTests",
            dependencies: [
                "ssokit", "ProtectedWebAppExample", "SSOKitTesting", "SSOKitCore", "PostgresTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            exclude: ["peer"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

// MARK: - Fuzzing (Fuzz/README.md)

// Every fuzz target's entry point and seeds, in the normal build too: `swift test` replays the committed regression
// inputs (Fuzz/Regressions) through the same entry points (FuzzRegressionTests).
package.targets += [
    .target(
        name: "CFuzzHarness",
        dependencies: ["CXMLSec", "CXMLSecSystem"],
        path: "Fuzz/CHarness",
        cSettings: xmlsecDefines
    ),
    .target(
        name: "FuzzHarness",
        dependencies: [
            "CFuzzHarness", "SSOKitCore", "SSOKitOIDC", "SSOKitSAML", "SSOKitExtension", "SSOKitConformance",
            .product(name: "Crypto", package: "swift-crypto"),
        ],
        path: "Fuzz/Harness",
        swiftSettings: strictSettings
    ),
    .testTarget(
        name: "FuzzRegressionTests",
        dependencies: ["FuzzHarness"],
        path: "Fuzz/RegressionTests",
        swiftSettings: strictSettings
    ),
]

// The fuzz build, and only it (`SSOKIT_FUZZ=1`, scratch path `.build-fuzz`; see Fuzz/run.sh): the libFuzzer driver
// `ssokit-fuzz`, and coverage + AddressSanitizer instrumentation of the code under test. The flags go through
// unsafeFlags because SwiftPM's `--sanitize=fuzzer --sanitize=address` reaches swiftc as two flags of which only
// the last counts; lld links because gold fails on the instrumented objects.
if Context.environment["SSOKIT_FUZZ"] == "1" {
    let instrumentedSwift: Set = ["SSOKitCore", "SSOKitOIDC", "SSOKitSAML", "SSOKitExtension", "FuzzHarness"]
    let instrumentedC: Set = ["CXMLSec", "CCMS", "CFuzzHarness"]
    for target in package.targets {
        if instrumentedSwift.contains(target.name) {
            target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=fuzzer,address"])]
        } else if instrumentedC.contains(target.name) {
            target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(["-fsanitize=fuzzer-no-link,address"])]
        }
    }
    package.products.append(.executable(name: "ssokit-fuzz", targets: ["SSOKitFuzz"]))
    package.targets.append(
        .executableTarget(
            name: "SSOKitFuzz",
            dependencies: ["FuzzHarness"],
            path: "Fuzz/Driver",
            swiftSettings: strictSettings + [.unsafeFlags(["-sanitize=fuzzer,address"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address", "-use-ld=lld"])]
        ))
}
