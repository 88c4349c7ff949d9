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
