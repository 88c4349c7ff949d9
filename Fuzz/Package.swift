// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// A path dependency's identity is its folder's name, so the root package is named after wherever the repository
/// was cloned (`main`, `pongd`, …), not after its manifest's `name`.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

/// libFuzzer harnesses for BounceDetector's file readers (docs/SECURITY.md, "Fuzzing"): a package of their own so
/// the sanitizer build compiles BounceDetector alone, not SessionHub, NIO, GRDB or swift-crypto.
///
/// Build with `swift build -c release --package-path Fuzz --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address` (swiftc
/// keeps only the last of several `-sanitize=` flags, and `--sanitize fuzzer --sanitize address` passes them in a
/// random order); run with `.ci/fuzz` or by hand (`Fuzz/.build/release/fuzz-wav /tmp/wav Fuzz/Corpus/wav`).
let package = Package(
    name: "pongd-fuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
    ],
    targets: [
        /// What every harness checks, and the Ogg page-checksum repair.
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "BounceDetector", package: root)]
        ),
        /// `WAVFile`: RIFF/RF64 chunks, fmt (plain and extensible), data, PCM conversion.
        .executableTarget(
            name: "fuzz-wav",
            dependencies: ["FuzzSupport", .product(name: "BounceDetector", package: root)]
        ),
        /// `OggOpusFile`: Ogg pages and packets, OpusHead/OpusTags, libopus decoding, pre-skip and end trimming.
        .executableTarget(
            name: "fuzz-ogg",
            dependencies: ["FuzzSupport", .product(name: "BounceDetector", package: root)]
        ),
        /// `ADTSFile`: ADTS headers and frame splitting, libavcodec's AAC decoder.
        .executableTarget(
            name: "fuzz-adts",
            dependencies: ["FuzzSupport", .product(name: "BounceDetector", package: root)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
