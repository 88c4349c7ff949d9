#!/usr/bin/env python3
"""pongd's web client on two nodes in a real browser (issue 15; docs/WEB.md, docs/SCALING.md): headless Chromium
driven through the pages' data-test hooks, against two `pongd serve` nodes A and B on a throwaway PostgreSQL.

    web_nodes.py --pongd BINARY [--chromium /usr/bin/chromium] [--driver /usr/bin/chromedriver] [--lease 2]

1. Nodes A and B (`--database … --public-url http://127.0.0.1:PORT --lease-seconds LEASE`), each allowing the
   other's origin (`--allowed-origin`), so a page served by one may open its socket on the other.
2. A host creates a session through A's API: A owns it. The player page is loaded from B (`/join/{code}`) and goes
   through the journey to the lobby, ready. Its join went to B, was forwarded to A, and answered A's absolute
   `websocketURL`: the page's socket must be on A (its URL, and `pongd_connected_sockets` on A's metrics).
3. A is drained (SIGTERM): it hands the session to B and closes the page's socket with 4101 and B's socket URL as
   the reason. The page must follow it at once: welcomed on B with the same player id, the Connection Lost overlay
   gone and "Connected to session" shown, within a few seconds; B holds the socket; the lobby, asked of B with the
   host token, lists the player once, still ready; its audio frames go on arriving, on B; A exits 0.

Reuses cluster_failover.py's Node, kill9_durability.py's Postgres and web_journey.py's browser helpers. Prints
one JSON report on stdout; exits 1 when a check failed.
"""
import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "Benchmarks", "Scripts"))
import web_journey as wj  # noqa: E402
from cluster_failover import Node  # noqa: E402
from kill9_durability import Postgres, call, expect, free_port, host_session  # noqa: E402

check, report = wj.check, wj.report


def socket_url(driver):
    """The URL of the page's open session socket, or None."""
    return driver.execute_script("const s = window.pongPlayer.socket; return s && s.ws ? s.ws.url : null")


def journey_from_link(driver, base, code, name):
    """The player page from the host's link (`/join/{code}`, the code filled in) to the lobby, ready."""
    driver.get(f"{base}/join/{code}")
    wj.click(driver, "code-submit")
    wj.click(driver, "auth-guest")
    wj.hook(driver, "name-input").send_keys(name)
    wj.click(driver, "profile-submit")
    wj.click(driver, "permissions-allow")
    wj.click(driver, "stream-submit")
    wj.click(driver, "test-start")
    wj.wait_for(driver, lambda d: "Mbps" in d.find_element("id", "fig-upload").text, 10, "test result")
    wj.click(driver, "ready", timeout=15)
    wj.hook(driver, "lobby", timeout=10)


def seats(node, code, host_token):
    """The lobby's players as the host sees them through `node`."""
    return expect(call(node.port, "GET", f"/sessions/{code}", token=host_token), 200, "lobby")["players"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pongd", required=True)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--driver", default="/usr/bin/chromedriver")
    ap.add_argument("--lease", type=float, default=2.0)
    ap.add_argument("--work", help="keep the nodes' logs and PostgreSQL here")
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="pongd-webnodes-")
    os.makedirs(work, exist_ok=True)
    started = time.monotonic()
    pg, nodes, driver = None, [], None
    try:
        pg = Postgres(work)
        database = pg.database("webnodes")
        port_a, port_b = free_port(), free_port()
        a = Node(args.pongd, 0, database, args.lease, work, port=port_a,
                 extra=["--allowed-origin", f"http://127.0.0.1:{port_b}"])
        nodes.append(a)
        b = Node(args.pongd, 1, database, args.lease, work, port=port_b,
                 extra=["--allowed-origin", f"http://127.0.0.1:{port_a}"])
        nodes.append(b)
        report["timings"]["nodes_up_s"] = round(time.monotonic() - started, 2)

        session = host_session(a.port)  # created through A: A owns it
        code, host_token = session["code"], session["hostToken"]
        driver = wj.browser(argparse.Namespace(chromium=args.chromium, driver=args.driver))
        t0 = time.monotonic()
        journey_from_link(driver, b.url, code, "Ana")
        report["timings"]["journey_s"] = round(time.monotonic() - t0, 2)
        player_id = driver.execute_script("return window.pongPlayer.playerId")
        on_a = socket_url(driver) or ""
        report["before"] = {"page": driver.current_url, "socket": on_a.split("?")[0],
                            "sockets": {"A": a.gauge("pongd_connected_sockets"), "B": b.gauge("pongd_connected_sockets")}}
        check("join through B: the page's socket is on A (the owner's absolute websocketURL)",
              on_a.startswith(f"ws://127.0.0.1:{a.port}/sessions/{code}/player/"), on_a.split("?")[0])
        check("A holds the page's socket, B none (pongd_connected_sockets)",
              report["before"]["sockets"] == {"A": 1, "B": 0}, json.dumps(report["before"]["sockets"]))
        lobby = seats(b, code, host_token)
        check("lobby through B: the player, ready", [(p["playerId"], p["ready"]) for p in lobby] == [(player_id, True)],
              json.dumps(lobby))

        # Watch the socket's close and the Connection Lost overlay from inside the page.
        driver.execute_script("""
            window.moveWatch = {closes: [], overlay: []};
            window.pongPlayer.socket.ws.addEventListener('close', (e) =>
                window.moveWatch.closes.push({code: e.code, reason: e.reason, t: performance.now()}));
            const ov = document.getElementById('ov-lost');
            new MutationObserver(() => window.moveWatch.overlay.push({shown: !ov.hidden, t: performance.now()}))
                .observe(ov, {attributes: true, attributeFilter: ['hidden']});
            window.moveWatch.resumedBefore = (window.pongMarks || []).filter(m => m.name === 'socket:resumed').length;
            window.moveWatch.sigterm = performance.now();""")
        sigterm = time.monotonic()
        a.proc.send_signal(signal.SIGTERM)
        on_b = f"ws://127.0.0.1:{b.port}/sessions/{code}/player/"
        back = wj.wait_for(driver, lambda d: d.execute_script(
            "return (window.pongMarks || []).filter(m => m.name === 'socket:resumed').length > window.moveWatch.resumedBefore")
            and (socket_url(d) or "").startswith(on_b), 10, "")
        resumed_s = time.monotonic() - sigterm
        watch = driver.execute_script("return window.moveWatch")
        in_page = driver.execute_script(
            "const r = (window.pongMarks || []).filter(m => m.name === 'socket:resumed').pop();"
            "return r ? r.t - window.moveWatch.sigterm : null")
        report["move"] = {"closes": watch["closes"], "overlay": watch["overlay"], "socket": (socket_url(driver) or "").split("?")[0],
                          "sigterm_to_welcome_s": round(resumed_s, 2),
                          "sigterm_to_resumed_mark_ms": round(in_page, 1) if in_page is not None else None}
        close = watch["closes"][0] if watch["closes"] else {}
        check("drain: A closes the page's socket with 4101 and B's socket URL",
              close.get("code") == 4101 and close.get("reason", "").startswith(on_b), json.dumps(close))
        check("the page follows 4101 at once: welcomed on B within 5 s", back and resumed_s < 5,
              f"{resumed_s:.2f} s, socket {report['move']['socket']}")
        check("same seat: the page's player id is unchanged",
              driver.execute_script("return window.pongPlayer.playerId") == player_id, player_id)
        check("the page shows it is back: Connection Lost gone, 'Connected to session'",
              wj.wait_for(driver, lambda d: not wj.visible(d, '[data-test="error-overlay"][data-kind="connection-lost"]')
                          and d.find_element("id", "conn-text").text == "Connected to session"
                          and wj.visible(d, '[data-test="lobby"]'), 3, ""))
        a.proc.wait(timeout=20)
        report["move"]["a_exit"] = a.proc.returncode
        check("A drained and exited 0", a.proc.returncode == 0, str(a.proc.returncode))
        sockets_b = b.gauge("pongd_connected_sockets")
        check("B holds the page's socket (pongd_connected_sockets 1)", sockets_b == 1, str(sockets_b))
        audio = 'pongd_media_frames_total{kind="audio"}'
        frames = b.gauge(audio)
        more = wj.wait_for(driver, lambda d: b.gauge(audio) > frames + 10, 5, "")
        check("the page's audio goes on to B (pongd_media_frames_total on B grows)", more, f"{frames} -> {b.gauge(audio)}")
        ready_again = wj.wait_for(driver, lambda d: [(p["playerId"], p["ready"]) for p in seats(b, code, host_token)]
                                  == [(player_id, True)], 5, "")
        lobby = seats(b, code, host_token)
        check("lobby through B after the move: the player once, still ready", ready_again, json.dumps(lobby))
    except Exception as error:  # a hook that never came, a node that did not start: a failure with the console
        check("run", False, f"{type(error).__name__}: {error}")
        if driver:
            try:
                for entry in driver.get_log("browser")[-15:]:
                    print(f"  browser: {entry['message']}", file=sys.stderr)
            except Exception:
                pass
    finally:
        if driver:
            try:
                driver.quit()
            except Exception:
                pass
        for node in nodes:
            node.stop()
        if pg:
            pg.stop()
        report["timings"]["total_s"] = round(time.monotonic() - started, 1)
    report["work"] = work
    passed = sum(1 for c in report["checks"].values() if c["ok"])
    print(json.dumps(report, indent=1))
    print(f"{passed} passed, {len(report['checks']) - passed} failed", file=sys.stderr)
    if not wj.failures and not args.work:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if wj.failures else 0)


if __name__ == "__main__":
    main()
