// swift-tools-version: 6.1
import PackageDescription

/// pongd's benchmarks: a package of their own so `swift test` in the root stays lean.
/// Run with `swift package --disable-sandbox benchmark` from this folder (see BENCHMARKS.md).
let package = Package(
    name: "pongd-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "Codecs",
            dependencies: [
                .product(name: "BounceDetector", package: "main"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Codecs",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Detector",
            dependencies: [
                .product(name: "BounceDetector", package: "main"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Detector",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
