// swift-tools-version:6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "SSOKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "SSOKitCore", targets: ["SSOKitCore"]),
        .library(name: "SSOKitOIDC", targets: ["SSOKitOIDC"]),
        .library(name: "SSOKitTesting", targets: ["SSOKitTesting"]),
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
    ],
    targets: [
        .target(
            name: "SSOKitCore",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SSOKitOIDC",
            dependencies: [
                "SSOKitCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SSOKitTesting",
            dependencies: [
                "SSOKitCore",
                "SSOKitOIDC",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "ssokit",
            dependencies: [
                "SSOKitCore",
                "SSOKitOIDC",
                "SSOKitTesting",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "IDTokenBenchmark",
            dependencies: [
                "SSOKitCore",
                "SSOKitOIDC",
                "SSOKitTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            path: "Benchmarks/IDTokenBenchmark",
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
            dependencies: ["SSOKitCore", "SSOKitTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SSOKitOIDCTests",
            dependencies: [
                "SSOKitOIDC", "SSOKitCore", "SSOKitTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SSOKitEndToEndTests",
            dependencies: ["ssokit", "SSOKitTesting"],
            exclude: ["peer"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
