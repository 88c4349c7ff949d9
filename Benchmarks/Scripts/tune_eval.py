#!/usr/bin/env python3
"""Score `pongd detect` on the TUNING files only (gen_corpus seeds 2, 4, 5, 6, 7: dev_*, dev4_* … dev7_*), every SNR, WAV and
Opus, with per-file precision and recall, so a change can be judged before it ever meets the held-out seeds.

  tune_eval.py PONGD [--corpus /work/corpus] [--tune k=v,...] [--sets dev,dev4,dev5,dev6,dev7] [--out DIR]

Prints P/R/F1 at +-5 ms (and +-10 ms at 0 dB), bias/MAE, and the mean per condition. Never pass test or long here.
"""
import argparse
import concurrent.futures as cf
import csv
import os
import subprocess
import tempfile
import sys

import mir_eval
import numpy as np


def load(path):
    with open(path) as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith(("time", "#"))]
    return np.array(sorted(float(r[0]) for r in rows))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pongd")
    ap.add_argument("--corpus", default="/work/corpus")
    ap.add_argument("--tune", default="")
    ap.add_argument("--sets", default="dev,dev4,dev5,dev6,dev7")
    ap.add_argument("--out", help="where detections are written (default: a fresh folder per run, so runs side by "
                                   "side never read each other's)")
    ap.add_argument("--candidates", action="store_true", help="also write --candidates CSVs")
    a = ap.parse_args()
    a.out = a.out or tempfile.mkdtemp(prefix="tune_eval-")
    sets = a.sets.split(",")
    assert not any(s.startswith(("test", "long")) for s in sets), "held-out seeds are not for tuning"
    os.makedirs(a.out, exist_ok=True)
    jobs = []
    for s in sets:
        for snr in ("20", "10", "00"):
            for ext in ("wav", "opus"):
                jobs.append((s, snr, ext))

    def run(job):
        s, snr, ext = job
        src = f"{a.corpus}/{s}_snr{snr}.{ext}"
        out = f"{a.out}/{s}_{snr}_{ext}"
        cmd = [a.pongd, "detect", src]
        if a.tune:
            cmd += ["--tune", a.tune]
        if a.candidates:
            cmd += ["--candidates", out + ".cand"]
        with open(out + ".csv", "w") as f:
            subprocess.run(cmd, stdout=f, check=True)
        return job, out + ".csv"

    with cf.ThreadPoolExecutor(2) as ex:
        results = list(ex.map(run, jobs))
    agg = {}
    print(f"{'file':14s} {'P5':>5s} {'R5':>5s} {'F5':>5s} {'F10':>5s} {'bias':>6s} {'MAE':>5s} {'est/ref':>8s}")
    for (s, snr, ext), path in results:
        ref = load(f"{a.corpus}/{s}_events.csv")
        est = load(path)
        r = {}
        for w in (0.005, 0.010):
            r[w] = mir_eval.onset.f_measure(ref, est, window=w) if len(est) else (0, 0, 0)
        pairs = mir_eval.util.match_events(ref, est, 0.010) if len(est) else []
        err = np.array([est[j] - ref[i] for i, j in pairs]) * 1000
        f5, p5, r5 = r[0.005]
        print(f"{s}_{snr}_{ext:4s}   {p5:5.3f} {r5:5.3f} {f5:5.3f} {r[0.010][0]:5.3f} "
              f"{err.mean() if len(err) else 0:+6.2f} {np.abs(err).mean() if len(err) else 0:5.2f} {len(est):4d}/{len(ref)}")
        agg.setdefault((snr, ext), []).append((f5, r[0.010][0]))
    print("mean over sets (F1 +-5 ms; 0 dB also +-10 ms):")
    line = []
    for ext in ("wav", "opus"):
        for snr in ("20", "10", "00"):
            v = np.array(agg[(snr, ext)])
            line.append(f"{ext}{snr} {v[:, 0].mean():.3f}" + (f"/{v[:, 1].mean():.3f}" if snr == "00" else ""))
    print("  " + "  ".join(line))


if __name__ == "__main__":
    main()
