#!/usr/bin/env python3
"""Real SAML 2.0 Identity Provider for the SSOKit end-to-end tests.

A pysaml2 IdP (saml2.server.Server, pinned in requirements.txt) on 127.0.0.1:

    saml_idp.py --sp-metadata SP_METADATA.xml [--port 0]

prints the chosen TCP port alone on the first stdout line (flushed) once it
listens, then serves until SIGTERM/SIGINT/SIGHUP, until --max-seconds has
passed, or until the process that started it has died. Exit 0.

Entity ID:  http://127.0.0.1:PORT/idp/metadata

    GET /idp/metadata        the IdP's metadata (signing certificate = fixtures/saml/keys/idp.crt,
                             SSO endpoints /idp/sso/redirect and /idp/sso/post)
    GET /idp/sso/redirect    ?SAMLRequest=…&RelayState=…&SigAlg=…&Signature=…  (HTTP-Redirect binding)
    POST /idp/sso/post       SAMLRequest=…&RelayState=… as application/x-www-form-urlencoded (HTTP-POST binding)

An AuthnRequest must be signed (want_authn_requests_signed): pysaml2 checks
the redirect-binding signature, or the enveloped XML signature of a POSTed
request, against the SP's signing certificate(s) from the SP metadata.
Accepted: 200 with pysaml2's HTTP-POST auto-post page carrying a signed
SAMLResponse for the fixed user. Unsigned, badly signed or tampered: 403.
Undecodable, ACS URL not in the SP metadata, IssueInstant out of range,
repeated parameters: 400.

Without --login-password the user is fixed and there is no login page. With
--login-password P the IdP has a login page and a session: an AuthnRequest
from a browser without a live idp_sid cookie gets a username/password form
(POST /idp/login, the pending request kept server-side under a one-time
ticket); the right credentials (--login-user, default alice, and P) set the
cookie idp_sid (Path=/idp, HttpOnly, Max-Age=--session-lifetime, default
3600) and redirect to GET /idp/sso/continue?ticket=..., which answers the
pending request; wrong ones show the form again. Later requests with the
cookie are answered at once. POST /test/sessions/revoke ends every session;
GET /test/sessions says {"active": N, "logins": N, "failed_logins": N}.

The user is fixed: NameID alice@example.com (emailAddress
format) with mail, givenName and the two-valued eduPersonAffiliation, sent by
pysaml2's attribute converters under their urn:oid names (NameFormat uri).
Signatures are RSA-SHA256 with SHA-256 digests (pysaml2's default is SHA-1).
"""

from __future__ import annotations

import argparse
import hmac
import html
import http.server
import json
import secrets
import logging
import os
import shutil
import sys
import threading
import time
import warnings
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

# Run as a script: make sure the shared helpers next to this file can be imported.
_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
import peer_runtime  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)
try:
    from cryptography.utils import CryptographyDeprecationWarning

    warnings.filterwarnings("ignore", category=CryptographyDeprecationWarning)
except ImportError:  # pragma: no cover
    pass

from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT  # noqa: E402
from saml2.config import IdPConfig  # noqa: E402
from saml2.metadata import entity_descriptor  # noqa: E402
from saml2.request import AuthnRequest  # noqa: E402
from saml2.s_utils import UnknownPrincipal, UnsupportedBinding  # noqa: E402
from saml2.saml import AUTHN_PASSWORD_PROTECTED, NAME_FORMAT_URI, NAMEID_FORMAT_EMAILADDRESS, NameID  # noqa: E402
from saml2.server import Server  # noqa: E402
from saml2.sigver import get_xmlsec_binary  # noqa: E402
from saml2.xmldsig import DIGEST_SHA256, SIG_RSA_SHA256  # noqa: E402

HOST = "127.0.0.1"
KEYS = Path(__file__).resolve().parents[3] / "fixtures" / "saml" / "keys"
MAX_MESSAGE = 256 * 1024

USER = "alice@example.com"
IDENTITY = {
    "mail": [USER],
    "givenName": ["Alice"],
    "eduPersonAffiliation": ["member", "staff"],
}

log = logging.getLogger("saml_idp")


class Refused(Exception):
    """A request the IdP will not answer with a Response."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


def _xmlsec1() -> str:
    try:
        return get_xmlsec_binary()
    except Exception:
        found = shutil.which("xmlsec1")
        if not found:
            raise SystemExit("saml_idp.py: the xmlsec1 command-line tool is not installed")
        return found


def build_server(base_url: str, sp_metadata: str, sign: str) -> Server:
    entity_id = f"{base_url}/idp/metadata"
    policy = {
        "default": {
            "lifetime": {"minutes": 5},
            "attribute_restrictions": None,  # release every attribute
            "name_form": NAME_FORMAT_URI,
            "nameid_format": NAMEID_FORMAT_EMAILADDRESS,
        }
    }
    algorithms = {"signing_algorithm": SIG_RSA_SHA256, "digest_algorithm": DIGEST_SHA256}
    config = IdPConfig().load(
        {
            "entityid": entity_id,
            "key_file": str(KEYS / "idp.key"),
            "cert_file": str(KEYS / "idp.crt"),
            "xmlsec_binary": _xmlsec1(),
            "metadata": {"local": [sp_metadata]},
            "accepted_time_diff": 60,
            # pysaml2 reads these per service ("idp"), not at the top level; both are set to be safe.
            **algorithms,
            "service": {
                "idp": {
                    **algorithms,
                    "endpoints": {
                        "single_sign_on_service": [
                            (f"{base_url}/idp/sso/redirect", BINDING_HTTP_REDIRECT),
                            (f"{base_url}/idp/sso/post", BINDING_HTTP_POST),
                        ],
                    },
                    "want_authn_requests_signed": True,
                    "sign_assertion": sign in ("assertion", "both"),
                    "sign_response": sign in ("response", "both"),
                    "name_id_format": [NAMEID_FORMAT_EMAILADDRESS],
                    "policy": policy,
                }
            },
        }
    )
    return Server(config=config)


class IdP:
    def __init__(self, server: Server, sign: str):
        self.server = server
        self.sign_assertion = sign in ("assertion", "both")
        self.sign_response = sign in ("response", "both")
        # pysaml2's Server keeps state (caches, the security context's temp files): one request at a time.
        self.lock = threading.Lock()
        self.metadata = str(entity_descriptor(server.config)).encode("utf-8")

    def sso(self, body: str, binding: str) -> bytes:
        """Answers an AuthnRequest: `body` is the query string (HTTP-Redirect) or the form body (HTTP-POST)."""
        if len(body) > MAX_MESSAGE:
            raise Refused(400, "message too long")
        try:
            params = parse_qs(body, keep_blank_values=True, strict_parsing=True, max_num_fields=16)
        except ValueError as exc:
            raise Refused(400, f"malformed parameters: {exc}")
        repeated = sorted(k for k, v in params.items() if len(v) != 1)
        if repeated:
            raise Refused(400, f"repeated parameters: {', '.join(repeated)}")
        values = {k: v[0] for k, v in params.items()}
        saml_request = values.get("SAMLRequest")
        if not saml_request:
            raise Refused(400, "no SAMLRequest")
        relay_state = values.get("RelayState")
        sig_alg = values.get("SigAlg")
        signature = values.get("Signature")
        if binding == BINDING_HTTP_REDIRECT and (not sig_alg or not signature):
            raise Refused(403, "the AuthnRequest is not signed (no SigAlg/Signature)")

        with self.lock:
            # want_authn_requests_signed makes pysaml2 (saml2.request.Request._loads) demand a signature:
            # - HTTP-Redirect: it rebuilds SAMLRequest=…&RelayState=…&SigAlg=… and checks Signature with
            #   saml2.sigver.verify_redirect_signature against every signing certificate that the SP metadata lists
            #   for the request's Issuer (self.sec.metadata.certs(issuer, "any", "signing"));
            # - HTTP-POST: SecurityContext.correctly_signed_authn_request checks the enveloped XML signature with
            #   xmlsec1 against the same metadata certificates (never the KeyInfo in the message), after validating
            #   the request against the SAML schema.
            # Anything short of a match raises IncorrectlySigned.
            try:
                if binding == BINDING_HTTP_REDIRECT:
                    request = self.server.parse_authn_request(
                        saml_request,
                        BINDING_HTTP_REDIRECT,
                        relay_state=relay_state,
                        sigalg=sig_alg,
                        signature=signature,
                    )
                else:
                    request = self.server.parse_authn_request(saml_request, BINDING_HTTP_POST)
            except Exception as exc:  # noqa: BLE001 - every failure is a refusal; the kind picks the status
                status = 403 if _is_signature_failure(exc) else 400
                raise Refused(status, f"{type(exc).__name__}: {exc}")
            if not isinstance(request, AuthnRequest) or request.message is None:
                raise Refused(400, "not an AuthnRequest")
            # pysaml2 computes but ignores this result (Entity._parse_request drops _request.verify()'s value).
            if not request.issue_instant_ok():
                raise Refused(400, "IssueInstant out of range")

            try:
                # Destination = the request's AssertionConsumerServiceURL, but only if the SP metadata lists it.
                args = self.server.response_args(request.message, [BINDING_HTTP_POST])
            except Exception as exc:  # noqa: BLE001
                raise Refused(400, f"no usable AssertionConsumerService: {type(exc).__name__}: {exc}")
            args.pop("binding", None)
            destination = args.pop("destination")
            try:
                response = self.server.create_authn_response(
                    IDENTITY,
                    name_id=NameID(format=NAMEID_FORMAT_EMAILADDRESS, text=USER),
                    authn={"class_ref": AUTHN_PASSWORD_PROTECTED, "authn_auth": self.server.config.entityid},
                    sign_assertion=self.sign_assertion,
                    sign_response=self.sign_response,
                    sign_alg=SIG_RSA_SHA256,
                    digest_alg=DIGEST_SHA256,
                    destination=destination,
                    **args,
                )
            except (UnknownPrincipal, UnsupportedBinding) as exc:
                raise Refused(400, f"{type(exc).__name__}: {exc}")
            if isinstance(response, list):  # pysaml2 returns an error Response split into lines on OSError
                raise Refused(500, "pysaml2 could not build the Response")
            page = self.server.apply_binding(
                BINDING_HTTP_POST, str(response), destination, relay_state or "", response=True
            )
        log.info("AuthnRequest %s from %s accepted", request.message.id, request.message.issuer.text)
        data = page["data"]
        return data.encode("utf-8") if isinstance(data, str) else data


class LoginGate:
    """The IdP's login page and session (--login-password): a form in front of every AuthnRequest until the
    browser holds a live idp_sid cookie. Pending requests wait under one-time tickets (bounded, 10 minutes)."""

    COOKIE = "idp_sid"
    MAX_ENTRIES = 1000
    TICKET_SECONDS = 600

    def __init__(self, username: str, password: str, lifetime: float):
        self.username = username
        self.password = password
        self.lifetime = lifetime
        self.lock = threading.Lock()
        self.sessions: dict[str, float] = {}  # id -> expiry (monotonic)
        self.tickets: dict[str, tuple[str, str, float]] = {}  # ticket -> (binding, message body, expiry)
        self.logins = 0
        self.failed_logins = 0

    def has_session(self, cookie_header: str | None) -> bool:
        cookie = SimpleCookie()
        try:
            cookie.load(cookie_header or "")
        except CookieError:
            return False
        morsel = cookie.get(self.COOKIE)
        with self.lock:
            expiry = self.sessions.get(morsel.value) if morsel else None
            return expiry is not None and expiry > time.monotonic()

    def _ticket(self, binding: str, body: str) -> str:
        now = time.monotonic()
        ticket = secrets.token_urlsafe(24)
        with self.lock:
            if len(self.tickets) >= self.MAX_ENTRIES:
                self.tickets = {k: v for k, v in self.tickets.items() if v[2] > now}
                if len(self.tickets) >= self.MAX_ENTRIES:
                    raise Refused(503, "too many logins in progress")
            self.tickets[ticket] = (binding, body, now + self.TICKET_SECONDS)
        return ticket

    def _take(self, ticket: str) -> tuple[str, str] | None:
        with self.lock:
            entry = self.tickets.pop(ticket, None)
        if entry is None or entry[2] <= time.monotonic():
            return None
        return entry[0], entry[1]

    def page(self, binding: str, body: str, failed: bool = False) -> bytes:
        ticket = self._ticket(binding, body)
        error = "<p>Wrong user name or password.</p>" if failed else ""
        return (
            "<!DOCTYPE html><html><head><title>Sign in</title></head><body>" + error
            + '<form method="post" action="/idp/login">'
            + f'<input type="hidden" name="ticket" value="{html.escape(ticket)}">'
            + '<label>User name <input type="text" name="username" autocomplete="username"></label>'
            + '<label>Password <input type="password" name="password" autocomplete="current-password"></label>'
            + '<button type="submit">Sign in</button></form></body></html>'
        ).encode()

    def submit(self, form: str) -> tuple[int, list[tuple[str, str]], bytes]:
        """The login form posted: (status, extra headers, body)."""
        try:
            values = {k: v[0] for k, v in parse_qs(form, keep_blank_values=True, max_num_fields=8).items()}
        except ValueError:
            raise Refused(400, "malformed login form")
        pending = self._take(values.get("ticket", ""))
        if pending is None:
            raise Refused(400, "unknown or expired login ticket")
        ok = hmac.compare_digest(values.get("username", "").encode(), self.username.encode()) and hmac.compare_digest(
            values.get("password", "").encode(), self.password.encode())
        if not ok:
            with self.lock:
                self.failed_logins += 1
            return 200, [], self.page(*pending, failed=True)
        session = secrets.token_urlsafe(24)
        with self.lock:
            now = time.monotonic()
            if len(self.sessions) >= self.MAX_ENTRIES:
                self.sessions = {k: v for k, v in self.sessions.items() if v > now}
            self.sessions[session] = now + self.lifetime
            self.logins += 1
        continuation = self._ticket(*pending)
        return 302, [
            ("Location", "/idp/sso/continue?" + urlencode({"ticket": continuation})),
            ("Set-Cookie", f"{self.COOKIE}={session}; Path=/idp; HttpOnly; Max-Age={max(1, int(self.lifetime))}"),
        ], b""

    def resume(self, ticket: str) -> tuple[str, str] | None:
        return self._take(ticket)

    def revoke_all(self) -> int:
        with self.lock:
            count = len(self.sessions)
            self.sessions.clear()
        return count

    def report(self) -> dict:
        now = time.monotonic()
        with self.lock:
            return {"active": sum(1 for v in self.sessions.values() if v > now), "logins": self.logins,
                    "failed_logins": self.failed_logins}


def _is_signature_failure(exc: BaseException) -> bool:
    from saml2.response import IncorrectlySigned
    from saml2.sigver import SignatureError

    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, (IncorrectlySigned, SignatureError)):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def make_handler(idp: IdP, gate: LoginGate | None = None):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = 10
        server_version = "ssokit-e2e-saml-idp"

        def log_message(self, fmt, *args):
            log.info("%s %s", self.address_string(), fmt % args)

        def _send(self, status: int, body: bytes, content_type: str, headers=()) -> None:
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def do_GET(self):  # noqa: N802
            url = urlsplit(self.path)
            if url.path == "/idp/metadata":
                self._send(200, idp.metadata, "application/samlmetadata+xml")
            elif url.path == "/idp/sso/redirect":
                self._gated(BINDING_HTTP_REDIRECT, url.query)
            elif url.path == "/idp/sso/continue" and gate is not None:
                ticket = (parse_qs(url.query).get("ticket") or [""])[0]
                pending = gate.resume(ticket) if gate.has_session(self.headers.get("Cookie")) else None
                if pending is None:
                    self._send(400, b"unknown ticket or no session\n", "text/plain; charset=utf-8")
                else:
                    self._answer(lambda: idp.sso(pending[1], pending[0]))
            elif url.path == "/test/sessions" and gate is not None:
                self._send(200, json.dumps(gate.report()).encode(), "application/json")
            elif url.path == "/idp/sso/post":
                self._send(405, b"POST only (HTTP-POST binding)\n", "text/plain; charset=utf-8")
            else:
                self._send(404, b"not found\n", "text/plain; charset=utf-8")

        def do_POST(self):  # noqa: N802
            url = urlsplit(self.path)
            if url.path == "/test/sessions/revoke" and gate is not None:
                self._send(200, json.dumps({"revoked": gate.revoke_all()}).encode(), "application/json")
                return
            if url.path == "/idp/login" and gate is not None:
                body = self._form_body()
                if body is not None:
                    try:
                        status, headers, page = gate.submit(body)
                    except Refused as refused:
                        self._send(refused.status, f"{refused.reason}\n".encode(), "text/plain; charset=utf-8")
                        return
                    self._send(status, page, "text/html; charset=utf-8", headers)
                return
            if url.path == "/idp/sso/redirect":
                self._send(405, b"GET only (HTTP-Redirect binding)\n", "text/plain; charset=utf-8")
                return
            if url.path != "/idp/sso/post":
                self._send(404, b"not found\n", "text/plain; charset=utf-8")
                return
            body = self._form_body()
            if body is None:
                return
            self._gated(BINDING_HTTP_POST, body)

        def _form_body(self) -> str | None:
            """The form-encoded request body, or None after an error answer."""
            try:
                length = int(self.headers.get("Content-Length", ""))
            except ValueError:
                self.close_connection = True
                self._send(411, b"Content-Length required\n", "text/plain; charset=utf-8")
                return None
            if not 0 <= length <= MAX_MESSAGE:
                self.close_connection = True
                self._send(413, b"too large\n", "text/plain; charset=utf-8")
                return None
            body = self.rfile.read(length).decode("latin-1")
            content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
            if content_type != "application/x-www-form-urlencoded":
                self._send(415, b"application/x-www-form-urlencoded only\n", "text/plain; charset=utf-8")
                return None
            return body

        def _gated(self, binding: str, body: str) -> None:
            """Answers an AuthnRequest, or shows the login page first when logins are on and there is no session."""
            if gate is not None and not gate.has_session(self.headers.get("Cookie")):
                try:
                    page = gate.page(binding, body)
                except Refused as refused:
                    self._send(refused.status, f"{refused.reason}\n".encode(), "text/plain; charset=utf-8")
                    return
                self._send(200, page, "text/html; charset=utf-8")
                return
            self._answer(lambda: idp.sso(body, binding))

        def _answer(self, make_page) -> None:
            try:
                page = make_page()
            except Refused as refused:
                log.warning("refused (%d): %s", refused.status, refused.reason)
                self._send(refused.status, f"{refused.reason}\n".encode(), "text/plain; charset=utf-8")
            else:
                self._send(200, page, "text/html; charset=utf-8")

    return Handler


def _parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sp-metadata", required=True, help="the SP's metadata XML file (its signing certificate checks requests)")
    peer_runtime.add_server_arguments(p)
    p.add_argument(
        "--sign",
        choices=["assertion", "response", "both"],
        default="both",
        help="what the IdP signs in its Response (default both: a signed Assertion in a signed Response)",
    )
    p.add_argument("--login-password", metavar="P", help="show a login page (user --login-user, password P) and keep a session")
    p.add_argument("--login-user", default="alice", help="the user name the login page accepts (default alice)")
    p.add_argument("--session-lifetime", type=float, default=3600, metavar="S",
                   help="with --login-password: how long a session lasts, in seconds (default 3600)")
    args = peer_runtime.parse_peer_arguments(
        p,
        argv,
        verbose_help="log requests and pysaml2 warnings to stderr",
        log_file_help="append logs to this file instead",
    )
    if not os.path.isfile(args.sp_metadata):
        p.error(f"--sp-metadata: no such file: {args.sp_metadata}")
    return args


def main(argv=None) -> int:
    # Unblock and catch the stop signals first thing (see install_stop_signals).
    stop = peer_runtime.install_stop_signals()

    args = _parse_args(argv)
    peer_runtime.setup_logging(args, warning_level_loggers=("saml2",))
    started = time.monotonic()
    parent = os.getppid()

    http.server.ThreadingHTTPServer.allow_reuse_address = False
    httpd = http.server.ThreadingHTTPServer((HOST, args.port), lambda *a: None)  # handler set below
    httpd.daemon_threads = True
    port = httpd.server_address[1]
    try:
        idp = IdP(build_server(f"http://{HOST}:{port}", os.path.abspath(args.sp_metadata), args.sign), args.sign)
    except Exception as exc:  # noqa: BLE001
        print(f"saml_idp.py: cannot start the IdP: {type(exc).__name__}: {exc}", file=sys.stderr)
        httpd.server_close()
        return 1
    gate = LoginGate(args.login_user, args.login_password, args.session_lifetime) if args.login_password else None
    httpd.RequestHandlerClass = make_handler(idp, gate)
    peer_runtime.start_serving(httpd)

    # The socket listens already (bound in the constructor), so the port is usable as soon as it is printed.
    print(port, flush=True)

    reason = peer_runtime.wait_for_stop(stop, deadline=started + args.max_seconds, parent=parent)

    log.info("stopping: %s", reason)
    peer_runtime.shut_down(httpd)
    return 0


if __name__ == "__main__":
    sys.exit(main())
