// swift-tools-version:6.1
import PackageDescription

// SSOKit's benchmarks, apart from the library so that its build (and CI's) never compiles them: the
// package-benchmark suites (one per directory here, `swift package benchmark`), the workloads they share with
// `instruction-count` (Sources/SSOKitWorkloads), the wall-time `ratios`, and the C and Hummingbird references.
// See README.md.

/// SSOKit is the package one directory up; SwiftPM names a path dependency after its directory.
let ssokit = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "ssokit")

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// pkg-config's -D flags for xmlsec1-openssl, which SwiftPM drops (as in SSOKit's Package.swift).
let xmlsecDefines: [CSetting] = [
    .define("XMLSEC_CRYPTO_OPENSSL", to: "1"),
    .define("XMLSEC_NO_SIZE_T"),
    .define("XMLSEC_NO_GOST", to: "1"),
    .define("XMLSEC_NO_GOST2012", to: "1"),
    .define("XMLSEC_NO_CRYPTO_DYNAMIC_LOADING", to: "1"),
    .define("XMLSEC_OPENSSL3_ENGINES", to: "1"),
    .define("__XMLSEC_FUNCTION__", to: "__func__"),
]

/// The package-benchmark suites: each is `<name>/<name>.swift` here, with `let benchmarks = { ... }`.
let suites = ["IDToken", "SAML", "TokenCache", "ProfileMatch", "Adapter", "Rights", "PostgresTokenCache"]

let package = Package(
    name: "SSOKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        // The MallocInterposer trait alone: the default RuntimeInterposer trait (Linux, Swift 6.3) needs a package
        // this build does not use (README.md).
        .package(url: "https://github.com/ordo-one/benchmark.git", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CXMLSecReferenceSystem",
            pkgConfig: "xmlsec1-openssl",
            providers: [.apt(["libxmlsec1-dev", "libxml2-dev", "libssl-dev", "zlib1g-dev"])]
        ),
        // The floor of SAML verification: a plain C loop over libxml2 + xmlsec.
        .target(
            name: "CXMLSecReference",
            dependencies: ["CXMLSecReferenceSystem"],
            cSettings: xmlsecDefines
        ),
        // Every measured operation, defined once: a named setup and the operation it returns.
        .target(
            name: "SSOKitWorkloads",
            dependencies: [
                "CXMLSecReference",
                .product(name: "SSOKitCore", package: ssokit),
                .product(name: "SSOKitOIDC", package: ssokit),
                .product(name: "SSOKitSAML", package: ssokit),
                .product(name: "SSOKitStore", package: ssokit),
                .product(name: "SSOKitTokenCache", package: ssokit),
                .product(name: "SSOKitRights", package: ssokit),
                .product(name: "SSOKitPostgres", package: ssokit),
                .product(name: "SSOKitExtension", package: ssokit),
                .product(name: "SSOKitConformance", package: ssokit),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        // Registers a suite's workloads with package-benchmark.
        .target(
            name: "SSOKitBenchmarkSuites",
            dependencies: ["SSOKitWorkloads", .product(name: "Benchmark", package: "benchmark")],
            swiftSettings: strictSettings
        ),
        // One workload N times, for valgrind (check.sh).
        .executableTarget(
            name: "instruction-count",
            dependencies: ["SSOKitWorkloads"],
            swiftSettings: strictSettings
        ),
        // The wall-time ratios SSOKit / floor, in paired alternating rounds.
        .executableTarget(
            name: "ratios",
            dependencies: ["SSOKitWorkloads"],
            swiftSettings: strictSettings
        ),
        // The framework's ceiling for serve-load.sh: a constant 200 from Hummingbird.
        .executableTarget(
            name: "HummingbirdCeiling",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
    ]
        + suites.map { suite in
            .executableTarget(
                name: suite,
                dependencies: ["SSOKitBenchmarkSuites", .product(name: "Benchmark", package: "benchmark")],
                path: suite,
                swiftSettings: strictSettings,
                plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
            )
        },
    swiftLanguageModes: [.v6]
)
