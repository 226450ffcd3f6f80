#!/usr/bin/env python3
"""Real OpenID Provider for the SSOKit end-to-end tests.

Runs oidc-provider-mock (pinned in requirements.txt) on 127.0.0.1 and prints

    READY http://127.0.0.1:PORT

on stdout once the server answers, then serves until SIGTERM/SIGINT, until
--max-seconds has passed, or until the process that started it has died.

By default one confidential client is registered (any other client_id is
rejected with invalid_client):

    client_id      ssokit-e2e
    client_secret  e2e-secret
    redirect_uri   any http loopback URI (127.0.0.1 / localhost / [::1], any port, any path)

--any-client restores the mock's stock behaviour: every client_id, every
secret and every redirect_uri is accepted.

The mock has no revocation endpoint (RFC 7009). --revocation adds one at
/oauth2/revoke, advertised in discovery, as another thin WSGI layer:

    off          no endpoint (default: the mock as it is)
    public       client_id alone is enough (a public client)
    client-auth  the registered client must authenticate (client_secret_basic
                 or client_secret_post): otherwise 401 invalid_client
    error-500    every request gets HTTP 500
    hang         every request waits (up to --revocation-hang-seconds) and
                 then gets 200 without revoking anything

An accepted request removes the token from the mock's storage, so a revoked
refresh token gets invalid_grant afterwards. GET /test/revocations lists
every revocation request received, in order, as JSON:
[{"token_type_hint": ..., "authenticated": bool, "revoked": "refresh_token" |
"access_token" | null, "status": N}] (never the token itself).

The mock keeps no session: it shows its form at every authorization.
--session-lifetime S adds an IdP session in another thin WSGI layer: when the
form is submitted and the mock answers with a code, the response sets the
cookie op_session (Path=/oauth2, HttpOnly, Max-Age=S); a later GET
/oauth2/authorize carrying a live op_session is answered as if the form had
been submitted again for the same sub, so it redirects with a code at once.
The server forgets a session after S seconds whatever the cookie says.
POST /test/sessions/revoke ends every session (as an IdP-side logout would);
GET /test/sessions says {"active": N, "form_logins": N, "cookie_logins": N}.

--refresh-delay S makes the token endpoint slow for refresh_token grants, in
another thin WSGI layer: each such grant is held S seconds before the mock
sees it (the request still in transit). A grant whose client has gone away
meanwhile (its connection closed) is dropped and never reaches the mock. A
refresh token that already reached the mock is refused with invalid_grant
without reaching it again (rotation with one use, as strict IdPs do; the mock
alone would accept it again). GET /test/refreshes lists every refresh grant
received, in order, as JSON: [{"token": first 16 hex digits of the token's
SHA-256, "outcome": "forwarded" | "dropped" | "reused", "status": N | null}].

The mock itself ignores PKCE. This wrapper adds it (RFC 7636, S256 only) as a
thin WSGI layer in front of the mock, see --pkce; discovery then also carries
"code_challenge_methods_supported": ["S256"]. The same layer puts the request's
"state" back on the mock's error=access_denied redirect (see --stock-deny).
"""

from __future__ import annotations

import argparse
import base64
import dataclasses
import hashlib
import hmac
import http.client
import io
import ipaddress
import json
import logging
import os
import re
import secrets
import socket
import sys
import threading
import time
import warnings
from datetime import timedelta
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs, unquote_plus, urlencode, urlsplit, urlunsplit

# Run as a script: make sure the shared helpers next to this file can be imported.
_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
import peer_runtime  # noqa: E402

# Plain http on loopback: authlib refuses it unless this is set.
os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"
warnings.filterwarnings("ignore", category=DeprecationWarning)
import authlib.deprecate  # noqa: E402

# authlib turns its own deprecation warnings to "always"; silence them (stderr
# stays quiet unless --verbose).
warnings.filterwarnings("ignore", category=authlib.deprecate.AuthlibDeprecationWarning)

import flask  # noqa: E402
import werkzeug.serving  # noqa: E402
import werkzeug.wsgi  # noqa: E402

import oidc_provider_mock  # noqa: E402
from oidc_provider_mock import User  # noqa: E402
from oidc_provider_mock._storage import Client, ClientAllowAny  # noqa: E402

HOST = "127.0.0.1"
DEFAULT_CLIENT_ID = "ssokit-e2e"
DEFAULT_CLIENT_SECRET = "e2e-secret"
MAX_BODY = 1 << 20
# RFC 7636 section 4.1 / 4.2 (same pattern authlib uses)
_PKCE_PATTERN = re.compile(r"^[A-Za-z0-9\-._~]{43,128}$")


def _is_loopback_host(host: str | None) -> bool:
    if not host:
        return False
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclasses.dataclass(kw_only=True, frozen=True)
class LoopbackClient(Client):
    """A registered confidential client whose redirect URIs may be any http
    loopback URI (RFC 8252 section 7.3: the port is chosen at run time)."""

    auth_methods: tuple[str, ...] = ("client_secret_basic", "client_secret_post")

    def check_redirect_uri(self, redirect_uri: str) -> bool:
        try:
            parts = urlsplit(redirect_uri)
            parts.port  # noqa: B018 - raises ValueError on a bad port
        except ValueError:
            return False
        return (
            parts.scheme == "http"
            and _is_loopback_host(parts.hostname)
            and not parts.fragment
        )

    def check_endpoint_auth_method(self, method: str, endpoint: object) -> bool:
        return method in self.auth_methods


class PkceLayer:
    """WSGI middleware adding RFC 7636 PKCE (S256) to the mock.

    * POST /oauth2/authorize: when the mock answers with a redirect carrying a
      ``code`` (so client and redirect_uri were already validated by the mock),
      the ``code_challenge`` of the request is checked. A bad one (or a missing
      one in ``require`` mode) turns the redirect into an
      ``error=invalid_request`` redirect and the code is never usable.
    * POST /oauth2/token with grant_type=authorization_code: the
      ``code_verifier`` is checked against the stored challenge before the mock
      sees the request (invalid_request / invalid_grant as authlib would do).
    * GET /.well-known/openid-configuration gains
      ``code_challenge_methods_supported: ["S256"]``.

    With mode "off" none of the above happens. Independently, when
    ``fix_error_state`` is set, an error redirect from the authorization
    endpoint that lacks ``state`` (the mock forgets it when the user presses
    Deny) gets the request's ``state`` added, as RFC 6749 4.1.2.1 requires.
    """

    def __init__(self, app, mode: str, fix_error_state: bool = True):
        self.app = app
        self.mode = mode  # "require" | "verify" | "off"
        self.fix_error_state = fix_error_state
        self.lock = threading.Lock()
        # code -> challenge (str) or None (no PKCE used); False = poisoned
        self.codes: dict[str, str | None | bool] = {}

    # -- helpers ---------------------------------------------------------

    @staticmethod
    def _buffer_body(environ) -> bytes:
        stream = werkzeug.wsgi.get_input_stream(environ, max_content_length=MAX_BODY)
        body = stream.read(MAX_BODY + 1)[:MAX_BODY]
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        environ["wsgi.input_terminated"] = False
        return body

    @staticmethod
    def _params(environ, body: bytes) -> dict[str, list[str]]:
        params = parse_qs(environ.get("QUERY_STRING", ""), keep_blank_values=True)
        ctype = environ.get("CONTENT_TYPE", "")
        if ctype.split(";")[0].strip().lower() == "application/x-www-form-urlencoded":
            for k, v in parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True).items():
                params.setdefault(k, []).extend(v)
        return params

    def _call(self, environ):
        captured: dict = {}

        def start_response(status, headers, exc_info=None):
            captured["status"] = status
            captured["headers"] = list(headers)
            return lambda data: captured.setdefault("early", []).append(data)

        result = self.app(environ, start_response)
        try:
            chunks = list(captured.get("early", [])) + list(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        return captured["status"], captured["headers"], b"".join(chunks)

    @staticmethod
    def _reply(start_response, status, headers, body: bytes):
        headers = [(k, v) for k, v in headers if k.lower() != "content-length"]
        headers.append(("Content-Length", str(len(body))))
        start_response(status, headers)
        return [body]

    @staticmethod
    def _token_error(start_response, error: str, description: str):
        body = json.dumps({"error": error, "error_description": description}).encode()
        return PkceLayer._reply(
            start_response,
            "400 BAD REQUEST",
            [
                ("Content-Type", "application/json"),
                ("Cache-Control", "no-store"),
                ("Pragma", "no-cache"),
            ],
            body,
        )

    # -- WSGI ------------------------------------------------------------

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        method = environ.get("REQUEST_METHOD", "GET")
        if path == "/.well-known/openid-configuration" and method == "GET" and self.mode != "off":
            return self._discovery(environ, start_response)
        if path == "/oauth2/authorize" and method == "POST":
            return self._authorize(environ, start_response)
        if path == "/oauth2/token" and method == "POST" and self.mode != "off":
            return self._token(environ, start_response)
        return self.app(environ, start_response)

    def _discovery(self, environ, start_response):
        status, headers, body = self._call(environ)
        if status.startswith("200"):
            doc = json.loads(body)
            doc["code_challenge_methods_supported"] = ["S256"]
            body = json.dumps(doc, indent=2, sort_keys=True).encode()
        return self._reply(start_response, status, headers, body)

    def _authorize(self, environ, start_response):
        params = self._params(environ, self._buffer_body(environ))
        status, headers, body = self._call(environ)
        location = next((v for k, v in headers if k.lower() == "location"), None)
        if not status.startswith("302") or not location:
            return self._reply(start_response, status, headers, body)
        loc = urlsplit(location)
        query = parse_qs(loc.query, keep_blank_values=True)
        codes = query.get("code")
        if not codes:
            req_state = params.get("state")
            if self.fix_error_state and "error" in query and "state" not in query and req_state and req_state[0]:
                query["state"] = [req_state[0]]
                new_loc = urlunsplit(loc._replace(query=urlencode(query, doseq=True)))
                headers = [(k, new_loc if k.lower() == "location" else v) for k, v in headers]
            return self._reply(start_response, status, headers, body)
        code = codes[0]
        if self.mode == "off":
            return self._reply(start_response, status, headers, body)

        challenges = params.get("code_challenge", [])
        methods = params.get("code_challenge_method", [])
        error = None
        if len(challenges) > 1 or len(methods) > 1:
            error = "Multiple 'code_challenge' or 'code_challenge_method' in request."
        elif challenges and challenges[0]:
            cm = methods[0] if methods and methods[0] else "plain"
            if cm != "S256":
                error = f"Unsupported 'code_challenge_method' {cm!r}; only S256 is supported."
            elif not _PKCE_PATTERN.match(challenges[0]):
                error = "Invalid 'code_challenge'."
        elif methods and methods[0]:
            error = "Missing 'code_challenge'."
        elif self.mode == "require":
            error = "PKCE is required: send code_challenge and code_challenge_method=S256."

        with self.lock:
            if error:
                self.codes[code] = False
            else:
                self.codes[code] = challenges[0] if challenges else None

        if error:
            logging.getLogger("op").warning("authorize: %s", error)
            query.pop("code", None)
            query["error"] = ["invalid_request"]
            query["error_description"] = [error]
            new_loc = urlunsplit(loc._replace(query=urlencode(query, doseq=True)))
            headers = [(k, new_loc if k.lower() == "location" else v) for k, v in headers]
            body = b""
        return self._reply(start_response, status, headers, body)

    def _token(self, environ, start_response):
        params = self._params(environ, self._buffer_body(environ))
        grant_type = (params.get("grant_type") or [""])[0]
        if grant_type != "authorization_code":
            return self.app(environ, start_response)
        code = (params.get("code") or [""])[0]
        verifier = (params.get("code_verifier") or [None])[0]
        with self.lock:
            entry = self.codes.get(code, None)
            known = code in self.codes
        if known and entry is False:
            return self._token_error(start_response, "invalid_grant", "Invalid 'code' in request.")
        if isinstance(entry, str):
            if not verifier:
                return self._token_error(start_response, "invalid_request", "Missing 'code_verifier'")
            if not _PKCE_PATTERN.match(verifier):
                return self._token_error(start_response, "invalid_request", "Invalid 'code_verifier'")
            computed = (
                base64.urlsafe_b64encode(hashlib.sha256(verifier.encode("ascii")).digest())
                .rstrip(b"=")
                .decode("ascii")
            )
            if computed != entry:
                return self._token_error(start_response, "invalid_grant", "Code challenge failed.")
        elif known and verifier:
            return self._token_error(
                start_response,
                "invalid_request",
                "The authorization request had no 'code_challenge', but a 'code_verifier' was provided.",
            )
        status, headers, body = self._call(environ)
        if status.startswith("200"):
            with self.lock:
                self.codes.pop(code, None)
        return self._reply(start_response, status, headers, body)


class RevocationLayer:
    """WSGI middleware adding an RFC 7009 revocation endpoint (see --revocation) to the mock."""

    PATH = "/oauth2/revoke"
    _call = PkceLayer._call  # buffers the wrapped app's answer (uses self.app)

    def __init__(self, app, mode: str, storage, client_id: str | None, client_secret: str | None,
                 hang_seconds: float, stop: threading.Event):
        self.app = app
        self.mode = mode
        self.storage = storage
        self.client_id = client_id
        self.client_secret = client_secret
        self.hang_seconds = hang_seconds
        self.stop = stop
        self.lock = threading.Lock()
        self.log: list[dict] = []

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        method = environ.get("REQUEST_METHOD", "GET")
        if path == "/.well-known/openid-configuration" and method == "GET":
            return self._discovery(environ, start_response)
        if path == self.PATH and method == "POST":
            return self._revoke(environ, start_response)
        if path == "/test/revocations" and method == "GET":
            with self.lock:
                body = json.dumps(self.log).encode()
            return PkceLayer._reply(start_response, "200 OK", [("Content-Type", "application/json")], body)
        return self.app(environ, start_response)

    def _discovery(self, environ, start_response):
        status, headers, body = self._call(environ)
        if status.startswith("200"):
            doc = json.loads(body)
            doc["revocation_endpoint"] = doc["issuer"] + self.PATH
            body = json.dumps(doc, indent=2, sort_keys=True).encode()
        return PkceLayer._reply(start_response, status, headers, body)

    def _authenticated(self, environ, params) -> bool:
        """client_secret_basic (RFC 6749 §2.3.1: form-urlencoded id and secret) or client_secret_post."""
        if self.client_id is None:
            return True
        header = environ.get("HTTP_AUTHORIZATION", "")
        if header[:6].lower() == "basic ":
            try:
                decoded = base64.b64decode(header[6:].strip(), validate=True).decode("utf-8")
            except (ValueError, UnicodeDecodeError):
                return False
            client, _, secret = decoded.partition(":")
            client, secret = unquote_plus(client), unquote_plus(secret)
        else:
            client = (params.get("client_id") or [""])[0]
            secret = (params.get("client_secret") or [None])[0]
            if secret is None:
                return False
        return hmac.compare_digest(client.encode(), self.client_id.encode()) and hmac.compare_digest(
            secret.encode(), (self.client_secret or "").encode())

    def _record(self, entry: dict) -> None:
        with self.lock:
            self.log.append(entry)

    def _revoke(self, environ, start_response):
        params = PkceLayer._params(environ, PkceLayer._buffer_body(environ))
        hint = (params.get("token_type_hint") or [None])[0]
        token = (params.get("token") or [""])[0]
        authenticated = self._authenticated(environ, params)
        entry = {"token_type_hint": hint, "authenticated": authenticated, "revoked": None}
        if self.mode == "error-500":
            entry["status"] = 500
            self._record(entry)
            return PkceLayer._reply(start_response, "500 INTERNAL SERVER ERROR", [("Content-Type", "text/plain")],
                                    b"revocation is broken today\n")
        if self.mode == "hang":
            entry["status"] = 200
            self._record(entry)
            self.stop.wait(self.hang_seconds)
            return PkceLayer._reply(start_response, "200 OK", [("Content-Type", "application/json")], b"{}")
        if self.mode == "client-auth" and not authenticated:
            entry["status"] = 401
            self._record(entry)
            body = json.dumps({"error": "invalid_client", "error_description": "client authentication failed"})
            return PkceLayer._reply(start_response, "401 UNAUTHORIZED", [
                ("Content-Type", "application/json"), ("WWW-Authenticate", 'Basic realm="revocation"'),
                ("Cache-Control", "no-store")], body.encode())
        if not token:
            entry["status"] = 400
            self._record(entry)
            return PkceLayer._token_error(start_response, "invalid_request", "Missing 'token'.")
        # RFC 7009 §2.1: the hint only speeds up the lookup; an unknown token is still a 200.
        if self.storage.remove_refresh_token(token) is not None:
            entry["revoked"] = "refresh_token"
        elif self.storage.remove_access_token(token) is not None:
            entry["revoked"] = "access_token"
        entry["status"] = 200
        self._record(entry)
        return PkceLayer._reply(start_response, "200 OK", [("Content-Type", "application/json"),
                                                          ("Cache-Control", "no-store")], b"{}")


class RefreshDelayLayer:
    """WSGI middleware: a slow token endpoint for refresh grants, with one use per refresh token (see
    --refresh-delay)."""

    def __init__(self, app, delay: float, stop: threading.Event):
        self.app = app
        self.delay = delay
        self.stop = stop
        self.lock = threading.Lock()
        self.log: list[dict] = []
        self.spent: set[str] = set()

    @staticmethod
    def _client_gone(environ) -> bool:
        """Whether the client closed its connection (a peek that reads end of stream)."""
        sock = environ.get("werkzeug.socket")
        if sock is None:
            return False
        try:
            sock.setblocking(False)
            try:
                return sock.recv(1, socket.MSG_PEEK) == b""
            finally:
                sock.setblocking(True)
        except BlockingIOError:
            return False
        except OSError:
            return True

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        method = environ.get("REQUEST_METHOD", "GET")
        if path == "/test/refreshes" and method == "GET":
            with self.lock:
                body = json.dumps(self.log).encode()
            return PkceLayer._reply(start_response, "200 OK", [("Content-Type", "application/json")], body)
        if path != "/oauth2/token" or method != "POST":
            return self.app(environ, start_response)
        params = PkceLayer._params(environ, PkceLayer._buffer_body(environ))
        if (params.get("grant_type") or [""])[0] != "refresh_token":
            return self.app(environ, start_response)
        digest = hashlib.sha256((params.get("refresh_token") or [""])[0].encode()).hexdigest()[:16]
        entry = {"token": digest, "outcome": None, "status": None}
        with self.lock:
            self.log.append(entry)
        self.stop.wait(self.delay)
        with self.lock:
            if self._client_gone(environ):
                entry["outcome"] = "dropped"
                return []
            if digest in self.spent:
                entry["outcome"], entry["status"] = "reused", 400
                reused = True
            else:
                self.spent.add(digest)
                entry["outcome"] = "forwarded"
                reused = False
        if reused:
            return PkceLayer._token_error(start_response, "invalid_grant", "the refresh token was already used")

        def recording_start_response(status, headers, exc_info=None):
            entry["status"] = int(status.split(" ", 1)[0])
            return start_response(status, headers, exc_info)

        return self.app(environ, recording_start_response)


class SessionLayer:
    """WSGI middleware giving the mock an IdP session (see --session-lifetime).

    * POST /oauth2/authorize whose answer redirects with a ``code`` (the form
      was submitted for a ``sub``): the answer also sets the cookie op_session,
      and the server remembers that session's sub for ``lifetime`` seconds.
    * GET /oauth2/authorize with a live op_session cookie: forwarded as the
      form's POST for that sub, so it redirects with a code without a page.
      The protocol messages stay the mock's own (and PkceLayer's checks run).
    """

    COOKIE = "op_session"
    MAX_SESSIONS = 10_000
    _call = PkceLayer._call

    def __init__(self, app, lifetime: float):
        self.app = app
        self.lifetime = lifetime
        self.lock = threading.Lock()
        self.sessions: dict[str, tuple[str, float]] = {}  # id -> (sub, expiry on the monotonic clock)
        self.form_logins = 0
        self.cookie_logins = 0

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        method = environ.get("REQUEST_METHOD", "GET")
        if path == "/oauth2/authorize" and method == "GET":
            sub = self._session_sub(environ)
            if sub is not None:
                return self._authorize_with_session(environ, start_response, sub)
        elif path == "/oauth2/authorize" and method == "POST":
            return self._remember(environ, start_response)
        elif path == "/test/sessions/revoke" and method == "POST":
            with self.lock:
                count = len(self.sessions)
                self.sessions.clear()
            return self._json(start_response, {"revoked": count})
        elif path == "/test/sessions" and method == "GET":
            now = time.monotonic()
            with self.lock:
                report = {"active": sum(1 for _, expiry in self.sessions.values() if expiry > now),
                          "form_logins": self.form_logins, "cookie_logins": self.cookie_logins}
            return self._json(start_response, report)
        return self.app(environ, start_response)

    @staticmethod
    def _json(start_response, value):
        return PkceLayer._reply(start_response, "200 OK", [("Content-Type", "application/json")],
                                json.dumps(value).encode())

    def _session_sub(self, environ) -> str | None:
        cookie = SimpleCookie()
        try:
            cookie.load(environ.get("HTTP_COOKIE", ""))
        except CookieError:
            return None
        morsel = cookie.get(self.COOKIE)
        if morsel is None:
            return None
        with self.lock:
            entry = self.sessions.get(morsel.value)
            if entry and entry[1] > time.monotonic():
                return entry[0]
            self.sessions.pop(morsel.value, None)
        return None

    def _authorize_with_session(self, environ, start_response, sub: str):
        body = urlencode({"sub": sub}).encode()
        environ = dict(environ)
        environ["REQUEST_METHOD"] = "POST"
        environ["CONTENT_TYPE"] = "application/x-www-form-urlencoded"
        environ["CONTENT_LENGTH"] = str(len(body))
        environ["wsgi.input"] = io.BytesIO(body)
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        with self.lock:
            self.cookie_logins += 1
        return self.app(environ, start_response)

    def _remember(self, environ, start_response):
        params = PkceLayer._params(environ, PkceLayer._buffer_body(environ))
        sub = (params.get("sub") or [None])[0]
        status, headers, body = self._call(environ)
        location = next((v for k, v in headers if k.lower() == "location"), None)
        if sub and location and parse_qs(urlsplit(location).query).get("code"):
            session = secrets.token_urlsafe(24)
            now = time.monotonic()
            with self.lock:
                if len(self.sessions) >= self.MAX_SESSIONS:
                    self.sessions = {k: v for k, v in self.sessions.items() if v[1] > now}
                self.sessions[session] = (sub, now + self.lifetime)
                self.form_logins += 1
            headers = list(headers) + [
                ("Set-Cookie", f"{self.COOKIE}={session}; Path=/oauth2; HttpOnly; Max-Age={max(1, int(self.lifetime))}")]
        return PkceLayer._reply(start_response, status, headers, body)


def _parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    peer_runtime.add_server_arguments(p)
    p.add_argument("--client-id", default=DEFAULT_CLIENT_ID)
    p.add_argument("--client-secret", default=DEFAULT_CLIENT_SECRET)
    p.add_argument(
        "--client-auth",
        choices=["basic+post", "client_secret_basic", "client_secret_post"],
        default="basic+post",
        help="token endpoint auth methods the registered client may use (default basic+post). "
        "NB: the mock's refresh_token grant only ever accepts client_secret_basic.",
    )
    p.add_argument("--any-client", action="store_true", help="stock mock behaviour: accept any client_id/secret/redirect_uri")
    p.add_argument(
        "--pkce",
        choices=["require", "verify", "off"],
        default="require",
        help="require: S256 challenge mandatory (default); verify: checked only when sent; off: stock mock (PKCE ignored)",
    )
    p.add_argument(
        "--stock-deny",
        action="store_true",
        help="keep the mock's bug of dropping 'state' from the access_denied redirect (default: state is added)",
    )
    p.add_argument(
        "--revocation",
        choices=["off", "public", "client-auth", "error-500", "hang"],
        default="off",
        help="add an RFC 7009 revocation endpoint at /oauth2/revoke (default off: the mock has none)",
    )
    p.add_argument(
        "--revocation-hang-seconds",
        type=float,
        default=30,
        help="with --revocation hang: how long each request waits before its 200 (default 30)",
    )
    p.add_argument(
        "--session-lifetime",
        type=float,
        default=0,
        metavar="S",
        help="give the mock an IdP session: a cookie set when the form is submitted, honoured for S seconds "
        "(default 0: no session, the form at every authorization)",
    )
    p.add_argument(
        "--refresh-delay",
        type=float,
        default=0,
        metavar="S",
        help="hold each refresh_token grant S seconds before the mock sees it, drop it if its client has gone, "
        "refuse a refresh token used before (default 0: the mock as it is)",
    )
    p.add_argument("--require-nonce", action="store_true", help="reject authorization requests without nonce")
    p.add_argument("--no-refresh-token", action="store_true", help="do not issue refresh tokens")
    p.add_argument(
        "--token-max-age",
        type=int,
        default=3600,
        help="lifetime in seconds of access token, ID token AND refresh token (default 3600)",
    )
    p.add_argument(
        "--user-claims",
        action="append",
        default=[],
        metavar="JSON",
        help='predefined user, e.g. \'{"sub":"alice@example.com","email":"alice@example.com","name":"Alice"}\' (repeatable)',
    )
    return peer_runtime.parse_peer_arguments(
        p,
        argv,
        verbose_help="log requests and mock warnings to stderr",
        log_file_help="append request/mock logs to this file instead",
    )


def build_app(args, stop: threading.Event | None = None):
    users = []
    for raw in args.user_claims:
        claims = json.loads(raw)
        if not isinstance(claims, dict) or not isinstance(claims.get("sub"), str):
            raise SystemExit("--user-claims needs a JSON object with a string 'sub'")
        sub = claims.pop("sub")
        users.append(User(sub=sub, claims=claims))

    flask_app = oidc_provider_mock.app(
        require_client_registration=not args.any_client,
        require_nonce=args.require_nonce,
        issue_refresh_token=not args.no_refresh_token,
        access_token_max_age=timedelta(seconds=args.token_max_age),
        user_claims=users,
    )
    if not args.any_client:
        methods = (
            ("client_secret_basic", "client_secret_post")
            if args.client_auth == "basic+post"
            else (args.client_auth,)
        )
        client = LoopbackClient(
            id=args.client_id,
            secret=args.client_secret,
            redirect_uris=ClientAllowAny(),  # checked by LoopbackClient.check_redirect_uri
            allowed_scopes=Client.SCOPES_SUPPORTED,
            token_endpoint_auth_method=ClientAllowAny(),  # checked via auth_methods
            auth_methods=methods,
        )
    # The mock keeps its in-memory storage behind flask.g; reach it once.
    with flask_app.test_request_context("/"):
        flask_app.preprocess_request()
        storage = flask.g.oidc_provider_mock_storage
    if not args.any_client:
        storage.store_client(client)

    app = flask_app
    if not (args.pkce == "off" and args.stock_deny):
        app = PkceLayer(flask_app, args.pkce, fix_error_state=not args.stock_deny)
    if args.revocation != "off":
        registered = (None, None) if args.any_client or args.revocation == "public" else (
            args.client_id, args.client_secret)
        app = RevocationLayer(app, args.revocation, storage, *registered, hang_seconds=args.revocation_hang_seconds,
                              stop=stop or threading.Event())
    if args.refresh_delay > 0:
        app = RefreshDelayLayer(app, args.refresh_delay, stop or threading.Event())
    if args.session_lifetime > 0:
        app = SessionLayer(app, args.session_lifetime)
    return app


def _wait_until_serving(port: int, deadline: float) -> bool:
    while time.monotonic() < deadline:
        conn = http.client.HTTPConnection(HOST, port, timeout=2)
        try:
            conn.request("GET", "/.well-known/openid-configuration")
            resp = conn.getresponse()
            resp.read()
            if resp.status == 200:
                return True
        except OSError:
            pass
        finally:
            conn.close()
        time.sleep(0.05)
    return False


def main(argv=None) -> int:
    args = _parse_args(argv)
    # werkzeug installs its own stderr handler if it finds none on its logger.
    peer_runtime.setup_logging(args, non_propagating_loggers=("werkzeug",))
    started = time.monotonic()
    stop = peer_runtime.install_stop_signals()
    app = build_app(args, stop)

    server = werkzeug.serving.make_server(HOST, args.port, app, threaded=True)
    port = server.server_port
    peer_runtime.start_serving(server)

    if not _wait_until_serving(port, time.monotonic() + 15):
        print(f"op.py: server on {HOST}:{port} did not come up", file=sys.stderr)
        server.shutdown()
        return 1

    print(f"READY http://{HOST}:{port}", flush=True)

    reason = peer_runtime.wait_for_stop(stop, deadline=started + args.max_seconds, parent=os.getppid())

    logging.getLogger("op").info("stopping: %s", reason)
    peer_runtime.shut_down(server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
