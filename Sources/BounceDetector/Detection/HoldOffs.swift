/// When a stream's detector may trigger again and when its background may adapt again, and how the hold-offs a weak
/// candidate set are undone. Frames are the stream's own (mono) sample counts.
struct HoldOffs {
    /// No new trigger before this frame (a dropped ball's fastest bounces are 40 ms apart).
    private(set) var refractoryUntil: Int64 = 0
    /// The background stays frozen until here (an impact and its first reflections are sounding).
    private(set) var quietUntil: Int64 = 0
    /// The hold-offs in force before the last weak candidate (see `TriggerEvidence`).
    private(set) var beforeWeak: (refractory: Int64, quiet: Int64) = (0, 0)
    /// The last candidate was weak and rejected: a whole-band trigger may take its place from `beforeWeak` on
    /// (`DetectorParameters.racketUpgrade` bit 4).
    var weakReleased = false

    /// Whether a trigger at `frame` is held off.
    func refractory(at frame: Int64) -> Bool { frame < refractoryUntil }

    /// Whether the background may adapt at `frame`.
    func adapting(at frame: Int64) -> Bool { frame >= quietUntil }

    /// Whether a whole-band trigger at `frame` may replace a rejected weak candidate.
    func mayReplaceReleased(at frame: Int64) -> Bool { weakReleased && frame >= beforeWeak.refractory }

    /// Remembers the hold-offs before a weak candidate, to undo its own if it is rejected.
    mutating func saveBeforeWeak() { beforeWeak = (refractoryUntil, quietUntil) }

    /// Holds off triggers for `refractory` frames and adaptation for `quiet` frames from `onset`.
    mutating func commit(onset: Int64, refractory: Int64, quiet: Int64) {
        weakReleased = false
        refractoryUntil = onset + refractory
        quietUntil = onset + quiet
    }

    /// Undoes a rejected weak candidate's hold-offs: as if it had not been.
    mutating func restoreBeforeWeak() { (refractoryUntil, quietUntil) = beforeWeak }

    /// Ends the refractory at `frame` (a rejected candidate that was no abrupt onset holds nothing off).
    mutating func endRefractory(at frame: Int64) { refractoryUntil = min(refractoryUntil, frame) }
}

/// What a stream has learned of its own balls: how far they clear its room and how strongly they trigger.
struct StreamTypicals {
    /// Running mean of the attack (dB) of the balls this stream has reported: how far its balls clear its room.
    /// Starts as if one ball had cleared a quiet room by 24 dB (balls do by ≈ 30 at 20 dB SNR, ≈ 15 at 0 dB), so
    /// the gate starts at `minimumAttackDB` and reaches a loud room's within three balls.
    private(set) var attackDB: Float = 24
    /// Running mean of the trigger flux of the balls this stream has reported (starts where a quiet room puts it).
    private(set) var flux: Float = 100
    /// Balls this stream has reported (the weight of the typical attack's first steps).
    private(set) var balls = 0
    /// The typical attack starts as a plain mean of the first balls (`DetectorParameters.warmStart`).
    let warmStart: Bool

    init(warmStart: Bool) { self.warmStart = warmStart }

    /// Learns from a reported ball. Each ball teaches the typical attack: a plain mean over the first balls (the
    /// quiet-room prior counts as one), then a running mean over about ten, each step clamped to 10 dB so one loud
    /// or faint ball moves it little. The typical flux follows at a tenth per ball (faster, it let more of a loud
    /// room's bursts trigger).
    mutating func learn(attackDB ball: Float, flux trigger: Float) {
        let weight = warmStart ? max(0.1, 1 / Float(balls + 2)) : 0.1
        balls += 1
        attackDB += weight * min(10, max(-10, ball - attackDB))
        flux += 0.1 * (min(2 * flux, max(0.5 * flux, trigger)) - flux)
    }
}
