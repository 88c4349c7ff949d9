#!/usr/bin/env python3
"""Hostile clients against a pongd binary: the attacks of issue 12, each measured (docs/SECURITY.md).

Usage: hostile_clients.py PONGD_BINARY ATTACK [--seconds N]
Attacks: pingflood, broadcastflood, slowloris, idle, hello, body, fdlimit, rfc, guestflood, sessionflood, photoflood,
profileat20k, bounceflood. Prints one JSON line of figures.
Starts its own `pongd serve` on a free port with a fresh data folder and stops it afterwards. Standard library only, but for bounceflood
(numpy, opusenc from opus-tools, csmash-data's table.wav).
"""
import http.client
import json
import os
import resource
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import zlib


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, binary, extra=(), nofile=None):
        self.port = free_port()
        self.data = tempfile.mkdtemp(prefix="pongd-hostile-")
        args = [binary, "serve", "--port", str(self.port), "--data-dir", self.data, "--log-level", "error",
                "--join-burst", "1000", "--joins-per-minute", "100000", *extra]

        def limit():
            if nofile:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
        self.process = subprocess.Popen(args, preexec_fn=limit, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("pongd did not start")

    def rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def call(self, method, path, token=None, body=None):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method,
                                         data=(body or "").encode() if method == "POST" else None)
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read() or b"{}")

    def session(self):
        host = self.call("POST", "/auth/guest")
        created = self.call("POST", "/sessions", host["token"], '{"mode":"rally","pointsToWin":11}')
        return created["code"], created["hostToken"]

    def player(self, code):
        guest = self.call("POST", "/auth/guest")
        self.call("POST", "/users/profile", guest["token"], '{"displayName":"Eve"}')
        self.call("POST", f"/sessions/{code}/join", guest["token"])
        return f"/sessions/{code}/player/{guest['userId']}?token={guest['token']}"

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def frame(opcode, payload=b"", masked=True, fin=True, rsv=0):
    head = bytes([(0x80 if fin else 0) | rsv << 4 | opcode])
    bit = 0x80 if masked else 0
    n = len(payload)
    if n < 126:
        head += bytes([bit | n])
    elif n < 65536:
        head += bytes([bit | 126]) + struct.pack("!H", n)
    else:
        head += bytes([bit | 127]) + struct.pack("!Q", n)
    if not masked:
        return head + payload
    key = b"\x37\xfa\x21\x3d"
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def websocket(port, path, rcvbuf=None, version="13", key="dGhlIHNhbXBsZSBub25jZQ==", method="GET"):
    s = socket.socket()
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.connect(("127.0.0.1", port))
    request = f"{method} {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    if version:
        request += f"Sec-WebSocket-Version: {version}\r\n"
    if key:
        request += f"Sec-WebSocket-Key: {key}\r\n"
    s.sendall((request + "\r\n").encode())
    s.settimeout(5)
    head = b""
    try:
        while b"\r\n\r\n" not in head:
            chunk = s.recv(1)
            if not chunk:
                break
            head += chunk
    except OSError:
        pass
    return s, head.decode(errors="replace").split("\r\n")[0]


def close_code(s, timeout=5.0):
    """The close code the server sends (skipping other frames); None if the socket ends without one."""
    s.settimeout(timeout)
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
            while len(data) >= 2:
                n, off = data[1] & 0x7F, 2
                if n == 126:
                    n, off = struct.unpack("!H", data[2:4])[0], 4
                elif n == 127:
                    n, off = struct.unpack("!Q", data[2:10])[0], 10
                if len(data) < off + n:
                    break
                opcode, payload, data = data[0] & 0x0F, data[off:off + n], data[off + n:]
                if opcode == 8:
                    return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
    except OSError:
        pass
    return None


def drained_to_close(s, timeout=5.0):
    """Reads everything the server sent; True when it ends in a close (EOF or reset) within `timeout`."""
    s.setblocking(True)
    s.settimeout(timeout)
    try:
        while s.recv(65536):
            pass
        return True
    except socket.timeout:
        return False
    except OSError:
        return True


def still_open(sockets):
    alive = 0
    for s in sockets:
        s.setblocking(False)
        try:
            alive += 1 if s.recv(1) else 0
        except BlockingIOError:
            alive += 1
        except OSError:
            pass
    return alive


def pingflood(server, seconds):
    code, host_token = server.session()
    s, _ = websocket(server.port, f"/sessions/{code}/dashboard?token={host_token}", rcvbuf=4096)
    before = server.rss_mb()
    batch = frame(9, b"p" * 125) * 1000
    sent, start, peak = 0, time.time(), before
    s.settimeout(1)
    while time.time() - start < seconds:
        try:
            s.sendall(batch)
        except OSError:
            break
        sent += 1000
        peak = max(peak, server.rss_mb())
    time.sleep(1)
    return {"pings": sent, "rss_before_mb": round(before, 1), "rss_peak_mb": round(max(peak, server.rss_mb()), 1)}


def broadcastflood(server, seconds):
    """A player that never reads while 8 others toggle `mute`-free lobby changes (battery is not in the lobby, so a
    second player's hello/leave cycle drives the broadcasts)."""
    code, _ = server.session()
    slow, _ = websocket(server.port, server.player(code), rcvbuf=4096)
    slow.sendall(frame(1, b'{"type":"hello"}'))
    before, start, cycles = server.rss_mb(), time.time(), 0
    paths = [server.player(code) for _ in range(6)]
    peak = before
    while time.time() - start < seconds:
        for path in paths:
            s, _ = websocket(server.port, path)
            s.sendall(frame(1, b'{"type":"hello"}'))
            s.close()
            cycles += 1
        peak = max(peak, server.rss_mb())
    return {"socket_cycles": cycles, "rss_before_mb": round(before, 1), "rss_peak_mb": round(peak, 1),
            "slow_socket_closed": drained_to_close(slow)}


def opus_packets(seconds=20.0):
    """Opus packets (20 ms, 24 kb/s) of csmash-data's real table bounce every 80 ms, via sox-free numpy + opusenc."""
    import numpy, wave
    table = "/usr/share/games/csmash/wav/table.wav"
    with wave.open(table) as w:
        rate, channels = w.getframerate(), w.getnchannels()
        hit = numpy.frombuffer(w.readframes(w.getnframes()), dtype=numpy.int16).reshape(-1, channels)[:, 0]
    hit = hit[: int(0.07 * rate)].astype(numpy.float64)
    out = numpy.zeros(int(seconds * rate))
    for start in range(0, len(out) - len(hit), int(0.08 * rate)):
        out[start:start + len(hit)] += hit
    folder = tempfile.mkdtemp(prefix="pongd-bounceflood-")
    wav_path, opus_path = os.path.join(folder, "hits.wav"), os.path.join(folder, "hits.opus")
    with wave.open(wav_path, "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(rate)
        w.writeframes(numpy.clip(out, -32768, 32767).astype(numpy.int16).tobytes())
    subprocess.run(["opusenc", "--quiet", "--bitrate", "24", "--framesize", "20", wav_path, opus_path], check=True)
    data, packets, pending, offset = open(opus_path, "rb").read(), [], b"", 0
    while offset + 27 <= len(data) and data[offset:offset + 4] == b"OggS":
        segments = data[offset + 26]
        table_ = data[offset + 27: offset + 27 + segments]
        body = offset + 27 + segments
        for size in table_:
            pending += data[body: body + size]
            body += size
            if size < 255:
                packets.append(pending)
                pending = b""
        offset = body
    return [p for p in packets if not p.startswith(b"OpusHead") and not p.startswith(b"OpusTags")]


def bounceflood(server, seconds):
    """A player that never reads while another streams real table bounces as fast as its frame limit allows (every
    bounce goes to every player socket that said hello): the non-reader must be closed and the server's memory stay
    flat."""
    packets = opus_packets()
    code, _ = server.session()
    slow, _ = websocket(server.port, server.player(code), rcvbuf=4096)
    slow.sendall(frame(1, b'{"type":"hello"}'))
    path = server.player(code)
    token = path.split("token=")[1]
    loud, _ = websocket(server.port, path)
    loud.sendall(frame(1, b'{"type":"hello"}'))
    loud.sendall(frame(1, b'{"type":"permissions","camera":"granted","microphone":"granted"}'))
    time.sleep(0.3)
    server.call("POST", "/streams/start", token, json.dumps(
        {"sessionCode": code, "video": None, "audio": {"codec": "opus", "sampleRate": 48000, "channels": 1}}))
    counts = {"bounces": 0}

    def drain():
        loud.settimeout(1)
        buffer = b""
        while True:
            try:
                chunk = loud.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                return
            if not chunk:
                return
            counts["bounces"] += chunk.count(b'"type":"bounce"')
    import threading
    threading.Thread(target=drain, daemon=True).start()
    before, start, peak, sequence = server.rss_mb(), time.time(), server.rss_mb(), 0
    while time.time() - start < seconds:
        batch = b""
        for _ in range(100):  # 100 frames = 2 s of audio per 0.1 s: 1000 frames a second, under the 2000 limit
            packet = packets[sequence % len(packets)]
            header = bytes([1, 1]) + sequence.to_bytes(4, "big") + (sequence * 20000).to_bytes(8, "big")
            batch += frame(2, header + packet)
            sequence += 1
        try:
            loud.sendall(batch)
        except OSError:
            break
        time.sleep(0.1)
        peak = max(peak, server.rss_mb())
    return {"audio_frames": sequence, "bounces_heard_by_the_streamer": counts["bounces"],
            "rss_before_mb": round(before, 1), "rss_peak_mb": round(peak, 1), "rss_after_mb": round(server.rss_mb(), 1),
            "slow_socket_closed": drained_to_close(slow)}


def slowloris(server, seconds, count=200):
    sockets = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(count)]
    for s in sockets:
        s.sendall(b"GET /healthz HTTP/1.1\r\n")
    start = time.time()
    while time.time() - start < seconds:
        for s in sockets:
            try:
                s.send(b"X")
            except OSError:
                pass
        time.sleep(5)
    return {"connections": count, "seconds": seconds, "still_open": still_open(sockets)}


def idle(server, seconds, count=3000):
    sockets = []
    for _ in range(count):
        try:
            sockets.append(socket.create_connection(("127.0.0.1", server.port), timeout=2))
        except OSError:
            break
    time.sleep(seconds)
    return {"connections": len(sockets), "seconds": seconds, "still_open": still_open(sockets)}


def hello(server, seconds):
    code, _ = server.session()
    s, status = websocket(server.port, server.player(code))
    start = time.time()
    got = close_code(s, timeout=seconds)
    return {"upgrade": status, "close_code": got, "closed_after_s": round(time.time() - start, 1) if got else None}


def body(server, seconds):
    s = socket.create_connection(("127.0.0.1", server.port))
    s.sendall(b"POST /auth/guest HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = b"%x\r\n" % 65536 + b"a" * 65536 + b"\r\n"
    sent, answer, start, pending = 0, b"", time.time(), b""
    s.setblocking(False)
    while time.time() - start < seconds and not answer:
        pending = pending or chunk
        try:
            n = s.send(pending)
            sent, pending = sent + n, pending[n:]
        except BlockingIOError:
            time.sleep(0.001)
        except OSError:
            break
        try:
            answer = s.recv(4096)
        except BlockingIOError:
            pass
        except OSError:
            break
    status = answer.split(b"\r\n")[0].decode() if answer else None
    return {"status": status, "after_s": round(time.time() - start, 2), "bytes_sent_mb": round(sent / 2**20, 1)}


def fdlimit(server, seconds, count=400):
    sockets = []
    for _ in range(count):
        try:
            sockets.append(socket.create_connection(("127.0.0.1", server.port), timeout=2))
        except OSError:
            break
    time.sleep(1)
    cpu0 = server.cpu_seconds()
    time.sleep(seconds)
    cpu = server.cpu_seconds() - cpu0
    served = None
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/healthz", timeout=2) as r:
            served = r.status
    except Exception as error:
        served = type(error).__name__
    return {"idle_connections": len(sockets), "server_cpu_cores": round(cpu / seconds, 2),
            "new_client_healthz": served}


def rfc(server, seconds):
    code, host_token = server.session()
    path = f"/sessions/{code}/dashboard?token={host_token}"
    cases = {
        "unmasked text": frame(1, b"{}", masked=False),
        "RSV1 set": frame(1, b"{}", rsv=4),
        "reserved opcode 3": frame(3),
        "close code 999": frame(8, struct.pack("!H", 999)),
        "close 4000": frame(8, struct.pack("!H", 4000)),
        "invalid UTF-8 text": frame(1, b"\xce\xba\xe1\xbd\xb9\xed\xa0\x80"),
        "text of 300 KB in fragments": frame(1, b" " * 200000, fin=False) + frame(0, b" " * 100000),
    }
    results = {}
    for name, data in cases.items():
        s, _ = websocket(server.port, path)
        s.sendall(data)
        results[name] = close_code(s)
    for name, kwargs in {"POST upgrade": {"method": "POST"}, "version 8": {"version": "8"},
                         "no key": {"key": None}}.items():
        s, status = websocket(server.port, path, **kwargs)
        results[name] = status or "no answer"
    return results


class KeepAlive:
    """One keep-alive HTTP/1.1 connection: status and decoded body of each request."""

    def __init__(self, port):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method, path, token=None, body=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.connection.request(method, path, body=body if method == "POST" else None, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        try:
            return response.status, json.loads(data or b"{}")
        except ValueError:
            return response.status, {}


def counted(statuses):
    counts = {}
    for status in statuses:
        counts[str(status)] = counts.get(str(status), 0) + 1
    return counts


def guestflood(server, seconds):
    """`POST /auth/guest` as fast as one client can, from one address."""
    client, statuses, start = KeepAlive(server.port), [], time.time()
    while time.time() - start < seconds:
        statuses.append(client.call("POST", "/auth/guest", body="{}")[0])
    created = statuses.count(201)
    return {"requests": len(statuses), "statuses": counted(statuses), "guests_per_s": round(created / seconds, 1)}


def sessionflood(server, seconds):
    """`POST /sessions` as fast as one client can, with one guest's token."""
    client = KeepAlive(server.port)
    token = client.call("POST", "/auth/guest", body="{}")[1]["token"]
    statuses, start = [], time.time()
    while time.time() - start < seconds:
        statuses.append(client.call("POST", "/sessions", token, '{"mode":"rally","pointsToWin":11}')[0])
    created = statuses.count(201)
    return {"requests": len(statuses), "statuses": counted(statuses), "live_sessions_made": created,
            "sessions_per_s": round(created / seconds, 1)}


def noise_png(width, height):
    """An RGB PNG of random pixels (does not compress: about 3 bytes a pixel)."""
    raw = b"".join(b"\x00" + os.urandom(width * 3) for _ in range(height))

    def chunk(kind, data):
        return struct.pack("!I", len(data)) + kind + data + struct.pack("!I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack("!IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))


def photoflood(server, seconds):
    """Profile updates with a 1.2 MB photo (a real PNG), as fast as one client with one guest's token can."""
    import base64
    photo = noise_png(640, 640)
    body = json.dumps({"displayName": "Eve", "photo": base64.b64encode(photo).decode()})
    client = KeepAlive(server.port)
    token = client.call("POST", "/auth/guest", body="{}")[1]["token"]
    statuses, start = [], time.time()
    while time.time() - start < seconds:
        statuses.append(client.call("POST", "/users/profile", token, body)[0])
    stored = statuses.count(200)
    return {"photo_bytes": len(photo), "requests": len(statuses), "statuses": counted(statuses),
            "stored_mb_per_s": round(stored * len(photo) / seconds / 1e6, 2)}


def profileat20k(server, seconds, sessions=20000):
    """Profile updates of one player (seated in one session) with few live sessions, then with `sessions` live
    ones (made by 4 clients in parallel, one host each): updates per second and server CPU per update."""
    def updates(token):
        client, count, cpu0, start = KeepAlive(server.port), 0, server.cpu_seconds(), time.time()
        while time.time() - start < seconds:
            client.call("POST", "/users/profile", token, '{"displayName":"Eve %d"}' % (count % 2))
            count += 1
        cpu = server.cpu_seconds() - cpu0
        return {"updates_per_s": round(count / seconds, 1), "cpu_ms_per_update": round(cpu * 1000 / count, 2)}
    code, _ = server.session()
    player = server.player(code)
    token = player.split("token=")[1]
    few = updates(token)

    def make(share):
        client = KeepAlive(server.port)
        host = client.call("POST", "/auth/guest", body="{}")[1]["token"]
        for _ in range(share):
            client.call("POST", "/sessions", host, '{"mode":"rally","pointsToWin":11}')
    threads = [threading.Thread(target=make, args=(sessions // 4,)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"live_sessions": sessions + 1, "at_1_session": few, f"at_{sessions}_sessions": updates(token)}


def quota_flags(binary):
    """Flags that lift the quotas in the way of an attack's set-up, when the binary has them."""
    help_text = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True).stdout
    return ["--max-sessions-per-user", "10000", "--session-burst", "1000000"] if "--max-sessions-per-user" in help_text else []


def main():
    binary, attack = sys.argv[1], sys.argv[2]
    seconds = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 15
    extra, nofile = [], None
    if attack == "fdlimit":
        nofile = 256
        extra = [a for a in sys.argv[3:] if a.startswith("--max")]
        extra = [item for a in extra for item in a.split("=", 1)]
    if attack == "profileat20k":
        extra = quota_flags(binary)
    server = Server(binary, extra, nofile)
    try:
        result = globals()[attack](server, seconds)
    finally:
        server.stop()
    print(json.dumps({"attack": attack, **result}))


if __name__ == "__main__":
    main()
