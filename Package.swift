// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "pongd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "pongd", targets: ["pongd"]),
        .executable(name: "pong-player-sim", targets: ["pong-player-sim"]),
        .library(name: "BounceDetector", targets: ["BounceDetector"]),
        .library(name: "PongWire", targets: ["PongWire"]),
        .library(name: "PongClient", targets: ["PongClient"]),
        .library(name: "SessionHub", targets: ["SessionHub"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // 4.x: jwt-kit 5 needs it (the `_CryptoExtras` product name is kept for compatibility).
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    ],
    targets: [
        .systemLibrary(
            name: "CAudio",
            pkgConfig: "opus libavcodec libavutil",
            providers: [.apt(["libopus-dev", "libavcodec-dev", "libavutil-dev"])]
        ),
        .systemLibrary(
            name: "CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        .target(
            name: "BounceDetector",
            dependencies: ["CAudio"]
        ),
        /// The wire contract (docs/PROTOCOL.md): messages, HTTP bodies, errors, close codes, media frames, limits.
        /// Foundation only, so clients and tools can use it without the server's dependencies.
        .target(name: "PongWire"),
        /// The client side over NIO: the WebSocket client, a one-request HTTP client and a keep-alive connection
        /// (pong-player-sim, tests, benchmarks). Never depends on SessionHub, so the simulator does not link the
        /// server's store or metrics (`.ci/module-deps` checks).
        .target(
            name: "PongClient",
            dependencies: [
                "PongWire",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "SessionHub",
            dependencies: [
                "BounceDetector",
                "CAudio",
                "CQRencode",
                "PongWire",
                // Several nodes forward calls to a session's owner with the project's HTTP client.
                "PongClient",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The web client (docs/WEB.md): plain HTML, CSS and ES modules, served by `HubRouter+Web`.
            resources: [.copy("WebPages")]
        ),
        .executableTarget(
            name: "pongd",
            dependencies: [
                "BounceDetector",
                "SessionHub",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "pong-player-sim",
            dependencies: [
                "BounceDetector",
                "PongWire",
                "PongClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        // What several test targets share (a free loopback port); not a test target itself.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "BounceDetectorTests",
            dependencies: ["BounceDetector"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "SessionHubTests",
            dependencies: [
                "SessionHub",
                "TestSupport",
                "PongWire",
                "PongClient",
                "BounceDetector",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // Migration tests build an older schema (StoreTestsMigration.swift).
                .product(name: "GRDB", package: "GRDB.swift"),
                // A local OpenID Connect issuer made by the tests (TestIssuer.swift).
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "PlayerSimTests",
            dependencies: [
                "pong-player-sim",
                "TestSupport",
                "SessionHub",
                "PongWire",
                "PongClient",
                // A stand-in node that forwards and closes sockets with 4101 (MovingNode.swift).
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "pongdTests",
            // pong-player-sim: built for SimClusterTests, which runs it against three nodes.
            dependencies: ["pongd", "pong-player-sim", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
