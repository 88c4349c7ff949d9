#!/usr/bin/env python3
"""Score a detector on the real-sample corpus (real_corpus.py) against issue 11's targets.

  real_eval.py --corpus DIR --split tune|heldout|independent [--detector pongd --pongd BIN [--tune k=v,...]]
  real_eval.py --corpus DIR --split heldout --detector aubio-specflux --threshold 0.5
  real_eval.py --corpus DIR --split tune --detector aubio-hfc --choose     # a peer's threshold, from tuning only

Splits: tune (csmash seeds 11-15), heldout (csmash seeds 21-22) and independent (seeds 31-33 of real_corpus.py
--split independent: the facepunch recordings, another ball, table and bat than the other two splits; files
real<S>_facepunch_...). Nothing is ever chosen on heldout or independent: thresholds come from tune.
--source csmash on the independent split scores real_corpus.py --seed 31..33 (csmash) files instead: the same
rallies, rooms, noises and phones with csmash's recordings, to tell what the other recordings change.

Detectors: pongd (`pongd detect`), aubio-specflux and aubio-hfc (aubioonset, 256/128, as compare_detectors.sh),
madmom-superflux (offline) and madmom-sfonline (causal), through ../shared/peers/detect_madmom.py in the madmom
venv ($MADMOM_PY, default /root/peer-venvs/madmom/bin/python).

Scored with ../shared/tools/score_onsets.py's own matching (mir_eval, one-to-one within the window), pooled over
the split's seeds. Targets (issue 11): rally clean and 20 dB F1 >= 0.97 at +-2 ms; 10 dB >= 0.95 at +-5 ms;
0 dB >= 0.85 at +-10 ms; Opus 24 kb/s (clean, 20, 10 dB) >= 0.93 at +-5 ms; every dropped-ball bounce (down to
-30 dB under the first) within +-2 ms; kind accuracy >= 0.90 (rally clean/20/10 dB WAV).
"""
import argparse
import concurrent.futures as cf
import json
import os
import subprocess
import tempfile
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared"))
sys.path.insert(0, os.path.join(SHARED, "tools"))
import score_onsets  # noqa: E402
import mir_eval  # noqa: E402

sys.path.insert(0, HERE)
import real_corpus  # noqa: E402  (the splits' seeds)

SPLITS = real_corpus.SPLIT_SEEDS
SPLIT_SOURCE = {"independent": "facepunch"}  # real_corpus.py --source of a split's files (csmash otherwise)
# (file suffix, window s, target F1 or recall, what is measured)
TARGETS = [
    ("rally_clean", 0.002, 0.97, "f1"),
    ("rally_snr20", 0.002, 0.97, "f1"),
    ("rally_snr10", 0.005, 0.95, "f1"),
    ("rally_snr00", 0.010, 0.85, "f1"),
    ("rally_clean_opus24", 0.005, 0.93, "f1"),
    ("rally_snr20_opus24", 0.005, 0.93, "f1"),
    ("rally_snr10_opus24", 0.005, 0.93, "f1"),
    ("rally_snr00_opus24", 0.010, None, "f1"),
    ("drop_clean", 0.002, 1.0, "recall"),
    ("drop_snr20", 0.002, 1.0, "recall"),
]
STRESS = [("drop_snr15", 0.002, None, "recall"), ("drop_snr10", 0.002, None, "recall")]  # --stress (tuning only)
KIND_FILES = ("rally_clean", "rally_snr20", "rally_snr10")
AUBIO_GRID = (0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0)
MADMOM_GRID = (1.1, 2.0, 3.0, 4.0, 5.0, 7.0, 10.0, 15.0)


def stem(a, seed):
    """real_corpus.py's prefix of a seed's files: real<S>, or real<S>_<source> for a source other than csmash."""
    source = getattr(a, "source", None) or SPLIT_SOURCE.get(a.split, "csmash")  # retune.py's args have none
    return "real%d" % seed + ("" if source == "csmash" else "_" + source)


def labels_for(a, seed, name):
    kind = "drop" if name.startswith("drop") else "rally"
    return os.path.join(a.corpus, "%s_%s_events.csv" % (stem(a, seed), kind))


def detect(a, wav, out_dir, threshold):
    """Run one detector on one file; returns the path of its onset list."""
    stem = os.path.splitext(os.path.basename(wav))[0]
    os.makedirs(out_dir, exist_ok=True)
    if a.detector == "pongd":
        out = os.path.join(out_dir, stem + ".csv")
        cmd = [a.pongd, "detect", wav] + (["--tune", a.tune] if a.tune else [])
        with open(out, "w") as f:
            subprocess.run(cmd, stdout=f, check=True)
        return out
    if a.detector.startswith("aubio-"):
        out = os.path.join(out_dir, "%s-t%g.txt" % (stem, threshold))
        method = a.detector.split("-", 1)[1]
        with open(out, "w") as f:
            subprocess.run(["aubioonset", "-i", wav, "-r", "0", "-B", "256", "-H", "128", "-O", method,
                            "-t", str(threshold)], stdout=f, check=True)
        return out
    variant = a.detector.split("-", 1)[1]
    d = os.path.join(out_dir, stem)
    out = os.path.join(d, "mm-%s-t%g.txt" % (variant, threshold))
    if not os.path.exists(out):
        subprocess.run([a.madmom_py, os.path.join(SHARED, "peers", "detect_madmom.py"), wav, "--outdir", out_dir,
                        "--variants", variant], check=True, stdout=subprocess.DEVNULL)
    return out


def match(ref, rk, est, ek, window, found=None):
    """Matched count, signed errors (ms) and (label kind, detected kind) pairs, as score_onsets.score matches;
    `found`, when given, collects the matched labels' indices."""
    if not len(ref) or not len(est):
        return 0, [], []
    pairs = mir_eval.util.match_events(ref, est, window)
    if found is not None:
        found.update(i for i, _ in pairs)
    kinds = [(rk[i], ek[j]) for i, j in pairs if rk[i] and ek[j]]
    return len(pairs), [(est[j] - ref[i]) * 1000 for i, j in pairs], kinds


# A label's place in its file (1 = the stream's first ball): what a stream that has learned nothing yet hears.
POSITIONS = (("1", 1, 1), ("2", 2, 2), ("3-4", 3, 4), ("5-10", 5, 10), ("11-20", 11, 20), ("21+", 21, 10 ** 9))


def by_position(counts):
    """Recall of each POSITIONS bucket from (found, total) per label index (0-based)."""
    out = {}
    for name, lo, hi in POSITIONS:
        hits = sum(f for i, (f, n) in counts.items() if lo <= i + 1 <= hi)
        total = sum(n for i, (f, n) in counts.items() if lo <= i + 1 <= hi)
        out[name] = dict(recall=hits / total if total else None, n=total)
    return out


def evaluate(a, threshold):
    seeds = SPLITS[a.split]
    stress = getattr(a, "stress", False)  # retune.py's args have none
    targets = TARGETS + (STRESS if stress else [])
    jobs = [(s, name) for s in seeds for name, *_ in targets]
    # madmom writes every threshold of its grid from one activation: one folder for all of them.
    per_threshold = threshold is not None and not a.detector.startswith("madmom")
    out_dir = os.path.join(a.out, a.detector + ("-t%g" % threshold if per_threshold else ""))

    def wav(job):
        s, name = job
        return os.path.join(a.corpus, "%s_%s.wav" % (stem(a, s), name))

    missing = [os.path.basename(wav(job)) for job in jobs if not os.path.exists(wav(job))]
    if missing:
        sys.exit("real_eval: %d of the split's files are not in %s (%s%s): make them with real_corpus.py%s" % (
            len(missing), a.corpus, ", ".join(missing[:3]), ", ..." if len(missing) > 3 else "",
            " --stress" if stress else ""))

    def run(job):
        return job, detect(a, wav(job), out_dir, threshold)

    with cf.ThreadPoolExecutor(a.jobs) as ex:
        paths = dict(ex.map(run, jobs))
    rows = {}
    kind_pairs = []
    for name, window, target, measure in targets:
        tp = n_ref = n_est = 0
        errors = []
        positions = {}
        for s in seeds:
            ref, rk = score_onsets.load(labels_for(a, s, name), None, None)
            est, ek = score_onsets.load(paths[(s, name)], None, None)
            found = set()
            hit, err, kinds = match(ref, rk, est, ek, window, found)
            for i in range(len(ref)):
                f, n = positions.get(i, (0, 0))
                positions[i] = (f + (i in found), n + 1)
            tp, n_ref, n_est = tp + hit, n_ref + len(ref), n_est + len(est)
            errors += err
            if name in KIND_FILES:
                kind_pairs += match(ref, rk, est, ek, 0.005)[2]
        p = tp / n_est if n_est else 0.0
        r = tp / n_ref if n_ref else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        value = f if measure == "f1" else r
        rows[name] = dict(window_ms=window * 1000, precision=p, recall=r, f1=f, measure=measure, value=value,
                          target=target, met=None if target is None else value >= target - 1e-9,
                          bias_ms=float(np.mean(errors)) if errors else None, n_ref=n_ref, n_est=n_est,
                          recall_by_position=by_position(positions))
    kind = sum(x == y for x, y in kind_pairs) / len(kind_pairs) if kind_pairs else None
    rows["kind"] = dict(value=kind, target=0.90, met=None if kind is None else kind >= 0.90, n=len(kind_pairs))
    return rows


def summary_score(rows):
    """One number to choose a peer's threshold by: the mean of the targeted measures."""
    return float(np.mean([r["value"] for k, r in rows.items() if k != "kind" and r["target"] is not None]))


def print_rows(a, rows, threshold):
    label = a.detector + ("" if threshold is None else " t=%g" % threshold)
    print("%s on the %s split (seeds %s, %s recordings)" % (label, a.split, ",".join(map(str, SPLITS[a.split])),
                                                           a.source or SPLIT_SOURCE.get(a.split, "csmash")))
    print("  %-20s %6s %6s %6s %6s %7s %7s  %s" % ("file", "win", "P", "R", "F1", "bias", "target", "met"))
    for name, r in rows.items():
        if name == "kind":
            continue
        bias = "%+.2f" % r["bias_ms"] if r["bias_ms"] is not None else "-"
        target = "-" if r["target"] is None else "%s>=%.2f" % ("R" if r["measure"] == "recall" else "F", r["target"])
        met = "-" if r["met"] is None else ("yes" if r["met"] else "NO")
        print("  %-20s %4.0fms %6.3f %6.3f %6.3f %7s %7s  %s" % (
            name, r["window_ms"], r["precision"], r["recall"], r["f1"], bias, target, met))
        if a.positions:
            print("  %20s recall by the label's place in its file: %s" % ("", "  ".join(
                "%s %s" % (k, "-" if v["recall"] is None else "%.2f" % v["recall"])
                for k, v in r["recall_by_position"].items())))
    k = rows["kind"]
    print("  kind accuracy %s (target 0.90, %d matched impacts)" % (
        "-" if k["value"] is None else "%.3f" % k["value"], k["n"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--split", choices=tuple(SPLITS), required=True)
    ap.add_argument("--source", choices=tuple(real_corpus.SOURCES),
                    help="whose files to score (default: the split's own; csmash on independent is the control)")
    ap.add_argument("--detector", default="pongd",
                    choices=("pongd", "aubio-specflux", "aubio-hfc", "madmom-superflux", "madmom-sfonline"))
    ap.add_argument("--pongd", default=os.path.join(HERE, "..", "..", ".build", "release", "pongd"))
    ap.add_argument("--tune", default="", help="pongd detect --tune knobs")
    ap.add_argument("--threshold", type=float, help="a peer's threshold (chosen on the tuning split)")
    ap.add_argument("--choose", action="store_true", help="try the peer's threshold grid (tuning split only)")
    ap.add_argument("--madmom-py", default=os.environ.get("MADMOM_PY", "/root/peer-venvs/madmom/bin/python"))
    ap.add_argument("--out", help="where detections are written (default: a fresh folder per run for pongd, so "
                                   "runs side by side never read each other's; /tmp/real_eval for the peers, a cache)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--positions", action="store_true",
                    help="also print each file's recall by the label's place in it (1 = the stream's first ball)")
    ap.add_argument("--stress", action="store_true",
                    help="also score real_corpus.py --stress's dropped balls at 15 and 10 dB (tuning splits only)")
    a = ap.parse_args()
    if a.stress and a.split not in real_corpus.TUNING_SPLITS:
        ap.error("--stress files exist for the tuning splits only")
    if a.out is None:
        a.out = tempfile.mkdtemp(prefix="real_eval-") if a.detector == "pongd" else "/tmp/real_eval"
    if a.choose:
        if a.split != "tune":
            ap.error("thresholds are chosen on the tuning split only")
        grid = MADMOM_GRID if a.detector.startswith("madmom") else AUBIO_GRID
        best = max(((summary_score(evaluate(a, t)), t) for t in grid), key=lambda x: x[0])
        print("%s: best threshold on the tuning split %g (mean of targeted measures %.3f)" % (
            a.detector, best[1], best[0]))
        return
    threshold = a.threshold if a.detector != "pongd" else None
    if a.detector != "pongd" and threshold is None:
        ap.error("a peer needs --threshold (choose it with --split tune --choose)")
    rows = evaluate(a, threshold)
    if a.json:
        json.dump(dict(detector=a.detector, threshold=threshold, split=a.split, rows=rows), sys.stdout)
        print()
    else:
        print_rows(a, rows, threshold)


if __name__ == "__main__":
    main()
