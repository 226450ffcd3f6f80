#!/usr/bin/env python3
"""Self-test of saml_idp.py without the Swift CLI.

    .venv/bin/python3 saml_selftest.py

Writes SP metadata (made by pysaml2 for the fixture SP key), starts
saml_idp.py with it, plays the SP with pysaml2's own client
(saml2.client.Saml2Client) and checks:

- GET /idp/metadata is the IdP's metadata (entity ID, SSO endpoint, idp.crt);
- a signed HTTP-Redirect AuthnRequest is answered with an auto-post page whose
  SAMLResponse pysaml2's SP accepts (signatures, InResponseTo, Destination,
  NameID, attributes), signed with RSA-SHA256 / SHA-256 only;
- an unsigned request, a request signed by another key, and a signed request
  with its Signature, RelayState, SigAlg or SAMLRequest altered are all 403;
- the same for the HTTP-POST binding (enveloped XML signature);
- malformed or incomplete queries are 400, unknown paths 404;
- SIGTERM stops the peer with exit 0;
- with --login-password: a login page before the Response, a wrong password
  shows it again, the right one sets idp_sid and continues the pending request,
  the cookie answers later requests at once until it is revoked or expires.

Ends with "N passed, M failed"; exit 0 only when nothing failed.
"""

from __future__ import annotations

import base64
import html
import http.client
import json
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
import zlib
from pathlib import Path

warnings.filterwarnings("ignore", category=DeprecationWarning)
try:
    from cryptography.utils import CryptographyDeprecationWarning

    warnings.filterwarnings("ignore", category=CryptographyDeprecationWarning)
except ImportError:  # pragma: no cover
    pass

import saml2.entity  # noqa: E402
from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT  # noqa: E402
from saml2.client import Saml2Client  # noqa: E402
from saml2.config import SPConfig  # noqa: E402
from saml2.metadata import entity_descriptor  # noqa: E402
from saml2.saml import NAMEID_FORMAT_EMAILADDRESS  # noqa: E402
from saml2.sigver import get_xmlsec_binary  # noqa: E402
from saml2.time_util import instant  # noqa: E402
from saml2.xmldsig import DIGEST_SHA256, SIG_RSA_SHA256  # noqa: E402

HERE = Path(__file__).resolve().parent
KEYS = HERE.parents[2] / "fixtures" / "saml" / "keys"
SP = "http://127.0.0.1/sp-selftest"
ACS = "http://127.0.0.1:9/acs"
TIMEOUT = 10
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))

results: list[tuple[bool, str]] = []


def check(ok, what: str, detail: str = "") -> bool:
    results.append((bool(ok), what))
    print(f"{'PASS' if ok else 'FAIL'}  {what}" + (f"  ({detail})" if detail and not ok else ""), flush=True)
    return bool(ok)


def get(url: str) -> tuple[int, bytes]:
    try:
        with OPENER.open(url, timeout=TIMEOUT) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def refused(url: str, status: int, what: str, reason: str) -> bool:
    """GET url and check that the peer refuses it with `status` and a body that names `reason`."""
    got, body = get(url)
    text = body.decode("utf-8", "replace")
    return check(got == status and reason in text, f"{what} -> {status}", f"{got} {text[:200]!r}")


def xmlsec1() -> str:
    try:
        return get_xmlsec_binary()
    except Exception:
        return shutil.which("xmlsec1") or "xmlsec1"


def sp_client(
    idp_metadata: str | None, key: str = "sp", signed: bool = True, acs: str = ACS, entity_id: str = SP
) -> Saml2Client:
    algorithms = {"signing_algorithm": SIG_RSA_SHA256, "digest_algorithm": DIGEST_SHA256}
    config = {
        "entityid": entity_id,
        "key_file": str(KEYS / f"{key}.key"),
        "cert_file": str(KEYS / f"{key}.crt"),
        "xmlsec_binary": xmlsec1(),
        "accepted_time_diff": 60,
        **algorithms,
        "service": {
            "sp": {
                **algorithms,
                "endpoints": {"assertion_consumer_service": [(acs, BINDING_HTTP_POST)]},
                "authn_requests_signed": signed,
                "want_assertions_signed": True,
                "want_response_signed": False,
                "allow_unsolicited": False,
            }
        },
    }
    if idp_metadata:
        config["metadata"] = {"local": [idp_metadata]}
    return Saml2Client(config=SPConfig().load(config))


def redirect_url(client: Saml2Client, idp_entity_id: str, relay_state: str) -> tuple[str, str]:
    reqid, info = client.prepare_for_authenticate(
        entityid=idp_entity_id, relay_state=relay_state, binding=BINDING_HTTP_REDIRECT, sigalg=SIG_RSA_SHA256
    )
    location = dict(info["headers"])["Location"]
    return reqid, location


def post(url: str, fields: dict[str, str], content_type: str = "application/x-www-form-urlencoded") -> tuple[int, bytes]:
    data = urllib.parse.urlencode(fields).encode()
    request = urllib.request.Request(url, data=data, method="POST", headers={"Content-Type": content_type})
    try:
        with OPENER.open(request, timeout=TIMEOUT) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def post_form(client: Saml2Client, idp_entity_id: str, relay_state: str) -> tuple[str, str, dict[str, str]]:
    """A POST-binding AuthnRequest from pysaml2's SP: (request ID, form action, form fields)."""
    reqid, info = client.prepare_for_authenticate(
        entityid=idp_entity_id, relay_state=relay_state, binding=BINDING_HTTP_POST, sigalg=SIG_RSA_SHA256
    )
    page = info["data"]
    action = html.unescape(re.search(r'<form action="([^"]+)"', page).group(1))
    fields = {
        html.unescape(m.group(1)): html.unescape(m.group(2))
        for m in re.finditer(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page)
    }
    return reqid, action, fields


def replace_param(url: str, name: str, transform) -> str:
    base, query = url.split("?", 1)
    parts = []
    for item in query.split("&"):
        key, _, value = item.partition("=")
        if key == name:
            value = transform(value)
            if value is None:
                continue
        parts.append(f"{key}={value}")
    return base + "?" + "&".join(parts)


def flip_char(value: str, index: int = 10) -> str:
    c = value[index]
    return value[:index] + ("B" if c != "B" else "C") + value[index + 1 :]


def resigned_request_with_other_id(url: str) -> str:
    """The SAMLRequest re-encoded with another ID; SigAlg and Signature kept from the original."""

    def rewrite(value: str) -> str:
        xml = zlib.decompress(base64.b64decode(urllib.parse.unquote(value)), -15).decode()
        xml = re.sub(r'ID="([^"]+)"', lambda m: f'ID="{m.group(1)}x"', xml, count=1)
        compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
        raw = compressor.compress(xml.encode()) + compressor.flush()
        return urllib.parse.quote(base64.b64encode(raw).decode(), safe="")

    return replace_param(url, "SAMLRequest", rewrite)


def raw(method: str, url: str, body: str | None = None, cookie: str | None = None) -> tuple[int, dict, str]:
    """One request, no redirect followed: (status, headers by lower-case name, body text)."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=TIMEOUT)
    headers = {"Content-Type": "application/x-www-form-urlencoded"} if body is not None else {}
    if cookie:
        headers["Cookie"] = cookie
    try:
        conn.request(method, parts.path + ("?" + parts.query if parts.query else ""), body=body, headers=headers)
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read().decode("utf-8", "replace")
    finally:
        conn.close()


def check_login_gate(tmp: Path, sp_md: Path) -> None:
    """saml_idp.py --login-password: the login page, the session cookie, revocation and expiry."""
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "saml_idp.py"), "--sp-metadata", str(sp_md), "--port", "0", "--max-seconds", "120",
         "--login-password", "wonderland", "--session-lifetime", "3"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True,
    )
    try:
        base = f"http://127.0.0.1:{proc.stdout.readline().strip()}"
        idp_md = tmp / "idp-login.xml"
        idp_md.write_bytes(get(f"{base}/idp/metadata")[1])
        client = sp_client(str(idp_md))
        entity = f"{base}/idp/metadata"

        def ticket(page: str) -> str:
            found = re.search(r'name="ticket" value="([^"]+)"', page)
            return html.unescape(found.group(1)) if found else ""

        reqid, url = redirect_url(client, entity, "gate")
        status, _, page = raw("GET", url)
        check(status == 200 and 'action="/idp/login"' in page and 'type="password" name="password"' in page,
              "login gate: no session -> the login page", f"{status} {page[:200]!r}")
        form = {"ticket": ticket(page), "username": "alice", "password": "nope"}
        status, _, page = raw("POST", f"{base}/idp/login", urllib.parse.urlencode(form))
        check(status == 200 and "Wrong user name or password" in page and ticket(page) != form["ticket"],
              "login gate: a wrong password shows the form again with a new ticket", str(status))
        status, _, _ = raw("POST", f"{base}/idp/login", urllib.parse.urlencode(form))
        check(status == 400, "login gate: a ticket is used once", str(status))
        form = {"ticket": ticket(page), "username": "alice", "password": "wonderland"}
        status, headers, _ = raw("POST", f"{base}/idp/login", urllib.parse.urlencode(form))
        cookie = headers.get("set-cookie", "").split(";")[0]
        check(status == 302 and headers.get("location", "").startswith("/idp/sso/continue?ticket=")
              and cookie.startswith("idp_sid=") and "HttpOnly" in headers.get("set-cookie", ""),
              "login gate: the right password sets idp_sid and continues", f"{status} {headers}")
        status, _, page = raw("GET", base + headers.get("location", ""), cookie=cookie)
        value = re.search(r'name="SAMLResponse" value="([^"]+)"', page)
        answer = value and client.parse_authn_request_response(
            html.unescape(value.group(1)), BINDING_HTTP_POST, outstanding={reqid: "/"})
        check(status == 200 and answer is not None, "login gate: the pending request is answered after the login", str(status))
        _, again = redirect_url(client, entity, "gate-2")
        status, _, page = raw("GET", again, cookie=cookie)
        check(status == 200 and 'name="SAMLResponse"' in page, "login gate: the session answers the next request at once", str(status))
        status, _, report = raw("GET", f"{base}/test/sessions")
        check(json.loads(report) == {"active": 1, "logins": 1, "failed_logins": 1}, "login gate: /test/sessions", report)
        raw("POST", f"{base}/test/sessions/revoke", "")
        status, _, page = raw("GET", again, cookie=cookie)
        check(status == 200 and 'action="/idp/login"' in page, "login gate: a revoked session shows the login page", str(status))
        _, page_body = raw("GET", again)[1:]
        form = {"ticket": ticket(page_body), "username": "alice", "password": "wonderland"}
        status, headers, _ = raw("POST", f"{base}/idp/login", urllib.parse.urlencode(form))
        cookie = headers.get("set-cookie", "").split(";")[0]
        time.sleep(3.5)
        status, _, page = raw("GET", again, cookie=cookie)
        check(status == 200 and 'action="/idp/login"' in page, "login gate: an expired session shows the login page", str(status))
        _, action, fields = post_form(client, entity, "post-gate")
        status, _, page = raw("POST", action, urllib.parse.urlencode(fields))
        check(status == 200 and 'action="/idp/login"' in page, "login gate: the POST binding gets the login page too", str(status))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="saml-selftest-"))
    sp_md = tmp / "sp.xml"
    sp_md.write_text(str(entity_descriptor(sp_client(None).config)))
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "saml_idp.py"), "--sp-metadata", str(sp_md), "--port", "0", "--max-seconds", "120"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = proc.stdout.readline().strip()
        if not check(line.isdigit(), "saml_idp.py prints its port first", repr(line)):
            return 1
        base = f"http://127.0.0.1:{line}"
        idp_entity_id = f"{base}/idp/metadata"

        status, metadata = get(f"{base}/idp/metadata")
        text = metadata.decode()
        idp_cert = "".join(l for l in (KEYS / "idp.crt").read_text().splitlines() if "-----" not in l)
        check(status == 200 and f'entityID="{idp_entity_id}"' in text, "GET /idp/metadata: entity ID", str(status))
        check(f'Location="{base}/idp/sso/redirect"' in text and "HTTP-Redirect" in text, "metadata: SSO redirect endpoint")
        check(idp_cert in text, "metadata: signing certificate is fixtures/saml/keys/idp.crt")
        check('WantAuthnRequestsSigned="true"' in text, "metadata: WantAuthnRequestsSigned")
        idp_md = tmp / "idp.xml"
        idp_md.write_bytes(metadata)

        client = sp_client(str(idp_md))
        reqid, url = redirect_url(client, idp_entity_id, "selftest-state")
        check("Signature=" in url and "SigAlg=" in url, "pysaml2 SP signs its redirect request")
        status, page = get(url)
        check(status == 200, "signed AuthnRequest -> 200", f"{status} {page[:200]!r}")
        page_text = page.decode()
        form = re.search(r'<form action="([^"]+)" method="post">', page_text)
        value = re.search(r'name="SAMLResponse" value="([^"]+)"', page_text)
        relay = re.search(r'name="RelayState" value="([^"]+)"', page_text)
        check(form and html.unescape(form.group(1)) == ACS, "auto-post form posts to the ACS URL")
        check(relay and html.unescape(relay.group(1)) == "selftest-state", "auto-post form carries the RelayState")
        if not check(value, "auto-post form carries a SAMLResponse"):
            return 1
        saml_response = html.unescape(value.group(1))
        xml = base64.b64decode(saml_response).decode()
        algorithms = set(re.findall(r'Algorithm="([^"]+)"', xml))
        check(SIG_RSA_SHA256 in algorithms and DIGEST_SHA256 in algorithms, "Response signed with RSA-SHA256 / SHA-256")
        check(not any("sha1" in a for a in algorithms), "no SHA-1 algorithm in the Response", str(sorted(algorithms)))
        check(xml.count("SignatureValue>") >= 4, "both the Response and the Assertion are signed")
        check(f'InResponseTo="{reqid}"' in xml and f'Destination="{ACS}"' in xml, "InResponseTo and Destination")

        authn = client.parse_authn_request_response(saml_response, BINDING_HTTP_POST, outstanding={reqid: "/"})
        if check(authn is not None, "pysaml2's SP accepts the Response"):
            name_id = authn.assertion.subject.name_id
            check(name_id.text == "alice@example.com" and name_id.format == NAMEID_FORMAT_EMAILADDRESS, "NameID")
            identity = authn.get_identity()
            check(identity.get("mail") == ["alice@example.com"], "attribute mail", str(identity))
            check(identity.get("givenName") == ["Alice"], "attribute givenName", str(identity))
            check(
                identity.get("eduPersonAffiliation") == ["member", "staff"],
                "attribute eduPersonAffiliation (2 values)",
                str(identity),
            )
            check(authn.issuer() == idp_entity_id, "Issuer is the IdP entity ID")

        # Refusals: everything that is not a request signed by the key in the SP metadata is 403.
        _, fresh = redirect_url(client, idp_entity_id, "selftest-state")
        status, _ = get(fresh)
        check(status == 200, "control: an untouched signed request -> 200", str(status))
        _, unsigned = redirect_url(sp_client(str(idp_md), signed=False), idp_entity_id, "s")
        check("Signature=" not in unsigned, "control: the unsigned request has no Signature")
        refused(unsigned, 403, "unsigned AuthnRequest", "not signed")
        _, attacker = redirect_url(sp_client(str(idp_md), key="attacker"), idp_entity_id, "s")
        refused(attacker, 403, "AuthnRequest signed by a key not in the SP metadata", "IncorrectlySigned")
        refused(replace_param(fresh, "Signature", flip_char), 403, "one Signature character changed", "IncorrectlySigned")
        refused(replace_param(fresh, "Signature", lambda v: None), 403, "Signature dropped", "not signed")
        refused(replace_param(fresh, "SigAlg", lambda v: None), 403, "SigAlg dropped", "not signed")
        refused(replace_param(fresh, "RelayState", lambda v: "other-state"), 403, "RelayState changed", "IncorrectlySigned")
        refused(replace_param(fresh, "RelayState", lambda v: None), 403, "RelayState dropped", "IncorrectlySigned")
        sha512 = urllib.parse.quote("http://www.w3.org/2001/04/xmldsig-more#rsa-sha512", safe="")
        refused(replace_param(fresh, "SigAlg", lambda v: sha512), 403, "SigAlg changed", "IncorrectlySigned")
        refused(resigned_request_with_other_id(fresh), 403, "SAMLRequest re-encoded with another ID", "IncorrectlySigned")

        # Signed with the SP key, but the Issuer is an entity the SP metadata does not describe: no key to check with.
        _, stranger = redirect_url(sp_client(str(idp_md), entity_id=SP + "/other"), idp_entity_id, "s")
        refused(stranger, 403, "signed request from an unknown Issuer", "IncorrectlySigned")

        # Correctly signed but issued two days ago (pysaml2 computes this check and drops its result; the peer refuses).
        saml2.entity.instant = lambda: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 2 * 86400))
        try:
            _, stale = redirect_url(client, idp_entity_id, "s")
        finally:
            saml2.entity.instant = instant
        refused(stale, 400, "signed request with an IssueInstant two days old", "IssueInstant")
        undecodable = replace_param(fresh, "SAMLRequest", lambda v: "bm90IGRlZmxhdGU%3D")
        refused(undecodable, 400, "SAMLRequest that does not inflate", "")

        # HTTP-POST binding: the enveloped XML signature is checked with the SP metadata's certificate.
        post_id, action, fields = post_form(client, idp_entity_id, "post-state")
        check(action == f"{base}/idp/sso/post", "metadata names the POST SSO endpoint", action)
        xml_request = base64.b64decode(fields["SAMLRequest"]).decode()
        check("<ns1:Signature" in xml_request or ":Signature" in xml_request, "pysaml2 SP signs its POST request")
        status, page = post(action, fields)
        check(status == 200 and b'name="SAMLResponse"' in page, "signed POST AuthnRequest -> 200", str(status))
        posted = re.search(rb'name="SAMLResponse" value="([^"]+)"', page)
        if posted:
            answer = client.parse_authn_request_response(
                html.unescape(posted.group(1).decode()), BINDING_HTTP_POST, outstanding={post_id: "/"}
            )
            check(answer is not None, "pysaml2's SP accepts the Response to the POST request")
        _, _, unsigned_fields = post_form(sp_client(str(idp_md), signed=False), idp_entity_id, "s")
        status, body = post(action, unsigned_fields)
        check(status == 403, "unsigned POST AuthnRequest -> 403", f"{status} {body[:200]!r}")
        _, _, foreign_fields = post_form(sp_client(str(idp_md), key="attacker"), idp_entity_id, "s")
        status, body = post(action, foreign_fields)
        check(status == 403, "POST AuthnRequest signed by a key not in the SP metadata -> 403", f"{status} {body[:200]!r}")
        forged = xml_request.replace(f'AssertionConsumerServiceURL="{ACS}"', f'AssertionConsumerServiceURL="{ACS}2"')
        check(forged != xml_request, "control: the POST request names the ACS URL")
        status, body = post(action, {**fields, "SAMLRequest": base64.b64encode(forged.encode()).decode()})
        check(status == 403, "POST AuthnRequest with its ACS URL changed after signing -> 403", f"{status} {body[:200]!r}")
        check(post(action, fields, content_type="text/plain")[0] == 415, "POST that is not form-encoded -> 415")
        check(get(action)[0] == 405, "GET on the POST endpoint -> 405")

        # A correctly signed request whose ACS URL the SP metadata does not list.
        _, other_acs = redirect_url(sp_client(str(idp_md), acs="http://127.0.0.1:9/elsewhere"), idp_entity_id, "s")
        refused(other_acs, 400, "signed request with an ACS URL not in the SP metadata", "AssertionConsumerService")
        refused(f"{base}/idp/sso/redirect", 400, "no SAMLRequest", "no SAMLRequest")
        refused(fresh + "&RelayState=again", 400, "repeated parameter", "repeated")
        check(get(f"{base}/nowhere")[0] == 404, "unknown path -> 404")
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = proc.wait()
        check(code == 0, "SIGTERM stops saml_idp.py with exit 0", str(code))
    try:
        check_login_gate(tmp, sp_md)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    failed = sum(1 for ok, _ in results if not ok)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    t0 = time.monotonic()
    rc = main()
    print(f"({time.monotonic() - t0:.1f} s)")
    sys.exit(rc)
