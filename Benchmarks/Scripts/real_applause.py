#!/usr/bin/env python3
"""REAL applause against the detector's applause rule (docs/DETECTOR.md, "Applause is a rhythm").

The rule was chosen on gen_corpus's synthetic claps; this scores it on recordings of people clapping that Debian
packages ship (Benchmarks/Data/applause/README.md lists every candidate looked at and why it was kept), read where
the packages install them (never copied into the repository), with csmash-data's real ball (table.wav, racket.wav).

Scenes (48 kHz mono, white noise at -66 dBFS RMS under everything; the ball at peak -6 dBFS):
  quiet   each applause recording alone, its peak at -6 and at -26 dBFS: every report is a false alarm
  rally   six rallies of real strokes (serve, its bounce 180 ms on, the far bounce 320 ms later, then six shots
          0.35-0.55 s apart, racket and table in turn), the whole applause recording between each two (from 0.6 s
          after a rally's last ball to 0.2 / 0.5 / 1.0 s before the next serve), its peak at the ball's and 10 dB
          under: balls found (+-10 ms) and reports inside the applause
  one     (half-real) one real clap (SINGLE) every 250 ms +-10 % for 5 s, peak -10 dBFS: a real sound on a
          synthetic one-person rhythm
  drop    the applause, then a ball dropped on the table at once (first bounce 0.1 s after the recording ends, ten
          bounces from 0.2 s apart, each gap x0.85, each bounce -1.5 dB): the rule must cost none of them
Each scene is run with the rule on (default) and off (--tune applause=0).

  real_applause.py --pongd .build-release/release/pongd [--out /tmp/real-applause] [--tune k=v,...]

Needs numpy, scipy, soundfile; the packages named in SOURCES (installed with apt-get when root) and csmash-data.
"""
import argparse
import csv
import os
import subprocess
import sys

import numpy as np
import soundfile as sf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import real_corpus as rc  # noqa: E402  (load_recording, click_onset, csmash; gen_corpus as rc.gc)
import mir_eval  # noqa: E402

SR = rc.SR
# Real recordings of people clapping, as Debian installs them: (package, path, who claps).
SOURCES = {
    "foobillard": ("foobillardplus-data", "/usr/share/games/foobillardplus/data/applause.wav",
                   "a small group, near, 44.1 kHz 16-bit, 4.9 s"),
    "gemdropx": ("gemdropx", "/usr/share/games/gemdropx/sounds/applause.wav",
                 "a group, 11 kHz 8-bit, 7.2 s"),
    "gambas": ("gambas3-examples", "/usr/share/doc/gambas3-examples/examples/Games/Concent/applause.wav",
               "a crowd cheering and clapping, 11 kHz 8-bit, 3.0 s"),
    "circuslinux": ("circuslinux-data", "/usr/share/games/circuslinux/data/sounds/applause.wav",
                    "a crowd, 11 kHz 8-bit, 3.5 s"),
}
# Single real claps (drum samples), for a half-real one-person scene: no Debian package holds one person clapping.
SINGLE = {
    "chuck-clap": ("chuck-data", "/usr/share/doc/chuck-data/examples/book/digital-artists/audio/clap_01.wav"),
    "lmms-clap01": ("lmms-common", "/usr/share/lmms/samples/drums/clap01.ogg"),
}
BALL_PEAK = 0.5  # -6 dBFS
WINDOW = 0.010


def noise(n, rng):
    return rng.uniform(-1, 1, n) * 0.00086  # -66 dBFS RMS (uniform, peak p: RMS p/sqrt(3))


def rally_events(rng, start):
    """(time, is_hit) of one rally from `start`, and its last time."""
    times = [start, start + 0.18, start + 0.5]
    hits = [True, False, False]
    for shot in range(6):
        times.append(times[-1] + rng.uniform(0.35, 0.55))
        hits.append(shot % 2 == 0)
    return list(zip(times, hits))


def detect(pongd, wav, tune):
    """The onset times `pongd detect` reports in `wav`; a failed run ends the script with pongd's own message."""
    args = [pongd, "detect", wav]
    if tune:
        args += ["--tune", tune]
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode:
        sys.exit("real_applause: %s failed (status %d): %s" % (" ".join(args), run.returncode, run.stderr.strip()))
    return np.array([float(r["time"]) for r in csv.DictReader(run.stdout.splitlines())])


def matched(ref, est):
    """(ref index, est index) pairs matched one-to-one within WINDOW: score_onsets.py's own matching (mir_eval)."""
    return mir_eval.util.match_events(ref, est, WINDOW) if len(ref) and len(est) else []


def score(pongd, wav, ref, tunes, scene, what, in_applause):
    """For each rule setting: (balls found, reports that match no ball and fall in the applause); prints the lost."""
    res = {}
    for k, tune in tunes.items():
        est = detect(pongd, wav, tune)
        hit = matched(ref, est)
        got = {j for _, j in hit}
        lost = sorted(set(range(len(ref))) - {i for i, _ in hit})
        if lost:
            print("%s, rule %s: %s missed at %s s" % (scene, k, what, ", ".join("%.3f" % ref[i] for i in lost)))
        res[k] = (len(hit), sum(1 for j, e in enumerate(est) if j not in got and in_applause(e)))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pongd", required=True)
    ap.add_argument("--out", default="/tmp/real-applause")
    ap.add_argument("--tune", default="", help="extra --tune pairs for both runs")
    ap.add_argument("--sources", default=",".join(SOURCES))
    ap.add_argument("--single", default=",".join(SINGLE), help="single claps for the half-real scene ('' = none)")
    a = ap.parse_args()
    if not (os.path.isfile(a.pongd) and os.access(a.pongd, os.X_OK)):
        ap.error("--pongd %s is no executable (build it: swift build -c release)" % a.pongd)
    names = a.sources.split(",")
    singles = a.single.split(",") if a.single else []
    for given, known, flag in ((names, SOURCES, "--sources"), (singles, SINGLE, "--single")):
        unknown = [n for n in given if n not in known]
        if unknown:
            ap.error("%s: unknown %s (known: %s)" % (flag, ", ".join(unknown), ", ".join(known)))
    os.makedirs(a.out, exist_ok=True)
    rc.ensure_csmash()
    rc.apt_install([SOURCES[n][0] for n in names])
    table = rc.load_recording(os.path.join(rc.CSMASH, "table.wav"))
    racket = rc.load_recording(os.path.join(rc.CSMASH, "racket.wav"))
    onset = {True: rc.click_onset(racket, SR) / SR, False: rc.click_onset(table, SR) / SR}
    clip = {True: racket, False: table}
    tunes = {"on": a.tune, "off": ",".join(filter(None, [a.tune, "applause=0"]))}
    rows = []
    for name in names:
        path = SOURCES[name][1]
        if not os.path.exists(path):
            print("%s: %s is not installed (apt-get install %s): skipped" % (name, path, SOURCES[name][0]))
            continue
        clap = rc.load_recording(path)
        dur = len(clap) / SR
        rng = np.random.default_rng(7)
        # quiet: the recording alone.
        for level in (-6, -26):
            y = noise(int((dur + 1) * SR), rng)
            rc.gc.add_at(y, clap, 0.5, 10 ** (level / 20))
            wav = os.path.join(a.out, "%s_quiet%d.wav" % (name, -level))
            sf.write(wav, y, SR, subtype="PCM_16")
            got = {k: len(detect(a.pongd, wav, t)) for k, t in tunes.items()}
            rows.append((name, "quiet %d dBFS" % level, "-", "-", got["on"], got["off"]))
        # rally and drop: the applause at the ball's peak and 10 dB under.
        for rel in (0, -10):
            gain = BALL_PEAK * 10 ** (rel / 20)
            balls, spans, t = [], [], 0.5
            for rally in range(6):
                ev = rally_events(rng, t)
                balls += ev
                start = ev[-1][0] + 0.6
                spans.append((start, start + dur))
                t = start + dur + (0.2, 0.5, 1.0)[rally % 3]
            y = noise(int((t + 1) * SR), rng)
            for time, hit in balls:
                rc.gc.add_at(y, clip[hit], time - onset[hit], BALL_PEAK)
            for s, _ in spans[:-1]:
                rc.gc.add_at(y, clap, s, gain)
            spans = spans[:-1]
            wav = os.path.join(a.out, "%s_rally%d.wav" % (name, -rel))
            sf.write(wav, y, SR, subtype="PCM_16")
            ref = np.array([b[0] for b in balls])
            res = score(a.pongd, wav, ref, tunes, "%s rally %+d dB" % (name, rel), "balls",
                        lambda e, spans=spans: any(s <= e <= f for s, f in spans))
            rows.append((name, "rally, applause %+d dB" % rel, "%d/%d" % (res["on"][0], len(ref)),
                         "%d/%d" % (res["off"][0], len(ref)), res["on"][1], res["off"][1]))
            # drop right after the applause
            y = noise(int((dur + 3) * SR), rng)
            rc.gc.add_at(y, clap, 0.5, gain)
            drops, bt, gap, g = [], 0.5 + dur + 0.1, 0.2, BALL_PEAK
            for _ in range(10):
                drops.append(bt)
                rc.gc.add_at(y, table, bt - onset[False], g)
                bt += gap
                gap *= 0.85
                g *= 10 ** (-1.5 / 20)
            wav = os.path.join(a.out, "%s_drop%d.wav" % (name, -rel))
            sf.write(wav, y, SR, subtype="PCM_16")
            ref = np.array(drops)
            res = score(a.pongd, wav, ref, tunes, "%s drop %+d dB" % (name, rel), "bounces",
                        lambda e: 0.5 <= e <= 0.5 + dur)
            rows.append((name, "drop after applause %+d dB" % rel, "%d/%d" % (res["on"][0], len(ref)),
                         "%d/%d" % (res["off"][0], len(ref)), res["on"][1], res["off"][1]))
    for name in singles:
        package, path = SINGLE[name]
        rc.apt_install([package])
        if not os.path.exists(path):
            print("%s: %s is not installed (apt-get install %s): skipped" % (name, path, package))
            continue
        clap = rc.load_recording(path)
        rng = np.random.default_rng(1)
        y = noise(6 * SR, rng)
        t = 0.5
        while t < 5.5:
            rc.gc.add_at(y, clap, t, 10 ** (-10 / 20))
            t += 0.25 * (1 + rng.uniform(-0.1, 0.1))
        wav = os.path.join(a.out, "%s_one.wav" % name)
        sf.write(wav, y, SR, subtype="PCM_16")
        got = {k: len(detect(a.pongd, wav, t)) for k, t in tunes.items()}
        rows.append((name, "one person (half-real), 4/s", "-", "-", got["on"], got["off"]))
    print("| recording | scene | balls found (on) | balls found (off) | applause reported (on) | applause reported (off) |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %s | %s | %s | %s | %s |" % r)


if __name__ == "__main__":
    main()
