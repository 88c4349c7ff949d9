#!/usr/bin/env python3
"""Several pongd nodes on one PostgreSQL: ownership, forwarding, 4101, failover after kill -9, drain handover
(issue 15; docs/SCALING.md).

    cluster_failover.py PONGD_BINARY [--nodes 3] [--sessions 6] [--players 3] [--lease 2] [--work DIR] [--verbose]

Starts a throwaway PostgreSQL server (as kill9_durability.py --postgres does) and NODES `pongd serve --database …
--public-url http://127.0.0.1:PORT --lease-seconds LEASE` processes on it, then:

1. hosts create SESSIONS sessions, host i on node i mod N (the session belongs to that node); every player joins
   through a node in turn (so most joins arrive on a node that does not own the session and are forwarded): the
   answer's `websocketURL` must be the owner's; players open their sockets there and say hello. A socket opened on a
   node that does not own its session must be closed with 4101 and the owner's socket URL as the reason. Every
   session's lobby, asked of every node, must list its players.
2. the node owning the most sessions is killed (SIGKILL). Each of its players does what a phone does: its node
   refuses connections, so it asks the other nodes in turn (`POST /join` again: 503 `session_unavailable` with
   `Retry-After` until a node adopted the session, then the same seat with the new owner's `websocketURL`), opens
   that socket and resumes with its resume token. Measured: kill to each phone's `welcome` (the failover time).
3. one surviving node is drained (SIGTERM): its sockets must get 4101 with a surviving node's URL, where the phones
   resume at once (measured: SIGTERM to `welcome`).
4. PostgreSQL is stopped (immediate shutdown): a live phone's socket goes on (`permissions` answered with
   `readiness`), a new join is refused at once with 503 `store_unavailable` and `Retry-After`; PostgreSQL is
   started again: joins work again, and the journey step made during the outage is in the store (psql).
After each step: every session is live on exactly one node (PostgreSQL's `session.ownerNode`, read with psql, and
each node's `pongd_live_sessions`), every seat is there once (the lobby, through any node), and every player
resumed with its own player id.

Prints a JSON summary and exits 1 when a check failed. Python 3 standard library only (the WebSocket client of
kill9_durability.py).
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kill9_durability import GENEROUS, Postgres, WebSocket, call, expect, free_port, listening  # noqa: E402


class Node:
    """One `pongd serve`: on the shared `database` (PostgreSQL), or alone on SQLite in its folder when it is None.
    `port`: the one to listen on (known before it starts, e.g. for another node's `--allowed-origin`); else a free one."""

    def __init__(self, binary, index, database, lease, work, extra=(), port=None):
        self.index, self.port, self.metrics = index, port or free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        folder = os.path.join(work, f"node{index}")
        os.makedirs(folder)
        self.log = os.path.join(work, f"node{index}.log")
        command = [binary, "serve", "--port", str(self.port), "--metrics-port", str(self.metrics), "--data-dir", folder,
                   "--drain-timeout", "5"] + GENEROUS + list(extra)
        if database:
            command += ["--database", database, "--public-url", self.url, "--lease-seconds", str(lease)]
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"node {index} exited at start-up; see {self.log}")
            try:
                if listening(self.log, self.port) and call(self.port, "GET", "/healthz", timeout=2)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.02)
        raise RuntimeError(f"node {index} did not answer /healthz; see {self.log}")

    def terminate(self):
        """SIGTERM, then SIGKILL after 15 s."""
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    @property
    def alive(self):
        return self.proc.poll() is None

    def gauge(self, name):
        """A gauge or counter of the node's metrics listener (`pongd_live_sessions`, `pongd_sessions_adopted_total`);
        0 when absent."""
        import http.client
        conn = http.client.HTTPConnection("127.0.0.1", self.metrics, timeout=5)
        conn.request("GET", "/metrics")
        text = conn.getresponse().read().decode()
        conn.close()
        for line in text.splitlines():
            if line.startswith(name + " "):
                return int(float(line.split()[1]))
        return 0

    def live_sessions(self):
        return self.gauge("pongd_live_sessions")

    def stop(self):
        if self.alive:
            self.proc.kill()
            self.proc.wait()


def port_of(url):
    return urllib.parse.urlsplit(url).port


def socket_path(url):
    """The path of an absolute URL (http or ws)."""
    return urllib.parse.urlsplit(url).path


class Phone:
    """A guest with a seat in a session, and its socket on the owner node."""

    def __init__(self, session, node, name):
        self.session = session
        body = expect(call(node.port, "POST", "/auth/guest", {}), 201, "guest")
        self.user, self.token = body["userId"], body["token"]
        expect(call(node.port, "POST", "/users/profile", {"displayName": name}, self.token), 200, "profile")
        joined = expect(call(node.port, "POST", f"/sessions/{session['code']}/join", token=self.token), 200, "join")
        self.player_id, self.resume_token = joined["playerId"], joined["resumeToken"]
        self.websocket_url = joined["websocketURL"]
        self.ws = None

    def connect(self, url, resume):
        """Opens the socket at `url` (absolute) and says hello; the welcome, or ("close", code, reason)."""
        self.ws = WebSocket(port_of(url), f"{socket_path(url)}?token={self.token}")
        self.ws.send({"type": "hello", "resumeToken": self.resume_token if resume else None})
        kind, message = self.ws.wait(lambda m: m.get("type") in ("welcome", "error"), what="welcome")
        if kind == "close":
            return ("close", message, getattr(self.ws, "close_reason", ""))
        if message["type"] != "welcome":
            kind, code = self.ws.wait(lambda m: False, what="close")
            return ("close", code, getattr(self.ws, "close_reason", ""))
        return message

    def recover(self, nodes, deadline):
        """What a phone does when its node is gone: asks the live nodes in turn until it resumes its seat there."""
        attempts = 0
        while time.monotonic() < deadline:
            for node in nodes:
                attempts += 1
                try:
                    status, body = call(node.port, "POST", f"/sessions/{self.session['code']}/join", token=self.token,
                                        timeout=5)
                except OSError:
                    continue
                if status == 503:
                    time.sleep(min(1.0, 0.25))
                    continue
                if status != 200:
                    raise RuntimeError(f"join again on node {node.index}: HTTP {status} {body}")
                if body["playerId"] != self.player_id:
                    raise RuntimeError(f"join again gave another seat: {body['playerId']} != {self.player_id}")
                self.websocket_url = body["websocketURL"]
                try:
                    welcome = self.connect(self.websocket_url, resume=True)
                except (OSError, RuntimeError):
                    continue
                if isinstance(welcome, dict):
                    return welcome, attempts
            time.sleep(0.1)
        raise RuntimeError(f"player {self.player_id} did not resume in time")


def owners(pg, database):
    """session code -> the owner node's URL, for live sessions, read with psql."""
    out = subprocess.run(pg.run_as + [os.path.join(pg.bin, "psql"), "-h", pg.folder, "-p", str(pg.port), "-U",
                                      "pongd", "-d", database, "-Atc",
                                      "SELECT s.code, n.url FROM session s LEFT JOIN node n ON n.id = s.ownerNode "
                                      "WHERE s.state != 'ended' ORDER BY s.code"],
                         check=True, capture_output=True, text=True).stdout
    return dict(line.split("|", 1) for line in out.splitlines() if line)


def check_seats(nodes, sessions, phones, failures, step):
    """Every session's lobby, asked of every live node, lists exactly its players, once each."""
    for session in sessions:
        expected = sorted(p.player_id for p in phones if p.session is session)
        for node in nodes:
            if not node.alive:
                continue
            status, body = call(node.port, "GET", f"/sessions/{session['code']}", token=session["hostToken"])
            if status != 200:
                failures.append(f"{step}: lobby of {session['code']} on node {node.index}: HTTP {status} {body}")
                continue
            seen = sorted(p["playerId"] for p in body["players"])
            if seen != expected:
                failures.append(f"{step}: lobby of {session['code']} on node {node.index}: {seen} != {expected}")


def check_single_owner(pg, database, nodes, sessions, failures, step):
    """Each live session has one owner, a live node, and the nodes together hold each once."""
    table = owners(pg, database)
    live_ids = {n.url for n in nodes if n.alive}
    for session in sessions:
        owner = table.get(session["code"])
        if owner not in live_ids:
            failures.append(f"{step}: session {session['code']} owned by {owner}, not a live node")
    held = sum(n.live_sessions() for n in nodes if n.alive)
    if held != len(sessions):
        failures.append(f"{step}: the live nodes hold {held} sessions, not {len(sessions)}")
    return table


def percentile(values, p):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pongd")
    parser.add_argument("--nodes", type=int, default=3)
    parser.add_argument("--sessions", type=int, default=6)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--lease", type=float, default=2.0)
    parser.add_argument("--work")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="pongd-cluster-")
    os.makedirs(work, exist_ok=True)
    pg = Postgres(work)
    nodes, failures, summary = [], [], {"work": work}
    try:
        database = pg.database("cluster")
        nodes = [Node(args.pongd, i, database, args.lease, work) for i in range(args.nodes)]
        # 1. Sessions on every node, joins through every node.
        sessions, phones = [], []
        for i in range(args.sessions):
            node = nodes[i % len(nodes)]
            host = expect(call(node.port, "POST", "/auth/guest", {}), 201, "host guest")
            created = expect(call(node.port, "POST", "/sessions", {"mode": "rally", "pointsToWin": 11},
                                  host["token"]), 201, "create")
            sessions.append({"code": created["code"], "hostToken": created["hostToken"], "owner": node.url})
        forwarded_joins = 0
        for i, session in enumerate(sessions):
            for j in range(args.players):
                node = nodes[(i + j + 1) % len(nodes)]
                phone = Phone(session, node, f"P{i}-{j}")
                forwarded_joins += node.url != session["owner"]
                if not phone.websocket_url.startswith(session["owner"] + "/"):
                    failures.append(f"join on node {node.index}: websocketURL {phone.websocket_url} is not on the "
                                    f"owner {session['owner']}")
                phones.append(phone)
        # A socket on a node that does not own its session: 4101 and the owner's socket URL.
        probe = phones[0]
        other = next(n for n in nodes if n.url != probe.session["owner"])
        moved = probe.connect(other.url + socket_path(probe.websocket_url), resume=False)
        expected_reason = "ws://" + probe.session["owner"][len("http://"):] + socket_path(probe.websocket_url)
        if not (isinstance(moved, tuple) and moved[1] == 4101 and moved[2] == expected_reason):
            failures.append(f"a socket on a non-owner: {moved}, expected close 4101 {expected_reason}")
        import http.client
        # The QR code asked of a non-owner: the owner's image with its caching and sandbox headers.
        conn = http.client.HTTPConnection("127.0.0.1", other.port, timeout=10)
        conn.request("GET", f"/sessions/{probe.session['code']}/qr.svg")
        qr = conn.getresponse()
        qr.read()
        conn.close()
        if qr.status != 200 or qr.getheader("Content-Type") != "image/svg+xml" \
                or "sandbox" not in (qr.getheader("Content-Security-Policy") or "") \
                or qr.getheader("Cache-Control") != "public, max-age=3600":
            failures.append(f"the QR code through a non-owner: HTTP {qr.status} {qr.getheaders()}")
        # A request another node already forwarded is never forwarded again (no loops): 503 session_unavailable.
        conn = http.client.HTTPConnection("127.0.0.1", other.port, timeout=10)
        conn.request("POST", f"/sessions/{probe.session['code']}/join",
                     headers={"Authorization": "Bearer " + probe.token, "X-Pongd-Forwarded-By": "http://elsewhere"})
        looped = conn.getresponse()
        looped_body = json.loads(looped.read() or b"null")
        conn.close()
        if looped.status != 503 or (looped_body or {}).get("error", {}).get("code") != "session_unavailable" \
                or looped.getheader("Retry-After") is None:
            failures.append(f"a forwarded request on a non-owner: HTTP {looped.status} {looped_body}")
        for phone in phones:
            welcome = phone.connect(phone.websocket_url, resume=True)
            if not isinstance(welcome, dict) or welcome.get("playerId") != phone.player_id:
                failures.append(f"player {phone.player_id} on its owner: {welcome}")
        check_seats(nodes, sessions, phones, failures, "joined")
        table = check_single_owner(pg, database, nodes, sessions, failures, "joined")
        summary["joined"] = {"sessions": len(sessions), "phones": len(phones), "forwardedJoins": forwarded_joins,
                             "perNode": {n.url: sum(1 for o in table.values() if o == n.url) for n in nodes}}

        # 2. Kill -9 the busiest node; its phones find the session's new owner.
        counts = {n.url: sum(1 for o in table.values() if o == n.url) for n in nodes}
        victim = max(nodes, key=lambda n: counts[n.url])
        orphaned = [p for p in phones if table.get(p.session["code"]) == victim.url]
        killed_at = time.monotonic()
        victim.proc.send_signal(signal.SIGKILL)
        victim.proc.wait()
        survivors = [n for n in nodes if n.alive]
        times = []
        for k, phone in enumerate(orphaned):
            order = survivors[k % len(survivors):] + survivors[:k % len(survivors)]
            welcome, _ = phone.recover(order, killed_at + 30)
            times.append(time.monotonic() - killed_at)
            if welcome.get("playerId") != phone.player_id:
                failures.append(f"after the kill: {phone.player_id} resumed as {welcome.get('playerId')}")
        adopted = sum(n.gauge("pongd_sessions_adopted_total") for n in survivors)
        if adopted != counts[victim.url]:
            failures.append(f"failover: the survivors count {adopted} adoptions, not {counts[victim.url]}")
        check_seats(survivors, sessions, phones, failures, "failover")
        table = check_single_owner(pg, database, survivors, sessions, failures, "failover")
        summary["failover"] = {
            "killed": victim.url, "sessions": counts[victim.url], "phones": len(orphaned),
            "readyAgainSeconds": {"p50": percentile(times, 50), "max": max(times) if times else None},
            "perNode": {n.url: sum(1 for o in table.values() if o == n.url) for n in survivors},
        }
        if times and max(times) > 15:
            failures.append(f"failover: a phone was ready again only after {max(times):.1f} s (> 15 s)")

        # 3. Drain one survivor (SIGTERM): its phones get 4101 to another node and resume there.
        if len(survivors) >= 2:
            drained = max(survivors, key=lambda n: sum(1 for o in table.values() if o == n.url))
            moving = [p for p in phones if table.get(p.session["code"]) == drained.url]
            term_at = time.monotonic()
            drained.proc.send_signal(signal.SIGTERM)
            handover = []
            for phone in moving:
                kind, code = phone.ws.wait(lambda m: False, timeout=10, what="the drain's close")
                reason = getattr(phone.ws, "close_reason", "")
                if code != 4101 or not reason.startswith("ws://"):
                    failures.append(f"drain: {phone.player_id} closed with {code} {reason!r}, not 4101 and a URL")
                    continue
                url = "http://" + reason[len("ws://"):]
                welcome = phone.connect(url, resume=True)
                handover.append(time.monotonic() - term_at)
                if not isinstance(welcome, dict) or welcome.get("playerId") != phone.player_id:
                    failures.append(f"drain: {phone.player_id} on {url}: {welcome}")
            drained.proc.wait(timeout=30)
            survivors = [n for n in nodes if n.alive]
            check_seats(survivors, sessions, phones, failures, "drain")
            table = check_single_owner(pg, database, survivors, sessions, failures, "drain")
            summary["drain"] = {
                "drained": drained.url, "phones": len(moving), "exitStatus": drained.proc.returncode,
                "readyAgainSeconds": {"p50": percentile(handover, 50), "max": max(handover) if handover else None},
                "perNode": {n.url: sum(1 for o in table.values() if o == n.url) for n in survivors},
            }
        # 4. PostgreSQL down and back.
        node = next(n for n in nodes if n.alive)
        table = owners(pg, database)
        phone = next(p for p in phones if table.get(p.session["code"]) == node.url)
        newcomer = expect(call(node.port, "POST", "/auth/guest", {}), 201, "guest before the outage")
        code = phone.session["code"]
        pg.stop()
        time.sleep(args.lease / 4 * 2 + 0.5)  # two renewals: the node knows
        phone.ws.send({"type": "permissions", "camera": "granted", "microphone": "granted"})
        answered = phone.ws.wait(lambda m: m.get("type") in ("readiness", "error"), what="readiness in the outage")
        asked = time.monotonic()
        status, body = call(node.port, "POST", f"/sessions/{code}/join", token=newcomer["token"], timeout=10)
        refused_in = time.monotonic() - asked
        if answered[0] != "text" or answered[1].get("type") != "readiness":
            failures.append(f"outage: the live phone got {answered}, not readiness")
        if status != 503 or (body or {}).get("error", {}).get("code", (body or {}).get("code")) != "store_unavailable":
            failures.append(f"outage: a join got HTTP {status} {body}, not 503 store_unavailable")
        if refused_in > 1:
            failures.append(f"outage: the join was refused only after {refused_in:.2f} s")
        pg._run("pg_ctl", "-D", f"{pg.folder}/data", "-l", f"{pg.folder}/server.log", "-w", "-t", "30",
                "-o", f"-p {pg.port} -k {pg.folder} -c listen_addresses=127.0.0.1", "start")
        back_at, rejoined = time.monotonic(), None
        while time.monotonic() < back_at + 20:
            status, body = call(node.port, "POST", f"/sessions/{code}/join", token=newcomer["token"], timeout=10)
            if status == 200:
                rejoined = time.monotonic() - back_at
                break
            time.sleep(0.2)
        if rejoined is None:
            failures.append(f"outage: no join within 20 s of PostgreSQL's return (last: HTTP {status} {body})")
        journey = subprocess.run(pg.run_as + [os.path.join(pg.bin, "psql"), "-h", pg.folder, "-p", str(pg.port), "-U",
                                              "pongd", "-d", database, "-Atc",
                                              f"SELECT journey FROM membership WHERE playerId = '{phone.player_id}'"],
                                 check=True, capture_output=True, text=True).stdout
        if '"permissions"' not in journey:
            failures.append(f"outage: the step made meanwhile is not in the store: {journey.strip()}")
        summary["outage"] = {"joinRefusedInSeconds": refused_in, "joinAgainAfterReturnSeconds": rejoined}
    except Exception as error:  # noqa: BLE001 - reported in the summary
        failures.append(f"could not run: {error!r}")
    finally:
        for node in nodes:
            node.stop()
        pg.stop()
    summary["failures"] = failures
    print(json.dumps(summary, indent=2))
    if not failures and not args.work:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
