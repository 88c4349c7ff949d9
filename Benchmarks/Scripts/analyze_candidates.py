#!/usr/bin/env python3
"""Match `pongd detect --candidates` rows to corpus labels and show how each feature separates them.

  pongd detect F.wav --candidates cand.csv > det.csv
  python3 analyze_candidates.py cand.csv <set>_events.csv <set>_distractors.csv

Each candidate is labelled with the nearest ball event (bounce/hit) within +-15 ms, else the nearest distractor
within +-30 ms, else 'other'. Prints per-label feature percentiles and the recall of events (any candidate).
"""
import csv
import sys

import numpy as np


def load(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return rows[0], [r for r in rows[1:] if r]


def number(text):
    """A field as a number; NaN for a text field (the band levels, the verdict) or one not measured."""
    try:
        return float(text)
    except ValueError:
        return float("nan")


def main():
    head, cand = load(sys.argv[1])
    _, ev = load(sys.argv[2])
    _, dis = load(sys.argv[3])
    ev_t = np.array([float(r[0]) for r in ev])
    ev_k = [r[1] for r in ev]
    dis_t = np.array([float(r[0]) for r in dis])
    dis_k = [r[1] for r in dis]
    groups = {}
    found = set()
    errors = []
    for r in cand:
        t = float(r[0])
        i = int(np.argmin(np.abs(ev_t - t)))
        if abs(ev_t[i] - t) <= 0.015:
            label = ev_k[i]
            found.add(i)
            errors.append((t - ev_t[i]) * 1000)
        else:
            j = int(np.argmin(np.abs(dis_t - t))) if len(dis_t) else -1
            label = dis_k[j] if j >= 0 and abs(dis_t[j] - t) <= 0.03 else "other"
        groups.setdefault(label, []).append([number(x) for x in r[1:]])
    print(f"events {len(ev_t)}, with a candidate {len(found)}, candidates {len(cand)}")
    if errors:
        e = np.array(errors)
        print(f"timing of matched candidates: bias {e.mean():+.2f} ms, MAE {np.abs(e).mean():.2f} ms, "
              f"p90 |err| {np.percentile(np.abs(e), 90):.2f} ms")
    feats = head[1:]
    for label, rows in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        a = np.array(rows)
        print(f"\n{label} ({len(rows)})")
        for k, name in enumerate(feats):
            column = a[:, k][np.isfinite(a[:, k])]
            if not len(column):  # a text column (band levels, verdict) or never measured
                continue
            p = np.percentile(column, [5, 25, 50, 75, 95])
            print(f"  {name:12s} " + " ".join(f"{v:9.2f}" for v in p))
    missed = [(ev_t[i], ev_k[i]) for i in range(len(ev_t)) if i not in found]
    print("\nmissed:", ", ".join(f"{t:.3f}{k[0]}" for t, k in missed[:30]))


if __name__ == "__main__":
    main()
