#!/usr/bin/env python3
"""Fit the impact classifier's logistic weights on DEV candidates only (never on test).

  for f in dev_snr20 dev_snr10 dev_snr00 dev_snr00_opus24 ...; do pongd detect $f.wav --candidates $f.cand >/dev/null; done
  python3 fit_classifier.py dev_events.csv dev_*.cand

A candidate is positive when a labelled ball impact lies within +-10 ms. Features are the physical ones of
ImpactFeatures (attack and excess level, tonality, ring-down, share above 6.5 kHz); decay is clipped to
[-30, 10] dB. Prints standardisation, weights, and the dev F1 per probability threshold.
"""
import csv
import sys

import numpy as np

COLS = ["snr_db", "tonality", "high_share", "decay_db", "attack_db"]


def rows(path):
    with open(path) as f:
        r = list(csv.DictReader(f))
    return r


def main():
    ev = np.array([float(r["time_s"]) for r in rows(sys.argv[1])])
    X, y = [], []
    for path in sys.argv[2:]:
        for r in rows(path):
            t = float(r["time"])
            x = [float(r[c]) for c in COLS]
            x[3] = min(10.0, max(-30.0, x[3]))
            X.append(x)
            y.append(1.0 if np.min(np.abs(ev - t)) <= 0.010 else 0.0)
    X, y = np.array(X), np.array(y)
    mu, sd = X.mean(0), X.std(0) + 1e-9
    Z = np.hstack([(X - mu) / sd, np.ones((len(X), 1))])
    w = np.zeros(Z.shape[1])
    for _ in range(50):  # Newton's method with a small ridge
        p = 1 / (1 + np.exp(-Z @ w))
        g = Z.T @ (p - y) + 0.1 * w
        H = (Z * (p * (1 - p))[:, None]).T @ Z + 0.1 * np.eye(len(w))
        w -= np.linalg.solve(H, g)
    print("n", len(y), "positives", int(y.sum()))
    print("mean", np.round(mu, 4).tolist())
    print("std ", np.round(sd, 4).tolist())
    print("w   ", np.round(w, 4).tolist(), "(last = bias)")
    p = 1 / (1 + np.exp(-Z @ w))
    for th in [0.3, 0.4, 0.5, 0.6, 0.7]:
        tp = np.sum((p >= th) & (y == 1)); fp = np.sum((p >= th) & (y == 0)); fn = np.sum((p < th) & (y == 1))
        print(f"threshold {th}: precision {tp / max(tp + fp, 1):.3f} recall-of-candidates {tp / max(tp + fn, 1):.3f}")


if __name__ == "__main__":
    main()
