/// The stream's own table bounce and racket hit, named by the game's rules rather than by any one ball's timbre.
///
/// Every rally starts with a serve: a racket hit after a pause, then the ball bounces on the server's side 80–260 ms
/// later and on the far side after a longer gap; from then on hits and bounces alternate. A ball dropped on the
/// table bounces ever faster. That order is the first answer (the *prior*): after `pause` of silence an impact is
/// the serve (racket), the next two are table when the first follows it within `serveBounce`, an impact that
/// continues a speeding-up run is table, and any other is the kind the last one was not — once the stream has
/// shown a serve (below); until then only a speeding-up run is named by the order, the rest by the caller.
/// The order also teaches: once a rally opens that way — a third impact after a longer gap than the second (a
/// dropped ball's next gap is shorter, so a drop teaches nothing) — the first is this stream's racket and the other
/// two its table, and the impact after them, the receiver's return, its racket too (the other player's bat, which
/// the serves alone may seldom show). Each kind keeps running means of the shape of its impacts' seven onset band
/// levels (`ImpactFeatures.bandLevelsDB`, less their mean), one per timbre it has shown (`ShapeTemplates`, up to
/// `Settings.templates`: two players' bats ring apart, and one mean of both lies near neither); once both kinds are
/// taught, an impact within `shownDB` of some template and nearer one kind's nearest template than the other's by
/// `marginDB` is that kind, whatever the order says (a missed impact or a false alarm breaks the alternation, not
/// the templates). No centroid, no level: a table and a bat the detector never heard are named as well as the ones
/// it was tuned on. Pure and allocation-free.
struct StreamKinds {
    /// When a rally may start (samples of silence before its serve; 0 = off), how soon the serve's first bounce
    /// follows it (samples), the margin that makes a template's answer (dB RMS over the bands), how many
    /// impacts a template's running mean spans, and whether a serve's return teaches the racket (see the type).
    struct Settings {
        var pause: Int64
        var serveBounce: ClosedRange<Int64>
        var marginDB: Float
        var memory: Int
        var returnTeaches: Bool
        /// Whether a serve's two bounces are named table by their timing before any serve has taught the kinds (the
        /// serve itself, a lone impact until its bounces come, and the rest of the order wait for a taught serve).
        var serveBouncesUntaught: Bool
        /// Templates each kind keeps, one per timbre it shows (`ShapeTemplates`), how far apart (dB) two must lie,
        /// and how much farther (dB over the square root of its balls) a template counts as lying when it is compared.
        var templates = 1
        var splitDB: Float = StreamTypicals.splitDB
        var uncertaintyDB: Float = 0
        /// How near (dB, uncertainty included) an impact must lie to some template of either kind for the shapes to
        /// name it: farther from all of them it is a timbre the stream has not shown, and the order of play names it
        /// (0 = any distance).
        var shownDB: Float = 0
    }

    let settings: Settings
    /// Onset bands in use at this rate (lanes past them are ignored).
    let bands: Int
    private(set) var racket: ShapeTemplates
    private(set) var table: ShapeTemplates
    private var lastOnset: Int64?
    /// The gap before the last impact, the last impact's kind, and its place in the rally (1 = the serve).
    private var lastGap: Int64 = .max
    private var lastKind: ImpactKind?
    private var place = 0
    /// The rally's first impacts' onsets and shapes (three are needed to teach).
    private var opening: (count: Int, onsets: SIMD3<Int64>, first: SIMD8<Float>, second: SIMD8<Float>) =
        (0, .zero, .zero, .zero)

    init(settings: Settings, bands: Int) {
        self.settings = settings
        self.bands = min(bands, 8)
        racket = ShapeTemplates(capacity: settings.templates, splitDB: settings.splitDB, bands: bands)
        table = racket
    }

    /// The kind of an impact at `onset` whose onset bands rose to `levels`; `speedingRun` when it continues a run
    /// that speeds up (a dropped ball); `otherwise` when the stream cannot tell (off, or nothing before it).
    func kind(of levels: SIMD8<Float>, at onset: Int64, speedingRun: Bool = false,
              otherwise: ImpactKind) -> ImpactKind {
        guard settings.pause > 0 else { return otherwise }
        if let toRacket = racket.nearest(to: levels, uncertaintyDB: settings.uncertaintyDB)?.spreadDB,
           let toTable = table.nearest(to: levels, uncertaintyDB: settings.uncertaintyDB)?.spreadDB {
            // The shapes' distance, whatever the level (a level is no evidence of a kind); a shape far from every
            // template is no evidence either.
            let shown = settings.shownDB <= 0 || min(toRacket, toTable) <= settings.shownDB
            if shown, abs(toRacket - toTable) >= settings.marginDB { return toRacket < toTable ? .racket : .table }
        }
        return prior(at: onset, speedingRun: speedingRun) ?? otherwise
    }

    /// Whether an onset falls where a serve's first bounce is due: the last impact was a serve (it came after `pause`
    /// of silence and nothing has followed it) and the onset is `serveBounce` after it. False when off.
    func servesBounceDue(at onset: Int64) -> Bool {
        guard settings.pause > 0, place == 1, let lastOnset else { return false }
        return settings.serveBounce.contains(onset - lastOnset)
    }

    /// What the order of play says of an impact at `onset`.
    private func prior(at onset: Int64, speedingRun: Bool) -> ImpactKind? {
        if speedingRun { return .table }
        let gap = lastOnset.map { onset - $0 } ?? .max
        let serveBounce = place == 1 && settings.serveBounce.contains(gap)
            || place == 2 && settings.serveBounce.contains(lastGap)
        // Only a stream whose rallies have shown a serve is playing by those rules (else a lone impact may be a
        // ball bounced before serving, or dropped, and two may be anything): until then the timbre names it, but
        // for the two bounces a serve's timing gives (`serveBouncesUntaught`): whatever the first impact after a
        // pause was, the impact 80-260 ms after it and the one after that are its ball landing on the table.
        guard racket.count > 0 else { return settings.serveBouncesUntaught && serveBounce ? .table : nil }
        if gap >= settings.pause { return .racket }
        if serveBounce { return .table }
        switch lastKind {
        case .racket: return .table
        case .table: return .racket
        default: return nil
        }
    }

    /// Records a reported impact and the kind it was reported as; a serve's opening teaches both kinds.
    mutating func report(_ onset: Int64, levels: SIMD8<Float>, kind: ImpactKind) {
        guard settings.pause > 0 else { return }
        let gap = lastOnset.map { onset - $0 } ?? .max
        defer {
            lastOnset = onset
            lastGap = gap
            lastKind = kind
        }
        if gap >= settings.pause {
            place = 1
            opening = (1, SIMD3(onset, 0, 0), levels, .zero)
            return
        }
        place += 1
        switch opening.count {
        case 1:
            opening.count = 2
            opening.onsets[1] = onset
            opening.second = levels
        case 2:
            opening.count = 3
            let first = opening.onsets[1] - opening.onsets[0], second = onset - opening.onsets[1]
            if settings.serveBounce.contains(first), second > first {
                racket.learn(opening.first, memory: settings.memory)
                table.learn(opening.second, memory: settings.memory)
                table.learn(levels, memory: settings.memory)
                opening.count = settings.returnTeaches ? 4 : 3
            }
        case 4:
            // The serve's opening was confirmed: the next impact is the receiver's return (the other player's bat).
            opening.count = 5
            racket.learn(levels, memory: settings.memory)
        default:
            break
        }
    }
}
