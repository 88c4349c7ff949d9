/// Scores one phone's `bounce` events against the labels: precision, recall and F1 at a tolerance (±10 ms).
///
/// The phone streamed the file in a loop from stream time 0, so label `t` of loop `k` is expected at stream time
/// `k * loopSeconds + t`. Only expectations inside a sent window count, at least `margin` from its edges (the
/// server cannot hear what was not sent, and a detection needs a little audio after the onset); detections outside
/// every window are ignored too. Matching is one-to-one, greedy in time order, nearest first.
struct BounceScorer: Sendable {
    /// Counts that add up over phones.
    struct Score: Hashable, Sendable {
        /// Detections within tolerance of a label.
        var truePositives = 0
        /// Detections with no label near them.
        var falsePositives = 0
        /// Labels no detection matched.
        var falseNegatives = 0
        /// Matches whose label type has a bounce kind (`bounce` → `table`, `hit` → `racket`).
        var kindChecked = 0
        /// Of those, matches whose `bounce.kind` is the label's.
        var kindAgreements = 0

        /// The sum of two scores.
        static func + (lhs: Score, rhs: Score) -> Score {
            Score(truePositives: lhs.truePositives + rhs.truePositives,
                  falsePositives: lhs.falsePositives + rhs.falsePositives,
                  falseNegatives: lhs.falseNegatives + rhs.falseNegatives,
                  kindChecked: lhs.kindChecked + rhs.kindChecked,
                  kindAgreements: lhs.kindAgreements + rhs.kindAgreements)
        }

        /// 2·TP / (2·TP + FP + FN); nil when there was nothing to score.
        var f1: Double? {
            let denominator = 2 * truePositives + falsePositives + falseNegatives
            return denominator == 0 ? nil : Double(2 * truePositives) / Double(denominator)
        }
    }

    /// The labels of one loop of the file.
    var labels: Labels
    /// One loop's length, seconds of stream time.
    var loopSeconds: Double
    /// Match tolerance, seconds.
    var tolerance = 0.010
    /// Distance from a window's edges within which labels are not expected, seconds.
    var margin = 0.050

    /// One own `bounce`: its stream time and kind.
    struct Detection: Hashable, Sendable {
        /// `bounce.streamTime`, seconds.
        var time: Double
        /// `bounce.kind` (`table`, `racket`, `unknown`).
        var kind: String

        init(time: Double, kind: String = "unknown") {
            self.time = time
            self.kind = kind
        }
    }

    /// The bounce kind a label type stands for, if any.
    static func kind(ofLabel type: String) -> String? {
        switch type.lowercased() {
        case "bounce", "table": "table"
        case "hit", "racket": "racket"
        default: nil
        }
    }

    /// Scores detection times (kinds unknown) against the labels expected in `windows`.
    func score(detections: [Double], windows: [StreamWindows.Window]) -> Score {
        score(detections.map { Detection(time: $0) }, windows: windows)
    }

    /// Scores detections against the labels expected in `windows`; matches also check the kind.
    func score(_ detections: [Detection], windows: [StreamWindows.Window]) -> Score {
        var expected: [(time: Double, type: String)] = []
        for window in windows {
            let lower = window.start + margin
            let upper = window.end - margin
            guard upper > lower, loopSeconds > 0 else { continue }
            var loop = max(0, Int((lower / loopSeconds).rounded(.down)))
            while Double(loop) * loopSeconds <= upper {
                let offset = Double(loop) * loopSeconds
                for label in labels.labels {
                    let time = offset + label.time
                    if time >= lower && time < upper { expected.append((time, label.type)) }
                }
                loop += 1
            }
        }
        expected.sort { $0.time < $1.time }
        let heard = detections.filter { detection in
            windows.contains {
                detection.time >= $0.start + margin - tolerance && detection.time < $0.end - margin + tolerance
            }
        }.sorted { $0.time < $1.time }
        var used = [Bool](repeating: false, count: expected.count)
        var score = Score()
        var firstCandidate = 0
        for detection in heard {
            let time = detection.time
            while firstCandidate < expected.count && expected[firstCandidate].time < time - tolerance {
                firstCandidate += 1
            }
            var best: Int?
            var index = firstCandidate
            while index < expected.count && expected[index].time <= time + tolerance {
                if !used[index],
                   best.map({ abs(expected[index].time - time) < abs(expected[$0].time - time) }) ?? true {
                    best = index
                }
                index += 1
            }
            if let best {
                used[best] = true
                score.truePositives += 1
                if let kind = Self.kind(ofLabel: expected[best].type) {
                    score.kindChecked += 1
                    if kind == detection.kind { score.kindAgreements += 1 }
                }
            } else {
                score.falsePositives += 1
            }
        }
        score.falseNegatives = used.filter { !$0 }.count
        return score
    }
}
