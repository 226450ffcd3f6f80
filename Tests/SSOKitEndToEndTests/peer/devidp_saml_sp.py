#!/usr/bin/env python3
"""A SAML service provider we did not write (pysaml2's Saml2Client) against `ssokit dev-idp`.

    .venv/bin/python3 devidp_saml_sp.py --idp URL --entity-id ID --acs-url URL --slo-url URL
        --username U --password P [--sign-requests] [--expect-encrypted] [--unsigned-assertions]

URL is the dev IdP's base URL (metadata at URL/saml/metadata). The SP signs with
fixtures/saml/keys/sp.key (with --sign-requests) and decrypts with the same key. The login form is filled by
devidp_browser.Browser; pysaml2 makes every request and checks every Response (signatures with the
metadata's certificate only, InResponseTo, Destination, Audience, times, decryption). It wants the Response
and the Assertion signed, or with --unsigned-assertions the Response only. Prints one JSON object
{"checks": {name: true|false}, "details": {...}, "name_id": ..., "attributes": {...}} on stdout; exit 0 only
when every check passed. The checks:

  metadata          pysaml2 loads the IdP metadata (SSO and SLO on both bindings, a signing certificate)
  redirect_binding  an AuthnRequest on HTTP-Redirect, after the login form, returns a Response pysaml2 accepts
                    (NameID, attributes, SessionIndex, RelayState echoed; encrypted with --expect-encrypted)
  post_binding      an AuthnRequest on HTTP-POST is answered from the session (no form) and accepted the same way
  slo               pysaml2's LogoutRequest (HTTP-Redirect) gets a LogoutResponse that pysaml2 accepts ...
  session_ended     ... and the next AuthnRequest shows the login form again
  unsigned_refused  (with --sign-requests) the same SP's unsigned request gets 403 signature_required
  forged_refused    (with --sign-requests) a request signed by another key gets 403 invalid_signature
  unknown_sp        an SP that is not registered gets 400 unknown_service_provider
"""

from __future__ import annotations

import argparse
import base64
import json
import shutil
import sys
import tempfile
import urllib.parse
import warnings
from pathlib import Path

warnings.filterwarnings("ignore")

from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT  # noqa: E402
from saml2.client import Saml2Client  # noqa: E402
from saml2.config import SPConfig  # noqa: E402
from saml2.sigver import get_xmlsec_binary  # noqa: E402
from saml2.xmldsig import DIGEST_SHA256, SIG_RSA_SHA256  # noqa: E402

from devidp_browser import Browser, Response  # noqa: E402

HERE = Path(__file__).resolve().parent
KEYS = HERE.parents[2] / "fixtures" / "saml" / "keys"

checks: dict[str, bool] = {}
details: dict[str, str] = {}


def check(name: str, ok, detail: str = "") -> bool:
    checks[name] = bool(ok)
    if detail and not ok:
        details[name] = str(detail)[:600]
    return bool(ok)


def xmlsec1() -> str:
    try:
        return get_xmlsec_binary()
    except Exception:
        return shutil.which("xmlsec1") or "xmlsec1"


def make_client(metadata: str, entity_id: str, acs: str, slo: str, key: str, signed: bool,
                signed_assertions: bool = True) -> Saml2Client:
    algorithms = {"signing_algorithm": SIG_RSA_SHA256, "digest_algorithm": DIGEST_SHA256}
    config = {
        "entityid": entity_id,
        "key_file": str(KEYS / f"{key}.key"),
        "cert_file": str(KEYS / f"{key}.crt"),
        "encryption_keypairs": [{"key_file": str(KEYS / "sp.key"), "cert_file": str(KEYS / "sp.crt")}],
        "xmlsec_binary": xmlsec1(),
        "accepted_time_diff": 60,
        "allow_unknown_attributes": True,
        "metadata": {"local": [metadata]},
        **algorithms,
        "service": {
            "sp": {
                **algorithms,
                "endpoints": {
                    "assertion_consumer_service": [(acs, BINDING_HTTP_POST)],
                    "single_logout_service": [(slo, BINDING_HTTP_REDIRECT)],
                },
                "authn_requests_signed": signed,
                "logout_requests_signed": True,
                "want_assertions_signed": signed_assertions,
                "want_response_signed": True,
                "allow_unsolicited": False,
            }
        },
    }
    sp_config = SPConfig()
    sp_config.load(config)
    return Saml2Client(config=sp_config)


def authn_redirect_url(client: Saml2Client, idp: str, relay_state: str) -> tuple[str, str]:
    request_id, info = client.prepare_for_authenticate(entityid=idp, relay_state=relay_state,
                                                       binding=BINDING_HTTP_REDIRECT)
    return request_id, dict(info["headers"])["Location"]


def accept(client: Saml2Client, page, request_id: str, expect_encrypted: bool):
    """Checks the auto-post page and has pysaml2 verify its Response; returns the AuthnResponse or raises."""
    form = page.saml_form()
    if form is None:
        raise ValueError(f"no auto-post form (HTTP {page.status}): {page.text[:300]}")
    encoded = form["inputs"]["SAMLResponse"]
    xml = base64.b64decode(encoded).decode("utf-8", "replace")
    if expect_encrypted != ("EncryptedAssertion" in xml):
        raise ValueError("the Response is " + ("not " if expect_encrypted else "") + "encrypted")
    response = client.parse_authn_request_response(encoded, BINDING_HTTP_POST, outstanding={request_id: "/"})
    if response is None:
        raise ValueError("pysaml2 returned no response")
    return response, form["inputs"].get("RelayState")


def refused(browser: Browser, url: str, status: int, code: str, what: str) -> None:
    page = browser.request("GET", url)
    check(what, page.status == status and code in page.text, f"{page.status} {page.text[:300]}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--idp", required=True)
    parser.add_argument("--entity-id", required=True)
    parser.add_argument("--acs-url", required=True)
    parser.add_argument("--slo-url", required=True)
    parser.add_argument("--username", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--sign-requests", action="store_true")
    parser.add_argument("--expect-encrypted", action="store_true")
    parser.add_argument("--unsigned-assertions", action="store_true")
    args = parser.parse_args()
    idp = args.idp + "/saml/metadata"

    workdir = Path(tempfile.mkdtemp(prefix="devidp-saml-"))
    browser = Browser()
    metadata = browser.request("GET", idp)
    (workdir / "idp.xml").write_bytes(metadata.body)
    client = make_client(str(workdir / "idp.xml"), args.entity_id, args.acs_url, args.slo_url, "sp",
                         args.sign_requests, not args.unsigned_assertions)
    sso = client.metadata.single_sign_on_service(idp, BINDING_HTTP_REDIRECT)
    check("metadata", metadata.status == 200 and sso and client.metadata.single_sign_on_service(
        idp, BINDING_HTTP_POST) and client.metadata.single_logout_service(idp, BINDING_HTTP_REDIRECT, "idpsso")
        and client.metadata.certs(idp, "idpsso", "signing"), metadata.text[:300])

    result: dict = {}
    try:
        request_id, url = authn_redirect_url(client, idp, "relay-1")
        page = browser.sign_in(url, args.username, args.password)
        response, relay = accept(client, page, request_id, args.expect_encrypted)
        identity = response.get_identity()
        name_id = response.name_id
        result["name_id"] = name_id.text
        result["attributes"] = {k: list(v) for k, v in identity.items()}
        result["session_index"] = response.session_info().get("session_index")
        session_index = response.session_info().get("session_index")
        check("redirect_binding", relay == "relay-1" and name_id.text and identity.get("mail")
              and identity.get("uid") == [args.username] and session_index, json.dumps(result))
    except Exception as err:  # noqa: BLE001 - every failure is a failed check
        check("redirect_binding", False, repr(err))
        name_id = None

    try:
        request_id, info = client.prepare_for_authenticate(entityid=idp, relay_state="relay-2",
                                                           binding=BINDING_HTTP_POST)
        form = posted_form(info["data"])
        page = browser.request("POST", form["action"], form["inputs"])
        check("post_binding_no_form", page.login_form() is None, page.text[:200])
        response, relay = accept(client, page, request_id, args.expect_encrypted)
        check("post_binding", relay == "relay-2" and response.name_id.text == result.get("name_id"))
    except Exception as err:  # noqa: BLE001
        check("post_binding", False, repr(err))

    try:
        outcome = client.global_logout(name_id, reason="urn:oasis:names:tc:SAML:2.0:logout:user", sign=True)
        binding, http_info = outcome[idp]
        location = dict(http_info["headers"])["Location"]
        page = browser.follow(browser.request("GET", location), stop_at=args.slo_url)
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(page.location or "").query)
        logout_response = client.parse_logout_request_response(query["SAMLResponse"][0], BINDING_HTTP_REDIRECT)
        check("slo", logout_response is not None and logout_response.status_ok()
              and query.get("Signature") and query.get("SigAlg") == [SIG_RSA_SHA256], page.location)
        request_id, url = authn_redirect_url(client, idp, "relay-3")
        again = browser.follow(browser.request("GET", url))
        check("session_ended", again.status == 200 and again.login_form() is not None, again.text[:200])
    except Exception as err:  # noqa: BLE001
        check("slo", False, repr(err))

    if args.sign_requests:
        unsigned = make_client(str(workdir / "idp.xml"), args.entity_id, args.acs_url, args.slo_url, "sp", False)
        refused(browser, authn_redirect_url(unsigned, idp, "x")[1], 403, "signature_required", "unsigned_refused")
        forged = make_client(str(workdir / "idp.xml"), args.entity_id, args.acs_url, args.slo_url, "attacker",
                             True)
        refused(browser, authn_redirect_url(forged, idp, "x")[1], 403, "invalid_signature", "forged_refused")
    stranger = make_client(str(workdir / "idp.xml"), "http://127.0.0.1/not-registered", args.acs_url,
                           args.slo_url, "sp", True)
    refused(browser, authn_redirect_url(stranger, idp, "x")[1], 400, "unknown_service_provider", "unknown_sp")

    shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps({"checks": checks, "details": details, **result}))
    return 0 if all(checks.values()) else 1


def posted_form(html: str) -> dict:
    """The one form of pysaml2's HTTP-POST page."""
    return Response("http://127.0.0.1/", 200, {}, html.encode()).forms()[0]


if __name__ == "__main__":
    sys.exit(main())
