import Foundation
import PongWire

/// The hash an unknown email's login is verified against, so it costs one scrypt too. It is made on a thread of its
/// own as the server starts (scrypt takes seconds in a debug build): a restart answers without waiting for it, and
/// only a login that needs it before it is made waits.
final class DummyPasswordHash: @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`; nil until made.
    private var made: Result<String, APIError>?

    /// Starts hashing a random password with `parameters`.
    init(parameters: PasswordHasher.Parameters) {
        DispatchQueue.global(qos: .utility).async { [self] in
            var random = SystemRandomNumberGenerator()
            let result = Result { () throws(APIError) in
                try PasswordHasher(parameters: parameters).hash(RandomID.hex(bytes: 16), using: &random)
            }
            condition.lock()
            made = result
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The hash, once made (waits until then).
    func value() throws(APIError) -> String {
        condition.lock()
        defer { condition.unlock() }
        while made == nil { condition.wait() }
        return try made!.get()
    }
}
