import Testing
@testable import BounceDetector

@Suite("Shape templates: one running mean per timbre a stream has shown")
struct ShapeTemplatesTests {
    /// Three made-up shapes over seven bands (dB): far apart (6–10 dB RMS about their mean difference).
    private let low = SIMD8<Float>(-10, -12, -16, -20, -24, -28, -30, -.infinity)
    private let high = SIMD8<Float>(-30, -26, -20, -14, -12, -10, -12, -.infinity)
    private let middle = SIMD8<Float>(-22, -18, -12, -12, -18, -22, -26, -.infinity)

    @Test("a shape farther than the split from every template starts another; a near one teaches the nearest")
    func startsAnotherForAnotherTimbre() {
        var templates = ShapeTemplates(capacity: 3, splitDB: 3, bands: 7)
        #expect(templates.nearest(to: low) == nil)
        templates.learn(low, memory: 8)
        templates.learn(low + 1, memory: 8)
        #expect(templates.started == 1, "the same shape a dB louder is the same timbre")
        templates.learn(high, memory: 8)
        templates.learn(middle, memory: 8)
        #expect(templates.started == 3 && templates.count == 4)
        #expect(templates.nearest(to: high)?.index == 1 && templates.nearest(to: middle)?.index == 2)
        #expect((templates.nearest(to: high)?.spreadDB ?? 1) < 0.01, "whatever the level")
    }

    @Test("at capacity a new timbre teaches the nearest template (two templates: the old two-kind split)")
    func capacityHolds() {
        var templates = ShapeTemplates(capacity: 2, splitDB: 3, bands: 7)
        for shape in [low, high, middle] { templates.learn(shape, memory: 8) }
        #expect(templates.started == 2 && templates[0].count + templates[1].count == 3)
    }

    @Test("""
        a template taught by few balls counts as lying farther (uncertainty over the square root of its balls): an odd \
        first strike taught once loses to a template four balls have taught that lies 0.4 dB farther
        """)
    func uncertaintyFavoursTheWellTaught() {
        var templates = ShapeTemplates(capacity: 2, splitDB: 3, bands: 7)
        templates.learn(low, memory: 8)
        for _ in 0..<4 { templates.learn(high, memory: 8) }
        let between = (low + high) / 2 + SIMD8<Float>(0.1, 0, 0, 0, 0, 0, -0.1, 0)
        let near = templates.nearest(to: between)
        let spreadToLow = BounceRun.difference(between, from: low, bands: 7).spread
        let spreadToHigh = BounceRun.difference(between, from: high, bands: 7).spread
        #expect(spreadToLow < spreadToHigh && near?.index == 0, "plain distance: the once-taught one")
        #expect(templates.nearest(to: between, uncertaintyDB: 1)?.index == 1, "1 dB / sqrt(1) against 1 dB / sqrt(4)")
    }
}
