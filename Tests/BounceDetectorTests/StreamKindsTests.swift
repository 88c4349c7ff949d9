import Testing
@testable import BounceDetector

@Suite("The stream's kinds, named by the order of play")
struct StreamKindsTests {
    private let rate: Int64 = 48000
    /// Two made-up shapes over seven bands: a "low" sound and a "high" one (dB).
    private let low = SIMD8<Float>(-10, -12, -16, -20, -24, -28, -30, -.infinity)
    private let high = SIMD8<Float>(-30, -26, -20, -14, -12, -10, -12, -.infinity)

    private func kinds(returnTeaches: Bool = true, serveBouncesUntaught: Bool = true, templates: Int = 1,
                       uncertaintyDB: Float = 0, shownDB: Float = 0) -> StreamKinds {
        StreamKinds(settings: .init(pause: rate * 3 / 2, serveBounce: rate * 8 / 100...rate * 26 / 100,
                                    marginDB: 1, memory: 8, returnTeaches: returnTeaches,
                                    serveBouncesUntaught: serveBouncesUntaught, templates: templates,
                                    uncertaintyDB: uncertaintyDB, shownDB: shownDB), bands: 7)
    }

    private func seconds(_ s: Double) -> Int64 { Int64(s * Double(rate)) }

    /// A serve (`hit` shape), its two bounces (`bounce` shape) and `shots` more alternating, from `start`; each
    /// impact named by `kinds` and reported as named.
    @discardableResult
    private func rally(_ kinds: inout StreamKinds, from start: Double, hit: SIMD8<Float>, bounce: SIMD8<Float>,
                       shots: Int = 4) -> [ImpactKind] {
        var times = [start, start + 0.18, start + 0.5]
        var shapes = [hit, bounce, bounce]
        for shot in 0..<shots {
            times.append(times.last! + 0.6)
            shapes.append(shot.isMultiple(of: 2) ? hit : bounce)
        }
        var named: [ImpactKind] = []
        for (time, shape) in zip(times, shapes) {
            let kind = kinds.kind(of: shape, at: seconds(time), otherwise: .unknown)
            kinds.report(seconds(time), levels: shape, kind: kind)
            named.append(kind)
        }
        return named
    }

    @Test("a serve teaches the racket's and the table's shapes, whichever sounds higher")
    func serveTeaches() {
        for (hit, bounce) in [(low, high), (high, low)] {
            var kinds = kinds()
            rally(&kinds, from: 1, hit: hit, bounce: bounce)
            #expect(kinds.racket.count == 2 && kinds.table.count == 2, "the serve and its return; two bounces")
            #expect(kinds.kind(of: hit, at: seconds(9), otherwise: .unknown) == .racket)
            #expect(kinds.kind(of: bounce, at: seconds(9), otherwise: .unknown) == .table)
        }
    }

    @Test("""
        the serve's return teaches the racket too: the other player's bat, nearer the table's shape than the server's \
        bat, is named racket once it has returned a serve (the serves alone name it table)
        """)
    func returnTeachesTheOtherBat() {
        // The receiver's bat: 6.6 dB from the table's shape, 8.7 from the server's bat.
        let otherBat = SIMD8<Float>(-22, -18, -14, -14, -18, -22, -26, -.infinity)
        for returnTeaches in [true, false] {
            var kinds = kinds(returnTeaches: returnTeaches)
            for (time, shape) in [(1.0, high), (1.18, low), (1.5, low), (2.1, otherBat), (2.7, low)] {
                let kind = kinds.kind(of: shape, at: seconds(time), otherwise: .unknown)
                kinds.report(seconds(time), levels: shape, kind: kind)
            }
            #expect(kinds.racket.count == (returnTeaches ? 2 : 1))
            #expect(kinds.kind(of: otherBat, at: seconds(9), otherwise: .unknown) == (returnTeaches ? .racket : .table))
            #expect(kinds.kind(of: high, at: seconds(9), otherwise: .unknown) == .racket)
            #expect(kinds.kind(of: low, at: seconds(9), otherwise: .unknown) == .table)
        }
    }

    @Test("""
        two players' bats that ring apart: with one template a kind the racket's mean lies between them, and the bat \
        nearer the table's shape is named table against the order of play; with a template per timbre each bat has \
        its own
        """)
    func twoBatsTwoTemplates() {
        // The bats on either side of the table's shape: the server's 3.2 dB from it, the receiver's 6.4 the other way;
        // their mean lies 4.8 dB from each, farther from the server's than the table is.
        let table = SIMD8<Float>(-20, -18, -16, -16, -18, -20, -24, -.infinity)
        let server = SIMD8<Float>(-16, -14, -14, -16, -20, -24, -28, -.infinity)
        let receiver = SIMD8<Float>(-28, -26, -20, -16, -14, -12, -16, -.infinity)
        for templates in [1, 3] {
            var kinds = kinds(templates: templates)
            // Two serves, each returned by the other bat: both bats teach the racket.
            for start in [1.0, 6.0] {
                for (offset, shape) in [(0.0, server), (0.18, table), (0.5, table), (1.1, receiver)] {
                    let kind = kinds.kind(of: shape, at: seconds(start + offset), otherwise: .unknown)
                    kinds.report(seconds(start + offset), levels: shape, kind: kind)
                }
            }
            // After a racket, mid-rally: the order says table; the shapes must say which bat is which.
            kinds.report(seconds(12), levels: table, kind: .table)
            let named = [server, receiver].map { kinds.kind(of: $0, at: seconds(12.6), otherwise: .unknown) }
            #expect(named == (templates == 1 ? [.table, .racket] : [.racket, .racket]), "templates \(templates)")
            #expect(kinds.racket.started == min(templates, 2))
        }
    }

    @Test("""
        an impact far from every template (a bat the stream has not shown yet: 5 dB from the table's shape, 15 from \
        the racket's) is named by the order of play, not by the nearer template
        """)
    func unshownTimbreByTheOrder() {
        let unshown = SIMD8<Float>(-19, -7, -10, -20, -30, -28, -36, -.infinity)
        for shownDB: Float in [3, 0] {
            var kinds = kinds(templates: 3, uncertaintyDB: 1, shownDB: shownDB)
            rally(&kinds, from: 1, hit: high, bounce: low)  // ends on a bounce: the order says racket
            #expect(kinds.kind(of: unshown, at: seconds(4.5), otherwise: .unknown) == (shownDB > 0 ? .racket : .table))
            #expect(kinds.kind(of: low + 2, at: seconds(4.5), otherwise: .unknown) == .table, "a shown timbre")
        }
    }

    @Test("a serve's first bounce is due only 80-260 ms after an impact that followed a pause, until one comes")
    func serveBounceDue() {
        var kinds = kinds()
        #expect(!kinds.servesBounceDue(at: seconds(0.5)), "nothing reported yet")
        kinds.report(seconds(1), levels: high, kind: .racket)
        #expect(kinds.servesBounceDue(at: seconds(1.1)) && kinds.servesBounceDue(at: seconds(1.25)))
        #expect(!kinds.servesBounceDue(at: seconds(1.05)) && !kinds.servesBounceDue(at: seconds(1.3)))
        kinds.report(seconds(1.18), levels: low, kind: .table)
        #expect(!kinds.servesBounceDue(at: seconds(1.3)), "the bounce came: no other is due")
        kinds.report(seconds(1.5), levels: low, kind: .table)
        kinds.report(seconds(2.5), levels: high, kind: .racket)
        #expect(!kinds.servesBounceDue(at: seconds(2.6)), "mid-rally: no serve")
        let off = StreamKinds(settings: .init(pause: 0, serveBounce: 1...2, marginDB: 1, memory: 8,
                                              returnTeaches: true, serveBouncesUntaught: true), bands: 7)
        #expect(!off.servesBounceDue(at: 1))
    }

    @Test("the next rally is named from its serve on, by the shapes and the order alike")
    func secondRally() {
        var kinds = kinds()
        rally(&kinds, from: 1, hit: high, bounce: low)
        let named = rally(&kinds, from: 8, hit: high, bounce: low)
        #expect(named == [.racket, .table, .table, .racket, .table, .racket, .table])
    }

    @Test("""
        the stream's first rally: before any serve has taught the shapes, the serve is the caller's (a lone impact is \
        named by what it sounds like), its two bounces table by their timing, and from the third impact on the stream \
        names every impact; without the bounces' timing the caller named the first three
        """)
    func firstRally() {
        var kinds = kinds()
        let named = rally(&kinds, from: 1, hit: high, bounce: low)
        #expect(named == [.unknown, .table, .table, .racket, .table, .racket, .table])
        var untimed = self.kinds(serveBouncesUntaught: false)
        let before = rally(&untimed, from: 1, hit: high, bounce: low)
        #expect(before == [.unknown, .unknown, .unknown, .racket, .table, .racket, .table])
    }

    @Test("""
        before any serve has taught the shapes only a serve's two bounces are named by the order: an impact 0.6 s \
        after a lone one (no serve bounce's timing) is left to the caller, as the lone one is
        """)
    func serveBouncesOnly() {
        var kinds = kinds()
        for time in [1.0, 1.6] {
            let kind = kinds.kind(of: low, at: seconds(time), otherwise: .unknown)
            #expect(kind == .unknown, "at \(time) s")
            kinds.report(seconds(time), levels: low, kind: kind)
        }
    }

    @Test("a dropped ball (every gap shorter) teaches nothing; a speeding-up run is table")
    func dropTeachesNothing() {
        var kinds = kinds()
        var time = 1.0, gap = 0.2
        for _ in 0..<8 {
            kinds.report(seconds(time), levels: low, kind: .table)
            time += gap
            gap *= 0.85
        }
        #expect(kinds.racket.count == 0 && kinds.table.count == 0)
        #expect(kinds.kind(of: low, at: seconds(time), speedingRun: true, otherwise: .racket) == .table)
    }

    @Test("shapes within the margin of both templates are left to the order of play")
    func margin() {
        var kinds = kinds()
        rally(&kinds, from: 1, hit: high, bounce: low)
        let between = (high + low) / 2
        // The last reported was a table bounce: alternation says racket.
        #expect(kinds.kind(of: between, at: seconds(4.3), otherwise: .unknown) == .racket)
    }

    @Test("off (no pause): the caller's kind, and nothing is learned")
    func off() {
        var kinds = StreamKinds(settings: .init(pause: 0, serveBounce: 1...2, marginDB: 1, memory: 8,
                                                returnTeaches: true, serveBouncesUntaught: true), bands: 7)
        rally(&kinds, from: 1, hit: high, bounce: low)
        #expect(kinds.racket.count == 0)
        #expect(kinds.kind(of: high, at: seconds(9), otherwise: .unknown) == .unknown)
    }
}
