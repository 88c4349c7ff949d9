#!/usr/bin/env bash
# compare_detectors.sh: score `pongd detect` side by side with aubio on the synthetic rally corpus,
# and time both on the 10-minute file. Prints markdown tables for BENCHMARKS.md on stdout;
# progress and errors go to stderr.
#
#   Benchmarks/Scripts/compare_detectors.sh [PONGD] [CORPUS]
#     PONGD   pongd binary          (default: <repo>/.build/release/pongd)
#     CORPUS  corpus directory      (default: /work/corpus)
#
# Environment:
#   PY          python with numpy + mir_eval   (default /root/peer-venvs/librosa/bin/python)
#   SCORE       score_onsets.py                (default <repo>/../shared/tools/score_onsets.py)
#   RUNS        timing runs, median reported   (default 3)
#   OUT         where detections and logs go   (default: a new mktemp -d directory, kept)
#   AUBIO_OPTS  aubioonset options             (default "-r 0 -B 256 -H 128 -O specflux -t 0.5",
#               the specflux threshold chosen on the dev set; keep it fixed for test and long)
#
# One-time set-up (keep the venv and the ~470 MB corpus OUTSIDE the repo; never commit them):
#   apt-get update
#   apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends \
#       aubio-tools python3-aubio espeak-ng sox ffmpeg opus-tools
#   python3 -m venv /root/peer-venvs/librosa
#   /root/peer-venvs/librosa/bin/pip install librosa mir_eval soundfile scipy
#   P=/root/peer-venvs/librosa/bin/python G=../shared/tools/gen_corpus.py     # from the repo root
#   $P $G --seed 1 --dur 60  --out /work/corpus/test --also44k --opus 24      # scored here
#   $P $G --seed 2 --dur 60  --out /work/corpus/dev  --also44k --opus 24      # tune thresholds here only
#   for s in 4 5 6 7; do $P $G --seed $s --dur 60 --out /work/corpus/dev$s --opus 24; done   # tuning too
#   $P $G --seed 3 --dur 600 --out /work/corpus/long --also44k                # throughput + larger test
# The generator writes <set>_snr{20,10,00}.wav (48 kHz mono PCM16), <set>_events.csv
# (time_s,type,gain_db; type bounce|hit), and with --opus 24: <set>_snrNN.opus (Ogg Opus, 24 kb/s
# nominal) plus its 48 kHz decode <set>_snrNN_opus24.wav. _44k.wav copies are for madmom only.
#
# Why specflux 256/128 t=0.5 for aubio: best F1 (±50 ms, mean of dev_snr10 and dev_snr00) over
# t in {0.05..3} for that method and buffer, run through ../shared/peers/detect_aubio.py.
# (-s -70 -M 0.05, which detect_aubio.py adds, change no output on this corpus, so they are omitted.)
set -euo pipefail

usage() {
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit "${1:-2}"
}
die() { echo "compare_detectors: $*" >&2; exit 2; }
log() { echo "[compare] $*" >&2; }

case "${1:-}" in -h|--help) usage 0 ;; esac
[[ $# -le 2 ]] || usage

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
PONGD=${1:-$repo/.build/release/pongd}
CORPUS=${2:-/work/corpus}
PY=${PY:-/root/peer-venvs/librosa/bin/python}
SCORE=${SCORE:-$repo/../shared/tools/score_onsets.py}
RUNS=${RUNS:-3}
AUBIO_OPTS=${AUBIO_OPTS:--r 0 -B 256 -H 128 -O specflux -t 0.5}
read -r -a aubio_opts <<<"$AUBIO_OPTS"
WINDOWS=(--window 0.005 --window 0.010 --window 0.050)

# ---- preflight
[[ -x $PONGD ]] || die "pongd binary not found or not executable: $PONGD (build it: swift build -c release --product pongd)"
[[ -d $CORPUS ]] || die "corpus directory not found: $CORPUS (see the set-up notes at the top of $0)"
[[ -x $PY ]] || die "python not found: $PY (set PY=..., see the set-up notes at the top of $0)"
"$PY" -c 'import numpy, mir_eval' 2>/dev/null || die "$PY lacks numpy/mir_eval (pip install mir_eval)"
[[ -f $SCORE ]] || die "score_onsets.py not found: $SCORE (set SCORE=...)"
command -v aubioonset >/dev/null || die "aubioonset not found (apt-get install aubio-tools)"
[[ -x /usr/bin/time ]] || die "/usr/bin/time not found (apt-get install time)"
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer, got '$RUNS'"

# files to score: name -> labels
files=()
for f in test_snr20.wav test_snr10.wav test_snr00.wav; do files+=("$f"); done
shopt -s nullglob
opus=("$CORPUS"/test_snr*.opus)
shopt -u nullglob
[[ ${#opus[@]} -gt 0 ]] || die "no $CORPUS/test_snr*.opus (generate the test set with --opus 24)"
for ((i = ${#opus[@]} - 1; i >= 0; i--)); do files+=("$(basename "${opus[i]}")"); done   # snr20, 10, 00
LONG=long_snr10.wav
files+=("$LONG")
for f in "${files[@]}"; do
    [[ -f $CORPUS/$f ]] || die "missing corpus file: $CORPUS/$f"
    lab=$CORPUS/${f%%_*}_events.csv
    [[ -f $lab ]] || die "missing labels: $lab"
done

if [[ -n ${OUT:-} ]]; then mkdir -p "$OUT"; else OUT=$(mktemp -d /tmp/compare_detectors.XXXXXX); fi
log "detections and logs in $OUT"
status=0

# ---- detect + score
# score FILE EST -> one JSON list (one object per window) on stdout
score() { "$PY" "$SCORE" "$CORPUS/${1%%_*}_events.csv" "$2" "${WINDOWS[@]}" --json; }

: >"$OUT/scores.tsv"
for f in "${files[@]}"; do
    stem=${f%.*}; ext=${f##*.}
    [[ $ext == opus ]] && stem="${stem}.opus"
    log "pongd detect $f"
    if "$PONGD" detect "$CORPUS/$f" >"$OUT/$stem.pongd.csv" 2>"$OUT/$stem.pongd.err"; then
        printf '%s\tpongd\t%s\n' "$f" "$(score "$f" "$OUT/$stem.pongd.csv")" >>"$OUT/scores.tsv"
    else
        log "pongd detect FAILED on $f: $(head -c 300 "$OUT/$stem.pongd.err")"
        printf '%s\tpongd\tFAILED\n' "$f" >>"$OUT/scores.tsv"
        status=1
    fi
    log "aubioonset $f"
    src=$CORPUS/$f
    if ! aubioonset -i "$src" "${aubio_opts[@]}" >"$OUT/$stem.aubio.txt" 2>"$OUT/$stem.aubio.err" \
            || [[ ! -s $OUT/$stem.aubio.txt ]]; then
        # aubio reads Ogg Opus through libav; if this build cannot, use the generator's 48 kHz decode
        alt=$(ls "$CORPUS/${f%.opus}"_opus*.wav 2>/dev/null | grep -v _44k | head -n 1 || true)
        [[ $ext == opus && -n $alt ]] || die "aubioonset failed on $src: $(head -c 300 "$OUT/$stem.aubio.err")"
        log "aubioonset cannot read $f; using $(basename "$alt")"
        aubioonset -i "$alt" "${aubio_opts[@]}" >"$OUT/$stem.aubio.txt" 2>>"$OUT/$stem.aubio.err"
    fi
    printf '%s\taubio\t%s\n' "$f" "$(score "$f" "$OUT/$stem.aubio.txt")" >>"$OUT/scores.tsv"
done

# ---- timing on the long file: user+sys CPU seconds, median of RUNS
# cpu_median NAME CMD... -> "cpu_median wall_median" and logs each run
cpu_median() {
    local name=$1; shift
    local i
    : >"$OUT/time.$name"
    for ((i = 1; i <= RUNS; i++)); do
        if ! /usr/bin/time -f "%U %S %e" -o "$OUT/time.$name.run" "$@" >/dev/null 2>>"$OUT/time.$name.err"; then
            log "$name FAILED while timing (see $OUT/time.$name.err)"
            status=1
            echo "nan nan"
            return 0
        fi
        tail -n 1 "$OUT/time.$name.run" >>"$OUT/time.$name"
        log "time $name run $i: $(tail -n 1 "$OUT/time.$name.run")  (user sys wall)"
    done
    "$PY" - "$OUT/time.$name" <<'EOF'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
print("%.3f %.3f" % (statistics.median(u + s for u, s, _ in rows), statistics.median(w for _, _, w in rows)))
EOF
}
cpu_median pongd "$PONGD" detect "$CORPUS/$LONG" >"$OUT/median.pongd"
cpu_median aubio aubioonset -i "$CORPUS/$LONG" "${aubio_opts[@]}" >"$OUT/median.aubio"
read -r pongd_cpu pongd_wall <"$OUT/median.pongd"
read -r aubio_cpu aubio_wall <"$OUT/median.aubio"

# ---- report
commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo "?")
dirty=$(git -C "$repo" status --porcelain --untracked-files=no 2>/dev/null | head -1 || true)
[[ -n $dirty ]] && commit="$commit+dirty"
aubio_ver=$(dpkg-query -W -f '${Version}' aubio-tools 2>/dev/null || echo "?")

"$PY" - "$OUT/scores.tsv" "$CORPUS" "$LONG" "$pongd_cpu" "$pongd_wall" "$aubio_cpu" "$aubio_wall" \
    "$RUNS" "$(date -u +%Y-%m-%d)" "$commit" "$aubio_ver" "$AUBIO_OPTS" "$PONGD" "$(nproc)" <<'EOF'
import json, sys, wave
(tsv, corpus, long_name, p_cpu, p_wall, a_cpu, a_wall, runs, date, commit, aubio_ver, aubio_opts,
 pongd, ncpu) = sys.argv[1:]
p_cpu, p_wall, a_cpu, a_wall = map(float, (p_cpu, p_wall, a_cpu, a_wall))

def speed(cpu, wall):
    if cpu != cpu:
        return "FAILED | | "
    return "%.2f | %.2f | %.0f" % (cpu, wall, secs / cpu)

def f2(x):
    return "-" if x is None or x != x else "%.2f" % x

print("## Impact detection vs aubio (%s, pongd %s)\n" % (date, commit))
print("`Benchmarks/Scripts/compare_detectors.sh` on `%s` (gen_corpus.py seeds 1 = test, 3 = long). "
      "aubio %s: `aubioonset %s` (threshold chosen on the dev set, seed 2). "
      "F1 of ball impacts, one-to-one matching within the window (mir_eval); bias = mean signed "
      "error (detected − labelled) of impacts matched within ±50 ms; kind = share of matched impacts whose "
      "table/racket kind agrees (aubio gives no kind).\n" % (corpus, aubio_ver, aubio_opts))
print("| file | detector | F1 ±5 ms | F1 ±10 ms | F1 ±50 ms | P / R ±50 ms | bias ms | kind | detected / labelled |")
print("|---|---|---|---|---|---|---|---|---|")
for line in open(tsv):
    name, det, js = line.rstrip("\n").split("\t", 2)
    if js == "FAILED":
        print("| %s | %s | FAILED | | | | | | |" % (name, det))
        continue
    r = json.loads(js)
    w5, w10, w50 = r
    ka = w50["kind_accuracy"]
    b = w50["bias_ms"]
    print("| %s | %s | %s | %s | %s | %s / %s | %s | %s | %d / %d |" % (
        name, det, f2(w5["f1"]), f2(w10["f1"]), f2(w50["f1"]), f2(w50["precision"]), f2(w50["recall"]),
        "-" if b is None or b != b else "%+.1f" % b,
        "-" if ka is None else "%.2f" % ka, w50["n_est"], w50["n_ref"]))

with wave.open("%s/%s" % (corpus, long_name)) as w:
    secs = w.getnframes() / float(w.getframerate())
print("\nSpeed on `%s` (%.0f s of 48 kHz mono audio), whole process incl. file reading; CPU = user+sys "
      "(all threads) from `/usr/bin/time -f \"%%U %%S %%e\"`, median of %s runs, %s-core machine.\n"
      % (long_name, secs, runs, ncpu))
print("| detector | command | CPU s | wall s | × real time (per CPU s) |")
print("|---|---|---|---|---|")
print("| pongd | `pongd detect %s` | %s |" % (long_name, speed(p_cpu, p_wall)))
print("| aubio %s | `aubioonset -i %s %s` | %s |" % (aubio_ver, long_name, aubio_opts, speed(a_cpu, a_wall)))
EOF
log "done; raw detections and timings in $OUT"
exit "$status"
