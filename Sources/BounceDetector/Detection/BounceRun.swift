/// A ball dropped or rolled on a table bounces ever faster and ever softer: each gap a little shorter than the one
/// before (a bounce keeps ≈ 0.8–0.95 of its speed), down to a few tens of milliseconds. Once two impacts came less
/// than `longestGap` apart, the next one is expected a little sooner again; a candidate in that window continues
/// the run (`CandidateRules.continuesRun`). A rally's shots (0.3–0.9 s apart, serve and return no faster than the
/// last) rarely fall in it, nor do a few stray sounds after one ball. Frames are the stream's own sample counts.
struct BounceRun {
    /// Longest gap between two impacts of a run (0 = runs off).
    let longestGap: Int64
    /// The next gap may be up to this multiple of the last one…
    let slowest: Double
    /// …and no shorter than this multiple of it.
    let fastest: Double
    private var last = Int64.min / 2
    private var gap = Int64.max

    init(longestGap: Int64, slowest: Double, fastest: Double) {
        self.longestGap = longestGap
        self.slowest = slowest
        self.fastest = fastest
    }

    /// Whether an onset at `frame` falls where the run's next bounce is due.
    func continues(at frame: Int64) -> Bool {
        guard longestGap > 0, gap <= longestGap else { return false }
        let next = Double(frame - last)
        return next <= Double(longestGap) && next <= slowest * Double(gap) && next >= fastest * Double(gap)
    }

    /// Records a reported impact at `frame`. A gap in a run at least `missedBounce` times the last one spanned a
    /// bounce that was not reported: the run's pace is half of it (else the bounce after it, due in about half that
    /// gap, would fall under `fastest` and end the run).
    mutating func report(_ frame: Int64) {
        let newGap = frame - last
        let inRun = gap <= longestGap && Double(newGap) <= slowest * Double(gap)
        gap = inRun && Double(newGap) >= Self.missedBounce * Double(gap) ? newGap / 2 : newGap
        last = frame
    }

    /// See `report`: a bounce keeps 0.8–0.95 of its pace, so two gaps span 1.6–1.9 of the last one.
    static let missedBounce = 1.5
}
