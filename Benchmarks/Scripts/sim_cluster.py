#!/usr/bin/env python3
"""pong-player-sim against three pongd nodes on one PostgreSQL: one node killed (SIGKILL) mid-stream, then another
drained (SIGTERM); the simulator's report gives joins and phones per node, 4101s followed, failover times and
phones never back (docs/SIMULATOR.md, "Several nodes").

    sim_cluster.py PONGD PONG_PLAYER_SIM [--sessions 6] [--players 3] [--duration 30] [--audio WAV --labels CSV]

PostgreSQL and the nodes are started as cluster_failover.py does (a throwaway server in a temporary folder, lease
2 s). Node 0 is killed 2 s after every phone is ready, node 1 drained 12 s later; the simulator's table and JSON
line are printed, with the work folder (node logs, the simulator's stderr).
"""
import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_failover import Node  # noqa: E402
from kill9_durability import Postgres  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pongd")
    parser.add_argument("sim")
    parser.add_argument("--sessions", type=int, default=6)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--duration", type=float, default=30)
    parser.add_argument("--audio", default="/work/corpus/dev4_snr10.wav")
    parser.add_argument("--labels", default="/work/corpus/dev4_events.csv")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="sim-cluster-")
    pg = Postgres(work)
    nodes = []
    try:
        database = pg.database("cluster")
        nodes = [Node(args.pongd, i, database, 2.0, work) for i in range(3)]
        command = [args.sim]
        for node in nodes:
            command += ["--server", node.url]
        command += ["--sessions", str(args.sessions), "--players-per-session", str(args.players), "--audio", args.audio,
                    "--labels", args.labels, "--duration", str(args.duration), "--json", "--progress-every", "2"]
        err_path = os.path.join(work, "sim.err")
        with open(err_path, "w") as err:
            sim = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err, text=True)
            total = args.sessions * args.players
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and f"ready {total} " not in open(err_path).read():
                time.sleep(0.5)
            time.sleep(2)
            print(f"kill -9 node 0 ({nodes[0].url})", flush=True)
            nodes[0].proc.kill()
            time.sleep(12)
            print(f"SIGTERM node 1 ({nodes[1].url})", flush=True)
            nodes[1].proc.send_signal(signal.SIGTERM)
            out, _ = sim.communicate(timeout=args.duration + 300)
        print(out)
        print("work", work)
        return sim.returncode
    finally:
        for node in nodes:
            if node.alive:
                node.proc.kill()
        pg.stop()


if __name__ == "__main__":
    sys.exit(main())
