#!/usr/bin/env python3
"""Applause that clips: real_applause.py's recordings driven over a phone's rail, every report a false alarm.

A phone's AGC lifts a quiet room and its limiter pins what is loud to the rail; a ball near the phone clips, and so
does a clap next to it. docs/DETECTOR.md's clipped-onset rule (`clip`) accepts a clipped onset whatever its timbre:
this says what that costs on real claps. Each of real_applause.py's recordings (the four applause scenes; the two
single claps repeated 0.4-1.5 s apart for 11 s) is scaled so its peak stands 6, 12 and 20 dB over a -3 dBFS rail,
hard-clipped there, with white noise at -80 dBFS; every report `pongd detect` makes is a false alarm. Printed with
the rule as given and without it (clip=0).

  clipped_applause.py --pongd .build-release/release/pongd [--tune k=v,...] [--out /tmp/clipped-applause]

Needs numpy, scipy, soundfile and the packages real_applause.py names (it installs them when root).
"""
import argparse
import os
import subprocess
import sys

import numpy as np
import soundfile as sf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import real_applause as ra  # noqa: E402  (SOURCES, SINGLE)

SR = ra.SR
RAIL = ra.rc.RAIL  # real_corpus's phone clips there too


def reports(pongd, wav, tune):
    args = [pongd, "detect", wav] + (["--tune", tune] if tune else [])
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode:
        sys.exit("clipped_applause: %s: %s" % (" ".join(args), run.stderr.strip()))
    return len(run.stdout.splitlines()) - 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pongd", required=True)
    ap.add_argument("--tune", default="")
    ap.add_argument("--out", default="/tmp/clipped-applause")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    recordings = {name: spec[:2] for name, spec in ra.SOURCES.items()}
    recordings.update(ra.SINGLE)
    ra.rc.apt_install(sorted({package for package, _ in recordings.values()}))
    without = (a.tune + "," if a.tune else "") + "clip=0"
    print("| recording | over the rail | reports (rule as given) | reports (clip=0) |\n|---|---|---|---|")
    totals = [0, 0]
    for name, (_, path) in recordings.items():
        if not os.path.exists(path):
            print("| %s | missing %s | - | - |" % (name, path))
            continue
        x = ra.rc.load_recording(path)  # mono, 48 kHz, peak 1
        if name in ra.SINGLE:  # one clap: repeated irregularly
            train, rng, t = np.zeros(SR * 12), np.random.default_rng(1), 0.5
            while t < 11:
                i = int(t * SR)
                train[i:i + len(x)] += x[:len(train) - i]
                t += rng.uniform(0.4, 1.5)
            x = train
        rng = np.random.default_rng(0)
        for over in (6, 12, 20):
            y = np.clip(x / np.max(np.abs(x)) * RAIL * 10 ** (over / 20), -RAIL, RAIL)
            y = y + rng.normal(0, 1e-4, len(y))
            wav = os.path.join(a.out, "%s_over%d.wav" % (name, over))
            sf.write(wav, y.astype(np.float32), SR, subtype="PCM_16")
            got = [reports(a.pongd, wav, a.tune), reports(a.pongd, wav, without)]
            totals = [totals[0] + got[0], totals[1] + got[1]]
            print("| %s | +%d dB | %d | %d |" % (name, over, got[0], got[1]))
    print("| all | | %d | %d |" % tuple(totals))


if __name__ == "__main__":
    main()
