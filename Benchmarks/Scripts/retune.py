#!/usr/bin/env python3
"""Retune the detector's decision on real recordings: a grid over `pongd detect --tune` knobs, scored on the
TUNING seeds only (real_corpus.py seeds 11-15, and gen_corpus's dev sets when --gen-corpus is given). The held-out
seeds (21-22, gen_corpus test/long) are refused: score the winner on them once, afterwards, with real_eval.py.

  retune.py PONGD --corpus /work/realcorpus --grid clear=12,14,16 --grid vctonal=0.5,0.55 [--gen-corpus /work/corpus]

Each combination is scored by the mean of issue 11's targeted measures on the real tuning files (real_eval.py),
plus, with --gen-corpus, the mean gen_corpus F1 (tune_eval.py) so a retune cannot trade the synthetic corpus away.
Prints every combination, best last, as the `--tune` string to try and then to make the default
(ImpactClassifier / CandidateRules / OnsetRefiner defaults; see docs/DETECTOR.md, "Retuning").

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
import real_eval  # noqa: E402


def gen_corpus_score(pongd, corpus, tune, out):
    """Mean F1 over gen_corpus's tuning sets (WAV and Opus, 20/10/0 dB) from tune_eval.py's last line."""
    text = subprocess.run([sys.executable, os.path.join(HERE, "tune_eval.py"), pongd, "--corpus", corpus,
                           "--tune", tune, "--out", out], check=True, capture_output=True, text=True).stdout
    values = [float(v) for v in re.findall(r"(?:wav|opus)\d\d (\d\.\d+)", text.strip().splitlines()[-1])]
    return sum(values) / len(values)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pongd")
    ap.add_argument("--corpus", required=True, help="real_corpus.py output (tuning seeds)")
    ap.add_argument("--grid", action="append", default=[], help="knob=v1,v2,... (repeatable)")
    ap.add_argument("--base", default="", help="knobs held fixed, k=v,...")
    ap.add_argument("--gen-corpus", help="gen_corpus folder with the dev sets (tuning only)")
    ap.add_argument("--out", default="/tmp/retune")
    a = ap.parse_args()
    knobs = [(k, vs.split(",")) for k, vs in (g.split("=", 1) for g in a.grid)]
    results = []
    for values in itertools.product(*[vs for _, vs in knobs]):
        tune = ",".join([x for x in [a.base] if x] + ["%s=%s" % (k, v) for (k, _), v in zip(knobs, values)])
        args = types.SimpleNamespace(corpus=a.corpus, split="tune", detector="pongd", pongd=a.pongd, tune=tune,
                                     out=os.path.join(a.out, "real"), jobs=2)
        rows = real_eval.evaluate(args, None)
        real = real_eval.summary_score(rows)
        gen = gen_corpus_score(a.pongd, a.gen_corpus, tune, os.path.join(a.out, "gen")) if a.gen_corpus else None
        score = real if gen is None else (real + gen) / 2
        results.append((score, tune))
        print("%.4f  real %.4f%s  kind %.3f  --tune %s" % (
            score, real, "" if gen is None else "  gen_corpus %.4f" % gen, rows["kind"]["value"] or 0, tune or "-"),
            flush=True)
    best = max(results)
    print("best: %.4f  --tune %s" % best)


if __name__ == "__main__":
    main()
