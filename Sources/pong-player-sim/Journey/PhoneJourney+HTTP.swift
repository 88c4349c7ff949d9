import PongWire

extension PhoneJourney.HTTPCall {
    /// The request of this call: method, path and JSON body.
    var request: (method: String, path: String, json: String) {
        switch self {
        case .guest:
            return ("POST", "/auth/guest", "{}")
        case .signup(let body):
            return ("POST", "/auth/signup", Self.json(body))
        case .profile(let body):
            return ("POST", "/users/profile", Self.json(body))
        case .join(let code):
            return ("POST", "/sessions/\(code)/join", "")
        case .streamsStart(let body):
            return ("POST", "/streams/start", Self.streamsStartJSON(body))
        }
    }

    /// `streams/start` with explicit `null`s (the synthesized encoder would leave a nil track out).
    static func streamsStartJSON(_ body: StreamStartRequest) -> String {
        let video = body.video.map(json) ?? "null"
        let audio = body.audio.map(json) ?? "null"
        return #"{"audio":\#(audio),"sessionCode":\#(json(body.sessionCode)),"video":\#(video)}"#
    }

    /// Compact JSON with sorted keys.
    static func json(_ value: some Encodable) -> String {
        (try? MessageCodec.encodeJSON(value)) ?? "{}"
    }
}
