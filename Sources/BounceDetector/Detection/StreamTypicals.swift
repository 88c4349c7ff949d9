/// What a stream has learned of its own balls: how far they clear its room and how strongly they trigger.
struct StreamTypicals {
    /// Running mean of the attack (dB) of the balls this stream has reported: how far its balls clear its room.
    /// Starts at `DetectorParameters.typicalStartAttackDB` (24: a quiet room; balls clear one by ≈ 30 at 20 dB SNR,
    /// ≈ 15 at 0 dB), so the gate starts at `minimumAttackDB`; the first ball replaces it (`priorWeight` 0).
    private(set) var attackDB: Float
    /// Running mean of the excess centroid (Hz) of the balls this stream has reported (0 before the first), weighted
    /// as the typical attack.
    private(set) var centroidHz: Float = 0
    /// Running mean of the excess centroid (Hz) of the reported balls at least as bright as `centroidHz` was when
    /// each came (0 before the first): how bright the stream's brighter balls ring, whichever kind they are (a table
    /// bounce may ring twice as bright as a racket hit). A plain mean of the first ten, then over about ten.
    private(set) var brightCentroidHz: Float = 0
    private var brightBalls = 0
    /// Running mean of the trigger flux of the balls this stream has reported (starts at
    /// `DetectorParameters.typicalStartFlux`, where the trigger floor it sets is still `minimumFlux`).
    private(set) var flux: Float
    /// Balls this stream has reported (the weight of the typical attack's first steps).
    private(set) var balls = 0
    /// Mean band levels (`ImpactFeatures.bandLevelsDB`) of the balls this stream has reported: a plain mean of the
    /// first ten, then a running mean over about ten. The same ball, table and rackets heard through the same phone
    /// in the same room: the stream's own template of a ball.
    private(set) var levels = SIMD8<Float>(repeating: 0)
    private var levelBalls = 0
    /// The same, kept apart for each timbre the stream's balls have shown (`ShapeTemplates`, up to `timbres`): a table
    /// bounce and a racket hit may ring in different bands, and two bats, or two balls, apart again.
    private var timbreLevels: ShapeTemplates
    /// The typical attack starts as a plain mean of the first balls (`DetectorParameters.warmStart`).
    let warmStart: Bool
    /// How many balls the starting typical attack counts as in that mean (`DetectorParameters.typicalPriorWeight`).
    let priorWeight: Float
    /// Whether the typical flux learns with the typical attack's weights (`DetectorParameters.typicalFluxWarmStart`).
    let fluxWarmStart: Bool
    /// Templates of the stream's balls that `resembles` asks (1: all balls', or more: each timbre's).
    let templates: Int
    /// How far (dB) a ball's shape must lie from every timbre's template to start another (`timbreLevels`).
    static let splitDB: Float = 3

    /// Onset bands at this rate (`OnsetBands`): the lanes past them are −∞ and no shape is compared there.
    let bands: Int

    init(warmStart: Bool, templates: Int = 1, timbres: Int = 2, bands: Int = 7, startAttackDB: Float = 24,
         priorWeight: Float = 0, fluxWarmStart: Bool = true, startFlux: Float = 44) {
        self.warmStart = warmStart
        self.fluxWarmStart = fluxWarmStart
        flux = startFlux
        attackDB = startAttackDB
        self.priorWeight = priorWeight
        self.templates = templates
        self.bands = min(max(bands, 1), 8)
        timbreLevels = ShapeTemplates(capacity: timbres, splitDB: Self.splitDB, bands: self.bands)
    }

    /// Learns from a reported ball. Each ball teaches the typical attack: a plain mean over the first balls (the
    /// starting prior counts as `priorWeight` balls), then a running mean over about ten, each step clamped to 10 dB
    /// so one loud or faint ball moves it little. The typical flux follows at a tenth per ball (faster, it let more of
    /// a loud room's bursts trigger); with `fluxWarmStart` it learns with the typical attack's weights instead (each
    /// step still clamped to half or twice the typical). The typical centroid learns with the attack's weights, the
    /// first ball's replacing the 0 it starts from.
    mutating func learn(attackDB ball: Float, flux trigger: Float,
                        levels ballLevels: SIMD8<Float> = SIMD8(repeating: 0), centroidHz: Float = 0) {
        let weight = warmStart ? max(0.1, 1 / (Float(balls + 1) + priorWeight)) : 0.1
        if centroidHz.isFinite, centroidHz > 0 {
            if centroidHz >= self.centroidHz {
                brightBalls += 1
                brightCentroidHz += Self.weight(count: brightBalls, memory: 10) * (centroidHz - brightCentroidHz)
            }
            self.centroidHz += (self.centroidHz == 0 ? 1 : weight) * (centroidHz - self.centroidHz)
        }
        balls += 1
        attackDB += weight * min(10, max(-10, ball - attackDB))
        flux += (fluxWarmStart ? weight : 0.1) * (min(2 * flux, max(0.5 * flux, trigger)) - flux)
        Self.teach(&levels, &levelBalls, ballLevels)
        timbreLevels.learn(ballLevels, memory: 10)
    }

    /// The brighter balls' centroid (`brightCentroidHz`) once the stream has reported `minimumBalls`, else 0.
    func brightestCentroidHz(minimumBalls: Int) -> Float { balls >= minimumBalls ? brightCentroidHz : 0 }

    /// Teaches a template of band levels one more ball: a plain mean of the first `memory`, then a running mean over
    /// about `memory` (lanes not finite are left as they were).
    static func teach(_ template: inout SIMD8<Float>, _ count: inout Int, _ ball: SIMD8<Float>, memory: Int = 10) {
        count += 1
        let weight = weight(count: count, memory: memory)
        for band in 0..<8 where ball[band].isFinite {
            template[band] += weight * (ball[band] - template[band])
        }
    }

    /// The step of a running mean at its `count`th sample: a plain mean of the first `memory`, then over about
    /// `memory`.
    static func weight(count: Int, memory: Int) -> Float { max(1 / Float(max(memory, 1)), 1 / Float(max(count, 1))) }

    /// Whether band levels sound like this stream's balls: over the first `bands`, their differences from the
    /// template (`templates` 1: all balls'; more: any timbre's) spread by at most `shapeDB` (RMS about their mean),
    /// whatever the level. False before `minimumBalls` balls.
    func resembles(_ candidate: SIMD8<Float>, bands: Int, shapeDB: Float, minimumBalls: Int = 3) -> Bool {
        guard shapeDB > 0, balls >= minimumBalls else { return false }
        return templates > 1
            ? resemblesAnyTimbre(candidate, shapeDB: shapeDB, minimumBalls: minimumBalls)
            : BounceRun.difference(candidate, from: levels, bands: bands).spread <= shapeDB
    }

    /// Whether band levels sound like any timbre of this stream's balls (`timbreLevels`), as `resembles` does.
    func resemblesAnyTimbre(_ candidate: SIMD8<Float>, shapeDB: Float, minimumBalls: Int = 3) -> Bool {
        guard shapeDB > 0, balls >= minimumBalls, let nearest = timbreLevels.nearest(to: candidate) else { return false }
        return nearest.spreadDB <= shapeDB
    }

    /// How a candidate's band levels compare with the stream's balls, for `CandidateRules`: `like` them
    /// (`DetectorParameters.streamLikeShapeDB`), or, once the stream has three, `unlike` every timbre
    /// (`clearLikeShapeDB`).
    func shape(of candidate: SIMD8<Float>, bands: Int, parameters: DetectorParameters) -> (like: Bool, unlike: Bool) {
        (resembles(candidate, bands: bands, shapeDB: parameters.streamLikeShapeDB,
                   minimumBalls: parameters.streamLikeMinimumBalls),
         parameters.clearLikeShapeDB > 0 && balls >= 3
             && !resemblesAnyTimbre(candidate, shapeDB: parameters.clearLikeShapeDB))
    }
}
