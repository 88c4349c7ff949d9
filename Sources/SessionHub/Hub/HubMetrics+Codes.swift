import PongWire

/// The fixed sets of codes whose counters `HubMetrics` makes up front.
extension HubMetrics {
    /// Every code a dropped media frame is counted under (`pongd_media_frames_rejected_total`): the media errors,
    /// and a frame out of place (before `hello`, from a dashboard).
    static let mediaRejectionCodes: [String] =
        (APIError.media + [.outOfOrder(""), .dashboardReadOnly]).map(\.code)

    /// Every code pongd sends in an error, HTTP or WebSocket (`pongd_errors_total`).
    static let errorCodes: [String] = APIError.all.map(\.code)

    /// `exposition` (Prometheus text) without the series of `families` whose value is 0, and without the `# TYPE`
    /// line of such a family left with no series: counters made up front show once they count, exactly as counters
    /// made on first use did. (A counter only grows, so a by-code series at 0 has never counted.)
    static func droppingZeroSeries(of families: [String], from exposition: [UInt8]) -> [UInt8] {
        let typeLines = Set(families.map { "# TYPE \($0) counter" })
        let seriesPrefixes = families.map { "\($0){" }
        var out = ""
        out.reserveCapacity(exposition.count)
        var heldType: Substring?
        for line in String(decoding: exposition, as: UTF8.self).split(separator: "\n") {
            if typeLines.contains(String(line)) {
                heldType = line
                continue
            }
            if seriesPrefixes.contains(where: { line.hasPrefix($0) }) {
                if line.hasSuffix("} 0") { continue }
                if let type = heldType { out += type + "\n" }
                heldType = nil
            } else {
                heldType = nil
            }
            out += line + "\n"
        }
        return Array(out.utf8)
    }
}
