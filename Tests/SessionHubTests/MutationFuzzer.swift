import CAudio
import Foundation
import Testing

/// A seeded mutation fuzzer for SessionHub's parsers, which libFuzzer's sanitizer build does not reach (it would have
/// to build NIO, GRDB and swift-crypto in release: docs/SECURITY.md, "Fuzzing").
///
/// Inputs are the committed seeds of `Fuzz/Corpus/<name>/` mutated 1–4 times (bit flips, interesting integers,
/// insertions, deletions, duplicated ranges, dictionary tokens, splices with another seed), the seeds themselves
/// first. Everything follows from one 64-bit seed, so a failure replays exactly. By default each target runs
/// `defaultIterations` inputs (a second or two in the normal suite); the environment changes that:
/// - `PONGD_FUZZ_SECONDS=S`: run each target for S seconds instead (`.ci/fuzz` does);
/// - `PONGD_FUZZ_SEED=N`: another seed (the default is fixed, so the suite is deterministic);
/// - `PONGD_FUZZ_SAVE=DIR`: write each input to `DIR/<name>` before it is parsed; after a crash the file holds the
///   input that crashed it.
struct MutationFuzzer {
    /// Inputs per target in the normal test run.
    static let defaultIterations = 3000

    private var random: SplitMix64
    private let seeds: [[UInt8]]
    private let dictionary: [[UInt8]]

    /// A fuzzer over `seeds` (at least one), inserting `dictionary` tokens among its mutations.
    init(seed: UInt64, seeds: [[UInt8]], dictionary: [[UInt8]]) {
        random = SplitMix64(seed: seed)
        self.seeds = seeds
        self.dictionary = dictionary
    }

    /// Input number `iteration`: the seeds as they are first, then mutants.
    mutating func input(_ iteration: Int) -> [UInt8] {
        if iteration < seeds.count { return seeds[iteration] }
        var bytes = seeds[random.below(seeds.count)]
        for _ in 0...random.below(4) { mutate(&bytes) }
        return bytes
    }

    private mutating func mutate(_ bytes: inout [UInt8]) {
        let interesting: [UInt64] = [0, 1, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000,
                                     0xFFFF_FFFF, .max, .max >> 1]
        switch random.below(10) {
        case 0 where !bytes.isEmpty:  // flip a bit
            bytes[random.below(bytes.count)] ^= 1 << UInt8(random.below(8))
        case 1 where !bytes.isEmpty:  // a random byte
            bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next())
        case 2 where !bytes.isEmpty:  // an interesting integer, 1, 2, 4 or 8 bytes, either byte order
            let width = 1 << random.below(4)
            let value = interesting[random.below(interesting.count)]
            let at = random.below(bytes.count)
            let bigEndian = random.below(2) == 0
            for index in 0..<width where at + index < bytes.count {
                let shift = bigEndian ? (width - 1 - index) * 8 : index * 8
                bytes[at + index] = UInt8(truncatingIfNeeded: value >> UInt64(shift))
            }
        case 3:  // insert random bytes
            let count = 1 + random.below(8)
            let insert = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            bytes.insert(contentsOf: insert, at: random.below(bytes.count + 1))
        case 4 where !bytes.isEmpty:  // delete a range
            let start = random.below(bytes.count)
            bytes.removeSubrange(start..<min(bytes.count, start + 1 + random.below(16)))
        case 5 where !bytes.isEmpty:  // duplicate a range elsewhere
            let start = random.below(bytes.count)
            let range = bytes[start..<min(bytes.count, start + 1 + random.below(32))]
            bytes.insert(contentsOf: Array(range), at: random.below(bytes.count + 1))
        case 6 where !dictionary.isEmpty:  // insert a token
            bytes.insert(contentsOf: dictionary[random.below(dictionary.count)], at: random.below(bytes.count + 1))
        case 7 where !dictionary.isEmpty && !bytes.isEmpty:  // overwrite with a token
            let token = dictionary[random.below(dictionary.count)]
            let at = random.below(bytes.count)
            bytes.replaceSubrange(at..<min(bytes.count, at + token.count), with: token)
        case 8:  // truncate
            bytes.removeLast(random.below(bytes.count + 1) / 2)
        default:  // splice with another seed
            let other = seeds[random.below(seeds.count)]
            let cut = random.below(bytes.count + 1)
            bytes = Array(bytes[..<cut]) + other[random.below(other.count + 1)...]
        }
    }
}

extension MutationFuzzer {
    /// Runs `check` on the inputs of target `name` (seeds from `Fuzz/Corpus/<name>/`, `repair` applied to each
    /// mutant, e.g. to fix checksums) for the budget the environment sets; returns the first failure `check`
    /// described, with the input in base64, or nil. A trap in a parser fails the test process itself.
    static func run(_ name: String, dictionary: [[UInt8]] = [], repair: ([UInt8]) -> [UInt8] = { $0 },
                    check: ([UInt8]) -> String?) throws -> String? {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["PONGD_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x504F_4E47_4655_5A5A
        let seconds = environment["PONGD_FUZZ_SECONDS"].flatMap { Double($0) }
        let save = environment["PONGD_FUZZ_SAVE"].map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
        let seeds = try corpus(name)
        var fuzzer = MutationFuzzer(seed: seed, seeds: seeds, dictionary: dictionary)
        // libavcodec logs every bad H.264, PNG or JPEG input it meets: hundreds of thousands of lines a run.
        let logLevel = av_log_get_level()
        av_log_set_level(AV_LOG_QUIET)
        let start = Date()
        var iteration = 0
        defer {
            av_log_set_level(logLevel)
            let elapsed = Date().timeIntervalSince(start)
            print("fuzz \(name): \(iteration) inputs in \(String(format: "%.1f", elapsed)) s "
                  + "(\(Int(Double(iteration) / max(elapsed, 0.001)))/s), seed \(seed)")
        }
        while seconds.map({ Date().timeIntervalSince(start) < $0 }) ?? (iteration < defaultIterations) {
            let raw = fuzzer.input(iteration)
            let input = iteration < seeds.count ? raw : repair(raw)
            if let save { try Data(input).write(to: save) }
            iteration += 1
            if let failure = check(input) {
                return "\(name) input \(iteration - 1) (seed \(seed)): \(failure); input (base64): "
                    + Data(input).base64EncodedString()
            }
        }
        return nil
    }

    /// The seed files of `Fuzz/Corpus/<name>/`, in name order.
    static func corpus(_ name: String) throws -> [[UInt8]] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/\(name)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let seeds = try files.map { [UInt8](try Data(contentsOf: folder.appendingPathComponent($0))) }
        try #require(!seeds.isEmpty, "no seeds in \(folder.path)")
        return seeds
    }
}

/// SplitMix64: a small, fast, seedable generator (the same sequence on every machine).
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound (bound > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
