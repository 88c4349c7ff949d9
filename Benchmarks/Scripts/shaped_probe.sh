#!/bin/bash
# One connection test through a shaped uplink, as Tests/pongdTests/ShapedLinkTests.swift makes it: `pongd serve`
# in one network namespace, `pong-player-sim probe --json` in another, a veth pair between them and tbf on the
# phone's side. Prints the server's connectionTest result and tbf's counters (sent, dropped). Needs root, iproute2.
#
#   Benchmarks/Scripts/shaped_probe.sh MBIT [tbf options…]     (default options: burst 64kb latency 1000ms)
#   BIN=.build/release Benchmarks/Scripts/shaped_probe.sh 1.5 burst 64kb latency 50ms
set -euo pipefail
MBIT=${1:?usage: shaped_probe.sh MBIT [tbf options…]}; shift
BIN=${BIN:-.build/debug}
OPTIONS=${*:-burst 64kb latency 1000ms}
S=pongd-bench-s; P=pongd-bench-p; DATA=$(mktemp -d)
cleanup() { [ -n "${SERVER:-}" ] && kill "$SERVER" 2>/dev/null; ip netns del $S 2>/dev/null; ip netns del $P 2>/dev/null; rm -rf "$DATA"; }
trap cleanup EXIT
ip netns del $S 2>/dev/null || true; ip netns del $P 2>/dev/null || true
ip netns add $S; ip netns add $P
ip -n $S link set lo up; ip -n $P link set lo up
ip link add pbs type veth peer name pbp
ip link set pbs netns $S; ip link set pbp netns $P
ip -n $S addr add 10.77.0.1/24 dev pbs; ip -n $P addr add 10.77.0.2/24 dev pbp
ip -n $S link set pbs up; ip -n $P link set pbp up
ip netns exec $P tc qdisc add dev pbp root tbf rate "$(awk "BEGIN{print int($MBIT*1000)}")kbit" $OPTIONS
ip netns exec $S "$BIN/pongd" serve --host 10.77.0.1 --port 18080 --data-dir "$DATA" --log-level error &
SERVER=$!
for _ in $(seq 100); do ip netns exec $S ss -ltnH 'sport = :18080' | grep -q . && break; sleep 0.1; done
ip netns exec $P "$BIN/pong-player-sim" probe --server http://10.77.0.1:18080 --timeout 30 --json | tail -1
ip netns exec $P tc -s qdisc show dev pbp | sed -n 2p
