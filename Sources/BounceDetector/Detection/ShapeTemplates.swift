/// Up to four running means of onset band levels (`ImpactFeatures.bandLevelsDB`), one per timbre a stream has shown:
/// a ball whose shape lies more than `splitDB` from every template starts another while there is room, else it teaches
/// the nearest. One table and one bat make one template each; two players' bats, or a ball that rings on two tables,
/// make two, and a single mean of both would lie between them, near neither. Shapes are compared whatever the level
/// (`BounceRun.difference`: the spread of the band differences about their mean). Pure and allocation-free.
struct ShapeTemplates {
    /// One template: the running mean of the band levels it was taught (`StreamTypicals.teach`).
    struct Template {
        var levels = SIMD8<Float>.zero
        var count = 0
    }

    /// The most templates any stream keeps.
    static let maximumCapacity = 4

    /// How many templates this one keeps (1…`maximumCapacity`).
    let capacity: Int
    /// How far (dB) a shape must lie from every template (more than this) to start another.
    let splitDB: Float
    /// Onset bands compared (lanes past them are ignored).
    let bands: Int
    /// Balls taught, over every template.
    private(set) var count = 0
    /// Templates started so far.
    private(set) var started = 0
    private var first = Template(), second = Template(), third = Template(), fourth = Template()

    init(capacity: Int, splitDB: Float, bands: Int) {
        self.capacity = min(max(capacity, 1), Self.maximumCapacity)
        self.splitDB = splitDB
        self.bands = min(max(bands, 1), 8)
    }

    /// The `index`th template started (0 ..< `started`).
    subscript(index: Int) -> Template {
        get {
            switch index {
            case 0: first
            case 1: second
            case 2: third
            default: fourth
            }
        }
        set {
            switch index {
            case 0: first = newValue
            case 1: second = newValue
            case 2: third = newValue
            default: fourth = newValue
            }
        }
    }

    /// The nearest template to `levels` and its distance (dB RMS about the mean difference); nil before the first.
    /// `uncertaintyDB`: each template counts as lying this much farther over the square root of the balls it was
    /// taught (a mean of few balls is known less well: the first ball of an odd strike is no template yet).
    func nearest(to levels: SIMD8<Float>, uncertaintyDB: Float = 0) -> (index: Int, spreadDB: Float)? {
        guard started > 0 else { return nil }
        var best = (index: 0, spreadDB: Float.infinity)
        for index in 0..<started {
            let template = self[index]
            var spread = BounceRun.difference(levels, from: template.levels, bands: bands).spread
            if uncertaintyDB > 0 { spread += uncertaintyDB / Float(template.count).squareRoot() }
            if spread < best.spreadDB { best = (index, spread) }
        }
        return best
    }

    /// Teaches one more ball over about `memory` (`StreamTypicals.teach`): the nearest template, or a new one when
    /// the ball lies more than `splitDB` from every template and there is room.
    mutating func learn(_ ball: SIMD8<Float>, memory: Int) {
        count += 1
        var index = started
        if let near = nearest(to: ball), near.spreadDB <= splitDB || started == capacity { index = near.index }
        if index == started { started += 1 }
        var template = self[index]
        StreamTypicals.teach(&template.levels, &template.count, ball, memory: memory)
        self[index] = template
    }
}
