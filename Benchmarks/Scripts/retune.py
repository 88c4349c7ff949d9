#!/usr/bin/env python3
"""Retune the detector's decision on real recordings: a grid over `pongd detect --tune` knobs, scored on TUNING
splits only (real_corpus.py's tune seeds 11-15, tune2 16-20, tune3 41-48, tune4 51-58, tune5 61-68, tune6 71-78,
tune7 81-88, tune8 91-98, tune9 101-108, tune10 111-118 and tune11 121-128, of any tuning source; gen_corpus's dev sets when
--gen-corpus is given). The held-out and independent splits are refused: score the winner on them once, afterwards,
with real_eval.py.

  retune.py PONGD --corpus /work/realcorpus --grid clear=12,14,16 --grid vctonal=0.5,0.55 [--gen-corpus /work/corpus]

  # what the fourth session chose its rules on: three tuning sources with their stress drops, and real applause
  retune.py PONGD --corpus /work/realcorpus --corpus /work/realcorpus-tune2:tune2 \
      --corpus /work/realcorpus-swapped:tune:swapped --stress --applause --grid runlooseinnov=12,14,16

A --corpus is FOLDER[:SPLIT[:SOURCE]] (split tune, tune2, ..., tune11, default tune; source csmash, swapped, varied, freesound, mp3 or mixed, default csmash):
make them with `real_corpus.py --split tune|tune2|...|tune11 [--source swapped|varied|freesound|mp3|mixed] [--stress] --out FOLDER`. Each combination is
scored by the mean over the folders of issue 11's targeted measures (real_eval.py; with --stress the harder dropped
balls at 15 and 10 dB count too), plus, with --gen-corpus, the mean gen_corpus F1 (tune_eval.py) so a retune cannot
trade the synthetic corpus away. With --applause, real_applause.py's 26 real applause scenes are run too and the
false reports with the applause rules on (and the balls they found) are printed beside the score: a retune must not
trade them away either (they are not in the score; no target). Prints every combination, best last, as the `--tune`
string to try and then to make the default (DetectorParameters / ImpactClassifier defaults; see docs/DETECTOR.md,
"Retuning").

New real recordings: add them to real_corpus.py's SOURCES (one line per file and its kind), regenerate the tuning
seeds, run this, then real_eval.py --split heldout and --split independent once (the independent seeds 31-33, from
another ball, are never tuned on either).
"""
import argparse
import itertools
import os
import re
import subprocess
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from real_corpus import TUNING_SOURCES, TUNING_SPLITS  # noqa: E402  (numpy and scipy only; real_eval, which needs mir_eval, later)


def gen_corpus_score(pongd, corpus, tune, out):
    """Mean F1 over gen_corpus's tuning sets (WAV and Opus, 20/10/0 dB) from tune_eval.py's last line."""
    text = subprocess.run([sys.executable, os.path.join(HERE, "tune_eval.py"), pongd, "--corpus", corpus,
                           "--tune", tune, "--out", out], check=True, capture_output=True, text=True).stdout
    values = [float(v) for v in re.findall(r"(?:wav|opus)\d\d (\d\.\d+)", text.strip().splitlines()[-1])]
    return sum(values) / len(values)


def tuning_folder(spec):
    """FOLDER[:SPLIT[:SOURCE]] as (folder, split, source); only the tuning splits and sources are accepted."""
    parts = spec.split(":")
    if len(parts) > 3:
        sys.exit("retune: %s: expected FOLDER[:SPLIT[:SOURCE]]" % spec)
    folder, split, source = parts + ["tune", "csmash"][len(parts) - 1:]
    if split not in TUNING_SPLITS:
        sys.exit("retune: %s: split %r is not a tuning split (%s): the held-out and independent splits are scored "
                 "once, afterwards, with real_eval.py" % (spec, split, ", ".join(TUNING_SPLITS)))
    if source not in TUNING_SOURCES:
        sys.exit("retune: %s: source %r is not a tuning source (%s)" % (spec, source, ", ".join(TUNING_SOURCES)))
    return folder, split, source


def applause_reports(pongd, tune, out):
    """real_applause.py's false reports with the applause rules on, summed over its scenes, and balls found/placed."""
    text = subprocess.run([sys.executable, os.path.join(HERE, "real_applause.py"), "--pongd", pongd, "--tune", tune,
                           "--out", out], check=True, capture_output=True, text=True).stdout
    reports, found, placed = 0, 0, 0
    for row in text.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) != 6 or not cells[4].isdigit():
            continue
        reports += int(cells[4])
        if "/" in cells[2]:
            hit, total = cells[2].split("/")
            found, placed = found + int(hit), placed + int(total)
    return reports, found, placed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pongd")
    ap.add_argument("--corpus", action="append", required=True,
                    help="real_corpus.py output: FOLDER[:SPLIT[:SOURCE]], tuning splits only (repeatable)")
    ap.add_argument("--grid", action="append", default=[], help="knob=v1,v2,... (repeatable)")
    ap.add_argument("--base", default="", help="knobs held fixed, k=v,...")
    ap.add_argument("--stress", action="store_true", help="also score the stress drops (real_corpus.py --stress)")
    ap.add_argument("--applause", action="store_true", help="also print real_applause.py's false reports")
    ap.add_argument("--gen-corpus", help="gen_corpus folder with the dev sets (tuning only)")
    ap.add_argument("--out", default="/tmp/retune")
    a = ap.parse_args()
    folders = [tuning_folder(spec) for spec in a.corpus]
    import real_eval  # after the arguments are checked: it needs mir_eval, which a wrong command should not
    knobs = [(k, vs.split(",")) for k, vs in (g.split("=", 1) for g in a.grid)]
    results = []
    for values in itertools.product(*[vs for _, vs in knobs]):
        tune = ",".join([x for x in [a.base] if x] + ["%s=%s" % (k, v) for (k, _), v in zip(knobs, values)])
        reals, kinds = [], []
        for i, (folder, split, source) in enumerate(folders):
            args = types.SimpleNamespace(corpus=folder, split=split, source=source, stress=a.stress,
                                         detector="pongd", pongd=a.pongd, tune=tune,
                                         out=os.path.join(a.out, "real%d" % i), jobs=2)
            rows = real_eval.evaluate(args, None)
            reals.append(real_eval.summary_score(rows))
            kinds.append(rows["kind"]["value"] or 0)
        real = sum(reals) / len(reals)
        gen = gen_corpus_score(a.pongd, a.gen_corpus, tune, os.path.join(a.out, "gen")) if a.gen_corpus else None
        score = real if gen is None else (real + gen) / 2
        results.append((score, tune))
        applause = ""
        if a.applause:
            reports, found, placed = applause_reports(a.pongd, tune, os.path.join(a.out, "applause"))
            applause = "  applause %d reports, balls %d/%d" % (reports, found, placed)
        print("%.4f  real %s%s  kind %s%s  --tune %s" % (
            score, "/".join("%.4f" % r for r in reals), "" if gen is None else "  gen_corpus %.4f" % gen,
            "/".join("%.3f" % k for k in kinds), applause, tune or "-"), flush=True)
    best = max(results)
    print("best: %.4f  --tune %s" % best)


if __name__ == "__main__":
    main()
