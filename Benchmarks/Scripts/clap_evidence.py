#!/usr/bin/env python3
"""What tells a clap from a ball: every tuning candidate labelled ball / clap / other, with features measured offline.

  clap_evidence.py PONGD [--out DIR] [--tune k=v,...]

Runs `pongd detect --candidates` on the tuning files only (real_corpus.py's tune and tune2 splits, gen_corpus's dev
sets: never the held-out or independent seeds), labels each candidate (a ball within 5 ms of a labelled impact; a
clap, step or squeak when it falls 3 ms before to 30 ms after where the _distractors.csv placed one), marks the ones
the detector reported, and measures from the audio (700 Hz high-passed as the detector does, nothing after onset +
8 ms) the features that were tried as evidence against claps (docs/DETECTOR.md, "Claps in a quiet room"):

  sf_onset   spectral flatness (geometric over arithmetic mean power, dB) of the onset frame (256-point Hann from
             1.3 ms before the onset), 700 Hz - 10 kHz: noise fills the band, a struck object's resonances leave
             valleys (white noise's periodogram: -2.5 dB)
  bw_onset   participation bandwidth of that frame's excess over the room (Hz)
  lflat      local flatness (periodogram over its +-500 Hz mean, 0-8 ms): noise -2.5 dB, lines lower, a short
             smooth transient higher
  fsc        fine-structure correlation of the 0-4 and 4-8 ms spectra (lines stay, noise's peaks move)
  rough      band envelopes' roughness about a log-linear decay (noise fluctuates, a mode decays smoothly)
  tilt       how much faster the high bands decay than the low ones, 0-2 vs 6-8 ms
  nkurt      kurtosis of the envelope-normalised signal (Gaussian noise 3, a few sinusoids under 3)

and prints, per source and onset attack, the reported balls' and claps' ranges, and for each feature how many
reported claps a threshold removes at the cost of 0 / 2 / 5 reported balls, with attack >= 0 and >= 20 dB.
"""
import argparse, csv, glob, os, subprocess, sys
import concurrent.futures as cf
import numpy as np
import scipy.signal as ss
import soundfile as sf

SR = 48000
HP = ss.butter(4, 700, "highpass", fs=SR, output="sos")
EDGES = [700, 1000, 1400, 2000, 2800, 4000, 5600, 10000]
BANDS = [ss.butter(2, [EDGES[i], EDGES[i + 1]], "bandpass", fs=SR, output="sos") for i in range(7)]
REAL = {"tune": "/work/realcorpus", "tune2": "/work/realcorpus-tune2"}
GEN = "/work/corpus"


def tuning_files():
    out = []
    for split, d in REAL.items():
        out += [(split, w) for w in sorted(glob.glob(d + "/real*_rally_*.wav")) + sorted(glob.glob(d + "/real*_drop_*.wav"))]
    out += [("gen", w) for w in sorted(glob.glob(GEN + "/dev*_snr*.wav")) if "_44k" not in w]
    return out


def read_times(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [(float(r["time_s"]), r.get("type", "")) for r in csv.DictReader(f)]


def truth(wav):
    d, stem = os.path.split(wav)
    stem = stem[:-4]
    base = "_".join(stem.split("_")[:2]) if stem.startswith("real") else stem.split("_")[0]
    return read_times("%s/%s_events.csv" % (d, base)), read_times("%s/%s_distractors.csv" % (d, base))


def flatness_db(p):
    return 10 * np.log10(np.exp(np.mean(np.log(p + 1e-30))) / (np.mean(p) + 1e-30))


def spectrum(h, start, n, nfft=None):
    nfft = nfft or n
    x = np.abs(np.fft.rfft(h[start:start + n] * np.hanning(n), nfft)) ** 2
    f = np.fft.rfftfreq(nfft, 1 / SR)
    return x[(f >= 700) & (f <= 10000)]


def features(h, n0):
    out = {}
    onset = spectrum(h, n0 - 64, 256)
    out["sf_onset"] = flatness_db(onset)
    bg = np.mean([spectrum(h, s, 256) for s in range(max(0, n0 - 14800), n0 - 400, 128)], axis=0)
    ex = np.maximum(onset - 2 * bg, 0)
    out["bw_onset"] = ex.sum() ** 2 / (np.sum(ex ** 2) + 1e-40) * SR / 256
    p = spectrum(h, n0, 384)
    s = np.convolve(p, np.ones(9) / 9, "same")
    keep = s > 0.01 * s.max()
    out["lflat"] = 10 * np.sum(s[keep] / s[keep].sum() * np.log10(p[keep] / s[keep] + 1e-12))
    a, b = spectrum(h, n0, 192, 2048), spectrum(h, n0 + 192, 192, 2048)
    la, lb = np.log(a + 1e-30), np.log(b + 1e-30)
    k = np.ones(2 * 64 + 1) / (2 * 64 + 1)
    fa, fb = la - np.convolve(la, k, "same"), lb - np.convolve(lb, k, "same")
    w = np.sqrt(a * b)
    out["fsc"] = np.sum(w * fa * fb) / np.sqrt(np.sum(w * fa * fa) * np.sum(w * fb * fb) + 1e-30)
    seg = h[n0 - 1500:n0 + 384]
    rough, early, late, weight = [], [], [], []
    for sos in BANDS:
        y = ss.sosfilt(sos, seg)[1500:]
        e = np.mean(y[24:384].reshape(30, 12) ** 2, 1)
        L = 10 * np.log10(e + 1e-20)
        t = np.arange(30)
        rough.append(np.std(L - np.polyval(np.polyfit(t, L, 1), t)))
        early.append(np.mean(y[:96] ** 2)); late.append(np.mean(y[288:384] ** 2)); weight.append(e.sum())
    weight = np.array(weight)
    out["rough"] = np.sum(np.array(rough) * weight) / weight.sum()
    d = 10 * np.log10((np.array(late) + 1e-30) / (np.array(early) + 1e-30))
    wi = np.array(early) / np.sum(early)
    x = np.arange(7)
    xm = np.sum(wi * x)
    out["tilt"] = np.sum(wi * (x - xm) * (d - np.sum(wi * d))) / (np.sum(wi * (x - xm) ** 2) + 1e-9)
    z = h[n0 + 24:n0 + 384]
    env = np.sqrt(np.convolve(z ** 2, np.ones(48) / 48, "same") + 1e-20)
    z = z / env
    out["nkurt"] = np.mean(z ** 4) / np.mean(z ** 2) ** 2
    return out


def measure(args, split, wav):
    stem = os.path.basename(wav)[:-4]
    cand, det = os.path.join(args.out, stem + ".cand"), os.path.join(args.out, stem + ".det")
    with open(det, "w") as f:
        subprocess.run([args.pongd, "detect", wav, "--candidates", cand] + (["--tune", args.tune] if args.tune else []),
                       stdout=f, check=True)
    with open(det) as f:
        reported = np.array([float(r["time"]) for r in csv.DictReader(f)])
    events, placed = truth(wav)
    ev = np.array([t for t, _ in events])
    x, _ = sf.read(wav, dtype="float32")
    h = ss.sosfilt(HP, (x.mean(1) if x.ndim > 1 else x).astype(np.float64))
    condition = stem.split("_", 1)[1]
    rows = []
    with open(cand) as f:
        for r in csv.DictReader(f):
            t = float(r["time"])
            label = "other"
            if len(ev) and np.min(np.abs(ev - t)) <= 0.005:
                label = "ball"
            else:
                near = [(t - ts, kind) for ts, kind in placed if -0.003 <= t - ts <= 0.030]
                if near:
                    label = {"footstep": "step"}.get(min(near)[1], min(near)[1])
            ok = bool(len(reported) and np.min(np.abs(reported - t)) <= 0.0015)
            if not (ok or label in ("ball", "clap")):
                continue
            row = dict(split=split, condition=condition, label=label, reported=ok, attack=float(r["attack_db"]),
                       tonality=float(r["tonality"]))
            row.update(features(h, int(round(t * SR))))
            rows.append(row)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pongd")
    ap.add_argument("--out", default="/tmp/clap_evidence")
    ap.add_argument("--tune", default="")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    with cf.ThreadPoolExecutor(2) as pool:
        for part in pool.map(lambda sw: measure(args, *sw), tuning_files()):
            rows += part
    reported = [r for r in rows if r["reported"]]
    print("reported: %d balls, %d claps, %d other false alarms" % (
        sum(r["label"] == "ball" for r in reported), sum(r["label"] == "clap" for r in reported),
        sum(r["label"] not in ("ball", "clap") for r in reported)))
    names = ["sf_onset", "bw_onset", "lflat", "fsc", "rough", "tilt", "nkurt", "tonality"]
    for gate in (0, 20):
        print("\nattack >= %d dB: claps removed / reported claps at the threshold that loses 0 / 2 / 5 reported balls" % gate)
        for name in names:
            sel = [r for r in reported if r["attack"] >= gate]
            balls = np.array([r[name] for r in sel if r["label"] == "ball"])
            claps = [r for r in sel if r["label"] == "clap"]
            sign = 1 if np.median([r[name] for r in claps]) > np.median(balls) else -1
            line = "  %-9s %s" % (name, ">" if sign > 0 else "<")
            for lost in (0, 2, 5):
                th = np.sort(sign * balls)[::-1][lost]
                line += "  | lose %d: %8.2f" % (lost, sign * th)
                for split in ("tune", "tune2", "gen"):
                    c = [r for r in claps if r["split"] == split]
                    line += " %s %3d/%3d" % (split, sum(sign * r[name] > th for r in c), len(c))
            print(line)
    print("\nsf_onset by attack (reported): balls' max and 99th percentile, claps' median")
    for lo, hi in ((10, 20), (20, 30), (30, 99)):
        line = "  attack %2d-%2d dB" % (lo, hi)
        for split in ("tune", "tune2", "gen"):
            b = [r["sf_onset"] for r in reported if r["label"] == "ball" and r["split"] == split and lo <= r["attack"] < hi]
            c = [r["sf_onset"] for r in reported if r["label"] == "clap" and r["split"] == split and lo <= r["attack"] < hi]
            line += " | %s balls %4d max %6.2f p99 %6.2f, claps %3d median %6.2f" % (
                split, len(b), max(b) if b else np.nan, np.percentile(b, 99) if b else np.nan, len(c),
                np.median(c) if c else np.nan)
        print(line)


if __name__ == "__main__":
    main()
