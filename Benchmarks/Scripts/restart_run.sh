#!/bin/sh
# pong-player-sim across a graceful pongd restart (issue 13, item 4): starts `pongd serve` on a fresh data folder,
# runs SESSIONS×4 streaming phones, sends SIGTERM RESTART_AT s into the run, starts pongd again on the same folder and
# port, and prints how long the drain took, how long the server was down, and the sim's summary.
#
#   Benchmarks/Scripts/restart_run.sh PONGD SIM AUDIO LABELS [SESSIONS=50] [RESTART_AT=45] [DURATION=60]
#
# "resumed within N s of the new process answering" = the sim's restart reconnect max − the downtime printed here
# (every socket's 4100 is sent within milliseconds of the SIGTERM).
set -eu
PONGD=$1 SIM=$2 AUDIO=$3 LABELS=$4
SESSIONS=${5:-50} RESTART_AT=${6:-45} DURATION=${7:-60}
PORT=${PORT:-18290}
DATA=$(mktemp -d)
now() { date +%s.%N; }
serve() {
    "$PONGD" serve --port "$PORT" --metrics-port 0 --data-dir "$DATA/db" --join-burst 100000 \
        --joins-per-minute 1000000 --login-burst 100000 --logins-per-minute 1000000 \
        --max-connections-per-address 100000 --log-level notice >>"$DATA/pongd.log" 2>&1 &
    PID=$!
}
answering() {
    until curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; do sleep 0.02; done
}
serve
answering
"$SIM" --server "http://127.0.0.1:$PORT" --sessions "$SESSIONS" --players-per-session 4 --audio "$AUDIO" \
    --labels "$LABELS" --duration "$DURATION" --ramp 20 --progress-every 5 --json ${SIM_ARGS:-} >"$DATA/sim.out" 2>"$DATA/sim.err" &
SIM_PID=$!
sleep "$RESTART_AT"
T0=$(now)
kill -TERM "$PID"
wait "$PID" && STATUS=0 || STATUS=$?
T1=$(now)
serve
answering
T2=$(now)
echo "pongd exit status $STATUS; drained and exited in $(echo "$T1 - $T0" | bc) s; answering again $(echo "$T2 - $T0" | bc) s after SIGTERM"
wait "$SIM_PID" || true
kill -TERM "$PID"
wait "$PID" || true
grep -E "^\[" "$DATA/sim.err" | tail -4
cat "$DATA/sim.out"
echo "data, logs: $DATA"
