#!/usr/bin/env python3
"""How detectable is each ball of real_corpus.py's rally files, and what is the best any ~8 ms detector could do?

For each tuning seed the rally part of real_corpus.build_seed is re-run with the same random draws, but the parts
are kept apart: each ball strand (wet: through the room), the wet distractors and the bed, each through the phone's
band filters and the SAME time-varying gain (AGC and limiter, computed from the full mix as real_corpus.phone does).
Their sum must reproduce the rally WAV (the replication error is printed; PCM16 alone gives about -75 dB).

Per labelled ball (onset .. onset + --window ms):
  d2      whitened matched-filter deflection b' R^-1 b (dB): b = the ball's own part in the window, R = the Toeplitz
          autocorrelation of the interference (distractors + bed + the PCM16 floor) over +-0.25 s around the window,
          the window excluded. What a detector that knew this ball's exact waveform and the local noise could reach.
  band    best 1/3-octave band (800 Hz-10 kHz) ball energy / interference energy in the same window (dB).
  pongd   whether `pongd detect` reports it within +-10 ms.
  ceil    whether the ceiling detector finds it. It knows the ball's timbre: a fixed bank of csmash's two
          recordings at --rates (not this ball's own waveform, room or phone), band-passed 700 Hz-10 kHz, cut 0.5 ms
          before the click .. --window ms after. The mix, band-passed alike, is whitened by a causal LPC (order 32)
          fit to its previous 0.5 s, re-fit every 10 ms. Score at every sample: the best template's whitened
          correlation over its noise deviation (known polarity), kept where that template's cosine with the
          whitened data passes a gate; peaks are the maximum of the last 25 ms and the next 1 ms, so a ball is
          decided ~10 ms after its onset (window + 0.7 ms whitening + 1 ms). The gate and threshold are swept for the
          best pooled F1 (+-10 ms), and for the best recall at <= 1 false alarm/s (on --fit-on seeds).
The ceiling is an upper-bound-ish figure for a causal detector with template knowledge, not one pongd could ship
(its gate and threshold are fitted on the files it is scored on unless --fit-on says otherwise).

--learned asks what a stage pongd could ship gets without that knowledge: templates learned from the stream itself.
No parts are re-created; per rally WAV (0, 10, 20 dB and clean) `pongd detect --candidates` gives the reports and
every candidate. Templates: the candidates pongd accepted with a verdict in --tpl-verdicts and attack_db >=
--tpl-attack, their band-passed (700 Hz-10 kHz) mix from onset - --tpl-lead .. + --window ms, usable 50 ms after
their onset; the -k most recent (or clearest), each at every --tpl-rates rate (or, --tpl-mode mean, running means
of them). Every candidate is scored by its best cosine with a usable template after the ceiling's causal whitening
(LPC order 32 on the previous 0.5 s), lags +-(--lag) ms around its onset, with that match's z-score. Then:
  cand   a rejected candidate whose cosine >= a gate (and z >= a minimum) is added to pongd's reports;
  rel    the same, with the gate a factor of the stream's reference: the median score of the usable templates' own
         reports against the templates before them (what a ball scores in this stream, at its noise, now);
  veto   (swept with each) a report whose candidate scores under a factor of the reference is dropped;
  dense  (--dense, 0 dB) the ceiling's dense scan with the learned bank instead of candidates.
Additions lie >= 25 ms from any report and each other. Operating points are chosen for the best pooled 0 dB F1 on
seeds 11-15 and scored on 16-20, and the reverse; the same points are scored at 10, 20 dB and clean (+-5, +-2,
+-2 ms). CPU per candidate and a stream's template storage are printed.

  detectability.py                                   seeds 11-20 from /work/realcorpus and /work/realcorpus-tune2
  detectability.py --seed 11 --seed 12 --snr 0       some seeds, one condition
  detectability.py --corpus DIR --seed 11            another folder built by real_corpus.py --split tune
  detectability.py --window 5                        5 ms windows (d2, band and the ceiling's templates)
  detectability.py --fit-on 11 ... --fit-on 15       the ceiling's thresholds chosen on 11-15, scored on all
  detectability.py --rates 0.9 1.0 1.1               a coarser template bank (default 0.90..1.10 by 0.01)
  detectability.py --energy 2                        a timbre-blind "ceiling": whitened band energy over 2 ms
  detectability.py --band 700 2500 --snr 0           the ceiling on a narrower band
  detectability.py --learned -k 32 --tpl-rates 0.96 0.98 1 1.02 1.04    stream-learned templates (~70 s)
  detectability.py --learned -k 16 --snr 0 --dense    ... and the dense scan with them
  detectability.py --learned --oracle-templates       templates from the same rally's clean file (a diagnostic)

Tuning seeds only (11-20); folders of the held-out or independent splits are refused. Needs numpy, scipy,
soundfile, mir_eval, real_corpus.py's noises (../../../shared/tools/gen_corpus.py, its _speech_cache in the corpus
folder) and the release pongd (--pongd). Single process; ~20-40 s per seed (--learned: ~2-7 s).
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time

import mir_eval
import numpy as np
import soundfile as sf
from scipy import linalg, ndimage, signal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import real_corpus as rc  # noqa: E402
import score_onsets  # noqa: E402  (../../../shared/tools, on the path real_corpus set)
gc = rc.gc
SR = rc.SR
TUNING = rc.TUNING_SEEDS + rc.TUNING2_SEEDS
DEFAULT_DIRS = {s: "/work/realcorpus" for s in rc.TUNING_SEEDS} | {s: "/work/realcorpus-tune2" for s in rc.TUNING2_SEEDS}
Q_FLOOR = (1 / 32768) ** 2 / 12  # PCM16 quantisation noise power
MATCH = 0.010
REFRACTORY = 0.025


# ---------------------------------------------------------------- the rally's parts, as build_seed makes them
def rally_parts(seed, corpus, dur=60.0):
    """The rally's wet strands (8, n), wet distractors, bed (and its parts, real_corpus.bed_parts), labels, ref level,
    ball level and phone seed."""
    impacts = rc.Impacts("csmash", pick_seed=seed + 5000)
    rng = np.random.default_rng(seed)
    n = int(dur * SR)
    seq, spans = rc.rally_times(rng, dur)
    strands, labels, ref = rc.place(impacts, seq, n, rng, lambda item: rng.uniform(-8, 0))
    dis = rc.distractors(rng, n, dur, spans)
    ir, _ = rc.room_ir(rng)
    dis *= gc.db(ref - rc.synthetic_ball_level())
    wet_strands = np.array([signal.oaconvolve(s, ir)[:n] for s in strands])
    wet_dis = signal.oaconvolve(dis, ir)[:n]
    bed_parts = rc.bed_parts(rng, n, dur, os.path.join(corpus, "_speech_cache"))
    noise = sum(bed_parts[name] for name in rc.BED_PARTS)
    ball_dbfs = rng.uniform(-45, -15)
    phone_seed = int(rng.integers(1 << 31))
    return dict(strands=wet_strands, dis=wet_dis, bed=noise, bed_parts=bed_parts, labels=labels, ref=ref,
                ball_dbfs=ball_dbfs, phone_seed=phone_seed)


def phone_gain(x, rng):
    """real_corpus.phone in two: its band filter (a function) and its total gain curve (AGC / limiter) on x."""
    band, _ = rc.phone_band(rng)
    xb = band(x)
    agc = rc.phone_agc(xb)
    red = rc.phone_limiter(xb * agc)
    return band, agc / red, float(np.mean(red > 1.0001))


def phone_parts(parts, snr):
    """Each part through the phone at `snr`: the balls per strand (8, n), interference (n), the mix, checks."""
    s = gc.db(parts["ball_dbfs"] - parts["ref"])
    g_bed = gc.db(parts["ref"] - snr)
    balls = s * parts["strands"]
    inter = s * parts["dis"], s * g_bed * parts["bed"]
    mix = balls.sum(axis=0) + inter[0] + inter[1]
    band, gain, limited = phone_gain(mix, np.random.default_rng(parts["phone_seed"]))
    balls = np.array([band(b) * gain for b in balls])
    interference = (band(inter[0]) + band(inter[1])) * gain
    ours = balls.sum(axis=0) + interference
    theirs, _ = rc.phone(mix, np.random.default_rng(parts["phone_seed"]))
    return balls, interference, ours, theirs, limited


def err_db(a, b):
    return 20 * np.log10(gc.rms(a - b) / gc.rms(b))


# ---------------------------------------------------------------- per-ball detectability
def autocorr(x, lags):
    f = np.fft.rfft(x, 2 * len(x))
    return np.fft.irfft(np.abs(f) ** 2)[:lags]


def deflection(b, inter, i0, w):
    """b' R^-1 b (dB) for the ball's window b, R from the interference over +-0.25 s without the window."""
    half = SR // 4
    left, right = inter[max(0, i0 - half):i0], inter[i0 + w:i0 + w + half]
    r = sum(autocorr(seg, w) for seg in (left, right) if len(seg) > w) / (len(left) + len(right))
    r[0] += Q_FLOOR
    return 10 * np.log10(b @ linalg.solve_toeplitz(r, b))


THIRD_OCTAVES = [1000 * 2 ** (k / 3) for k in range(-1, 11)]  # 794 Hz .. 10 kHz


def best_band(b_ctx, i_ctx, lo, w):
    """Max over 1/3-octave bands of ball / interference energy in [lo, lo + w) of the given context segments (dB),
    and that band's centre (Hz)."""
    best = (-np.inf, 0)
    for fc in THIRD_OCTAVES:
        sos = signal.butter(3, [fc * 2 ** (-1 / 6), fc * 2 ** (1 / 6)], "bandpass", fs=SR, output="sos")
        eb = np.sum(signal.sosfilt(sos, b_ctx)[lo:lo + w] ** 2)
        ei = np.sum(signal.sosfilt(sos, i_ctx)[lo:lo + w] ** 2) + Q_FLOOR * w
        best = max(best, (10 * np.log10(eb / ei + 1e-30), fc))
    return best


# ---------------------------------------------------------------- the ceiling detector
LEAD = SR // 2000  # templates start 0.5 ms before the click
ORDER = 32
BLOCK = SR // 100
HIST = SR // 2
BAND = (700, 10000)  # the ceiling looks only here: above ~7 kHz phones differ, below 700 Hz is the room's rumble
FLOOR = 1e-3  # white floor under the whitening's PSD (re the band's power): no weight on the stop bands


def band_sos():
    return signal.butter(4, BAND, "bandpass", fs=SR, output="sos")


def template_bank(rates, w):
    """csmash's recordings at each rate through the ceiling's band, click - 0.5 ms .. + w (the last ms faded)."""
    imp = rc.Impacts("csmash")
    fade = 0.5 * (1 + np.cos(np.linspace(0, np.pi, SR // 1000)))
    bank = []
    for kind in ("bounce", "hit"):
        for rate in rates:
            x, onset = imp.play(kind, rate)
            t = signal.sosfilt(band_sos(), x)[onset - LEAD:onset + w]
            t[-len(fade):] *= fade
            bank.append(t)
    return np.array(bank)


def whitened_blocks(x, span):
    """Per 10 ms block from 0.5 s on: its start s, the noise power sigma2 and the data from s whitened (length
    BLOCK + span) by an LPC fit to the band-limited input's previous 0.5 s."""
    for s in range(HIST, len(x) - BLOCK - span, BLOCK):
        r = autocorr(x[s - HIST:s], ORDER + 1) / HIST
        r[0] = r[0] * (1 + FLOOR) + Q_FLOOR
        a = np.concatenate([[1.0], linalg.solve_toeplitz(r[:ORDER], -r[1:ORDER + 1])])
        yield s, a, float(a @ r), np.convolve(x[s - ORDER:s + BLOCK + span], a, "valid")


def window_energy(e, span):
    cum = np.concatenate([[0.0], np.cumsum(e ** 2)])
    return cum[span:span + BLOCK] - cum[:BLOCK]


def ceiling_scores(x, bank, bank_at=None):
    """Per sample (template start): the whitened matched filter's z-score (known polarity, best template) and that
    template's cosine with the whitened data (how much of the window's energy the template explains). bank_at(s),
    if given, is the bank usable from sample s on (--learned; None or empty: no score there)."""
    x = signal.sosfilt(band_sos(), x)
    span = bank.shape[1] + ORDER  # a whitened template's length
    nfft = 1 << int(np.ceil(np.log2(BLOCK + span)))
    z, cos = np.full(len(x), -np.inf), np.zeros(len(x))
    cols = np.arange(BLOCK)
    for s, a, sigma2, e in whitened_blocks(x, span):
        if bank_at is not None and not len(bank := bank_at(s)):
            continue
        w = np.array([np.convolve(t, a) for t in bank])  # whitened templates
        c = np.fft.irfft(np.fft.rfft(e, nfft) * np.conj(np.fft.rfft(w, nfft)), nfft)[:, :BLOCK]
        ew = np.sum(w ** 2, axis=1)[:, None]
        zz = c / np.sqrt(sigma2 * ew)
        best = zz.argmax(axis=0)
        z[s:s + BLOCK] = zz[best, cols]
        cos[s:s + BLOCK] = c[best, cols] / np.sqrt(ew[best, 0] * window_energy(e, span) + 1e-30)
    return z, cos


def energy_scores(x, ms):
    """No template: the whitened band's energy over `ms` from each sample, as a z-score over its noise (chi-square
    with span degrees of freedom); the cosine is 1 (no shape gate)."""
    x = signal.sosfilt(band_sos(), x)
    span = int(round(ms * SR / 1000))
    z = np.full(len(x), -np.inf)
    for s, _, sigma2, e in whitened_blocks(x, span):
        z[s:s + BLOCK] = (window_energy(e, span) / (sigma2 * span) - 1) * np.sqrt(span / 2)
    return z, np.ones(len(x))


COS_GATES = (0.0, 0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65)


LOOKAHEAD = SR // 1000


def peaks(z, cos, floor=2.0):
    """For each cosine gate: (click times, scores) of the score peaks (samples under the gate left out) that are
    the maximum of the last 25 ms and the next 1 ms (causal but for that 1 ms)."""
    out = {}
    back = int(REFRACTORY * SR)
    size = back + LOOKAHEAD + 1
    for gate in COS_GATES:
        g = np.where(cos >= gate, z, -np.inf)
        mx = ndimage.maximum_filter1d(g, size, origin=back - size // 2)
        idx = np.flatnonzero((g == mx) & (g > floor))
        out[gate] = ((idx + LEAD) / SR, g[idx])
    return out


# ---------------------------------------------------------------- scoring
def matched(ref, est, tol=MATCH):
    """Indices of the labels found and the number of detections matched (+-tol s, default 10 ms, one to one)."""
    if not len(ref) or not len(est):
        return set(), 0
    pairs = mir_eval.util.match_events(np.asarray(ref), np.asarray(est), tol)
    return {i for i, _ in pairs}, len(pairs)


def pongd_times(pongd, wav):
    out = subprocess.run([pongd, "detect", wav], capture_output=True, text=True, check=True).stdout
    rows = [r for r in csv.reader(out.splitlines()) if r and not r[0].startswith("time")]
    return np.sort(np.array([float(r[0]) for r in rows]))


def f1(tp, n_ref, n_est):
    return 2 * tp / (n_ref + n_est) if n_ref + n_est else 0.0


def corpus_dir(a, seed):
    d = a.corpus or DEFAULT_DIRS[seed]
    if any(word in os.path.basename(os.path.normpath(d)).lower() for word in ("heldout", "independent")):
        sys.exit("detectability: %s looks like a held-out or independent folder; tuning seeds only" % d)
    return d


def seed_files(a, seed, conds, speech=True):
    """The seed's folder, its rally WAV per condition (dB, or "clean") and its labels' CSV; exits saying what is
    missing (with `speech`, real_corpus's speech cache too: the parts re-create the bed)."""
    d = corpus_dir(a, seed)
    wavs = {c: os.path.join(d, "real%d_rally_%s.wav" % (seed, "clean" if c == "clean" else "snr%02d" % c))
            for c in conds}
    events = os.path.join(d, "real%d_rally_events.csv" % seed)
    needed = [*wavs.values(), events] + ([os.path.join(d, "_speech_cache")] if speech else [])
    missing = [f for f in needed if not os.path.exists(f)]
    if missing:
        split = "tune" if seed in rc.TUNING_SEEDS else "tune2"
        sys.exit("detectability: missing %s (build them: real_corpus.py --split %s --out %s)"
                 % (", ".join(missing), split, d))
    return d, wavs, events


def analyse_seed(a, seed, bank, w):
    d, wavs, events = seed_files(a, seed, a.snr)
    parts = rally_parts(seed, d)
    labels = np.array(sorted(t for t, _, _ in parts["labels"]))
    order = np.argsort([t for t, _, _ in parts["labels"]])  # label k -> strand order[k] % 8
    filed_labels = score_onsets.load(events, None, None)[0]
    if len(filed_labels) != len(labels) or np.max(np.abs(filed_labels - labels)) > 1.0 / SR:
        sys.exit("detectability: seed %d's replicated labels differ from %s: real_corpus.py changed since the "
                 "corpus was built; rebuild it" % (seed, events))
    rows, files = [], {}
    for snr, wav in wavs.items():
        balls, inter, ours, theirs, limited = phone_parts(parts, snr)
        filed, _ = sf.read(wav)
        print("seed %d %2d dB: parts vs phone() %.1f dB, vs the WAV %.1f dB, limiter acting %.2f%% of samples"
              % (seed, snr, err_db(ours, theirs), err_db(ours, filed), 100 * limited), flush=True)
        del theirs
        found_p, tp_p = matched(labels, est_p := pongd_times(a.pongd, wav))
        files[snr] = dict(labels=labels, est_pongd=est_p, peaks=peaks(*(
            energy_scores(filed, a.energy) if a.energy else ceiling_scores(filed, bank))))
        for k, t in enumerate(labels):
            i0 = int(round(t * SR))
            b = balls[order[k] % 8]
            ctx = slice(i0 - 2048, i0 + w + 64)
            band, fc = best_band(b[ctx], inter[ctx], 2048, w)
            rows.append(dict(seed=seed, snr=snr, k=k, t=t,
                             d2=deflection(b[i0:i0 + w], inter, i0, w),
                             d2_5=deflection(b[i0:i0 + SR // 200], inter, i0, SR // 200),
                             band=band, band_hz=round(fc), pongd=k in found_p))
    return rows, files


def ceiling_at(files, op):
    """Per file (found label indices, tp, n_est) of the ceiling at operating point op = (cosine gate, threshold)."""
    out = {}
    for key, f in files.items():
        times, scores = f["peaks"][op[0]]
        found, tp = matched(f["labels"], times[scores >= op[1]])
        out[key] = (found, tp, int(np.sum(scores >= op[1])))
    return out


def sweep(files):
    """The operating points (cosine gate, z threshold) of the best pooled F1 and of the best recall at no more than
    1 false alarm/s."""
    n_ref = sum(len(f["labels"]) for f in files.values())
    dur = len(files) * 60.0
    best, fa1 = (-1, None), (-1, None)
    by_gate = {}
    for gate in COS_GATES:
        scores = np.concatenate([f["peaks"][gate][1] for f in files.values()])
        for thr in np.unique(np.quantile(scores, np.linspace(0, 1, 300))):
            res = ceiling_at(files, (gate, thr)).values()
            tp, ne = sum(r[1] for r in res), sum(r[2] for r in res)
            by_gate[gate] = max(by_gate.get(gate, 0.0), f1(tp, n_ref, ne))
            if f1(tp, n_ref, ne) > best[0]:
                best = (f1(tp, n_ref, ne), (gate, thr))
            if (ne - tp) / dur <= 1.0 and tp > fa1[0]:
                fa1 = (tp, (gate, thr))
    return best[1], fa1[1], by_gate


# ---------------------------------------------------------------- --learned: templates the stream teaches itself
ACCEPTED = ("resonance", "struck", "clear", "streamlike", "run", "runlike")
TOLERANCE = {0: 0.010, 10: 0.005, 20: 0.002, "clean": 0.002}
LEARN_DELAY = 0.050  # a report's window is a template from this long after its onset (heard to its end, decided)


def pongd_candidates(pongd, wav, path):
    """pongd's reported onsets and every candidate it weighed: [(onset s, attack dB, verdict)]."""
    out = subprocess.run([pongd, "detect", wav, "--candidates", path], capture_output=True, text=True,
                         check=True).stdout
    reports = [float(r[0]) for r in csv.reader(out.splitlines()) if r and not r[0].startswith("time")]
    with open(path) as f:
        cands = [(float(r["time"]), float(r["attack_db"]), r["verdict"]) for r in csv.DictReader(f)]
    return np.sort(reports), cands


class StreamTemplates:
    """The clear reports' windows of the band-passed mix (onset - --tpl-lead .. + window, the last ms faded), each
    at every --tpl-rates rate, usable LEARN_DELAY after their onset; at any time the K most recent (or clearest)."""

    def __init__(self, xb, cands, a, w):
        self.lead = int(round(a.tpl_lead * SR / 1000))
        self.n, self.k, self.pick = self.lead + w, a.k, a.tpl_pick
        self.nrates = len(a.tpl_rates)
        grid = np.arange(self.n) - self.lead
        fade = 0.5 * (1 + np.cos(np.linspace(0, np.pi, SR // 1000)))
        self.items = []  # (usable from sample, attack dB, bank (rates, n), candidate row)
        for row, (t, attack, verdict) in enumerate(cands):
            i0 = int(round(t * SR))
            if verdict not in a.tpl_verdicts or attack < a.tpl_attack or i0 + 2 * self.n > len(xb):
                continue
            bank = np.array([np.interp(i0 + grid * r, np.arange(len(xb)), xb) for r in a.tpl_rates])
            bank[:, -len(fade):] *= fade
            self.items.append((i0 + int(LEARN_DELAY * SR), attack, bank, row))

    def at(self, s):
        """The bank usable at sample s: (templates x rates, n)."""
        have = [it for it in self.items if it[0] <= s]
        have = sorted(have, key=lambda it: it[1])[-self.k:] if self.pick == "clearest" else have[-self.k:]
        return np.concatenate([it[2] for it in have]) if have else np.zeros((0, self.n))

    def reference(self, times, scores):
        """Per candidate onset: the median best cosine the usable templates' own reports scored against the templates
        before them (what a ball scores in this stream now; nan before two templates)."""
        out = np.full(len(times), np.nan)
        for i, t in enumerate(times):
            have = [scores[it[3], 0] for it in self.items if it[0] <= t * SR and np.isfinite(scores[it[3], 0])]
            if have:
                out[i] = np.median(have[-self.k:])
        return out


class MeanTemplates(StreamTemplates):
    """--tpl-mode mean: up to --protos running means of the clear reports, so that their noise averages out. Each
    report is aligned to the prototype it matches best (cosine over the --tpl-rates bank, lags +-1 ms), resampled
    to that prototype's own rate and averaged into it (weight 1/n, n capped at 32), or starts a new prototype if it
    matches none by --join; the bank is every prototype at every rate."""

    def __init__(self, xb, cands, a, w):
        super().__init__(xb, cands, a, w)  # items: the clear reports, as before (counts and the reference)
        self.rates = np.array(a.tpl_rates)
        self.fade = 0.5 * (1 + np.cos(np.linspace(0, np.pi, SR // 1000)))
        lagmax, xs = SR // 1000, np.arange(len(xb))
        grid = np.arange(self.n) - self.lead
        protos, counts, self.snaps = [], [], [(0, np.zeros((0, self.n)))]
        for usable, _, _, row in self.items:
            i0 = int(round(cands[row][0] * SR))
            best = (-1.0, 0, 1.0, 0)  # cosine, prototype, rate, lag
            if protos:
                bank = self.snaps[-1][1]
                win = np.lib.stride_tricks.sliding_window_view(
                    xb[i0 - self.lead - lagmax:i0 - self.lead + self.n + lagmax], self.n)
                cos = (bank @ win.T) / np.sqrt(np.sum(bank ** 2, axis=1)[:, None] * np.sum(win ** 2, axis=1) + 1e-30)
                j, lag = np.unravel_index(np.argmax(cos), cos.shape)
                best = (cos[j, lag], j // len(self.rates), self.rates[j % len(self.rates)], lag - lagmax)
            aligned = np.interp(i0 + best[3] + grid / best[2], xs, xb)
            if best[0] >= a.join or len(protos) >= a.protos:
                p = best[1]
                counts[p] = min(counts[p] + 1, 32)
                protos[p] = protos[p] + (aligned - protos[p]) / counts[p]
            else:
                protos.append(aligned)
                counts.append(1)
            self.snaps.append((usable, self.expand(protos)))

    def expand(self, protos):
        """Every prototype at every rate, faded: (prototypes x rates, n)."""
        grid = np.arange(self.n) - self.lead
        bank = np.array([np.interp(self.lead + grid * r, np.arange(self.n), p, right=0.0)
                         for p in protos for r in self.rates])
        bank[:, -len(self.fade):] *= self.fade
        return bank

    def at(self, s):
        return next(bank for usable, bank in reversed(self.snaps) if usable <= s)


def candidate_scores(xb, times, tpl, lag_ms):
    """Per candidate onset: the best cosine of any usable template with the whitened data (causal LPC on the
    previous 0.5 s, as the ceiling) at lags +-lag_ms around the onset, and that match's z-score."""
    lag = int(round(lag_ms * SR / 1000))
    span, nlag = tpl.n + ORDER, 2 * lag + 1
    nfft = 1 << int(np.ceil(np.log2(nlag + span)))
    out = np.full((len(times), 2), -np.inf)
    for i, t in enumerate(times):
        s = int(round(t * SR)) - tpl.lead - lag
        bank = tpl.at(s)
        if not len(bank) or s < HIST + ORDER or s + nlag + span > len(xb):
            continue
        r = autocorr(xb[s - HIST:s], ORDER + 1) / HIST
        r[0] = r[0] * (1 + FLOOR) + Q_FLOOR
        a = np.concatenate([[1.0], linalg.solve_toeplitz(r[:ORDER], -r[1:ORDER + 1])])
        e = np.convolve(xb[s - ORDER:s + nlag + span], a, "valid")
        wf = np.fft.rfft(bank, nfft) * np.fft.rfft(a, nfft)
        ew = np.sum(np.fft.irfft(wf, nfft)[:, :span] ** 2, axis=1)[:, None]
        c = np.fft.irfft(np.fft.rfft(e, nfft) * np.conj(wf), nfft)[:, :nlag]
        cum = np.concatenate([[0.0], np.cumsum(e ** 2)])
        cos = c / np.sqrt(ew * (cum[span:span + nlag] - cum[:nlag]) + 1e-30)
        j = np.unravel_index(np.argmax(cos), cos.shape)
        out[i] = cos[j], c[j] / np.sqrt(float(a @ r) * ew[j[0], 0])
    return out


def add_to(reports, times):
    """reports plus those of times (sorted) at least REFRACTORY from any report and from each other."""
    added = []
    for t in times:
        near = np.min(np.abs(reports - t)) if len(reports) else np.inf
        if near >= REFRACTORY and (not added or t - added[-1] >= REFRACTORY):
            added.append(t)
    return np.sort(np.concatenate([reports, added])), len(added)


def learned_at(f, op):
    """(tp, n_ref, n_est, added, tp gained, vetoed) of one file: pongd's reports, less those whose cosine is under
    op[3] x the stream's reference (the veto), with the rejected candidates whose best cosine >= op[0] (or >= op[0] x
    the reference: 'rel') and z >= op[1], or with the dense scan's peaks at gate op[0], z >= op[1] ('dense')."""
    reports = f["reports"][~(f["report_rel"] < op[3])]
    if op[2] in ("cand", "rel"):
        sc = f["cand_scores"]
        gate = op[0] * f["reference"] if op[2] == "rel" else op[0]
        pick = f["rejected"] & (sc[:, 0] >= gate) & (sc[:, 1] >= op[1])
        extra = f["cand_times"][pick]
    else:
        times, scores = f["dense"][op[0]]
        extra = times[scores >= op[1]]
    est, added = add_to(reports, np.sort(extra))
    _, tp = matched(f["labels"], est, f["tol"])
    _, tp0 = matched(f["labels"], f["reports"], f["tol"])
    return np.array([tp, len(f["labels"]), len(est), added, tp - tp0, len(f["reports"]) - len(reports)])


VETOES = (0.0, 0.4, 0.5, 0.6)  # 0: no veto


def learned_ops(kind, dense_gates=COS_GATES):
    """Operating points (gate, z minimum, kind, veto) swept."""
    if kind == "cand":
        gz = [(float(g), zm) for g in np.round(np.arange(0.30, 0.96, 0.025), 3) for zm in (0, 3, 5, 7, 9)]
    elif kind == "rel":
        gz = [(float(g), zm) for g in np.round(np.arange(0.50, 1.51, 0.05), 2) for zm in (0, 3, 5, 7, 9)]
    else:
        gz = [(g, zm) for g in dense_gates for zm in (3, 4, 5, 6, 7, 8, 9, 10, 12, 14)]
    return [(g, zm, kind, v) for g, zm in gz for v in VETOES]


def best_op(files, kind, veto):
    """The operating point of the best pooled F1 over files (with the veto swept too if veto)."""
    tot = {op: sum(learned_at(f, op) for f in files) for op in learned_ops(kind) if veto or op[3] == 0}
    return max(tot, key=lambda op: f1(tot[op][0], tot[op][1], tot[op][2]))


def learned_main(a):
    """--learned: the F1 of pongd's reports plus the rejected candidates (or dense-scan peaks) that a template
    learned from the same stream's earlier clear reports matches; gates chosen on one half of the seeds."""
    w = int(round(a.window * SR / 1000))
    conds = [*a.snr, "clean"]
    files, cpu, ncand = {}, 0.0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in a.seed:
            _, wavs, events = seed_files(a, seed, conds, speech=False)
            labels = score_onsets.load(events, None, None)[0]
            for snr, wav in wavs.items():
                reports, cands = pongd_candidates(a.pongd, wav, os.path.join(tmp, "cand.csv"))
                x, _ = sf.read(wav)
                xb = signal.sosfilt(band_sos(), x)
                kind = MeanTemplates if a.tpl_mode == "mean" else StreamTemplates
                if a.oracle_templates:  # diagnostic: the same stream's clean file teaches the templates
                    clean = wavs["clean"]
                    _, clean_cands = pongd_candidates(a.pongd, clean, os.path.join(tmp, "cand.csv"))
                    tpl = kind(signal.sosfilt(band_sos(), sf.read(clean)[0]), clean_cands, a, w)
                else:
                    tpl = kind(xb, cands, a, w)
                ct = np.array([c[0] for c in cands])
                t0 = time.process_time()
                sc = candidate_scores(xb, ct, tpl, a.lag)
                cpu += time.process_time() - t0
                ncand += len(ct)
                f = dict(labels=labels, reports=reports, tol=TOLERANCE[snr], cand_times=ct, cand_scores=sc,
                         rejected=np.array([c[2].startswith("x-") for c in cands]), tpl=tpl,
                         reference=np.full(len(ct), np.inf) if a.oracle_templates else
                         np.nan_to_num(tpl.reference(ct, sc), nan=np.inf))
                rel = np.where(np.isfinite(f["reference"]), sc[:, 0] / f["reference"], np.nan)
                accepted = np.flatnonzero(~f["rejected"])
                f["report_rel"] = np.full(len(reports), np.nan)  # the veto's score: the report's candidate's
                for i, t in enumerate(reports):
                    if len(accepted) and np.min(gap := np.abs(ct[accepted] - t)) <= 0.005:
                        f["report_rel"][i] = rel[accepted[np.argmin(gap)]]
                if a.dense and snr == 0:
                    z, cos = ceiling_scores(x, np.zeros((1, tpl.n)), bank_at=tpl.at)
                    shift = (tpl.lead - LEAD) / SR
                    f["dense"] = {g: (tt - shift, zz) for g, (tt, zz) in peaks(z, cos).items()}
                files[(seed, snr)] = f
                print("seed %d %5s: %d candidates (%d rejected), %d reports, %d templates learned (first usable "
                      "%.1f s, %d-th %.1f s)" % (seed, snr, len(ct), f["rejected"].sum(), len(reports),
                                                  len(tpl.items), *first_and_kth(tpl, a.k)), flush=True)
    size = tpl.at(len(xb)).size  # the last file's bank at its end (full)
    print("\ncandidate scoring: %.2f ms CPU per candidate (%d candidates); a stream's bank: %d floats (%.1f kB as "
          "float32), %d samples a template" % (1000 * cpu / max(ncand, 1), ncand, size, size * 4 / 1024, tpl.n))
    learned_report(a, files, conds)


def first_and_kth(tpl, k):
    usable = [it[0] / SR for it in tpl.items]
    return (usable[0] if usable else np.nan), k, (usable[k - 1] if len(usable) >= k else np.nan)


def learned_report(a, files, conds):
    """Per variant (scoring kind, with or without the veto): the operating point chosen at 0 dB on each half of the
    seeds, the per-seed and pooled P/R/F1 at every condition with both, and the cross-fitted pooled figure."""
    half = {"11-15": [s for s in a.seed if s <= 15], "16-20": [s for s in a.seed if s > 15]}
    what = {"cand": "every rejected pongd candidate, absolute cosine gate",
            "rel": "every rejected candidate, gate = factor x the templates' own median score (reference)",
            "dense": "dense scan (every sample), absolute cosine gate"}
    for kind in ["cand", "rel"] + (["dense"] if a.dense else []):
        for veto in (False, True):
            ops = {n: best_op([files[(s, 0)] for s in seeds], kind, veto) for n, seeds in half.items() if seeds}
            print("\n==== %s%s: %s; (gate, z min, veto x reference) chosen at 0 dB on %s" % (
                kind, " + veto" if veto else "", what[kind],
                ", ".join("%s: (%g, %g, %g)" % (n, op[0], op[1], op[3]) for n, op in ops.items())))
            for snr in conds if kind != "dense" else [0]:
                learned_table(a, files, snr, ops, half)


def learned_table(a, files, snr, ops, half):
    print("-- %s dB (+-%g ms)  pongd P/R/F1       %s   tpl" % (snr, 1000 * TOLERANCE[snr], "   ".join(
        "fit %s: P/R/F1 (+added/+tp/-vetoed) " % n for n in ops)))
    tot = {n: np.zeros(6) for n in ["pongd", *ops]}
    for seed in a.seed:
        f = files[(seed, snr)]
        p = learned_at(f, (np.inf, np.inf, "cand", 0.0))
        tot["pongd"] += p
        cells = []
        for n, op in ops.items():
            r = learned_at(f, op)
            tot[n] += r
            cells.append("%s (+%d/+%d/-%d)%s" % (prf(r), r[3], r[4], r[5], "*" if seed in half[n] else " "))
        print("%-4s  %s   %s   %d" % (seed, prf(p), "   ".join(cells), len(f["tpl"].items)))
    print("all   %s   %s" % (prf(tot["pongd"]), "   ".join(
        "%s (+%d/+%d/-%d) " % (prf(tot[n]), *tot[n][3:]) for n in ops)))
    held = sum(learned_at(files[(s, snr)], ops[n]) for n, seeds in half.items() if n in ops
               for s in a.seed if s not in seeds)
    print("cross-fitted (each half scored with the other half's point): %s (+%d added, +%d tp, -%d vetoed)"
          % (prf(held), *held[3:]))


def prf(r):
    tp, nref, ne = r[:3]
    return "%.3f/%.3f/%.3f" % (tp / max(ne, 1), tp / max(nref, 1), f1(tp, nref, ne))


def main():
    global BAND
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, action="append", help="tuning seeds (default 11-20)")
    ap.add_argument("--snr", type=int, action="append", help="rally conditions in dB: 0, 10, 20 (default 0 and 10)")
    ap.add_argument("--corpus", help="folder of the seeds' files (default /work/realcorpus for 11-15, "
                                     "/work/realcorpus-tune2 for 16-20)")
    ap.add_argument("--window", type=float, default=8.0, help="decision window after the onset, ms (default 8)")
    ap.add_argument("--rates", type=float, nargs="+", default=list(np.round(np.arange(0.9, 1.1001, 0.01), 2)),
                    help="template bank's playback rates (default 0.90, 0.91 .. 1.10)")
    ap.add_argument("--energy", type=float, metavar="MS",
                    help="the ceiling without templates: whitened 700 Hz-10 kHz energy over MS ms (timbre-blind)")
    ap.add_argument("--band", type=float, nargs=2, default=BAND, metavar=("LO", "HI"),
                    help="the ceiling's band in Hz (default %d %d)" % BAND)
    ap.add_argument("--fit-on", type=int, action="append",
                    help="choose the ceiling's operating points on these seeds only (default: every seed analysed)")
    ap.add_argument("--pongd", default="/work/main/.build-release/release/pongd")
    ap.add_argument("--csv", help="also write the per-ball rows here")
    ap.add_argument("--learned", action="store_true",
                    help="no ceiling: pongd plus templates learned from the stream's own clear reports (0, 10, 20 dB "
                         "and clean)")
    ap.add_argument("-k", type=int, default=8, help="--learned: templates kept per stream (default 8)")
    ap.add_argument("--tpl-pick", choices=("recent", "clearest"), default="recent",
                    help="--learned: keep the K most recent or the K clearest (highest attack) reports")
    ap.add_argument("--tpl-attack", type=float, default=12.0,
                    help="--learned: a report is a template if its attack_db >= this (default 12)")
    ap.add_argument("--tpl-verdicts", nargs="+", default=["resonance", "struck", "clear", "streamlike"],
                    choices=ACCEPTED, help="--learned: verdicts a template may come from")
    ap.add_argument("--tpl-rates", type=float, nargs="+", default=[1.0],
                    help="--learned: each template also resampled at these rates (default 1.0 only)")
    ap.add_argument("--tpl-mode", choices=("raw", "mean"), default="raw",
                    help="--learned: the K last/clearest reports as they were (raw), or running means of them (mean)")
    ap.add_argument("--protos", type=int, default=2, help="--learned --tpl-mode mean: prototypes kept (default 2)")
    ap.add_argument("--join", type=float, default=0.0,
                    help="--learned --tpl-mode mean: a report matching no prototype by this cosine starts a new one "
                         "while fewer than --protos (default 0: one prototype unless --join)")
    ap.add_argument("--tpl-lead", type=float, default=1.0, help="--learned: template starts this many ms before "
                                                                "pongd's onset (default 1)")
    ap.add_argument("--lag", type=float, default=2.0, help="--learned: lags searched around a candidate's onset, "
                                                           "+-ms (default 2)")
    ap.add_argument("--oracle-templates", action="store_true",
                    help="--learned diagnostic: templates learned (same rules) from the same rally's clean file, "
                         "scored on the noisy one: what noise-free templates of this very stream would give")
    ap.add_argument("--dense", action="store_true", help="--learned: also the dense scan at 0 dB (slow)")
    a = ap.parse_args()
    BAND = tuple(a.band)
    a.seed = a.seed or list(TUNING)
    a.snr = a.snr or ([0, 10, 20] if a.learned else [0, 10])
    a.fit_on = a.fit_on or a.seed
    if bad := [s for s in a.fit_on if s not in a.seed]:
        ap.error("--fit-on seeds must be among the seeds analysed: %s" % bad)
    if bad := [s for s in a.seed if s not in TUNING]:
        ap.error("tuning seeds only (%s); refused: %s" % (", ".join(map(str, TUNING)), bad))
    if bad := [s for s in a.snr if s not in (0, 10, 20)]:
        ap.error("--snr is 0, 10 or 20")
    if not os.access(a.pongd, os.X_OK):
        ap.error("no pongd at %s (swift build -c release)" % a.pongd)
    if a.learned:
        return learned_main(a)
    rc.ensure_csmash()
    w = int(round(a.window * SR / 1000))
    bank = template_bank(a.rates, w)
    rows, files = [], {}
    for seed in a.seed:
        r, f = analyse_seed(a, seed, bank, w)
        rows += r
        files.update({(seed, snr): v for snr, v in f.items()})
    report(a, rows, files)
    if a.csv:
        with open(a.csv, "w", newline="") as fh:
            wr = csv.DictWriter(fh, fieldnames=list(rows[0]))
            wr.writeheader()
            wr.writerows(rows)


def bin_table(rs, field, bins, title):
    print("%-12s  balls  share  pongd R  ceil R(best)  ceil R(1FA/s)  median d2  median d2(5ms)  median band" % title)
    for lo, hi in zip(bins[:-1], bins[1:]):
        sel = [r for r in rs if lo <= r[field] < hi]
        if sel:
            print("%5s..%-5s  %5d  %5.2f  %7.2f  %12.2f  %13.2f  %9.1f  %14.1f  %11.1f" % (
                lo, hi, len(sel), len(sel) / len(rs), np.mean([r["pongd"] for r in sel]),
                np.mean([r["ceil_best"] for r in sel]), np.mean([r["ceil_fa1"] for r in sel]),
                np.median([r["d2"] for r in sel]), np.median([r["d2_5"] for r in sel]),
                np.median([r["band"] for r in sel])))


def report(a, rows, files):
    for snr in a.snr:
        fs = {k: v for k, v in files.items() if k[1] == snr}
        best, fa1, by_gate = sweep({k: v for k, v in fs.items() if k[0] in a.fit_on})
        at_best, at_fa1 = ceiling_at(fs, best), ceiling_at(fs, fa1)
        rs = [r for r in rows if r["snr"] == snr]
        for r in rs:
            key = (r["seed"], snr)
            r["ceil_best"], r["ceil_fa1"] = r["k"] in at_best[key][0], r["k"] in at_fa1[key][0]
        print("\n== %d dB: %d balls; ceiling operating points chosen on seeds %s: cosine >= %.2f and z >= %.2f "
              "(best pooled F1); cosine >= %.2f and z >= %.2f (best recall at <= 1 FA/s)"
              % (snr, len(rs), ",".join(map(str, a.fit_on)), *best, *fa1))
        print("seed  balls  pongd P/R/F1        ceiling(best) P/R/F1  ceiling(1FA/s) R  FA/s  median d2 dB")
        tot = np.zeros(7)
        for key in sorted(fs):
            f = fs[key]
            nref, ne_p = len(f["labels"]), len(f["est_pongd"])
            tp_p = sum(r["pongd"] for r in rs if r["seed"] == key[0])
            _, tp_c, ne_c = at_best[key]
            _, tp_1, ne_1 = at_fa1[key]
            tot += (nref, tp_p, ne_p, tp_c, ne_c, tp_1, ne_1)
            line(key[0], 60.0, nref, tp_p, ne_p, tp_c, ne_c, tp_1, ne_1,
                 np.median([r["d2"] for r in rs if r["seed"] == key[0]]))
        line("all", 60.0 * len(fs), *tot, np.median([r["d2"] for r in rs]))
        print("ceiling's best F1 (fit seeds) by cosine gate: " + "  ".join("%.2f: %.3f" % kv for kv in by_gate.items()))
        hz = sorted({r["band_hz"] for r in rs})
        print("best 1/3-octave band of each ball (Hz: share): " + "  ".join(
            "%d: %.2f" % (h, np.mean([r["band_hz"] == h for r in rs])) for h in hz))
        bin_table(rs, "d2", [-np.inf, 15, 20, 22, 24, 26, 28, 30, 35, np.inf], "d2 bin (dB)")
        bin_table(rs, "band", [-np.inf, 0, 3, 6, 9, 12, 15, 20, np.inf], "band bin (dB)")
        d50 = half_point(rs)
        print("ceiling at <= 1 FA/s finds half the balls from d2 = %.1f dB; %.1f%% of balls lie under it"
              % (d50, 100 * np.mean([r["d2"] < d50 for r in rs])))


def line(name, dur, nref, tp_p, ne_p, tp_c, ne_c, tp_1, ne_1, med):
    print("%-4s  %5d  %.3f/%.3f/%.3f   %.3f/%.3f/%.3f     %.3f            %.2f  %.1f" % (
        name, nref, tp_p / max(ne_p, 1), tp_p / nref, f1(tp_p, nref, ne_p),
        tp_c / max(ne_c, 1), tp_c / nref, f1(tp_c, nref, ne_c), tp_1 / nref, (ne_1 - tp_1) / dur, med))


def half_point(rs, k=41):
    """The d2 (dB) from which the ceiling at 1 FA/s finds half the balls (running mean over k sorted balls)."""
    rs = sorted(rs, key=lambda r: r["d2"])
    hit = np.array([r["ceil_fa1"] for r in rs], float)
    run = np.convolve(hit, np.ones(k) / k, mode="same")
    above = np.flatnonzero(run >= 0.5)
    return rs[above[0]]["d2"] if len(above) else np.inf


if __name__ == "__main__":
    main()
