#!/usr/bin/env python3
"""pong-player-sim against three pongd nodes on one PostgreSQL: one node killed (SIGKILL) mid-stream, then another
drained (SIGTERM); the simulator's report gives joins and phones per node, 4101s followed, failover times and
phones never back (docs/SIMULATOR.md, "Several nodes").

    sim_cluster.py PONGD PONG_PLAYER_SIM [--sessions 6] [--players 3] [--duration 30] [--drain-after 12]
                   [--audio WAV [--labels CSV]]

PostgreSQL and the nodes are started as cluster_failover.py does (a throwaway server in a temporary folder, lease
2 s). Node 0 is killed 2 s after every phone is ready, node 1 drained DRAIN_AFTER s later. Without --audio the phones
stream a generated 2 s loop of noise and clicks (no labels: F1 is null). Prints the simulator's stdout (its table,
then its JSON line, last) and exits with its status; the work folder (node logs, the simulator's stderr) is removed
after a run that exited 0 unless --keep is given, and named on stderr otherwise.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import random
import struct
import time
import wave

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_failover import Node  # noqa: E402
from kill9_durability import Postgres  # noqa: E402


def click_track(path):
    """A 2 s, 48 kHz mono WAV of quiet noise with four sharp clicks."""
    rate, samples = 48000, [random.randint(-30, 30) for _ in range(96000)]
    for start in (0.3, 0.8, 1.3, 1.7):
        for n in range(480):
            samples[int(start * rate) + n] = int(random.randint(-20000, 20000) * 2.718281828 ** (-n / 60))
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(struct.pack(f"<{len(samples)}h", *samples))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pongd")
    parser.add_argument("sim")
    parser.add_argument("--sessions", type=int, default=6)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--duration", type=float, default=30)
    parser.add_argument("--drain-after", type=float, default=12)
    parser.add_argument("--audio")
    parser.add_argument("--labels")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    parser.add_argument("--lease", type=float, default=2.0, help="the nodes' --lease-seconds")
    parser.add_argument("--baseline", action="store_true",
                        help="one node on SQLite, nothing killed: the F1 the cluster run is compared with")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="sim-cluster-")
    pg = Postgres(work)
    nodes, status = [], 1
    try:
        database = pg.database("cluster")
        if args.baseline:
            nodes = [Node(args.pongd, 0, None, args.lease, work)]  # one node on SQLite
        else:
            nodes = [Node(args.pongd, i, database, args.lease, work) for i in range(3)]
        command = [args.sim]
        for node in nodes:
            command += ["--server", node.url]
        audio = args.audio
        if audio is None:
            audio = os.path.join(work, "clicks.wav")
            click_track(audio)
        command += ["--sessions", str(args.sessions), "--players-per-session", str(args.players), "--audio", audio,
                    "--duration", str(args.duration), "--json", "--progress-every", "2"]
        if args.labels:
            command += ["--labels", args.labels]
        err_path = os.path.join(work, "sim.err")
        with open(err_path, "w") as err:
            sim = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err, text=True)
            total = args.sessions * args.players
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and f"ready {total} " not in open(err_path).read():
                time.sleep(0.5)
            time.sleep(2)
            if args.baseline:
                out, _ = sim.communicate(timeout=args.duration + 300)
                print(out, end="")
                status = sim.returncode
                return status
            print(f"kill -9 node 0 ({nodes[0].url})", file=sys.stderr, flush=True)
            nodes[0].proc.kill()
            time.sleep(args.drain_after)
            print(f"SIGTERM node 1 ({nodes[1].url})", file=sys.stderr, flush=True)
            nodes[1].proc.send_signal(signal.SIGTERM)
            out, _ = sim.communicate(timeout=args.duration + 300)
        print(out, end="")
        status = sim.returncode
        return status
    finally:
        for node in nodes:
            if node.proc.poll() is None:
                node.proc.kill()
        pg.stop()
        if status == 0 and not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print("work", work, file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
