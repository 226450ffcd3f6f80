#!/usr/bin/env python3
"""A stand-in for a signed-in browser, for the SSOKit end-to-end tests.

    python3 browser.py [--quiet] AUTHORIZATION_URL      (the URL is the LAST argument)

GETs the URL, finds the OP's login/consent form (oidc-provider-mock's
"Authorize Client" page: a POST form with an input named "sub"), submits it
as the user given by $E2E_SUB (default alice@example.com), then follows the
redirect chain by hand (at most 10 hops) and finally GETs the client's
redirect_uri (its loopback listener). The final HTTP status goes to stderr.

Exit status: 0 when the final response (normally the callback GET) was 2xx,
1 when it was not, 2 on a usage error or a refused (non-loopback) URL,
3 on a network error or when no form/redirect could be followed.

Environment:
    E2E_SUB      subject to sign in as (default alice@example.com)
    E2E_CLAIMS   optional JSON object of claims for that user; it is PUT to the
                 mock's /users/<sub> before the form is submitted (it REPLACES
                 the user's claims; without it the mock uses {"email": sub})
    E2E_ACTION   "authorize" (default) or "deny" (presses the Deny button, so
                 the callback gets error=access_denied)

Any other page with a single POST form (e.g. the mock's end-session page) is
submitted as is ("press the button"), so the script also drives RP-initiated
logout: python3 browser.py 'http://127.0.0.1:PORT/oauth2/end_session?...'

Standard library only. Every request has a 10 s timeout; only http(s) URLs on
127.0.0.1 / localhost / [::1] are ever requested.
"""

from __future__ import annotations

import http.cookiejar
import ipaddress
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser

TIMEOUT = 10
MAX_HOPS = 10
MAX_FORMS = 3
MAX_READ = 1 << 20
DEFAULT_SUB = "alice@example.com"


def log(msg: str) -> None:
    if not QUIET:
        print(f"browser: {msg}", file=sys.stderr, flush=True)


QUIET = False


class Refused(Exception):
    pass


def check_url(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise Refused(f"refusing non-http(s) URL: {url}")
    host = parts.hostname or ""
    ok = host == "localhost"
    if not ok:
        try:
            ok = ipaddress.ip_address(host).is_loopback
        except ValueError:
            ok = False
    if not ok:
        raise Refused(f"refusing non-loopback URL: {url}")
    return url


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


OPENER = urllib.request.build_opener(
    urllib.request.ProxyHandler({}),  # never send loopback traffic to a proxy
    urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
    _NoRedirect,
)


class Response:
    def __init__(self, url: str, status: int, headers, body: bytes):
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def location(self) -> str | None:
        loc = self.headers.get("Location")
        return urllib.parse.urljoin(self.url, loc) if loc else None

    def text(self) -> str:
        charset = self.headers.get_content_charset() or "utf-8"
        return self.body.decode(charset, "replace")


def request(method: str, url: str, data: dict | None = None, body: bytes | None = None,
            headers: dict | None = None) -> Response:
    check_url(url)
    hdrs = {"User-Agent": "ssokit-e2e-browser/1", "Accept": "text/html,application/json;q=0.9,*/*;q=0.8"}
    hdrs.update(headers or {})
    if data is not None:
        body = urllib.parse.urlencode(data, doseq=True).encode()
        hdrs["Content-Type"] = "application/x-www-form-urlencoded"
    req = urllib.request.Request(url, data=body, headers=hdrs, method=method)
    log(f"{method} {url}")
    try:
        with OPENER.open(req, timeout=TIMEOUT) as r:
            return Response(url, r.status, r.headers, r.read(MAX_READ))
    except urllib.error.HTTPError as e:
        try:
            payload = e.read(MAX_READ)
        except Exception:  # noqa: BLE001
            payload = b""
        return Response(url, e.code, e.headers, payload)


class FormParser(HTMLParser):
    """Collects <form>s with their inputs and submit buttons."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._cur: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self._cur = {
                "action": a.get("action", ""),
                "method": (a.get("method") or "get").lower(),
                "inputs": [],
                "buttons": [],
            }
            self.forms.append(self._cur)
        elif self._cur is not None and tag == "input":
            itype = (a.get("type") or "text").lower()
            if itype in ("submit", "image"):
                self._cur["buttons"].append(a)
            elif itype not in ("button", "reset", "file"):
                if itype in ("checkbox", "radio") and "checked" not in a:
                    return
                self._cur["inputs"].append({"name": a.get("name"), "value": a.get("value", ""), "type": itype})
        elif self._cur is not None and tag == "button":
            if (a.get("type") or "submit").lower() == "submit":
                self._cur["buttons"].append(a)

    def handle_endtag(self, tag):
        if tag == "form":
            self._cur = None


def choose_submission(page: Response, sub: str, action: str) -> tuple[str, str, dict] | None:
    """Returns (method, url, fields) of the form to submit, or None."""
    parser = FormParser()
    parser.feed(page.text())
    forms = parser.forms
    if not forms:
        return None

    def fields_of(form, button=None):
        fields: dict[str, list[str]] = {}
        for i in form["inputs"]:
            if i["name"]:
                fields.setdefault(i["name"], []).append(i["value"])
        if button and button.get("name"):
            fields.setdefault(button["name"], []).append(button.get("value", ""))
        return fields

    def target(form):
        return form["method"], urllib.parse.urljoin(page.url, form["action"] or page.url)

    if action == "deny":
        for f in forms:
            for b in f["buttons"]:
                if b.get("name") == "action" and b.get("value") == "deny":
                    m, u = target(f)
                    return m, u, fields_of(f, b)
        return None

    # The mock's authorization form: a text input named "sub".
    for f in forms:
        if any(i["name"] == "sub" and i["type"] != "hidden" for i in f["inputs"]):
            fields = fields_of(f)
            fields["sub"] = [sub]
            m, u = target(f)
            return m, u, fields

    # A predefined-user button for exactly this subject.
    for f in forms:
        for b in f["buttons"]:
            if b.get("name") == "sub" and b.get("value") == sub:
                m, u = target(f)
                return m, u, fields_of(f, b)

    # Any other single POST form (e.g. end-session confirmation): press its button.
    posts = [f for f in forms if f["method"] == "post"]
    if len(posts) == 1:
        f = posts[0]
        m, u = target(f)
        return m, u, fields_of(f, f["buttons"][0] if f["buttons"] else None)
    return None


def put_claims(page_url: str, sub: str, claims_json: str) -> bool:
    try:
        claims = json.loads(claims_json)
    except json.JSONDecodeError as e:
        log(f"E2E_CLAIMS is not JSON: {e}")
        return False
    if not isinstance(claims, dict):
        log("E2E_CLAIMS must be a JSON object")
        return False
    claims.pop("sub", None)
    parts = urllib.parse.urlsplit(page_url)
    url = f"{parts.scheme}://{parts.netloc}/users/{urllib.parse.quote(sub, safe='')}"
    r = request("PUT", url, body=json.dumps(claims).encode(), headers={"Content-Type": "application/json"})
    log(f"PUT claims -> {r.status}")
    return 200 <= r.status < 300


def run(url: str) -> int:
    sub = os.environ.get("E2E_SUB") or DEFAULT_SUB
    action = (os.environ.get("E2E_ACTION") or "authorize").strip().lower()
    if action not in ("authorize", "deny"):
        log(f"E2E_ACTION must be 'authorize' or 'deny', not {action!r}")
        return 2
    claims_json = os.environ.get("E2E_CLAIMS")

    method, target, fields = "GET", url, None
    hops = 0
    forms_submitted = 0
    while True:
        resp = request(method, target, data=fields)
        log(f"-> {resp.status}")
        if resp.status in (301, 302, 303, 307, 308):
            nxt = resp.location
            if not nxt:
                log("redirect without Location")
                return 3
            hops += 1
            if hops > MAX_HOPS:
                log(f"more than {MAX_HOPS} redirects, giving up")
                return 3
            check_url(nxt)
            if resp.status in (307, 308) and method == "POST":
                target = nxt  # keep method and body
            else:
                method, target, fields = "GET", nxt, None
            continue

        ctype = (resp.headers.get("Content-Type") or "").lower()
        if 200 <= resp.status < 300 and "html" in ctype and forms_submitted < MAX_FORMS:
            choice = choose_submission(resp, sub, action)
            if choice is not None:
                if claims_json and forms_submitted == 0 and action == "authorize":
                    if not put_claims(resp.url, sub, claims_json):
                        return 3
                m, u, f = choice
                check_url(u)
                forms_submitted += 1
                if m == "post":
                    method, target, fields = "POST", u, f
                else:
                    q = urllib.parse.urlencode(f, doseq=True)
                    method, target, fields = "GET", u + ("&" if "?" in u else "?") + q, None
                log(f"submitting form #{forms_submitted} ({m.upper()} {u}) as sub={sub!r} action={action}")
                continue

        # Final page: normally the client's callback listener.
        final_status = resp.status
        print(f"browser: final {method} {target} -> HTTP {final_status}", file=sys.stderr, flush=True)
        if not (200 <= final_status < 300):
            snippet = resp.text()[:500].replace("\n", " ")
            print(f"browser: body: {snippet}", file=sys.stderr, flush=True)
        if forms_submitted == 0 and 200 <= final_status < 300 and "html" in ctype and method == "GET" and target == url:
            # The very first page had no form we understand: not a callback.
            print("browser: no login form found on the first page", file=sys.stderr, flush=True)
            return 3
        return 0 if 200 <= final_status < 300 else 1


def main(argv: list[str]) -> int:
    global QUIET
    args = argv[1:]
    if "--quiet" in args[:-1]:
        QUIET = True
    if not args or args[-1].startswith("-"):
        print("usage: browser.py [--quiet] AUTHORIZATION_URL", file=sys.stderr)
        return 2
    url = args[-1]
    try:
        check_url(url)
        return run(url)
    except Refused as e:
        print(f"browser: {e}", file=sys.stderr, flush=True)
        return 2
    except (urllib.error.URLError, OSError, TimeoutError) as e:
        print(f"browser: network error: {e}", file=sys.stderr, flush=True)
        return 3


if __name__ == "__main__":
    sys.exit(main(sys.argv))
