import _CryptoExtras
import Crypto
import PongWire

/// scrypt password hashes (swift-crypto's `KDF.Scrypt`), stored as
/// `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` with base64url salt (16 random bytes) and hash (32 bytes).
///
/// Hashing is slow on purpose (~32 MiB and tens of ms with the defaults): run it off event loops.
package struct PasswordHasher: Sendable {
    /// scrypt cost: N = 2^`logRounds`, block size r, parallelism p. Memory is 128 · N · r · p bytes.
    package struct Parameters: Hashable, Sendable {
        /// log2 of N.
        package var logRounds: Int
        /// r.
        package var blockSize: Int
        /// p.
        package var parallelism: Int

        package init(logRounds: Int, blockSize: Int, parallelism: Int) {
            self.logRounds = logRounds
            self.blockSize = blockSize
            self.parallelism = parallelism
        }

        /// N = 2^15, r = 8, p = 1 (32 MiB): the usual interactive-login setting.
        package static let standard = Parameters(logRounds: 15, blockSize: 8, parallelism: 1)

        /// Bounds accepted when reading a stored hash, so a corrupt row cannot ask for unbounded work.
        var isWithinLimits: Bool {
            (1...20).contains(logRounds) && (1...32).contains(blockSize) && (1...16).contains(parallelism)
        }
    }

    /// Bytes of random salt.
    package static let saltBytes = 16
    /// Bytes of derived hash.
    package static let hashBytes = 32

    /// Cost of new hashes.
    package let parameters: Parameters

    package init(parameters: Parameters = .standard) {
        self.parameters = parameters
    }

    /// A stored-form hash of `password` with a salt drawn from `random` (pass a `SystemRandomNumberGenerator`).
    /// Fails with `.internal` only if scrypt itself fails (parameters out of range).
    package func hash(_ password: String, using random: inout some RandomNumberGenerator) throws(APIError) -> String {
        let salt = (0..<Self.saltBytes).map { _ in UInt8.random(in: .min ... .max, using: &random) }
        guard let derived = Self.derive(password, salt: salt, parameters: parameters, length: Self.hashBytes) else {
            throw .internal
        }
        return Self.format(parameters, salt: salt, hash: derived)
    }

    /// True when `password` matches the stored hash `stored` (compared in constant time); false for a wrong
    /// password and for a stored value that is not a well-formed hash within the parameter limits.
    package func verify(_ password: String, against stored: String) -> Bool {
        guard let parsed = Self.parse(stored),
              let derived = Self.derive(password, salt: parsed.salt, parameters: parsed.parameters,
                                        length: parsed.hash.count)
        else { return false }
        var difference: UInt8 = 0
        for index in derived.indices { difference |= derived[index] ^ parsed.hash[index] }
        return difference == 0
    }

    /// True when `stored` was made with other parameters than `parameters` (rehash at the next login).
    package func needsRehash(_ stored: String) -> Bool {
        Self.parse(stored)?.parameters != parameters
    }

    private static func derive(_ password: String, salt: [UInt8], parameters: Parameters, length: Int) -> [UInt8]? {
        let bytes = Array(password.utf8)
        guard !bytes.isEmpty, !salt.isEmpty, parameters.isWithinLimits else { return nil }
        guard let key = try? KDF.Scrypt.deriveKey(
            from: bytes, salt: salt, outputByteCount: length, rounds: 1 << parameters.logRounds,
            blockSize: parameters.blockSize, parallelism: parameters.parallelism)
        else { return nil }
        return key.withUnsafeBytes { Array($0) }
    }

    private static func format(_ parameters: Parameters, salt: [UInt8], hash: [UInt8]) -> String {
        "$scrypt$ln=\(parameters.logRounds),r=\(parameters.blockSize),p=\(parameters.parallelism)$"
            + Base64.urlEncoded(salt) + "$" + Base64.urlEncoded(hash)
    }

    private static func parse(_ stored: String) -> (parameters: Parameters, salt: [UInt8], hash: [UInt8])? {
        let fields = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 5, fields[0].isEmpty, fields[1] == "scrypt" else { return nil }
        var values: [Substring: Int] = [:]
        for setting in fields[2].split(separator: ",") {
            let pair = setting.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, let value = Int(pair[1]) else { return nil }
            values[pair[0]] = value
        }
        guard values.count == 3, let logRounds = values["ln"], let blockSize = values["r"],
              let parallelism = values["p"],
              let salt = Base64.urlDecoded(String(fields[3])), salt.count >= 4,
              let hash = Base64.urlDecoded(String(fields[4])), (16...64).contains(hash.count)
        else { return nil }
        let parameters = Parameters(logRounds: logRounds, blockSize: blockSize, parallelism: parallelism)
        guard parameters.isWithinLimits else { return nil }
        return (parameters, salt, hash)
    }
}
