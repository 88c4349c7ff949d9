#!/usr/bin/env python3
"""Kill -9 right after each acknowledged change, restart, and check the change is there (issue 13, "Durable by
construction").

    kill9_durability.py PONGD_BINARY [--rounds 50] [--rounds-of KIND=N] [--kinds guest,signup,...]
                        [--fresh-folder] [--work DIR] [--verbose] [--postgres]

For each kind of change and each round: start `PONGD serve` on free ports with a data folder (one folder per kind,
reused by all its rounds, so restored sessions pile up as they would on a real server; `--fresh-folder` for a new one
each round), bring the state to just before the change, make it, and send SIGKILL the instant its acknowledgment
arrives (the HTTP answer, or the server message that acknowledges a socket message). Restart on the same folder and
check through the API that the change is there (else it is *lost*) and that nothing ended came back (else it is
*resurrected*). When a kind's rounds are done the server is started once more and every round's HTTP-visible fact is
checked again (nothing comes back or goes missing later).

Acknowledgments (docs/PROTOCOL.md): `POST /auth/guest`, `/auth/signup`, `/sessions` 201; `/users/profile`, `/join`,
`/start`, `/end`, `/streams/start` 200; `permissions` its `readiness`; `streamConfig` changes nothing the phone is
shown, so a `battery` (whose `readiness` answers it) follows it on the same socket and that readiness is the fence;
a connection test its `connectionTest`; `ready` the `lobby` showing it; `leave` the close 4002; a seat freed after
the grace period the dashboard's `lobby` without it; activity a session used past the idle timeout (`--idle-timeout`
6 s), killed on its last `readiness`.

With `--postgres` the store is PostgreSQL instead of SQLite: the script starts a throwaway server of its own (Debian's
`postgresql` binaries, initdb into the work folder, as `nobody` when run as root, on a free loopback port) and gives
each kind a database of its own (`pongd serve --database postgres://...`), reused by its rounds as the folder is.

Prints a JSON summary (per kind: rounds, lost, resurrected, errors, kill-to-restart time: SIGKILL to the new
process answering /healthz) and exits 1 if anything was lost, resurrected or could not be run. Python 3 standard
library only: the WebSocket client is written here over `socket`.
"""

import argparse
import base64
import collections
import glob
import http.client
import itertools
import json
import os
import pwd
import random
import select
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

ALL_KINDS = ["guest", "signup", "profile", "create", "join", "permissions", "streamconfig", "streams", "test",
             "ready", "start", "end", "leave", "freed", "activity"]

# Limits a test from one address would hit (each round makes a few joins and logins; defaults are per minute).
# (Failed code lookups: the `end` kind's checks look up ended codes on purpose.)
GENEROUS = ["--join-burst", "100000", "--joins-per-minute", "1000000", "--login-burst", "100000",
            "--logins-per-minute", "1000000", "--max-connections-per-address", "100000",
            "--code-guess-burst", "100000", "--code-guesses-per-minute", "1000000",
            "--session-join-burst", "100000", "--session-joins-per-minute", "1000000"]


class Lost(Exception):
    """The acknowledged change is not there after the restart."""


class Resurrected(Exception):
    """Something ended before the kill is back after the restart."""


# ---------------------------------------------------------------------------------------------------------------- HTTP

def call(port, method, path, body=None, token=None, timeout=30):
    """One request on a fresh connection: (status, parsed JSON body or None)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {}
    data = None
    if token:
        headers["Authorization"] = "Bearer " + token
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    try:
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        raw = response.read()
    finally:
        conn.close()
    try:
        return response.status, json.loads(raw) if raw else None
    except ValueError:
        return response.status, None


def expect(status_body, status, what):
    got, body = status_body
    if got != status:
        raise RuntimeError(f"{what}: HTTP {got} {body}")
    return body


# ----------------------------------------------------------------------------------------------------------- WebSocket

def masked(payload, key):
    """RFC 6455 masking, done on whole integers (fast enough for filler frames)."""
    n = len(payload)
    if n == 0:
        return b""
    mask = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(mask, "big")).to_bytes(n, "big")


def media_frame(kind, codec, seq, payload):
    """docs/PROTOCOL.md "Binary media frames": kind, codec, seq (u32), captureTime (u64 µs), payload."""
    return struct.pack(">BBIQ", kind, codec, seq & 0xFFFFFFFF, int(time.time() * 1e6)) + payload


class WebSocket:
    """A client socket: masked frames out, server frames in (text as JSON, close codes, pings answered)."""

    def __init__(self, port, path, timeout=15):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
                          .encode())
        self.buf = b""
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in self.buf:
            if time.monotonic() > deadline:
                raise RuntimeError(f"no upgrade answer on {path}")
            data = self.sock.recv(65536)
            if not data:
                raise RuntimeError(f"connection closed during the upgrade of {path}")
            self.buf += data
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        status = head.split(b"\r\n", 1)[0].decode(errors="replace")
        if " 101 " not in status + " ":
            raise RuntimeError(f"upgrade of {path} refused: {status}")
        self.sock.setblocking(False)
        self.fragments = None
        self.closed = None          # the close code once a close frame (or EOF: 1006) arrived
        self.video_every = None     # seconds between VP8 frames while a video track must stay live
        self.video_seq = 0
        self.last_video = 0.0

    def send_frame(self, opcode, payload):
        n = len(payload)
        if n < 126:
            header = struct.pack(">BB", 0x80 | opcode, 0x80 | n)
        elif n < 65536:
            header = struct.pack(">BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            header = struct.pack(">BBQ", 0x80 | opcode, 0x80 | 127, n)
        key = os.urandom(4)
        data = header + key + masked(payload, key)
        self.sock.setblocking(True)
        try:
            self.sock.sendall(data)
        finally:
            self.sock.setblocking(False)

    def send(self, message):
        self.send_frame(1, json.dumps(message).encode())

    def send_video(self):
        """One VP8 inter frame (inspected, not decoded: any payload is accepted and keeps the track live)."""
        self.video_seq += 1
        self.last_video = time.monotonic()
        self.send_frame(2, media_frame(2, 2, self.video_seq, b"\x01\x00\x00\x00"))

    def tick(self):
        if self.video_every is not None and self.closed is None \
                and time.monotonic() - self.last_video >= self.video_every:
            self.send_video()

    def _frame(self):
        b = self.buf
        if len(b) < 2:
            return None
        fin, opcode, n, i = b[0] & 0x80, b[0] & 0x0F, b[1] & 0x7F, 2
        if n == 126:
            if len(b) < 4:
                return None
            n, i = struct.unpack(">H", b[2:4])[0], 4
        elif n == 127:
            if len(b) < 10:
                return None
            n, i = struct.unpack(">Q", b[2:10])[0], 10
        if b[1] & 0x80:
            i += 4
        if len(b) < i + n:
            return None
        self.buf = b[i + n:]
        return fin, opcode, b[i:i + n]

    def event(self, timeout):
        """The next event: ("text", dict), ("close", code) or None when `timeout` passes first."""
        deadline = time.monotonic() + timeout
        while True:
            frame = self._frame()
            if frame is not None:
                fin, opcode, payload = frame
                if opcode == 0 and self.fragments is not None:
                    self.fragments[1] += payload
                    if fin:
                        opcode, payload = self.fragments
                        self.fragments = None
                    else:
                        continue
                elif not fin and opcode in (1, 2):
                    self.fragments = [opcode, payload]
                    continue
                if opcode == 1:
                    return "text", json.loads(payload)
                if opcode == 8:
                    self.closed = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1005
                    self.close_reason = payload[2:].decode("utf-8", "replace")
                    try:
                        self.send_frame(8, payload[:2])
                    except OSError:
                        pass
                    return "close", self.closed
                if opcode == 9:
                    try:
                        self.send_frame(10, payload)
                    except OSError:
                        pass
                continue
            if self.closed is not None:
                return "close", self.closed
            self.tick()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            readable, _, _ = select.select([self.sock], [], [], min(remaining, 0.1))
            if readable:
                try:
                    data = self.sock.recv(262144)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.closed = 1006
                    return "close", 1006
                self.buf += data

    def wait(self, accept, timeout=15, what="a message"):
        """The first text message `accept` takes, or ("close", code); raises on timeout."""
        deadline = time.monotonic() + timeout
        while True:
            event = self.event(max(0.0, deadline - time.monotonic()))
            if event is None:
                raise RuntimeError(f"timed out waiting for {what}")
            kind, value = event
            if kind == "close":
                return event
            if accept(value):
                return event

    def message(self, type_, timeout=15):
        """The next message of this type; raises if the socket closes or an error arrives first."""
        kind, value = self.wait(lambda m: m.get("type") in (type_, "error"), timeout, f"`{type_}`")
        if kind == "close" or value.get("type") == "error":
            raise RuntimeError(f"waiting for `{type_}`: got {value}")
        return value

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


# ------------------------------------------------------------------------------------------------------------- Server

_starts = itertools.count(1)


_ports_given = collections.deque(maxlen=256)


def free_port():
    """A TCP port on 127.0.0.1 that was free a moment ago and is none of the last 256 this process handed out (a
    server's API and metrics ports must differ; remembering only the recent ones, a long run cannot use up the
    ephemeral range and loop here). Another process may still take it before the server binds it: see `listening`."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in _ports_given:
            _ports_given.append(port)
            return port


def listening(log_path, port):
    """Whether the `pongd serve` logging to `log_path` says its API listens on `port`: a /healthz answer alone may
    come from whatever else took the port between `free_port` and the bind (another test's server; CI saw its
    metrics listener answer a round's requests with 404s)."""
    try:
        with open(log_path, "rb") as log:
            lines = log.read().decode(errors="replace").splitlines()
    except OSError:
        return False
    return any(f"http.port={port} " in line and line.endswith("listening") and "listener=metrics" not in line
               for line in lines)


class Server:
    """`pongd serve` on a data folder, started and killed -9."""

    def __init__(self, binary, folder, logs, extra):
        self.binary, self.folder, self.logs, self.extra = binary, folder, logs, extra
        self.proc = None
        self.port = None

    def start(self, timeout=120):
        for _ in range(5):
            self.port, metrics = free_port(), free_port()
            log_path = os.path.join(self.logs, f"{os.path.basename(self.folder)}-{next(_starts)}.log")
            log = open(log_path, "wb")
            self.proc = subprocess.Popen(
                [self.binary, "serve", "--port", str(self.port), "--metrics-port", str(metrics),
                 "--data-dir", self.folder] + GENEROUS + self.extra,
                stdout=log, stderr=subprocess.STDOUT)
            log.close()
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and self.proc.poll() is None:
                try:
                    if listening(log_path, self.port) and call(self.port, "GET", "/healthz", timeout=2)[0] == 200:
                        return
                except OSError:
                    pass
                time.sleep(0.01)
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
                raise RuntimeError(f"pongd did not answer /healthz within {timeout} s")
        raise RuntimeError(f"pongd exited at start-up (status {self.proc.returncode}); see {self.logs}")

    def kill(self):
        """SIGKILL now; returns the instant it was sent."""
        at = time.monotonic()
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        return at

    def restart(self):
        """After a kill: start again on the same folder (on new ports)."""
        self.start()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Postgres:
    """A throwaway PostgreSQL server in the work folder (initdb + pg_ctl), for `--postgres`."""

    def __init__(self, work):
        roots = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                       key=lambda p: int(p.split("/")[-3]) if p.split("/")[-3].isdigit() else 0)
        if not roots:
            raise RuntimeError("--postgres: no /usr/lib/postgresql/*/bin/initdb (Debian's postgresql package)")
        self.bin = os.path.dirname(roots[-1])
        self.folder = os.path.join(work, "postgres")
        os.makedirs(self.folder, mode=0o700)
        # initdb refuses root: the cluster then belongs to nobody.
        self.run_as = []
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.folder, nobody.pw_uid, nobody.pw_gid)
            os.chmod(work, 0o755)
            self.run_as = ["runuser", "-u", "nobody", "--"]
        self.port = free_port()
        self._run("initdb", "-D", f"{self.folder}/data", "-U", "pongd", "--auth=trust", "-E", "UTF8", "--no-locale",
                  "--no-sync")
        self._run("pg_ctl", "-D", f"{self.folder}/data", "-l", f"{self.folder}/server.log", "-w", "-t", "30",
                  "-o", f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1", "start")

    def _run(self, program, *arguments):
        subprocess.run(self.run_as + [os.path.join(self.bin, program), *arguments], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def database(self, name):
        """A new database; the `--database` URL of it."""
        self._run("createdb", "-h", self.folder, "-p", str(self.port), "-U", "pongd", name)
        return f"postgres://pongd@127.0.0.1:{self.port}/{name}?sslmode=disable"

    def count(self, database, table):
        """Rows of `table` in `database` (read with psql, so what pongd stored is seen from outside it)."""
        out = subprocess.run(self.run_as + [os.path.join(self.bin, "psql"), "-h", self.folder, "-p", str(self.port),
                                            "-U", "pongd", "-d", database, "-Atc", f"SELECT count(*) FROM {table}"],
                             check=True, capture_output=True, text=True)
        return int(out.stdout.strip())

    def stop(self):
        subprocess.run(self.run_as + [os.path.join(self.bin, "pg_ctl"), "-D", f"{self.folder}/data", "-m",
                                      "immediate", "stop"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# ----------------------------------------------------------------------------------------------------------- Journey

_battery = [20]


def next_battery():
    """A battery level other than the last one sent, so the phone's readiness changes and is sent."""
    _battery[0] = 21 + (_battery[0] - 20) % 78
    return _battery[0]


def guest(port, name=None):
    body = expect(call(port, "POST", "/auth/guest", {}), 201, "guest")
    if name:
        expect(call(port, "POST", "/users/profile", {"displayName": name}, body["token"]), 200, "profile")
    return body["userId"], body["token"]


def host_session(port):
    user, token = guest(port, "Host")
    body = expect(call(port, "POST", "/sessions", {"mode": "rally", "pointsToWin": 11}, token), 201, "create")
    return {"code": body["code"], "hostToken": body["hostToken"], "token": token, "user": user}


class Player:
    """A guest with a seat, and its socket."""

    def __init__(self, port, session, name="Ana", join=True):
        self.code, self.host_token = session["code"], session["hostToken"]
        self.user, self.token = guest(port, name)
        self.player_id = self.resume_token = self.ws = None
        if join:
            self.joined(expect(self.join(port), 200, "join"))

    def join(self, port):
        return call(port, "POST", f"/sessions/{self.code}/join", token=self.token)

    def joined(self, body):
        self.player_id, self.resume_token = body["playerId"], body["resumeToken"]

    @property
    def path(self):
        return f"/sessions/{self.code}/player/{self.user}?token={self.token}"

    def hello(self, port, resume=False):
        """Opens a socket and says hello; returns the welcome (after it, the readiness that follows is read)."""
        self.ws = WebSocket(port, self.path)
        self.ws.send({"type": "hello", "resumeToken": self.resume_token if resume else None})
        welcome = self.ws.message("welcome")
        self.ws.message("readiness")
        return welcome

    def permissions(self):
        self.ws.send({"type": "permissions", "camera": "granted", "microphone": "denied"})
        return self.ws.message("readiness")

    def stream_config(self):
        """`streamConfig` is shown nowhere: the readiness answering the `battery` sent after it is its fence."""
        self.ws.send({"type": "streamConfig", "quality": "720p", "fps": 30})
        self.ws.send({"type": "battery", "level": next_battery(), "charging": False})
        return self.ws.message("readiness")

    def start_video(self, port):
        body = {"sessionCode": self.code, "video": {"codec": "vp8", "quality": "720p", "fps": 30}, "audio": None}
        return call(port, "POST", "/streams/start", body, self.token)

    def video_live(self):
        self.ws.video_every = 0.5
        self.ws.send_video()
        self.ws.wait(lambda m: m.get("type") == "readiness" and any(
            c["id"] == "camera" and c["status"] == "ok" for c in m["checks"]), what="camera ok")

    def connection_test(self):
        """Runs the test as a phone does: pongs at once, 2 s of 8 KiB filler frames; returns `connectionTest`."""
        ws = self.ws
        ws.send({"type": "connectionTest.start"})
        filler = b"\x00" * 8192
        upload_until, seq, next_send = None, 0, 0.0
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            now = time.monotonic()
            if upload_until is not None and now < upload_until and now >= next_send:
                seq += 1
                ws.send_frame(2, media_frame(3, 0, seq, filler))
                next_send = now + 0.002
            event = ws.event(0.002 if upload_until is not None and now < upload_until else 0.1)
            if event is None:
                continue
            kind, m = event
            if kind == "close":
                raise RuntimeError(f"socket closed ({m}) during the connection test")
            if m.get("type") == "probe.ping":
                ws.send({"type": "probe.pong", "id": m["id"], "t": m["t"]})
            elif m.get("type") == "probe.upload":
                upload_until = time.monotonic() + float(m["seconds"])
            elif m.get("type") == "connectionTest":
                if "failure" in m:
                    raise RuntimeError(f"connection test failed: {m}")
                return m
            elif m.get("type") == "error":
                raise RuntimeError(f"during the connection test: {m}")
        raise RuntimeError("no connectionTest within 15 s")

    def to_ready_but_one(self, port):
        """hello → permissions → streams/start (video) → video live → connection test: one `ready` away."""
        self.hello(port)
        self.permissions()
        expect(self.start_video(port), 200, "streams/start")
        self.video_live()
        self.connection_test()

    def ready(self):
        self.ws.send({"type": "ready"})
        _, lobby = self.ws.wait(lambda m: m.get("type") in ("lobby", "error") and (
            m["type"] == "error" or any(p["playerId"] == self.player_id and p["ready"] for p in m["players"])),
            what="the lobby showing ready")
        if lobby.get("type") != "lobby":
            raise RuntimeError(f"ready: {lobby}")


# ------------------------------------------------------------------------------------------------------------ Checks

def lobby(port, code, host_token=None):
    """`GET /sessions/{code}`: the full lobby with the host's token (without one, a stranger's summary)."""
    return call(port, "GET", f"/sessions/{code}", token=host_token)


def seat_in_lobby(port, player):
    status, body = lobby(port, player.code, player.host_token)
    if status != 200:
        raise Lost(f"the session {player.code} is gone: HTTP {status} {body}")
    return next((p for p in body["players"] if p["playerId"] == player.player_id), None)


def resume(port, player):
    """After the restart: the seat resumes with its token (welcome with the same playerId), else Lost."""
    ws = WebSocket(port, player.path)
    player.ws = ws
    try:
        ws.send({"type": "hello", "resumeToken": player.resume_token})
    except OSError:
        pass
    kind, m = ws.wait(lambda m: m.get("type") in ("welcome", "error"), what="welcome")
    if kind == "close" or m["type"] != "welcome":
        raise Lost(f"the seat did not resume: {m}")
    if m["playerId"] != player.player_id:
        raise Lost(f"resumed as {m['playerId']}, not {player.player_id}")
    ws.message("readiness")


def refused(port, player, *answers):
    """The socket of a seat that must be gone: one of `answers` ((close code, error code)), never a welcome (else
    Resurrected)."""
    ws = WebSocket(port, player.path)
    try:
        try:
            ws.send({"type": "hello", "resumeToken": player.resume_token})
        except OSError:
            pass
        kind, m = ws.wait(lambda m: m.get("type") in ("welcome", "error"), what="error or welcome")
        if kind == "text" and m["type"] == "welcome":
            raise Resurrected(f"the old resume token resumed the seat: {m.get('playerId')}")
        error = None
        if kind == "text":
            error = m.get("code")
            kind, m = ws.wait(lambda m: m.get("type") == "welcome", what="the close")
            if kind == "text":
                raise Resurrected(f"welcome after the error: {m}")
        if not any(m == close and error in (None, code) for close, code in answers):
            raise RuntimeError(f"expected one of {answers}, got error {error} and close {m}")
    finally:
        ws.close()


def in_order(player, message, step):
    """Sends `message` then a `battery`: an `out_of_order` before the battery's readiness means the journey lost
    `step` (the message needs it)."""
    ws = player.ws
    ws.send(message)
    ws.send({"type": "battery", "level": next_battery(), "charging": False})
    _, m = ws.wait(lambda m: m.get("type") in ("readiness", "error"), what="readiness")
    if m.get("type") == "error":
        if m.get("code") == "out_of_order":
            raise Lost(f"the journey lost its {step} step: {m}")
        raise RuntimeError(f"{message['type']}: {m}")


# ------------------------------------------------------------------------------------------------------------- Kinds
#
# Each kind is a function (server) -> (check, recheck): it makes the change and kills the server the instant the
# acknowledgment arrives; `check(port)` runs on the restarted server, `recheck(port)` (HTTP only, or None) once more
# after all rounds of the kind.

def kind_guest(srv):
    body = expect(call(srv.port, "POST", "/auth/guest", {}), 201, "guest")
    killed = srv.kill()

    def check(port):
        status, me = call(port, "GET", "/users/me", token=body["token"])
        if status != 200 or me.get("userId") != body["userId"] or me.get("guest") is not True:
            raise Lost(f"GET /users/me: {status} {me}")
    return killed, check, check


def kind_signup(srv):
    email = f"k9-{os.urandom(6).hex()}@example.com"
    body = expect(call(srv.port, "POST", "/auth/signup", {"name": "Kim", "email": email,
                                                          "password": "kill nine durability", "acceptTerms": True}),
                  201, "signup")
    killed = srv.kill()

    def check(port):
        status, me = call(port, "GET", "/users/me", token=body["token"])
        if status != 200 or me.get("userId") != body["userId"] or me.get("guest") is not False:
            raise Lost(f"GET /users/me: {status} {me}")
    return killed, check, check


def kind_profile(srv):
    session = host_session(srv.port)
    player = Player(srv.port, session, name=None)   # no name yet: the journey waits at `joined`
    player.hello(srv.port)
    name = "N" + os.urandom(4).hex()
    expect(call(srv.port, "POST", "/users/profile", {"displayName": name}, player.token), 200, "profile")
    killed = srv.kill()

    def recheck(port):
        status, me = call(port, "GET", "/users/me", token=player.token)
        if status != 200 or me.get("displayName") != name:
            raise Lost(f"GET /users/me: {status} {me}")

    def check(port):
        recheck(port)
        seat = seat_in_lobby(port, player)
        if seat is None or seat["name"] != name:
            raise Lost(f"the lobby shows {seat}")
        resume(port, player)
        in_order(player, {"type": "permissions", "camera": "granted", "microphone": "denied"}, "profile")
    return killed, check, recheck


def kind_create(srv):
    _, token = guest(srv.port, "Host")
    body = expect(call(srv.port, "POST", "/sessions", {"mode": "fullGame", "pointsToWin": 21}, token), 201, "create")
    killed = srv.kill()
    code = body["code"]

    def check(port):
        status, snapshot = lobby(port, code, body["hostToken"])
        if status != 200 or snapshot["state"] != "waiting" or snapshot["game"]["pointsToWin"] != 21:
            raise Lost(f"GET /sessions/{code}: {status} {snapshot}")
        status, me = call(port, "GET", "/users/me", token=body["hostToken"])
        if status != 200:
            raise Lost(f"the host token: {status} {me}")
    return killed, check, check


def kind_join(srv):
    session = host_session(srv.port)
    player = Player(srv.port, session, "Jo", join=False)
    body = expect(player.join(srv.port), 200, "join")
    killed = srv.kill()
    player.joined(body)

    def recheck(port):
        if seat_in_lobby(port, player) is None:
            raise Lost("the seat is not in the lobby")

    def check(port):
        recheck(port)
        resume(port, player)
    return killed, check, None


def kind_permissions(srv):
    session = host_session(srv.port)
    player = Player(srv.port, session)
    player.hello(srv.port)
    player.permissions()
    killed = srv.kill()

    def check(port):
        resume(port, player)
        in_order(player, {"type": "streamConfig", "quality": "720p", "fps": 30}, "permissions")
    return killed, check, None


def kind_streamconfig(srv):
    session = host_session(srv.port)
    player = Player(srv.port, session)
    player.hello(srv.port)
    player.permissions()
    player.stream_config()
    killed = srv.kill()

    def check(port):
        resume(port, player)
        in_order(player, {"type": "mute", "video": False, "audio": True}, "streamConfig")
    return killed, check, None


def kind_streams(srv):
    session = host_session(srv.port)
    player = Player(srv.port, session)
    player.hello(srv.port)
    player.permissions()
    expect(player.start_video(srv.port), 200, "streams/start")
    killed = srv.kill()

    def check(port):
        seat = seat_in_lobby(port, player)
        if seat is None or seat["stream"]["video"] != "starting":
            raise Lost(f"the started video track is not back as starting: {seat}")
        resume(port, player)
        in_order(player, {"type": "mute", "video": False, "audio": True}, "streams/start")
    return killed, check, None


def tested_check(player):
    def check(port):
        seat = seat_in_lobby(port, player)
        if seat is None or seat["grade"] is None:
            raise Lost(f"the connection test's grade is gone: {seat}")
        resume(port, player)
        in_order(player, {"type": "unready"}, "tested")
    return check


def kind_test(srv):
    session = host_session(srv.port)
    player = Player(srv.port, session)
    player.hello(srv.port)
    player.permissions()
    player.stream_config()
    player.connection_test()
    killed = srv.kill()
    return killed, tested_check(player), None


def kind_ready(srv):
    """`ready` is not kept across a restart by design (PROTOCOL.md: a ready player is back at the tested step);
    what its acknowledgment must not lose is everything before it."""
    session = host_session(srv.port)
    player = Player(srv.port, session)
    player.to_ready_but_one(srv.port)
    player.ready()
    killed = srv.kill()
    return killed, tested_check(player), None


def kind_start(srv):
    session = host_session(srv.port)
    players = [Player(srv.port, session, name) for name in ("Ana", "Bo")]
    failures = []

    def prepare(player):
        try:
            player.to_ready_but_one(srv.port)
            player.ready()
        except Exception as error:  # reported below
            failures.append(error)
    threads = [threading.Thread(target=prepare, args=(p,)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise failures[0]
    expect(call(srv.port, "POST", f"/sessions/{session['code']}/start", token=session["hostToken"]), 200, "start")
    killed = srv.kill()

    def check(port):
        status, snapshot = lobby(port, session["code"], session["hostToken"])
        if status != 200 or snapshot["state"] != "playing":
            raise Lost(f"GET /sessions/{session['code']}: {status} {snapshot and snapshot.get('state')}")
    return killed, check, check


def kind_end(srv):
    session = host_session(srv.port)
    player = Player(srv.port, session)
    player.hello(srv.port)
    expect(call(srv.port, "POST", f"/sessions/{session['code']}/end", token=session["hostToken"]), 200, "end")
    killed = srv.kill()

    def recheck(port):
        status, snapshot = lobby(port, session["code"])
        if status != 404:
            raise Resurrected(f"the ended session answers {status} {snapshot and snapshot.get('state')}")

    def check(port):
        recheck(port)
        # The session is checked first; a guest deleted with the ended session has an invalid token too.
        refused(port, player, (4000, "session_not_found"), (4001, "invalid_token"))
    return killed, check, recheck


def kind_leave(srv):
    session = host_session(srv.port)
    player = Player(srv.port, session)
    player.hello(srv.port)
    player.ws.send({"type": "leave"})
    kind, code = player.ws.wait(lambda m: False, what="close 4002")
    if code != 4002:
        raise RuntimeError(f"leave closed with {code}")
    killed = srv.kill()

    def recheck(port):
        if seat_in_lobby(port, player) is not None:
            raise Resurrected("the left seat is back in the lobby")

    def check(port):
        recheck(port)
        refused(port, player, (4003, "not_joined"))
    return killed, check, recheck


def kind_freed(srv):
    session = host_session(srv.port)
    dashboard = WebSocket(srv.port, f"/sessions/{session['code']}/dashboard?token={session['hostToken']}")
    dashboard.message("welcome")
    player = Player(srv.port, session)
    player.hello(srv.port)
    kind, m = dashboard.wait(lambda m: m.get("type") == "lobby" and any(
        p["playerId"] == player.player_id and p["connection"] == "connected" for p in m["players"]),
        what="the lobby with the seat connected")
    player.ws.close()   # dropped without a close frame: the seat waits out the grace period, then is freed
    if kind == "text":
        kind, m = dashboard.wait(lambda m: m.get("type") == "lobby" and all(
            p["playerId"] != player.player_id for p in m["players"]), timeout=30, what="the lobby without the seat")
    if kind == "close":
        raise RuntimeError(f"the dashboard closed: {m}")
    killed = srv.kill()

    def recheck(port):
        if seat_in_lobby(port, player) is not None:
            raise Resurrected("the freed seat is back in the lobby")

    def check(port):
        recheck(port)
        refused(port, player, (4003, "not_joined"))
    return killed, check, recheck


ACTIVITY_IDLE_MINUTES = 0.1   # 6 s
ACTIVITY_USE_SECONDS = 7.5


def kind_activity(srv):
    session = host_session(srv.port)
    player = Player(srv.port, session)
    player.hello(srv.port)
    until = time.monotonic() + ACTIVITY_USE_SECONDS
    while True:
        player.ws.send({"type": "battery", "level": next_battery(), "charging": False})
        player.ws.message("readiness")
        if time.monotonic() >= until:
            break
        time.sleep(0.3)
    killed = srv.kill()

    def check(port):
        status, snapshot = lobby(port, session["code"], session["hostToken"])
        if status != 200:
            raise Lost(f"a session in use for {ACTIVITY_USE_SECONDS} s (idle timeout "
                       f"{ACTIVITY_IDLE_MINUTES * 60:g} s) was ended at start-up: {status}")
    return killed, check, None


KINDS = {name: globals()["kind_" + name] for name in ALL_KINDS}
EXTRA = {"freed": ["--grace-period", "1.5"], "activity": ["--idle-timeout", str(ACTIVITY_IDLE_MINUTES)]}


# --------------------------------------------------------------------------------------------------------------- Run

def percentile(values, p):
    if not values:
        return None
    ordered = sorted(values)
    k = (len(ordered) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def run_kind(binary, name, rounds, work, fresh, verbose, postgres=None):
    logs = os.path.join(work, "logs")
    os.makedirs(logs, exist_ok=True)
    result = {"rounds": 0, "lost": 0, "resurrected": 0, "errors": 0, "failures": []}
    restarts = []
    rechecks = []
    folder = os.path.join(work, name)
    server = None
    started = time.monotonic()

    def fail(bucket, round_, error):
        result[bucket] += 1
        if len(result["failures"]) < 10:
            result["failures"].append(f"round {round_}: {bucket}: {error}")
        if verbose:
            print(f"  {name} round {round_}: {bucket}: {error}", file=sys.stderr)

    extra = EXTRA.get(name, [])
    if postgres:
        extra = extra + ["--database", postgres.database(name)]
    for round_ in range(1, rounds + 1):
        if fresh:
            folder = os.path.join(work, f"{name}-{round_}")
            if postgres:
                extra = EXTRA.get(name, []) + ["--database", postgres.database(f"{name}_{round_}")]
        server = Server(binary, folder, logs, extra)
        try:
            server.start()
            killed, check, recheck = KINDS[name](server)
            server.restart()
            restarts.append(time.monotonic() - killed)
            check(server.port)
            if recheck:
                rechecks.append((round_, recheck))
        except Lost as error:
            fail("lost", round_, error)
        except Resurrected as error:
            fail("resurrected", round_, error)
        except Exception as error:  # the harness could not run the round: counted, never silent
            fail("errors", round_, f"{type(error).__name__}: {error}")
        finally:
            server.stop()
        result["rounds"] += 1
    if rechecks and not fresh:
        server = Server(binary, folder, logs, extra)
        try:
            server.start()
            for round_, recheck in rechecks:
                try:
                    recheck(server.port)
                except Lost as error:
                    fail("lost", round_, f"after all rounds: {error}")
                except Resurrected as error:
                    fail("resurrected", round_, f"after all rounds: {error}")
                except Exception as error:
                    fail("errors", round_, f"after all rounds: {type(error).__name__}: {error}")
        except Exception as error:
            fail("errors", "final", f"{type(error).__name__}: {error}")
        finally:
            server.stop()
        result["rechecked"] = len(rechecks)
    result["killToRestartMs"] = {
        "median": round(statistics.median(restarts) * 1000, 1) if restarts else None,
        "p90": round(percentile(restarts, 0.9) * 1000, 1) if restarts else None,
        "max": round(max(restarts) * 1000, 1) if restarts else None,
    }
    result["seconds"] = round(time.monotonic() - started, 1)
    if not result["failures"]:
        del result["failures"]
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the pongd executable")
    parser.add_argument("--rounds", type=int, default=50, help="rounds per kind (default 50)")
    parser.add_argument("--rounds-of", action="append", default=[], metavar="KIND=N",
                        help="another number of rounds for one kind (repeatable), e.g. activity=2")
    parser.add_argument("--kinds", default=",".join(ALL_KINDS), help="comma-separated, of: " + ",".join(ALL_KINDS))
    parser.add_argument("--fresh-folder", action="store_true",
                        help="a new data folder for each round (default: one folder per kind, reused)")
    parser.add_argument("--work", help="folder for data folders and server logs (default: a temporary one, removed)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    parser.add_argument("--verbose", action="store_true", help="each failure on stderr as it happens")
    parser.add_argument("--postgres", action="store_true",
                        help="store in a throwaway PostgreSQL server started here (pongd serve --database)")
    args = parser.parse_args()
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        parser.error(f"unknown kinds {unknown}; known: {','.join(ALL_KINDS)}")
    rounds = {k: args.rounds for k in kinds}
    for item in args.rounds_of:
        kind, _, n = item.partition("=")
        if kind not in KINDS or not n.isdigit():
            parser.error(f"--rounds-of {item}: expected KIND=N")
        rounds[kind] = int(n)
    binary = os.path.abspath(args.binary)
    work = args.work or tempfile.mkdtemp(prefix="kill9-")
    os.makedirs(work, exist_ok=True)
    started = time.monotonic()
    summary = {"binary": binary, "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "roundsPerKind": args.rounds,
               "dataFolder": "fresh each round" if args.fresh_folder else "one per kind, reused by its rounds",
               "store": "postgres" if args.postgres else "sqlite", "kinds": {}}
    postgres = Postgres(work) if args.postgres else None
    try:
        for name in kinds:
            summary["kinds"][name] = run_kind(binary, name, rounds[name], work, args.fresh_folder, args.verbose,
                                              postgres)
            if args.verbose:
                print(f"{name}: {json.dumps(summary['kinds'][name])}", file=sys.stderr)
        if postgres and not args.fresh_folder:
            summary["postgresRows"] = {name: {table: postgres.count(name, table) for table in ("session", "membership")}
                                       for name in kinds}
    finally:
        if postgres:
            postgres.stop()
    totals = {key: sum(k[key] for k in summary["kinds"].values()) for key in ("rounds", "lost", "resurrected", "errors")}
    totals["seconds"] = round(time.monotonic() - started, 1)
    summary["totals"] = totals
    if args.keep or args.work or totals["lost"] or totals["resurrected"] or totals["errors"]:
        summary["work"] = work
    else:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(summary, indent=2))
    return 0 if totals["lost"] == totals["resurrected"] == totals["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
