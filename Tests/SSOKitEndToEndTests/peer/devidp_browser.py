#!/usr/bin/env python3
"""A scripted browser for `ssokit dev-idp`, for the SSOKit end-to-end tests.

    python3 devidp_browser.py [--saml-out FILE] URL        (the URL is the LAST argument)

GETs URL with a cookie jar, fills the dev IdP's login form (if one appears)
with $DEVIDP_USERNAME (default "demo") and $DEVIDP_PASSWORD, follows at most
10 redirects by hand and GETs the final loopback URL (a client's redirect
URI). When the final page is a SAML auto-post form, it is not submitted: with
--saml-out its SAMLResponse value is written to FILE.

Exit status: 0 when the last response was 2xx, 1 when not, 2 on a usage error
or a refused (non-loopback) URL, 3 on a network error. Standard library only;
every request has a 10 s timeout and never goes through a proxy. The other
dev IdP scripts import Browser from here.
"""

from __future__ import annotations

import http.cookiejar
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser

# The loopback-only URL rule and the no-redirect handler are the oidc-provider-mock browser's.
from browser import Refused, _NoRedirect
from browser import check_url as check_loopback

TIMEOUT = 10
MAX_HOPS = 10
MAX_READ = 1 << 20


class Forms(HTMLParser):
    """Every <form> of a page: its method, action and named inputs (first value wins)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"method": (attrs.get("method") or "get").lower(), "action": attrs.get("action") or "",
                               "inputs": {}})
        elif tag == "input" and self.forms and attrs.get("name"):
            self.forms[-1]["inputs"].setdefault(attrs["name"], attrs.get("value") or "")


class Response:
    def __init__(self, url: str, status: int, headers, body: bytes):
        self.url, self.status, self.headers, self.body = url, status, headers, body

    @property
    def location(self) -> str | None:
        value = self.headers.get("Location")
        return urllib.parse.urljoin(self.url, value) if value else None

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def forms(self) -> list[dict]:
        parser = Forms()
        parser.feed(self.text)
        return parser.forms

    def login_form(self) -> dict | None:
        return next((f for f in self.forms() if "login" in f["inputs"] and "password" in f["inputs"]), None)

    def saml_form(self) -> dict | None:
        return next((f for f in self.forms() if "SAMLResponse" in f["inputs"] or "SAMLRequest" in f["inputs"]), None)


class Browser:
    """A cookie-keeping HTTP client that never follows redirects on its own and talks to loopback only."""

    def __init__(self):
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect)

    def request(self, method: str, url: str, form: dict | None = None, headers: dict | None = None) -> Response:
        check_loopback(url)
        body = urllib.parse.urlencode(form).encode() if form is not None else None
        all_headers = {"User-Agent": "ssokit-devidp-e2e/1", **(headers or {})}
        if body is not None:
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
        req = urllib.request.Request(url, data=body, headers=all_headers, method=method)
        try:
            with self.opener.open(req, timeout=TIMEOUT) as r:
                return Response(url, r.status, r.headers, r.read(MAX_READ))
        except urllib.error.HTTPError as err:
            return Response(url, err.code, err.headers, err.read(MAX_READ))

    def follow(self, response: Response, stop_at: str | None = None) -> Response:
        """Follows redirects with GETs, at most MAX_HOPS; stops at a redirect to a URL starting with stop_at."""
        for _ in range(MAX_HOPS):
            if response.status not in (301, 302, 303, 307, 308) or not response.location:
                return response
            if stop_at and response.location.startswith(stop_at):
                return response
            response = self.request("GET", response.location)
        return response

    def submit_login(self, page: Response, username: str, password: str, action: str = "login") -> Response:
        form = page.login_form()
        if form is None:
            raise Refused("the page has no login form")
        fields = dict(form["inputs"], username=username, password=password, action=action)
        return self.request("POST", urllib.parse.urljoin(page.url, form["action"]), fields)

    def sign_in(self, url: str, username: str, password: str, stop_at: str | None = None) -> Response:
        """GETs url, signs in if asked, and follows redirects to the end or to stop_at (an auto-post page is not
        submitted)."""
        response = self.follow(self.request("GET", url), stop_at)
        if response.login_form() is not None:
            response = self.follow(self.submit_login(response, username, password), stop_at)
        return response


def main(argv: list[str]) -> int:
    saml_out = None
    args = argv[1:]
    if len(args) >= 2 and args[0] == "--saml-out":
        saml_out, args = args[1], args[2:]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    username = os.environ.get("DEVIDP_USERNAME", "demo")
    password = os.environ.get("DEVIDP_PASSWORD", "")
    try:
        final = Browser().sign_in(args[0], username, password)
    except Refused as err:
        print(f"devidp-browser: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"devidp-browser: network error: {err}", file=sys.stderr)
        return 3
    form = final.saml_form()
    if form is not None and saml_out:
        with open(saml_out, "w") as out:
            out.write(form["inputs"].get("SAMLResponse", ""))
    print(f"devidp-browser: final {final.url} -> HTTP {final.status}", file=sys.stderr)
    return 0 if 200 <= final.status < 300 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
