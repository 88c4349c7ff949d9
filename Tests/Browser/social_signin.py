#!/usr/bin/env python3
"""Social sign-in from the player's page in a real browser (docs/WEB.md "Social sign-in"): headless Chromium, driven
by selenium, clicks a provider's button and comes back signed in, with no script of the provider on the page.

The test starts, all on the loopback interface:
  provider  a fake OpenID Connect provider (python's http.server): its RSA key (python3-cryptography) is written as a
            JWKS file for pongd; `GET /authorize` answers at once with a redirect to
            redirect_uri#id_token=...&state=..., an RS256 ID token it signs for the request's client_id and nonce
  pongd     `pongd serve --oidc-provider id=fake,issuer=<provider>,audience=pongd-web,jwks=<file>,authorize=<provider>/authorize`
Scenarios (one browser, one pongd):
  signin    code -> auth-social-fake -> the provider -> /auth/callback -> the profile step, signed in as the token's
            person (GET /users/me with the page's token: not a guest, the account a token of that person signs in
            to), then the session whose code was typed before leaving is joined; the
            authorization request had response_type=id_token, response_mode=fragment, scope=openid email, the
            client id, redirect_uri = origin + /auth/callback, and a fresh 128-bit state and nonce; the address
            is /join/{code} again, without the fragment
  replay    the provider answers a token made for another nonce: the page shows pongd's "nonce does not match"
  state     the provider answers another state: the page refuses it without calling pongd
  cancel    the provider answers error=access_denied: the page says the sign-in was cancelled

Prints one JSON object (the report: {"checks": {name: {ok, detail}}, "seconds": ...}) on stdout; exits 1 when a
check failed.
"""
import argparse
import base64
import http.server
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

AUDIENCE = "pongd-web"
report = {"checks": {}}


def check(name, ok, detail=""):
    report["checks"][name] = {"ok": bool(ok), "detail": str(detail)}
    print(f"{'ok  ' if ok else 'FAIL'} {name} {detail}", file=sys.stderr, flush=True)
    return ok


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def integer_bytes(value):
    return value.to_bytes((value.bit_length() + 7) // 8, "big")


class FakeProvider:
    """An OpenID Connect provider that signs in everyone at once: `mode` says how `/authorize` answers next."""

    def __init__(self):
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.mode = "ok"
        self.requests = []
        provider = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                url = urllib.parse.urlsplit(self.path)
                if url.path != "/authorize":
                    self.send_error(404)
                    return
                query = dict(urllib.parse.parse_qsl(url.query))
                provider.requests.append(query)
                self.send_response(302)
                self.send_header("Location", provider.answer(query))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.issuer = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def jwks(self):
        numbers = self.key.public_key().public_numbers()
        return {"keys": [{"kty": "RSA", "kid": "fake-1", "use": "sig", "alg": "RS256",
                          "n": b64url(integer_bytes(numbers.n)), "e": b64url(integer_bytes(numbers.e))}]}

    def id_token(self, audience, nonce):
        now = int(time.time())
        header = {"alg": "RS256", "kid": "fake-1", "typ": "JWT"}
        claims = {"iss": self.issuer, "sub": "fake-person-1", "aud": audience, "iat": now, "exp": now + 600,
                  "nonce": nonce, "name": "Ana Social", "email": "ana.social@example.com", "email_verified": True}
        signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())
        signature = self.key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
        return signing_input + "." + b64url(signature)

    def answer(self, query):
        state, nonce = query.get("state", ""), query.get("nonce", "")
        if self.mode == "cancel":
            fragment = {"error": "access_denied", "state": state}
        elif self.mode == "state":
            fragment = {"id_token": self.id_token(query.get("client_id", ""), nonce), "state": state + "x"}
        elif self.mode == "replay":
            fragment = {"id_token": self.id_token(query.get("client_id", ""), "another-sign-in"), "state": state}
        else:
            fragment = {"id_token": self.id_token(query.get("client_id", ""), nonce), "state": state}
        return query.get("redirect_uri", "/") + "#" + urllib.parse.urlencode(fragment)


def call(base, method, path, body=None, token=None):
    request = urllib.request.Request(base + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.loads(answer.read() or b"null")


def free_port():
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_serving(base):
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1)
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"pongd did not answer at {base}")


def browser(args):
    options = webdriver.ChromeOptions()
    options.binary_location = args.chromium
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-extensions", "--window-size=390,844"]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(args.driver), options=options)


def visible(driver, css):
    found = driver.find_elements(By.CSS_SELECTOR, css)
    return found[0] if found and found[0].is_displayed() else None


def click_provider(driver, base, code):
    """From a tab with nothing stored: the deep link, the code, then the provider's button."""
    driver.get(base + "/")
    driver.execute_script("sessionStorage.clear()")
    driver.get(f"{base}/join/{code}")
    WebDriverWait(driver, 15).until(lambda d: visible(d, "[data-test=code-submit]:not([disabled])")).click()
    WebDriverWait(driver, 15).until(lambda d: visible(d, "[data-test=auth-social-fake]")).click()


def social_error(driver):
    WebDriverWait(driver, 15).until(lambda d: visible(d, "#social-error"))
    return visible(driver, "#social-error").text


def run(args, provider, base):
    host = call(base, "POST", "/auth/guest", {})
    code = call(base, "POST", "/sessions", {"mode": "rally", "pointsToWin": 11}, token=host["token"])["code"]
    driver = browser(args)
    try:
        started = time.monotonic()
        click_provider(driver, base, code)
        WebDriverWait(driver, 15).until(lambda d: visible(d, "[data-test=name-input]"))
        report["signin_seconds"] = round(time.monotonic() - started, 2)
        check("signin.profile", True, f"the profile step {report['signin_seconds']} s after the first page")
        token = driver.execute_script("return sessionStorage.getItem('pongd.token')")
        me = call(base, "GET", "/users/me", token=token) if token else {}
        direct = call(base, "POST", "/auth/social", {"provider": "fake", "idToken": provider.id_token(AUDIENCE, "n1"),
                                                     "nonce": "n1"})
        check("signin.account", me.get("guest") is False and me.get("userId") == direct["userId"],
              f"the page's account {me} is the token's person's ({direct['userId']})")
        check("signin.address", driver.current_url == f"{base}/join/{code}", driver.current_url)
        visible(driver, "[data-test=name-input]").send_keys("Ana")
        visible(driver, "[data-test=profile-submit]").click()
        allow = WebDriverWait(driver, 15).until(lambda d: visible(d, "[data-test=permissions-allow]"))
        lobby = call(base, "GET", f"/sessions/{code}", token=host["token"])
        names = [p.get("name") for p in lobby.get("players", [])]
        check("signin.joined", allow is not None and "Ana" in names,
              f"the session typed before leaving is joined: players {names}")
        asked = provider.requests[-1] if provider.requests else {}
        expected = {"response_type": "id_token", "response_mode": "fragment", "scope": "openid email",
                    "client_id": AUDIENCE, "redirect_uri": f"{base}/auth/callback"}
        check("signin.request", all(asked.get(k) == v for k, v in expected.items())
              and len(asked.get("state", "")) == 32 and len(asked.get("nonce", "")) == 32
              and asked["state"] != asked["nonce"], asked)
        stored = driver.execute_script("return sessionStorage.getItem('pongd.social')")
        check("signin.forgotten", stored is None, f"state and nonce left in sessionStorage: {stored}")

        provider.mode = "replay"
        click_provider(driver, base, code)
        text = social_error(driver)
        check("replay.refused", "nonce does not match" in text, text)
        check("replay.not_signed_in", driver.execute_script("return sessionStorage.getItem('pongd.token')") is None)

        provider.mode = "state"
        click_provider(driver, base, code)
        text = social_error(driver)
        check("state.refused", "not started on this page" in text, text)

        provider.mode = "cancel"
        click_provider(driver, base, code)
        text = social_error(driver)
        check("cancel.said", "cancelled" in text, text)
        check("cancel.address", driver.current_url == f"{base}/join/{code}", driver.current_url)
        nonces = [r.get("nonce") for r in provider.requests]
        check("fresh_nonces", len(nonces) == 4 and len(set(nonces)) == 4, nonces)
    finally:
        driver.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pongd", required=True, help="the pongd executable")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--driver", default="/usr/bin/chromedriver")
    args = parser.parse_args()
    started = time.monotonic()
    provider = FakeProvider()
    with tempfile.TemporaryDirectory(prefix="pongd-social-") as folder:
        keys = os.path.join(folder, "jwks.json")
        with open(keys, "w") as file:
            json.dump(provider.jwks(), file)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        option = (f"id=fake,name=Fake,issuer={provider.issuer},audience={AUDIENCE},jwks={keys},"
                  f"authorize={provider.issuer}/authorize")
        log = open(os.path.join(folder, "pongd.log"), "w")
        server = subprocess.Popen([args.pongd, "serve", "--port", str(port), "--metrics-port", "0",
                                   "--log-level", "warning", "--data-dir", os.path.join(folder, "data"),
                                   "--oidc-provider", option], stdout=subprocess.DEVNULL, stderr=log)
        try:
            wait_until_serving(base)
            listed = call(base, "GET", "/auth/providers")["providers"]
            check("providers", listed == [{"id": "fake", "name": "Fake", "authorizationURL": f"{provider.issuer}/authorize",
                                           "clientId": AUDIENCE}], listed)
            run(args, provider, base)
        except Exception as error:  # a step that timed out or a browser that failed: a failed check, not a trace
            check("ran", False, f"{type(error).__name__}: {error}")
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
            provider.server.shutdown()
            log.close()
            if not all(c["ok"] for c in report["checks"].values()):
                with open(os.path.join(folder, "pongd.log")) as file:
                    print("pongd's log:\n" + file.read()[-4000:], file=sys.stderr)
    report["seconds"] = round(time.monotonic() - started, 2)
    print(json.dumps(report))
    return 0 if all(c["ok"] for c in report["checks"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
