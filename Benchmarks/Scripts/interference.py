#!/usr/bin/env python3
"""Which part of the room each ball pongd misses, and each false report it makes, sounds under (issue 11, 0 dB).

real_corpus.py's rally bed is four parts (real_corpus.bed_parts: pink noise, babble, music, a near talker) plus the
distractors (claps, steps, squeaks). detectability.rally_parts re-creates a tuning seed's rally with the same draws
and its parts apart; here each part goes through the phone's band filter and the mix's own gain (AGC, limiter), is
high-passed at 700 Hz as the detector hears it, and its energy is measured over the 5 ms after each labelled ball
and each report of `pongd detect` on the seed's rally WAV. Each ball and each false report is put down to the
loudest part there; a ball is "under the near talker" when the talker is within 6 dB of the ball or louder.

  interference.py --pongd BIN                        tuning seeds 11-20, 0 dB (~15 s a seed)
  interference.py --pongd BIN --seed 41 --seed 42 --snr 10 [--tune k=v] [--csv rows.csv]
  interference.py --pongd BIN --without near         what a part costs: F1 with it and with it taken out

--without PART re-creates each seed's mix less PART (pink, babble, music, near or distractors) through the whole
mix's phone gain curve (the AGC and limiter as the recorded file set them; the whole mix so re-created is the corpus
WAV sample for sample), runs `pongd detect` on it and on the corpus WAV and prints F1, precision, recall and false
reports at +-10 ms, pooled over the seeds: how much a front end that took PART out perfectly would be worth.

Prints recall by the loudest part and under the talker, and the false reports by the loudest part. Tuning seeds
only: the held-out and independent seeds are refused.
"""
import argparse
import csv
import os
import subprocess
import sys

import numpy as np
from scipy import signal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import real_corpus as rc  # noqa: E402  (numpy and scipy only; detectability, which needs mir_eval, later)

gc = rc.gc
SR = rc.SR
MATCH = 0.010
SPAN = int(0.005 * SR)
TUNING = set(rc.ALL_TUNING_SEEDS)
DEFAULT_DIRS = ({s: "/work/realcorpus" for s in rc.TUNING_SEEDS}
                | {s: "/work/realcorpus-tune2" for s in rc.TUNING2_SEEDS}
                | {s: "/work/realcorpus-tune3" for s in rc.TUNING3_SEEDS})


def rally_parts(seed, folder, snr):
    """The seed's labels, its parts at `snr` before the phone (balls, distractors and the bed's four: their sum is the
    mix real_corpus.py recorded), and the phone's band filter and gain curve on that whole mix."""
    import detectability as dt
    p = dt.rally_parts(seed, folder)
    s = gc.db(p["ball_dbfs"] - p["ref"])
    g_bed = gc.db(p["ref"] - snr)
    parts = {"balls": s * p["strands"].sum(axis=0), "distractors": s * p["dis"]}
    parts |= {name: s * g_bed * part for name, part in p["bed_parts"].items()}
    band, gain, _ = dt.phone_gain(sum(parts.values()), np.random.default_rng(p["phone_seed"]))
    return p["labels"], parts, band, gain


def heard_parts(seed, folder, snr):
    """The seed's labels and its parts as the phone, then the detector's 700 Hz high-pass, hears them."""
    labels, parts, band, gain = rally_parts(seed, folder, snr)
    sos = signal.butter(4, 700, "highpass", fs=SR, output="sos")
    return labels, {name: signal.sosfilt(sos, band(x) * gain) for name, x in parts.items()}


def mix_without(seed, folder, snr, part, path):
    """Writes to `path` the seed's rally mix less `part` as the phone hears it, through the whole mix's gain curve
    (the AGC and limiter as the recorded file set them); returns the labels."""
    import soundfile as sf
    labels, parts, band, gain = rally_parts(seed, folder, snr)
    rest = sum(x for name, x in parts.items() if name != part)
    sf.write(path, (band(rest) * gain).astype(np.float32), SR, subtype="PCM_16")
    return labels


def without(a, seeds):
    """--without: F1 on each seed's recorded mix and on the same mix less the part, pooled (mir_eval's one-to-one
    matching within MATCH, as detectability.py scores)."""
    import tempfile
    import detectability as dt
    counts = {"full": [0, 0, 0], "without": [0, 0, 0]}  # matched, reports, labels
    with tempfile.TemporaryDirectory() as out:
        for seed in seeds:
            folder = a.corpus or DEFAULT_DIRS[seed]
            path = os.path.join(out, "real%d_rally_snr%02d_without-%s.wav" % (seed, a.snr, a.without))
            labels = mix_without(seed, folder, a.snr, a.without, path)
            recorded = os.path.join(folder, "real%d_rally_snr%02d.wav" % (seed, a.snr))
            for key, wav in (("full", recorded), ("without", path)):
                times = reports(a.pongd, wav, a.tune)
                c = counts[key]
                c[0] += dt.matched([t for t, _, _ in labels], times, MATCH)[1]
                c[1] += len(times)
                c[2] += len(labels)
            print("seed %d done" % seed, flush=True)
    print("\n| %d dB rallies, seeds %s | F1 (+-10 ms) | precision | recall | false reports |\n|---|---|---|---|---|"
          % (a.snr, ",".join(map(str, seeds))))
    named = {"near": "near talker"}.get(a.without, a.without)
    for key, name in (("full", "as recorded"), ("without", "without the " + named)):
        hit, n, total = counts[key]
        print("| %s | %.3f | %.3f | %.3f | %d |" % (name, dt.f1(hit, total, n), hit / max(n, 1), hit / max(total, 1),
                                                   n - hit))


def energy_db(x, t):
    i = int(round(t * SR))
    return 10 * np.log10(np.mean(x[i:i + SPAN] ** 2) + 1e-20)


def reports(pongd, wav, tune):
    out = subprocess.run([pongd, "detect", wav] + (["--tune", tune] if tune else []), check=True,
                         capture_output=True, text=True).stdout
    return [float(row["time"]) for row in csv.DictReader(out.splitlines())]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pongd", default="/work/main/.build-release/release/pongd")
    ap.add_argument("--seed", type=int, action="append", help="tuning seeds (default 11-20)")
    ap.add_argument("--corpus", help="the seeds' folder (default /work/realcorpus for 11-15, -tune2 for 16-20, "
                                     "-tune3 for 41-48)")
    ap.add_argument("--snr", type=int, default=0, help="rally condition, dB (0, 10 or 20; default 0)")
    ap.add_argument("--tune", default="", help="pongd detect --tune")
    ap.add_argument("--csv", help="also write one row per ball here (seed, time, loudest part, dB of each, found)")
    ap.add_argument("--without", choices=rc.BED_PARTS + ("distractors",),
                    help="score the mix as recorded and without this part (see above)")
    a = ap.parse_args()
    rows = []
    seeds = a.seed or sorted(rc.TUNING_SEEDS + rc.TUNING2_SEEDS)
    if not set(seeds) <= TUNING:
        sys.exit("interference: seeds %s are not tuning seeds" % sorted(set(seeds) - TUNING))
    if a.without:
        return without(a, seeds)
    others = ["pink", "babble", "music", "near", "distractors"]
    found, total, false = {}, {}, {}
    for seed in seeds:
        folder = a.corpus or DEFAULT_DIRS[seed]
        labels, parts = heard_parts(seed, folder, a.snr)
        times = reports(a.pongd, os.path.join(folder, "real%d_rally_snr%02d.wav" % (seed, a.snr)), a.tune)
        for t, _, _ in labels:
            e = {name: energy_db(parts[name], t) for name in ["balls"] + others}
            loudest = max(others, key=e.get)
            hit = any(abs(r - t) <= MATCH for r in times)
            rows.append(dict(seed=seed, time=round(t, 6), loudest=loudest, found=int(hit),
                             **{name + "_db": round(e[name], 1) for name in e}))
            for key in (loudest, "under the near talker" if e["near"] >= e["balls"] - 6 else "clear of the talker",
                        "all"):
                total[key] = total.get(key, 0) + 1
                found[key] = found.get(key, 0) + hit
        for r in times:
            if any(abs(r - t) <= MATCH for t, _, _ in labels):
                continue
            e = {name: energy_db(parts[name], r) for name in others}
            key = max(others, key=e.get)
            false[key] = false.get(key, 0) + 1
        print("seed %d: %d balls, %d reports" % (seed, len(labels), len(times)), flush=True)
    if a.csv and rows:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    print("\n| balls, by the loudest part in their 5 ms | balls | found | recall |\n|---|---|---|---|")
    for key in others + ["under the near talker", "clear of the talker", "all"]:
        if total.get(key):
            print("| %s | %d | %d | %.3f |" % (key, total[key], found[key], found[key] / total[key]))
    print("\n| false reports, by the loudest part | count |\n|---|---|")
    for key in others:
        print("| %s | %d |" % (key, false.get(key, 0)))


if __name__ == "__main__":
    main()
