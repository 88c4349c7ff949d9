/// Number texts for messages, without Foundation's formatters.
enum Format {
    /// `12.4`, `5.0`.
    static func oneDecimal(_ value: Double) -> String {
        guard value.isFinite, value > 0, value < 1e15 else { return "0.0" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `42`.
    static func whole(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "0" }
        return "\(Int(value.rounded()))"
    }
}
