#!/usr/bin/env python3
"""Joins per second on 1, 2 and 3 pongd nodes sharing one PostgreSQL, against one node on SQLite, in the same run
(issue 15; BENCHMARKS.md "Several nodes").

    cluster_joins.py PONGD_BINARY [--joins 800] [--workers 16] [--nodes 1,2,3] [--repeat 3]

For each setup (SQLite: one node on its own data folder; PostgreSQL: N nodes on one fresh database of a throwaway
server, as kill9_durability.py --postgres starts it): hosts create JOINS/8 sessions spread over the nodes, JOINS
guests get a profile, then WORKERS threads send the JOINS `POST /sessions/{code}/join` calls (8 players a session), each
to a node in turn, on keep-alive connections, so on N nodes (N-1)/N of the joins arrive on a node that does not own
the session and are forwarded. Measured: joins answered 200 per second of wall time (best of REPEAT rounds, each on
new sessions), p50/p99 latency, and the CPU time pongd's processes and PostgreSQL's spent per join (from /proc: on
one small machine the setups share its cores, so the CPU per join says what separate machines would do). Every join
must answer 200 with the owner's websocketURL.

Prints a JSON summary. The machine is shared: read the ratios between setups of the same run.
"""

import argparse
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster_failover import Node  # noqa: E402
from kill9_durability import Postgres, call, expect  # noqa: E402

# Quiet logs, and quotas no benchmark client from one address should meet.
QUIET = ["--log-level", "warning", "--guest-burst", "1000000", "--guests-per-hour", "360000000",
         "--session-burst", "1000000", "--sessions-per-hour", "360000000"]


def cpu_seconds(pids):
    """User + system CPU seconds of these processes so far (/proc/PID/stat)."""
    total = 0
    for pid in pids:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def postgres_pids():
    """Every PostgreSQL server process (postmaster and backends) on the machine."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if open(f"/proc/{entry}/comm").read().strip() in ("postgres", "postmaster"):
                    pids.append(int(entry))
            except OSError:
                pass
    return pids


def round_of(nodes, joins, workers, to_owner=False):
    """One round: sessions and guests made, then the joins timed."""
    sessions = []
    for i in range(joins // 8):
        node = nodes[i % len(nodes)]
        host = expect(call(node.port, "POST", "/auth/guest", {}), 201, "host")
        created = expect(call(node.port, "POST", "/sessions", {"mode": "rally", "pointsToWin": 11}, host["token"]),
                         201, "create")
        sessions.append((created["code"], node.url))
    players = []
    for i in range(joins):
        node = nodes[i % len(nodes)]
        guest = expect(call(node.port, "POST", "/auth/guest", {}), 201, "guest")
        expect(call(node.port, "POST", "/users/profile", {"displayName": f"P{i}"}, guest["token"]), 200, "profile")
        players.append((guest["token"], sessions[i // 8]))
    latencies, errors, lock = [], [], threading.Lock()
    next_index = [0]

    def worker(w):
        connections = {}
        while True:
            with lock:
                i = next_index[0]
                next_index[0] += 1
            if i >= len(players):
                break
            token, (code, owner) = players[i]
            node = next(n for n in nodes if n.url == owner) if to_owner else nodes[(i + w) % len(nodes)]
            conn = connections.get(node.port) or http.client.HTTPConnection("127.0.0.1", node.port, timeout=30)
            connections[node.port] = conn
            started = time.perf_counter()
            try:
                conn.request("POST", f"/sessions/{code}/join", headers={"Authorization": "Bearer " + token})
                response = conn.getresponse()
                body = json.loads(response.read() or b"null")
                status = response.status
            except (OSError, http.client.HTTPException) as error:
                connections.pop(node.port, None)
                with lock:
                    errors.append(repr(error))
                continue
            elapsed = time.perf_counter() - started
            with lock:
                if status != 200:
                    errors.append(f"HTTP {status} {body}")
                elif len(nodes) > 1 and not body["websocketURL"].startswith(owner + "/"):
                    errors.append(f"websocketURL {body['websocketURL']} not on {owner}")
                else:
                    latencies.append(elapsed)
        for conn in connections.values():
            conn.close()

    threads = [threading.Thread(target=worker, args=(w,)) for w in range(workers)]
    node_pids, pg_pids = [n.proc.pid for n in nodes], postgres_pids()
    node_cpu, pg_cpu = cpu_seconds(node_pids), cpu_seconds(pg_pids)
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - began
    node_cpu = cpu_seconds(node_pids) - node_cpu
    pg_cpu = cpu_seconds(pg_pids + [p for p in postgres_pids() if p not in pg_pids]) - pg_cpu
    latencies.sort()
    pick = lambda p: latencies[min(len(latencies) - 1, int(p * (len(latencies) - 1)))] * 1000 if latencies else None
    return {"joinsPerSecond": len(latencies) / wall, "ok": len(latencies), "errors": len(errors),
            "firstErrors": errors[:3], "p50ms": pick(0.5), "p99ms": pick(0.99),
            "pongdCpuMsPerJoin": node_cpu * 1000 / max(1, len(latencies)),
            "postgresCpuMsPerJoin": pg_cpu * 1000 / max(1, len(latencies))}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pongd")
    parser.add_argument("--joins", type=int, default=800)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--nodes", default="1,2,3")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--to-owner", action="store_true",
                        help="send each join to the session's owner (no forwarding), as a client that followed "
                             "websocketURL's node would")
    parser.add_argument("--pg-options", help="server settings for pongd's connections, e.g. '-c synchronous_commit=off'")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="pongd-joins-")
    pg = Postgres(work)
    results = {}
    try:
        setups = [("sqlite", None)] + [(f"postgres-{n}", int(n)) for n in args.nodes.split(",")]
        for repeat in range(args.repeat):
            for name, count in setups:
                database = None
                if count is not None:
                    database = pg.database(f"joins_{count}_{repeat}")
                    if args.pg_options:
                        database += "&options=" + urllib.parse.quote(args.pg_options)
                nodes = [Node(args.pongd, f"{name}-{repeat}-{i}", database, 6, work, QUIET)
                         for i in range(count or 1)]
                try:
                    result = round_of(nodes, args.joins, args.workers, args.to_owner)
                finally:
                    for node in nodes:
                        node.terminate()
                best = results.get(name)
                if best is None or result["joinsPerSecond"] > best["joinsPerSecond"]:
                    results[name] = result
                print(f"{name} round {repeat}: {result['joinsPerSecond']:.0f} joins/s", file=sys.stderr)
    finally:
        pg.stop()
        shutil.rmtree(work, ignore_errors=True)
    base = results["sqlite"]["joinsPerSecond"]
    for result in results.values():
        result["vsSQLite"] = result["joinsPerSecond"] / base
    print(json.dumps({"joins": args.joins, "workers": args.workers, "results": results}, indent=2))


if __name__ == "__main__":
    main()
