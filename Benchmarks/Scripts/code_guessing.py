#!/usr/bin/env python3
"""Session-code guessing against a pongd binary (issue 12, item 2; docs/SECURITY.md, "Code guessing").

Usage: code_guessing.py PONGD_BINARY [--sessions N] [--seconds S] [--threads T] [--path lobby|join|start]
Starts `pongd serve` with its default limits on a free port with a fresh data folder, creates N live sessions
(each by its own guest), then guesses random codes from one address for S seconds over T keep-alive connections
and prints one JSON line: lookups answered per second before the first 429 and after it, how many live codes were
found and how many lobbies showed player names. Standard library only.
"""
import http.client
import json
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(port, method, path, token=None, body=None, connection=None):
    own = connection is None
    connection = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    if own:
        connection.close()
    return response.status, (json.loads(data) if data else {})


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    binary = args[0]
    options = dict(zip(args[1::2], args[2::2]))
    sessions = int(options.get("--sessions", 2000))
    seconds = float(options.get("--seconds", 20))
    threads = int(options.get("--threads", 4))
    path_kind = options.get("--path", "lobby")
    port = free_port()
    data = tempfile.mkdtemp(prefix="pongd-guess-")
    server = subprocess.Popen([binary, "serve", "--port", str(port), "--metrics-port", "0", "--data-dir", data,
                               "--log-level", "error"], stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        live = set()
        for _ in range(sessions):
            _, guest = call(port, "POST", "/auth/guest")
            status, created = call(port, "POST", "/sessions", guest["token"], '{"mode":"rally","pointsToWin":11}')
            if status == 201:
                live.add(created["code"])
                _, player = call(port, "POST", "/auth/guest")
                call(port, "POST", "/users/profile", player["token"], '{"displayName":"Ana"}')
                call(port, "POST", f"/sessions/{created['code']}/join", player["token"])
        _, attacker = call(port, "POST", "/auth/guest")
        token = attacker["token"] if path_kind != "lobby" else None
        lock = threading.Lock()
        results = []  # (time, status, names shown)
        start = time.monotonic()
        end = start + seconds

        def guess():
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            rng = random.Random()
            while time.monotonic() < end:
                code = "".join(rng.choice(ALPHABET) for _ in range(6))
                method, path = {"lobby": ("GET", f"/sessions/{code}"), "join": ("POST", f"/sessions/{code}/join"),
                                "start": ("POST", f"/sessions/{code}/start")}[path_kind]
                try:
                    status, body = call(port, method, path, token, connection=connection)
                except (OSError, http.client.HTTPException):
                    connection.close()
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                    continue
                names = "host" in body or bool(body.get("players"))
                with lock:
                    results.append((time.monotonic() - start, status, names, code in live))
            connection.close()

        workers = [threading.Thread(target=guess) for _ in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        results.sort()
        first_429 = next((t for t, status, _, _ in results if status == 429), None)
        before = [r for r in results if first_429 is None or r[0] < first_429]
        after = [r for r in results if first_429 is not None and r[0] >= first_429]
        answered_after = [r for r in after if r[1] != 429]
        span_before = (first_429 if first_429 is not None else seconds) or 1e-9
        span_after = max(seconds - (first_429 or seconds), 1e-9)
        statuses = {}
        for _, status, _, _ in results:
            statuses[str(status)] = statuses.get(str(status), 0) + 1
        print(json.dumps({
            "binary": binary, "path": path_kind, "liveSessions": len(live), "seconds": seconds,
            "lookups": len(results), "statuses": statuses,
            "firstTooManyAt": None if first_429 is None else round(first_429, 3),
            "lookupsPerSecondBefore429": round(len(before) / span_before, 1),
            "answeredLookupsPerSecondAfter429": round(len(answered_after) / span_after, 3) if after else None,
            "tooManyPerSecondAfter429": round((len(after) - len(answered_after)) / span_after, 1) if after else None,
            "liveCodesFound": sum(1 for r in results if r[1] == 200),
            "lobbiesWithNames": sum(1 for r in results if r[2]),
            # Expected time for this address to hit one of 100,000 live codes among 2^30 at the rate measured
            # (after the first 429 when there was one).
            "expectedSecondsToFindOneAt100kSessions": round((2 ** 30 / 100_000) / max(
                (len(answered_after) / span_after) if after else len(results) / seconds, 1e-9), 1),
        }))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()
