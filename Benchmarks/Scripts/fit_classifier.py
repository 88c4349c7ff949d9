#!/usr/bin/env python3
"""Fit ImpactClassifier's resonance weights on tuning candidates only: gen_corpus seeds 2, 4, 5, 6, 7 (never 1 or 3)
and real_corpus.py seeds 11-15 (never 21-22; name their candidate files t_real11_50_wav.cand, 50 = clean).

  pongd detect <tuning file> --candidates t_<set>_<snr>_<wav|opus>.cand --tune accept=0,attack=-99,decay=99,high=1
  python3 fit_classifier.py --events dev=dev_events.csv --events dev4=dev4_events.csv ... t_*.cand

The classifier asks two questions (see ImpactClassifier.swift): is the sound impulsive (attack, high share, decay:
fixed physical rules, applied here too), and does it ring at resonances like a struck shell? The second is a
logistic score over tonality, late peak contrast and peak persistence, fitted here on
candidates clean enough to judge (attack >= 12 dB: the band attack, OnsetBands). A candidate is positive when a labelled ball impact lies within
+-5 ms. Prints Swift-ready terms and the mean tuning F1 (+-5 ms) per acceptance threshold.
"""
import argparse
import csv
import re

import numpy as np

CLIP = {"tonality": (0, 1), "ring_tonality": (0, 1), "ring_contrast_db": (-10, 20), "contrast_db": (-10, 20),
        "persistence": (0, 1), "coherence": (0, 1), "rising_bands": (0, 7)}
# The terms ImpactClassifier uses (--terms to try others). The onset frame's peak contrast is left out: next to the
# late frame's it is redundant (it fitted with a small negative weight).
RESONANCE = [(n, CLIP[n]) for n in ("tonality", "ring_contrast_db", "persistence", "coherence")]
MIN_ATTACK_DB, MAX_HIGH_SHARE, MAX_DECAY_DB, CLEAN_ATTACK_DB = 10.0, 0.75, -1.0, 12.0


def f1(ev, t, win=0.005):
    if len(t) == 0:
        return 0.0
    used = np.zeros(len(ev), bool)
    tp = 0
    for x in np.sort(t):
        d = np.abs(ev - x)
        d[used] = 9
        i = int(np.argmin(d))
        if d[i] <= win:
            used[i] = True
            tp += 1
    p, r = tp / len(t), tp / len(ev)
    return 2 * p * r / max(p + r, 1e-9)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", action="append", required=True, help="SET=events.csv")
    ap.add_argument("--terms", help="comma-separated candidate columns (default: ImpactClassifier's)")
    ap.add_argument("cands", nargs="+")
    a = ap.parse_args()
    global RESONANCE
    if a.terms:
        RESONANCE = [(n, CLIP[n]) for n in a.terms.split(",")]
    events = {k: np.array([float(r["time_s"]) for r in csv.DictReader(open(v))])
              for k, v in (e.split("=", 1) for e in a.events)}
    files = []
    for path in a.cands:
        m = re.search(r"_([a-z0-9]+)_(\d\d)_(wav|opus)\.cand$", path)
        rows = list(csv.DictReader(open(path)))
        X = np.array([[np.clip(float(r[n]), *rng) for n, rng in RESONANCE] for r in rows])
        col = {n: np.array([float(r[n]) for r in rows]) for n in ["attack_db", "high_share", "decay_db", "time"]}
        ev = events[m.group(1)]
        y = np.array([1.0 if np.min(np.abs(ev - x)) <= 0.005 else 0.0 for x in col["time"]])
        gate = (col["attack_db"] >= MIN_ATTACK_DB) & (col["high_share"] <= MAX_HIGH_SHARE) & \
               (col["decay_db"] <= MAX_DECAY_DB)
        files.append((m.group(2), m.group(3), X, y, col, gate, ev))
    clean = [f[4]["attack_db"] >= CLEAN_ATTACK_DB for f in files]
    X = np.vstack([f[2][c] for f, c in zip(files, clean)])
    y = np.concatenate([f[3][c] for f, c in zip(files, clean)])
    mu, sd = X.mean(0), X.std(0) + 1e-9
    Z = np.hstack([(X - mu) / sd, np.ones((len(X), 1))])
    w = np.zeros(Z.shape[1])
    for _ in range(60):  # Newton's method, small ridge
        p = 1 / (1 + np.exp(-Z @ w))
        H = (Z * (p * (1 - p))[:, None]).T @ Z + 1.0 * np.eye(len(w))
        w -= np.linalg.solve(H, Z.T @ (p - y) + 1.0 * w)
    print(f"clean candidates {len(y)}, balls {int(y.sum())}")
    names = {"tonality": "tonality", "contrast_db": "contrast", "ring_contrast_db": "ringingContrast",
             "persistence": "persistence", "coherence": "coherence", "ring_tonality": "ringingTonality",
             "rising_bands": "risingBands"}
    for (n, (lo, hi)), m_, s_, w_ in zip(RESONANCE, mu, sd, w):
        print(f"    static let {names[n]} = Term(mean: {m_:.4f}, scale: {s_:.4f}, weight: {w_:.4f}, low: {lo}, high: {hi})")
    print(f"    static let bias: Float = {w[-1]:.4f}")
    for th in [0.3, 0.4, 0.5, 0.6, 0.7]:
        scores = {}
        for snr, ext, Xf, yf, col, gate, ev in files:
            pf = 1 / (1 + np.exp(-(np.hstack([(Xf - mu) / sd, np.ones((len(Xf), 1))]) @ w)))
            scores.setdefault((snr, ext), []).append(f1(ev, col["time"][gate & (pf >= th)]))
        mean = {k: np.mean(v) for k, v in scores.items()}
        print(f"acceptance {th}: mean {np.mean(list(mean.values())):.3f}  " +
              " ".join(f"{k[0]}{k[1][0]}:{v:.3f}" for k, v in sorted(mean.items())))


if __name__ == "__main__":
    main()
