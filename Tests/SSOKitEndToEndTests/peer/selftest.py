#!/usr/bin/env python3
"""Self-test of the peer (op.py + browser.py) without the Swift CLI.

    python3 selftest.py

Starts op.py, plays the relying party with the standard library only
(discovery, PKCE S256 + state + nonce, browser.py as the user agent, a tiny
http.server as the loopback redirect_uri listener, token exchange with
client_secret_basic, ID token signature check against the JWKS, userinfo,
refresh_token grant, revocation if advertised, end-session) and prints what
worked. Ends with "N passed, M failed"; exit 0 only when nothing failed.
"""

from __future__ import annotations

import base64
import hashlib
import http.client
import http.server
import json
import os
import queue
import secrets
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
CLIENT_ID = "ssokit-e2e"
CLIENT_SECRET = "e2e-secret"
TIMEOUT = 10

OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))

results: list[tuple[bool, str]] = []


def check(ok: bool, what: str, detail: str = "") -> bool:
    results.append((bool(ok), what))
    print(f"{'PASS' if ok else 'FAIL'}  {what}" + (f"  ({detail})" if detail and not ok else ""), flush=True)
    return bool(ok)


def info(msg: str) -> None:
    print(f"      {msg}", flush=True)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(s: str) -> bytes:
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def http_json(method, url, form=None, basic=None, bearer=None):
    headers = {"Accept": "application/json"}
    data = None
    if form is not None:
        data = urllib.parse.urlencode(form).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if basic:
        cid, sec = basic
        raw = f"{urllib.parse.quote(cid, safe='')}:{urllib.parse.quote(sec, safe='')}"
        headers["Authorization"] = "Basic " + base64.b64encode(raw.encode()).decode()
    if bearer:
        headers["Authorization"] = "Bearer " + bearer
    req = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with OPENER.open(req, timeout=TIMEOUT) as r:
            body = r.read()
            status, hdrs = r.status, r.headers
    except urllib.error.HTTPError as e:
        body, status, hdrs = e.read(), e.code, e.headers
    try:
        return status, json.loads(body), hdrs
    except ValueError:
        return status, body.decode("utf-8", "replace"), hdrs


# -- RS256 verification with the standard library --------------------------

_SHA256_DIGEST_INFO = bytes.fromhex("3031300d060960864801650304020105000420")


def verify_rs256(jwt: str, jwk: dict) -> bool:
    head, payload, sig = jwt.split(".")
    n = int.from_bytes(b64url_decode(jwk["n"]), "big")
    e = int.from_bytes(b64url_decode(jwk["e"]), "big")
    k = (n.bit_length() + 7) // 8
    s = int.from_bytes(b64url_decode(sig), "big")
    em = pow(s, e, n).to_bytes(k, "big")
    digest = hashlib.sha256(f"{head}.{payload}".encode()).digest()
    t = _SHA256_DIGEST_INFO + digest
    expected = b"\x00\x01" + b"\xff" * (k - len(t) - 3) + b"\x00" + t
    return em == expected


# -- the loopback redirect_uri listener ------------------------------------

class Callback:
    def __init__(self):
        self.hits: queue.Queue = queue.Queue()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                parts = urllib.parse.urlsplit(self.path)
                outer.hits.put((parts.path, urllib.parse.parse_qs(parts.query)))
                body = b"<html><body>You can close this window.</body></html>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *a):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.redirect_uri = f"http://127.0.0.1:{self.port}/callback"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def take(self):
        try:
            return self.hits.get(timeout=1)
        except queue.Empty:
            return None, {}

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def start_op(extra=()):
    proc = subprocess.Popen(
        [sys.executable, os.path.join(HERE, "op.py"), "--port", "0", "--max-seconds", "120", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: lines.put(proc.stdout.readline()), daemon=True).start()
    try:
        line = lines.get(timeout=30)
    except queue.Empty:
        line = ""
    if not line.startswith("READY http://127.0.0.1:"):
        proc.kill()
        raise SystemExit(f"op.py did not print READY (got {line!r})")
    return proc, line.split()[1]


def stop_op(proc) -> tuple[int | None, float]:
    t0 = time.monotonic()
    proc.terminate()
    try:
        rc = proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        rc = None
    return rc, time.monotonic() - t0


def run_browser(url, env_extra=None):
    env = dict(os.environ)
    env.update(env_extra or {})
    p = subprocess.run(
        [sys.executable, os.path.join(HERE, "browser.py"), url],
        env=env, capture_output=True, text=True, timeout=60,
    )
    return p.returncode, p.stderr


def authorize(disc, cb, *, scope="openid email profile", pkce=True, method="S256", env_extra=None):
    verifier = b64url(secrets.token_bytes(32))
    challenge = b64url(hashlib.sha256(verifier.encode()).digest())
    state, nonce = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    q = {
        "response_type": "code",
        "client_id": CLIENT_ID,
        "redirect_uri": cb.redirect_uri,
        "scope": scope,
        "state": state,
        "nonce": nonce,
    }
    if pkce:
        q["code_challenge"] = challenge if method == "S256" else verifier
        q["code_challenge_method"] = method
    url = disc["authorization_endpoint"] + "?" + urllib.parse.urlencode(q)
    rc, err = run_browser(url, env_extra)
    path, params = cb.take()
    return {"rc": rc, "stderr": err, "path": path, "params": params, "state": state,
            "nonce": nonce, "verifier": verifier, "url": url}


def exchange(disc, cb, code, verifier, basic=(CLIENT_ID, CLIENT_SECRET), post=None):
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": cb.redirect_uri}
    if verifier is not None:
        form["code_verifier"] = verifier
    if post:
        form.update({"client_id": post[0], "client_secret": post[1]})
        basic = None
    return http_json("POST", disc["token_endpoint"], form=form, basic=basic)


def check_revocation_modes() -> None:
    cb = Callback()
    for mode in ("client-auth", "public", "error-500", "hang"):
        extra = ["--revocation", mode, "--revocation-hang-seconds", "3"]
        proc, base = start_op(extra)
        try:
            st, disc, _ = http_json("GET", base + "/.well-known/openid-configuration")
            check(disc.get("revocation_endpoint") == base + "/oauth2/revoke", f"--revocation {mode}: advertised")
            a = authorize(disc, cb)
            code = (a["params"].get("code") or [None])[0]
            st, tok, _ = exchange(disc, cb, code, a["verifier"])
            rt = tok.get("refresh_token") if isinstance(tok, dict) else None
            revoke = {"token": rt or "", "token_type_hint": "refresh_token"}
            if mode == "client-auth":
                st, body, _ = http_json("POST", disc["revocation_endpoint"], form=revoke | {"client_id": CLIENT_ID})
                check(st == 401 and body.get("error") == "invalid_client", "client-auth: unauthenticated -> 401 invalid_client", f"{st} {body}")
                st, body, _ = http_json("POST", disc["revocation_endpoint"], form=revoke, basic=(CLIENT_ID, CLIENT_SECRET))
                check(st == 200, "client-auth: client_secret_basic -> 200", f"{st} {body}")
                st, body, _ = http_json("POST", disc["token_endpoint"], form={"grant_type": "refresh_token", "refresh_token": rt}, basic=(CLIENT_ID, CLIENT_SECRET))
                check(st == 400 and body.get("error") == "invalid_grant", "client-auth: the revoked refresh token gets invalid_grant", f"{st} {body}")
                st, log, _ = http_json("GET", base + "/test/revocations")
                check([e.get("status") for e in log] == [401, 200] and log[1].get("revoked") == "refresh_token", "client-auth: /test/revocations", str(log))
            elif mode == "public":
                st, body, _ = http_json("POST", disc["revocation_endpoint"], form=revoke | {"client_id": CLIENT_ID})
                check(st == 200, "public: client_id alone -> 200", f"{st} {body}")
            elif mode == "error-500":
                st, body, _ = http_json("POST", disc["revocation_endpoint"], form=revoke, basic=(CLIENT_ID, CLIENT_SECRET))
                check(st == 500, "error-500: -> 500", str(st))
            else:
                t0 = time.monotonic()
                st, body, _ = http_json("POST", disc["revocation_endpoint"], form=revoke, basic=(CLIENT_ID, CLIENT_SECRET))
                took = time.monotonic() - t0
                check(st == 200 and 2.5 < took < 8, "hang: answers after --revocation-hang-seconds", f"{st} {took:.1f}s")
        finally:
            rc, took = stop_op(proc)
            check(rc == 0 and took < 5, f"--revocation {mode}: op.py exits promptly", f"rc={rc} took={took:.1f}s")
    cb.close()


def raw_request(method, url, body=None, cookie=None):
    """One request, no redirect followed: (status, headers as a list, body text)."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=TIMEOUT)
    headers = {}
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if cookie:
        headers["Cookie"] = cookie
    try:
        conn.request(method, parts.path + ("?" + parts.query if parts.query else ""), body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.getheaders(), response.read().decode("utf-8", "replace")
    finally:
        conn.close()


def check_session_layer() -> None:
    """op.py --session-lifetime: a cookie after the form, authorizations without the form while it lives."""
    proc, base = start_op(["--session-lifetime", "3"])
    try:
        verifier = b64url(secrets.token_bytes(32))
        q = {"response_type": "code", "client_id": CLIENT_ID, "redirect_uri": "http://127.0.0.1:9/callback",
             "scope": "openid", "state": "s1", "code_challenge": b64url(hashlib.sha256(verifier.encode()).digest()),
             "code_challenge_method": "S256"}
        url = base + "/oauth2/authorize?" + urllib.parse.urlencode(q)
        st, _, page = raw_request("GET", url)
        check(st == 200 and 'name="sub"' in page, "session layer: no cookie -> the mock's form", str(st))
        st, headers, _ = raw_request("POST", url, body="sub=alice%40example.com")
        location = dict((k.lower(), v) for k, v in headers).get("location", "")
        cookies = [v for k, v in headers if k.lower() == "set-cookie" and v.startswith("op_session=")]
        check(st == 302 and "code=" in location and cookies and "Max-Age=3" in cookies[0] and "HttpOnly" in cookies[0],
              "session layer: submitting the form sets op_session", f"{st} {headers}")
        cookie = cookies[0].split(";")[0] if cookies else ""
        st, headers, _ = raw_request("GET", url, cookie=cookie)
        location = dict((k.lower(), v) for k, v in headers).get("location", "")
        check(st == 302 and "code=" in location and "state=s1" in location,
              "session layer: the cookie gets a code without the form", f"{st} {location}")
        st, report, _ = http_json("GET", base + "/test/sessions")
        check(report == {"active": 1, "form_logins": 1, "cookie_logins": 1}, "session layer: /test/sessions counts", str(report))
        st, body, _ = http_json("POST", base + "/test/sessions/revoke", form={})
        st, _, page = raw_request("GET", url, cookie=cookie)
        check(st == 200 and 'name="sub"' in page and body == {"revoked": 1}, "session layer: a revoked session shows the form again", str(body))
        st, headers, _ = raw_request("POST", url, body="sub=alice%40example.com")
        cookie = next((v.split(";")[0] for k, v in headers if k.lower() == "set-cookie"), "")
        time.sleep(3.5)
        st, _, page = raw_request("GET", url, cookie=cookie)
        check(st == 200 and 'name="sub"' in page, "session layer: an expired session shows the form again (server side)", str(st))
    finally:
        stop_op(proc)
    proc, base = start_op()
    try:
        q = {"response_type": "code", "client_id": CLIENT_ID, "redirect_uri": "http://127.0.0.1:9/callback",
             "scope": "openid", "state": "s", "code_challenge": b64url(hashlib.sha256(b"x" * 43).digest()),
             "code_challenge_method": "S256"}
        st, headers, _ = raw_request("POST", base + "/oauth2/authorize?" + urllib.parse.urlencode(q), body="sub=a")
        check(st == 302 and not any(k.lower() == "set-cookie" for k, _ in headers),
              "without --session-lifetime no session cookie is set", str(headers))
    finally:
        stop_op(proc)


def main() -> int:
    cb = Callback()
    proc, base = start_op()
    info(f"op.py -> {base}; callback listener {cb.redirect_uri}")
    try:
        # 1. discovery
        st, disc, _ = http_json("GET", base + "/.well-known/openid-configuration")
        check(st == 200 and isinstance(disc, dict), "discovery document")
        check(disc.get("issuer") == base, "issuer equals base URL without trailing slash", str(disc.get("issuer")))
        check("S256" in disc.get("code_challenge_methods_supported", []), "discovery advertises PKCE S256")
        info("endpoints: " + ", ".join(f"{k}={v}" for k, v in sorted(disc.items()) if k.endswith("endpoint") or k == "jwks_uri"))

        # 2. authorization code flow via browser.py
        a = authorize(disc, cb)
        check(a["rc"] == 0, "browser.py completed the login and got 2xx from the callback", a["stderr"][-600:])
        code = (a["params"].get("code") or [None])[0]
        check(a["path"] == "/callback" and code, "callback received an authorization code")
        check((a["params"].get("state") or [None])[0] == a["state"], "state echoed back")

        # 3. token exchange, client_secret_basic + PKCE verifier
        st, tok, hdrs = exchange(disc, cb, code, a["verifier"])
        check(st == 200 and isinstance(tok, dict) and "access_token" in tok, "token exchange (client_secret_basic + code_verifier)", f"{st} {tok}")
        tok = tok if isinstance(tok, dict) else {}
        check(tok.get("token_type") == "Bearer", "token_type Bearer")
        check("id_token" in tok, "id_token returned")
        check("refresh_token" in tok, "refresh_token returned")
        info(f"token response keys: {sorted(tok)}; Cache-Control={hdrs.get('Cache-Control')}")

        # 4. the ID token
        if "id_token" in tok:
            h, p, _ = tok["id_token"].split(".")
            header = json.loads(b64url_decode(h))
            claims = json.loads(b64url_decode(p))
            info(f"id_token header: {header}")
            info(f"id_token claims: {claims}")
            check(header.get("alg") == "RS256", "id_token alg RS256")
            st, jwks, _ = http_json("GET", disc["jwks_uri"])
            keys = jwks.get("keys", []) if isinstance(jwks, dict) else []
            info(f"jwks: {len(keys)} key(s), kids={[k.get('kid') for k in keys]}, kty={[k.get('kty') for k in keys]}")
            cands = [k for k in keys if k.get("kid") == header["kid"]] if "kid" in header else keys
            check(any(verify_rs256(tok["id_token"], k) for k in cands), "id_token signature verifies against JWKS")
            check(claims.get("iss") == disc["issuer"], "id_token iss == discovery issuer")
            aud = claims.get("aud")
            check(aud == CLIENT_ID or (isinstance(aud, list) and CLIENT_ID in aud), "id_token aud contains client_id", str(aud))
            check(claims.get("nonce") == a["nonce"], "id_token nonce echoed")
            check(claims.get("sub") == "alice@example.com", "id_token sub is the browser's user")
            check(claims.get("exp", 0) > time.time(), "id_token not expired")
            if "at_hash" in claims:
                at = hashlib.sha256(tok["access_token"].encode()).digest()
                check(claims["at_hash"] == b64url(at[:16]), "id_token at_hash matches access_token")

        # 5. userinfo
        st, ui, _ = http_json("GET", disc["userinfo_endpoint"], bearer=tok.get("access_token"))
        check(st == 200 and isinstance(ui, dict) and ui.get("sub") == "alice@example.com", "userinfo with access token", f"{st} {ui}")
        info(f"userinfo: {ui}")
        st, ui_bad, _ = http_json("GET", disc["userinfo_endpoint"], bearer="not-a-token")
        info(f"userinfo with a bogus token -> {st} {ui_bad}")
        check(st >= 400, "userinfo rejects a bogus token")

        # 6. code replay
        st, body, _ = exchange(disc, cb, code, a["verifier"])
        check(st == 400 and isinstance(body, dict) and body.get("error") == "invalid_grant", "code cannot be redeemed twice", f"{st} {body}")

        # 7. refresh_token grant (client_secret_basic)
        rt = tok.get("refresh_token")
        st, r1, _ = http_json("POST", disc["token_endpoint"], form={"grant_type": "refresh_token", "refresh_token": rt}, basic=(CLIENT_ID, CLIENT_SECRET))
        check(st == 200 and isinstance(r1, dict) and r1.get("access_token"), "refresh_token grant (client_secret_basic)", f"{st} {r1}")
        r1 = r1 if isinstance(r1, dict) else {}
        info(f"refresh response keys: {sorted(r1)}")
        rotated = "refresh_token" in r1 and r1["refresh_token"] != rt
        info(f"refresh token rotated: {rotated}; new id_token on refresh: {'id_token' in r1}")
        st, _, _ = http_json("GET", disc["userinfo_endpoint"], bearer=tok.get("access_token"))
        check(st >= 400, "old access token is dead after refresh", str(st))
        st, _, _ = http_json("GET", disc["userinfo_endpoint"], bearer=r1.get("access_token"))
        check(st == 200, "new access token works at userinfo", str(st))
        st, r2, _ = http_json("POST", disc["token_endpoint"], form={"grant_type": "refresh_token", "refresh_token": rt}, basic=(CLIENT_ID, CLIENT_SECRET))
        check(st == 200, "the same refresh token can be used again (no rotation)", f"{st} {r2}")
        st, r3, _ = http_json("POST", disc["token_endpoint"], form={"grant_type": "refresh_token", "refresh_token": rt, "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET})
        info(f"refresh with client_secret_post -> {st} {r3}")
        check(st == 401, "refresh_token grant refuses client_secret_post (mock limitation)", str(st))

        # 8. revocation
        if disc.get("revocation_endpoint"):
            st, body, _ = http_json("POST", disc["revocation_endpoint"], form={"token": rt, "token_type_hint": "refresh_token"}, basic=(CLIENT_ID, CLIENT_SECRET))
            check(st == 200, "revocation endpoint", f"{st} {body}")
        else:
            info("no revocation_endpoint in discovery: RFC 7009 revocation NOT supported (skipped)")
            st, _, _ = http_json("POST", base + "/oauth2/revoke", form={"token": rt})
            info(f"POST /oauth2/revoke -> {st}")
            # The mock's own admin endpoint kills all tokens of a subject.
            st, body, _ = http_json("POST", base + "/users/" + urllib.parse.quote("alice@example.com", safe="") + "/revoke-tokens", form={})
            check(st == 204, "mock admin POST /users/<sub>/revoke-tokens", f"{st} {body}")
            st, body, _ = http_json("POST", disc["token_endpoint"], form={"grant_type": "refresh_token", "refresh_token": rt}, basic=(CLIENT_ID, CLIENT_SECRET))
            check(st == 400 and isinstance(body, dict) and body.get("error") == "invalid_grant", "refresh fails with invalid_grant after admin revoke", f"{st} {body}")

        # 9. client_secret_post for the code exchange
        a = authorize(disc, cb)
        code = (a["params"].get("code") or [None])[0]
        st, body, _ = exchange(disc, cb, code, a["verifier"], post=(CLIENT_ID, CLIENT_SECRET))
        check(st == 200, "token exchange with client_secret_post", f"{st} {body}")

        # 10. negative cases
        a = authorize(disc, cb)
        code = (a["params"].get("code") or [None])[0]
        st, body, _ = exchange(disc, cb, code, a["verifier"], basic=(CLIENT_ID, "wrong-secret"))
        check(st == 401 and isinstance(body, dict) and body.get("error") == "invalid_client", "wrong client secret -> 401 invalid_client", f"{st} {body}")
        st, body, _ = exchange(disc, cb, code, b64url(secrets.token_bytes(32)))
        check(st == 400 and isinstance(body, dict) and body.get("error") == "invalid_grant", "wrong code_verifier -> invalid_grant", f"{st} {body}")
        st, body, _ = exchange(disc, cb, code, None)
        check(st == 400 and isinstance(body, dict) and body.get("error") == "invalid_request", "missing code_verifier -> invalid_request", f"{st} {body}")
        st, body, _ = exchange(disc, cb, code, a["verifier"])
        check(st == 200, "right verifier still redeems that code afterwards", f"{st} {body}")

        a = authorize(disc, cb, pkce=False)
        check(a["rc"] == 0 and (a["params"].get("error") or [None])[0] == "invalid_request"
              and "code" not in a["params"] and (a["params"].get("state") or [None])[0] == a["state"],
              "no PKCE -> callback gets error=invalid_request (+state)", str(a["params"]))
        a = authorize(disc, cb, method="plain")
        check((a["params"].get("error") or [None])[0] == "invalid_request", "code_challenge_method=plain -> error=invalid_request", str(a["params"]))

        a = authorize(disc, cb, env_extra={"E2E_ACTION": "deny"})
        check(a["rc"] == 0 and (a["params"].get("error") or [None])[0] == "access_denied"
              and (a["params"].get("state") or [None])[0] == a["state"], "E2E_ACTION=deny -> callback gets error=access_denied (+state)", str(a["params"]))

        q = urllib.parse.urlencode({"response_type": "code", "client_id": "someone-else", "redirect_uri": cb.redirect_uri, "scope": "openid"})
        rc, err = run_browser(disc["authorization_endpoint"] + "?" + q)
        path, _ = cb.take()
        check(rc != 0 and path is None, "unknown client_id -> OP error page, no callback, browser exits non-zero", f"rc={rc}")
        q = urllib.parse.urlencode({"response_type": "code", "client_id": CLIENT_ID, "redirect_uri": "https://rp.example/cb", "scope": "openid"})
        rc, err = run_browser(disc["authorization_endpoint"] + "?" + q)
        check(rc != 0, "non-loopback redirect_uri rejected by the OP", f"rc={rc}")
        rc, err = run_browser("http://example.com/oauth2/authorize")
        check(rc == 2 and "refusing" in err, "browser.py refuses a non-loopback URL", f"rc={rc} {err}")

        # 11. other user and extra claims through E2E_SUB / E2E_CLAIMS
        a = authorize(disc, cb, env_extra={"E2E_SUB": "bob", "E2E_CLAIMS": json.dumps({"email": "bob@example.com", "name": "Bob", "groups": ["admins"]})})
        code = (a["params"].get("code") or [None])[0]
        st, tok, _ = exchange(disc, cb, code, a["verifier"])
        claims = json.loads(b64url_decode(tok["id_token"].split(".")[1])) if st == 200 else {}
        check(claims.get("sub") == "bob" and claims.get("name") == "Bob" and claims.get("groups") == ["admins"],
              "E2E_SUB + E2E_CLAIMS reach the id_token", str(claims))
        st, ui, _ = http_json("GET", disc["userinfo_endpoint"], bearer=tok.get("access_token"))
        info(f"userinfo for bob: {ui}")

        # 12. end session (RP-initiated logout) driven by browser.py
        if disc.get("end_session_endpoint"):
            q = urllib.parse.urlencode({"id_token_hint": tok.get("id_token", ""), "post_logout_redirect_uri": cb.redirect_uri.replace("/callback", "/logged-out"), "state": "bye"})
            rc, err = run_browser(disc["end_session_endpoint"] + "?" + q)
            path, params = cb.take()
            check(rc == 0 and path == "/logged-out" and params.get("state") == ["bye"], "end_session via browser.py redirects to post_logout_redirect_uri with state", f"rc={rc} {path} {params}")
    finally:
        rc, took = stop_op(proc)
        cb.close()
    check(rc == 0 and took < 5, "op.py exits 0 promptly on SIGTERM", f"rc={rc} took={took:.1f}s")

    # op.py --revocation: the RFC 7009 layer, in each mode
    check_revocation_modes()

    # op.py --session-lifetime: the IdP session layer
    check_session_layer()

    # --max-seconds budget
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, os.path.join(HERE, "op.py"), "--max-seconds", "2"], capture_output=True, text=True, timeout=30)
    took = time.monotonic() - t0
    check(p.returncode == 0 and p.stdout.startswith("READY http://127.0.0.1:") and len(p.stdout.splitlines()) == 1 and took < 10,
          "op.py --max-seconds 2 prints one READY line and exits by itself", f"rc={p.returncode} out={p.stdout!r} took={took:.1f}s")

    passed = sum(1 for ok, _ in results if ok)
    failed = len(results) - passed
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
