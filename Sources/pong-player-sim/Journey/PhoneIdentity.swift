/// Who an emulated phone is: a guest or a fresh account, its display name and maybe a photo.
struct PhoneIdentity: Hashable, Sendable {
    /// The phone's number in the run, from 0.
    var index: Int
    /// Sign up with `email`/`password` instead of playing as a guest.
    var signUp: Bool
    /// Display name (≤ 20 characters), also the signup name.
    var displayName: String
    /// Signup email.
    var email: String
    /// Signup password (≥ 10 characters, not common).
    var password: String
    /// Base64 PNG for the profile, or nil.
    var photo: String?

    /// The mix of a run: every `signUpEvery`-th phone signs up (0: none), every third sends a photo.
    /// `runTag` makes emails unique across runs against one server.
    static func make(index: Int, runTag: String, signUpEvery: Int = 10) -> PhoneIdentity {
        let signUp = signUpEvery > 0 && index % signUpEvery == signUpEvery - 1
        return PhoneIdentity(
            index: index, signUp: signUp, displayName: "Sim \(index)",
            email: "sim-\(runTag)-\(index)@example.com", password: "pong-sim-\(runTag)-pass-\(index)",
            photo: index % 3 == 0 ? tinyPNG : nil)
    }

    /// A valid 1×1 PNG, base64.
    static let tinyPNG =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
}
