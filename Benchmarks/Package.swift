// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// A path dependency's identity is its folder's name, so the root package is named after wherever the repository
/// was cloned (`main`, `pongd`, …), not after its manifest's `name`.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

/// pongd's benchmarks: a package of their own so `swift test` in the root stays lean.
/// Run with `swift package --disable-sandbox benchmark` from this folder (see BENCHMARKS.md).
let package = Package(
    name: "pongd-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "Codecs",
            dependencies: [
                .product(name: "BounceDetector", package: root),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Codecs",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Detector",
            dependencies: [
                .product(name: "BounceDetector", package: root),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Detector",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "FrameParse",
            dependencies: [
                .product(name: "PongWire", package: root),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/FrameParse",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        /// Live ingest per packet (decode → detector → timeline) against libopus decoding alone, in one run.
        .executableTarget(
            name: "Ingest",
            dependencies: [
                .product(name: "SessionHub", package: root),
                .product(name: "PongWire", package: root),
                .product(name: "BounceDetector", package: root),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Ingest",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        /// A real PongServer on loopback, driven by PongClient's keep-alive HTTPConnection and its
        /// WebSocketClient (joins/s, lobby fan-out).
        .executableTarget(
            name: "Hub",
            dependencies: [
                .product(name: "SessionHub", package: root),
                .product(name: "PongClient", package: root),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/Hub",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
