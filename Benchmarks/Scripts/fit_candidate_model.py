#!/usr/bin/env python3
"""Fit the detector's learned candidate score (CandidateModel) on TUNING recordings only, and write its weights.

  fit_candidate_model.py PONGD [--real /work/realcorpus] [--gen /work/corpus] [--write] [--report]

What it does, in order:
1. Runs `PONGD detect FILE --candidates OUT --tune model=0` (the hand rules decide, so the candidates do not depend
   on an earlier model) on every tuning file: real_corpus.py seeds 11-15 (rally clean/20/10/0 dB, WAV and Opus
   24 kb/s; dropped balls clean and 20 dB) and gen_corpus tuning sets dev, dev4-dev7 (20/10/0 dB, WAV and Opus).
   Held-out seeds (real 21-22, gen_corpus test/long) are refused.
2. Labels each candidate: a ball when a labelled impact lies within +-5 ms of its onset.
3. Scores the fit by leave-one-fold-out cross-validation (fold k = real seed 11+k and gen set k), per condition,
   at each condition's target window: the hand rules, the model alone, and both as the detector combines them
   (a ball at --threshold, or when the rules accept it and the model gives it at least --veto). "rules" is what the
   detector reported with the model off, run rules included; in the detector the run rules (a dropped ball's later
   bounces) decide before the model and are never vetoed, which these figures do not model.
4. Scores it on a source it was not fitted on (fitted on gen_corpus, scored on the real recordings; and the other
   way round): the measure of whether it learned impacts or the timbre of the balls it heard.
5. Fits the final model on every fold and, with --write, writes Sources/BounceDetector/Detection/
   CandidateModelWeights.swift (inputs' clip ranges, scaling, an ensemble of one-hidden-layer networks, and a
   check vector the unit tests replay).

The model: 23 inputs (the candidate's measured features, its trigger as two flags, the shape of its seven onset
band levels relative to the loudest; never an absolute level), clipped to the 0.5-99.5 % range seen in training and
standardised; three networks of 16 ReLU units (scikit-learn MLPClassifier, alpha 1e-3, seeds 0-2), their
probabilities averaged. Retuning on new recordings (real phone recordings, when they exist) is this command with
--real pointing at a corpus laid out like real_corpus.py's (real<S>_rally_<cond>.wav + real<S>_rally_events.csv).

Needs numpy and scikit-learn (pip install scikit-learn).
"""
import argparse
import concurrent.futures as cf
import csv
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
WEIGHTS = os.path.normpath(os.path.join(HERE, "..", "..", "Sources", "BounceDetector", "Detection",
                                        "CandidateModelWeights.swift"))
REAL_SEEDS = (11, 12, 13, 14, 15)
GEN_SETS = ("dev", "dev4", "dev5", "dev6", "dev7")
REAL_RALLY = ("clean", "snr20", "snr10", "snr00", "clean_opus24", "snr20_opus24", "snr10_opus24", "snr00_opus24")
GEN_CONDS = ("snr20", "snr10", "snr00", "snr20_opus24", "snr10_opus24", "snr00_opus24")
FEATURES = ("flux", "snr_db", "centroid_hz", "tonality", "high_share", "decay_db", "attack_db", "contrast_db",
            "ring_tonality", "ring_contrast_db", "persistence", "coherence", "rising_bands", "wholeband_attack_db")
INPUTS = FEATURES + ("racket_band", "band_rise") + tuple(f"shape{i}" for i in range(7))
HIDDEN, SEEDS, ALPHA = 16, (0, 1, 2), 1e-3
LABEL_WINDOW = 0.005


def window(cond):
    """The target window of a condition (issue 11's, and gen_corpus's)."""
    if cond.startswith("drop") or cond in ("clean", "snr20"):
        return 0.002
    return 0.010 if "snr00" in cond else 0.005


def read_times(path):
    with open(path) as f:
        return np.array(sorted(float(r[0]) for r in csv.reader(f) if r and r[0][0].isdigit()))


def candidates(pongd, wav, out, events, fold, cond):
    """Runs the detector with the hand rules; returns (inputs, distance to the nearest impact, accepted) per row."""
    det = subprocess.run([pongd, "detect", wav, "--candidates", out, "--tune", "model=0"],
                         capture_output=True, text=True, check=True).stdout
    accepted = np.array([float(l.split(",")[0]) for l in det.splitlines() if l and l[0].isdigit()])
    truth = read_times(events)
    rows = []
    with open(out) as f:
        for r in csv.DictReader(f):
            t = float(r["time"])
            levels = np.array([float(v) for v in r["band_levels_db"].split()])
            if len(levels) != 7:
                continue  # the model needs all seven bands (rates of 44.1 kHz and up)
            trig = int(r["trigger"])
            x = [float(r[k]) for k in FEATURES] + [float(trig == 1), float(trig == 2)] + list(levels - levels.max())
            d = float(np.min(np.abs(truth - t))) if len(truth) else 9.0
            a = bool(len(accepted) and np.min(np.abs(accepted - t)) < 1e-4)
            rows.append((x, d, a))
    return fold, cond, rows, len(truth)


def collect(pongd, real, gen, scratch):
    jobs = []
    for k, s in enumerate(REAL_SEEDS):
        for c in REAL_RALLY:
            jobs.append((f"{real}/real{s}_rally_{c}.wav", f"{real}/real{s}_rally_events.csv", k, c))
        for c in ("clean", "snr20"):
            jobs.append((f"{real}/real{s}_drop_{c}.wav", f"{real}/real{s}_drop_events.csv", k, "drop_" + c))
    if gen:
        for k, s in enumerate(GEN_SETS):
            for c in GEN_CONDS:
                jobs.append((f"{gen}/{s}_{c}.wav", f"{gen}/{s}_events.csv", k, "gen_" + c))
    for wav, _, _, _ in jobs:
        name = os.path.basename(wav)
        assert not name.startswith(("real21", "real22", "test", "long")), f"{name} is held out"
    os.makedirs(scratch, exist_ok=True)
    X, dist, acc, fold, cond, counts = [], [], [], [], [], {}
    with cf.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        futures = [ex.submit(candidates, pongd, w, os.path.join(scratch, f"{i}.cand"), e, k, c)
                   for i, (w, e, k, c) in enumerate(jobs) if os.path.exists(w)]
        for fu in futures:
            k, c, rows, n = fu.result()
            counts[(k, c)] = counts.get((k, c), 0) + n
            for x, d, a in rows:
                X.append(x); dist.append(d); acc.append(a); fold.append(k); cond.append(c)
    return (np.array(X), np.array(dist), np.array(acc), np.array(fold), np.array(cond), counts)


class Model:
    """Clip, standardise, average the ensemble's probabilities (as CandidateModel.swift does)."""

    def __init__(self, X, y):
        from sklearn.neural_network import MLPClassifier
        self.low = np.percentile(X, 0.5, axis=0)
        self.high = np.percentile(X, 99.5, axis=0)
        Z = np.clip(X, self.low, self.high)
        self.mean = Z.mean(0)
        self.scale = np.where(Z.std(0) > 1e-6, Z.std(0), 1.0)
        Z = (Z - self.mean) / self.scale
        self.nets = [MLPClassifier((HIDDEN,), alpha=ALPHA, max_iter=1000, random_state=s).fit(Z, y) for s in SEEDS]

    def probability(self, X):
        Z = (np.clip(X, self.low, self.high) - self.mean) / self.scale
        return np.mean([n.predict_proba(Z)[:, 1] for n in self.nets], axis=0)


def f1(selected, dist, fold, cond, counts, c):
    m = cond == c
    hit = dist[m] <= window(c)
    tp = int((selected[m] & hit).sum()); fp = int((selected[m] & ~hit).sum())
    n = sum(v for (k, cc), v in counts.items() if cc == c)
    p, r = tp / max(tp + fp, 1), tp / max(n, 1)
    return 2 * p * r / max(p + r, 1e-9)


def swift_floats(values, per_line=8):
    items = [f"{v:.7g}" for v in values]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return ",\n        ".join(lines)


def write_weights(model, check_x, path):
    nets = []
    for n in model.nets:
        w1, w2 = n.coefs_
        b1, b2 = n.intercepts_
        nets.append((w1, b1, w2[:, 0], b2[0]))
    body = []
    for i, (w1, b1, w2, b2) in enumerate(nets):
        body.append(f"""        Network(
            inputWeights: [
        {swift_floats(w1.ravel())}],
            hiddenBias: [
        {swift_floats(b1)}],
            outputWeights: [
        {swift_floats(w2)}],
            outputBias: {b2:.7g}),""")
    text = f"""// Generated by Benchmarks/Scripts/fit_candidate_model.py on tuning recordings only (real_corpus.py seeds 11-15,
// gen_corpus sets dev, dev4-dev7). Do not edit: run the script with --write.

extension CandidateModel {{
    /// Inputs in order: {", ".join(INPUTS)}.
    static let inputNames: [String] = [{", ".join(f'"{n}"' for n in INPUTS)}]
    /// Each input is clipped to [low, high] (the 0.5–99.5 % range of the training candidates), then standardised.
    static let low: [Float] = [
        {swift_floats(model.low)}]
    static let high: [Float] = [
        {swift_floats(model.high)}]
    static let mean: [Float] = [
        {swift_floats(model.mean)}]
    static let scale: [Float] = [
        {swift_floats(model.scale)}]
    /// The ensemble: {len(nets)} networks of {HIDDEN} ReLU units; input weights row-major (input × unit).
    static let networks: [Network] = [
{chr(10).join(body)}
    ]
    /// A training candidate and the probability the fitted model gives it (CandidateModelTests replays it).
    static let check: (inputs: [Float], probability: Float) = (
        [{swift_floats(check_x)}],
        {float(model.probability(check_x[None, :])[0]):.6f})
}}
"""
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pongd")
    ap.add_argument("--real", default="/work/realcorpus")
    ap.add_argument("--gen", default="/work/corpus", help="gen_corpus tuning sets ('' = none)")
    ap.add_argument("--scratch", default="/tmp/fit_candidate_model")
    ap.add_argument("--write", action="store_true", help=f"write {os.path.relpath(WEIGHTS)}")
    ap.add_argument("--threshold", type=float, default=0.5, help="DetectorParameters.modelAcceptance")
    ap.add_argument("--veto", type=float, default=0.2, help="DetectorParameters.modelVeto")
    a = ap.parse_args()
    X, dist, acc, fold, cond, counts = collect(a.pongd, a.real, a.gen, a.scratch)
    y = (dist <= LABEL_WINDOW).astype(int)
    print(f"{len(X)} candidates, {y.sum()} within +-5 ms of an impact", file=sys.stderr)
    prob = np.zeros(len(X))
    for k in sorted(set(fold)):
        prob[fold == k] = Model(X[fold != k], y[fold != k]).probability(X[fold == k])
    print(f"leave-one-fold-out F1 at each condition's target window (threshold {a.threshold}), on the hand rules' "
          "candidates")
    print("(rules: the hand rules alone; model: the model alone; both: the detector's decision, a ball when the model "
          f"says >= {a.threshold}, or the rules accept and the model says >= {a.veto})")
    both = (prob >= a.threshold) | (acc & (prob >= a.veto))
    print(f"  {'condition':20s} rules  model  both")
    for c in dict.fromkeys(cond):
        print(f"  {c:20s} {f1(acc, dist, fold, cond, counts, c):.3f}  "
              f"{f1(prob >= a.threshold, dist, fold, cond, counts, c):.3f}  {f1(both, dist, fold, cond, counts, c):.3f}")
    # Does it carry over to a ball it has not heard? Fit on one source, score on the other.
    gen = np.char.startswith(cond.astype(str), "gen_")
    if gen.any() and (~gen).any():
        prob = np.zeros(len(X))
        for train in (gen, ~gen):
            prob[~train] = Model(X[train], y[train]).probability(X[~train])
        both = (prob >= a.threshold) | (acc & (prob >= a.veto))
        added = acc | (prob >= a.threshold)
        print("leave-one-source-out: fitted on gen_corpus, scored on the real recordings, and the other way round")
        print(f"  {'condition':20s} rules  model  both   rules+model (no veto)")
        for c in dict.fromkeys(cond):
            print(f"  {c:20s} {f1(acc, dist, fold, cond, counts, c):.3f}  "
                  f"{f1(prob >= a.threshold, dist, fold, cond, counts, c):.3f}  "
                  f"{f1(both, dist, fold, cond, counts, c):.3f}  {f1(added, dist, fold, cond, counts, c):.3f}")
    if a.write:
        model = Model(X, y)
        check = X[int(np.argmax(y))]
        write_weights(model, check, WEIGHTS)
        print(f"wrote {WEIGHTS}", file=sys.stderr)


if __name__ == "__main__":
    main()
