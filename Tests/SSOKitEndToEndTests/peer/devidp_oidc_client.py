#!/usr/bin/env python3
"""An OpenID Connect relying party we did not write (Authlib's OAuth2Session) against `ssokit dev-idp`.

    python3 devidp_oidc_client.py --issuer URL --client-id ID --auth-method M
        [--client-secret S | --private-key PEM [--key-id KID] [--alg ES256]]
        --username U --password P [--redirect-uri URI] [--post-logout-redirect-uri URI]

M is none, client_secret_basic, client_secret_post or private_key_jwt. The login form is filled by
devidp_browser.Browser; everything else is Authlib: PKCE S256, the code exchange, ID-token validation
(signature with the JWKS, iss, aud, exp, nonce, at_hash), UserInfo, refresh (rotation) and revocation
(RFC 7009). Prints one JSON object {"checks": {name: true|false}, "details": {name: text}} on stdout;
exit 0 only when every check passed. The checks, in order:

  discovery            discovery advertises S256 only and RFC 9207 iss, with every endpoint
  wrong_password       a wrong password shows the form again with 401
  callback_iss         the authorization response carries iss = the issuer (RFC 9207) and the state
  bad_verifier         a wrong code_verifier gets invalid_grant
  burned_code          the code is then spent: the right verifier gets invalid_grant too
  sso                  a second authorization is answered from the session cookie, without the form
  id_token             the ID token verifies (RS256, kid) with iss/aud/exp/nonce/at_hash, auth_time and sid
  reused_code          a code exchanged twice gets invalid_grant ...
  reused_code_revokes  ... and the tokens of its first exchange stop working at UserInfo (401)
  userinfo             UserInfo answers with the ID token's sub
  refresh_rotates      a refresh returns a new refresh token and a new ID token with the same sid
  reused_refresh       the rotated-away refresh token gets invalid_grant ...
  reuse_revokes_family ... and revokes the family: the newest refresh token gets invalid_grant too
  revocation           revoking a refresh token (RFC 7009) answers 200 ...
  revoked_refresh      ... the refresh token then gets invalid_grant ...
  revoked_access       ... and its family's access token gets 401 at UserInfo
  end_session          RP-Initiated Logout redirects to the post-logout URI with the state ...
  session_ended        ... and the next authorization shows the login form again
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import time
import urllib.parse
import warnings

warnings.filterwarnings("ignore")

import requests  # noqa: E402
from authlib.common.security import generate_token  # noqa: E402
from authlib.integrations.requests_client import OAuth2Session  # noqa: E402
from authlib.integrations.base_client.errors import OAuthError  # noqa: E402
from authlib.jose import JsonWebKey, jwt  # noqa: E402
from authlib.oauth2.rfc7523 import PrivateKeyJWT  # noqa: E402
from authlib.oidc.core import CodeIDToken  # noqa: E402
from joserfc.jwk import ECKey, RSAKey  # noqa: E402

from devidp_browser import Browser  # noqa: E402

checks: dict[str, bool] = {}
details: dict[str, str] = {}


def check(name: str, ok, detail: str = "") -> bool:
    checks[name] = bool(ok)
    if detail and not ok:
        details[name] = detail[:400]
    return bool(ok)


def error_code(call) -> str | None:
    """Runs call; returns the OAuth error code it raised, or None when it succeeded."""
    try:
        call()
    except OAuthError as err:
        return err.error
    except requests.HTTPError as err:
        try:
            return err.response.json().get("error")
        except ValueError:
            return f"http_{err.response.status_code}"
    return None


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--issuer", required=True)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--auth-method", required=True)
    parser.add_argument("--client-secret")
    parser.add_argument("--private-key")
    parser.add_argument("--key-id")
    parser.add_argument("--alg", default="ES256")
    parser.add_argument("--username", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--redirect-uri", default="http://127.0.0.1:9/callback")
    parser.add_argument("--post-logout-redirect-uri", default="http://127.0.0.1:9/")
    args = parser.parse_args()

    http = requests.Session()
    http.trust_env = False
    meta = http.get(args.issuer + "/.well-known/openid-configuration", timeout=10).json()
    check(
        "discovery",
        meta.get("issuer") == args.issuer and meta.get("code_challenge_methods_supported") == ["S256"]
        and meta.get("authorization_response_iss_parameter_supported") is True
        and all(meta.get(k) for k in ("token_endpoint", "userinfo_endpoint", "jwks_uri", "revocation_endpoint",
                                       "end_session_endpoint")),
        json.dumps(meta)[:300])
    jwks = JsonWebKey.import_key_set(http.get(meta["jwks_uri"], timeout=10).json())

    secret = args.client_secret
    if args.auth_method == "private_key_jwt":
        pem = open(args.private_key).read()
        secret = ECKey.import_key(pem) if args.alg.startswith("ES") else RSAKey.import_key(pem)
    client = OAuth2Session(
        args.client_id, secret, scope="openid profile email", redirect_uri=args.redirect_uri,
        token_endpoint_auth_method=args.auth_method, revocation_endpoint_auth_method=args.auth_method,
        code_challenge_method="S256")
    client.trust_env = False
    if args.auth_method == "private_key_jwt":
        headers = {"kid": args.key_id} if args.key_id else None
        # No fixed endpoint: each assertion names the endpoint it is sent to (token or revocation) as its audience.
        client.register_client_auth_method(PrivateKeyJWT(None, headers=headers, alg=args.alg))
    browser = Browser()

    def authorize(expect_form: bool | None = None, wrong_password: bool = False):
        """One authorization: returns (code, verifier, nonce) or None; checks the response's iss and state."""
        verifier = generate_token(64)
        nonce = generate_token(20)
        url, state = client.create_authorization_url(meta["authorization_endpoint"], code_verifier=verifier,
                                                     nonce=nonce)
        page = browser.follow(browser.request("GET", url), stop_at=args.redirect_uri)
        shown = page.login_form() is not None
        if expect_form is not None and shown != expect_form:
            return None
        if shown:
            if wrong_password:
                wrong = browser.submit_login(page, args.username, args.password + "-wrong")
                check("wrong_password", wrong.status == 401 and wrong.login_form() is not None
                      and "Wrong username or password" in wrong.text, f"{wrong.status} {wrong.text[:200]}")
                page = wrong
            page = browser.follow(browser.submit_login(page, args.username, args.password),
                                  stop_at=args.redirect_uri)
        location = page.location or ""
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)
        ok = query.get("iss") == [args.issuer] and query.get("state") == [state] and "code" in query
        check("callback_iss", checks.get("callback_iss", True) and ok, location[:300])
        return (location, state, verifier, nonce) if ok else None

    def exchange(authorization, verifier=None):
        location, state, right_verifier, _ = authorization
        return client.fetch_token(meta["token_endpoint"], authorization_response=location, state=state,
                                  code_verifier=verifier or right_verifier)

    def userinfo_status(access_token: str) -> tuple[int, dict]:
        response = http.get(meta["userinfo_endpoint"], headers={"Authorization": f"Bearer {access_token}"},
                            timeout=10)
        body = response.json() if response.headers.get("Content-Type", "").startswith("application/json") else {}
        return response.status_code, body

    def verify_id_token(token: dict, nonce: str | None) -> dict:
        claims = jwt.decode(
            token["id_token"], jwks, claims_cls=CodeIDToken,
            claims_options={"iss": {"essential": True, "value": args.issuer},
                            "aud": {"essential": True, "value": args.client_id}},
            claims_params={"nonce": nonce, "client_id": args.client_id, "access_token": token["access_token"]})
        claims.validate(now=int(time.time()), leeway=60)
        return claims

    # A wrong password first, then the code with a wrong verifier, which spends it.
    first = authorize(expect_form=True, wrong_password=True)
    if first is None:
        check("callback_iss", False, "the first authorization did not come back")
        print(json.dumps({"checks": checks, "details": details}))
        return 1
    wrong_verifier = generate_token(64)
    check("bad_verifier", error_code(lambda: exchange(first, wrong_verifier)) == "invalid_grant")
    check("burned_code", error_code(lambda: exchange(first)) == "invalid_grant")

    # The session answers the next authorization without the form.
    second = authorize(expect_form=False)
    check("sso", second is not None)
    token = exchange(second)
    claims = verify_id_token(token, second[3])
    check("id_token", claims["sub"] == args.username and isinstance(claims.get("auth_time"), int)
          and claims.get("sid") and jwt_header_kid(token["id_token"]), json.dumps(dict(claims)))
    check("reused_code", error_code(lambda: exchange(second)) == "invalid_grant")
    status, _ = userinfo_status(token["access_token"])
    check("reused_code_revokes", status == 401, f"userinfo {status}")

    third = authorize(expect_form=False)
    token = exchange(third)
    claims = verify_id_token(token, third[3])
    status, info = userinfo_status(token["access_token"])
    check("userinfo", status == 200 and info.get("sub") == claims["sub"] and "email" in info, f"{status} {info}")
    refreshed = client.refresh_token(meta["token_endpoint"], refresh_token=token["refresh_token"])
    new_claims = verify_id_token(refreshed, None)
    check("refresh_rotates", refreshed["refresh_token"] != token["refresh_token"]
          and new_claims.get("sid") == claims.get("sid") and new_claims.get("auth_time") == claims.get("auth_time")
          and "nonce" not in new_claims, json.dumps(dict(new_claims)))
    check("reused_refresh", error_code(lambda: client.refresh_token(
        meta["token_endpoint"], refresh_token=token["refresh_token"])) == "invalid_grant")
    check("reuse_revokes_family", error_code(lambda: client.refresh_token(
        meta["token_endpoint"], refresh_token=refreshed["refresh_token"])) == "invalid_grant")

    fourth = authorize(expect_form=False)
    token = exchange(fourth)
    revoked = client.revoke_token(meta["revocation_endpoint"], token=token["refresh_token"],
                                  token_type_hint="refresh_token")
    check("revocation", revoked.status_code == 200, f"{revoked.status_code} {revoked.text[:200]}")
    check("revoked_refresh", error_code(lambda: client.refresh_token(
        meta["token_endpoint"], refresh_token=token["refresh_token"])) == "invalid_grant")
    status, _ = userinfo_status(token["access_token"])
    check("revoked_access", status == 401, f"userinfo {status}")

    logout_state = generate_token(12)
    query = urllib.parse.urlencode({"id_token_hint": token["id_token"], "state": logout_state,
                                    "post_logout_redirect_uri": args.post_logout_redirect_uri})
    page = browser.follow(browser.request("GET", meta["end_session_endpoint"] + "?" + query),
                          stop_at=args.post_logout_redirect_uri)
    back = urllib.parse.parse_qs(urllib.parse.urlsplit(page.location or "").query)
    check("end_session", page.status in (302, 303) and back.get("state") == [logout_state],
          f"{page.status} {page.location}")
    verifier = generate_token(64)
    url, _ = client.create_authorization_url(meta["authorization_endpoint"], code_verifier=verifier)
    again = browser.follow(browser.request("GET", url), stop_at=args.redirect_uri)
    check("session_ended", again.status == 200 and again.login_form() is not None, f"{again.status}")

    print(json.dumps({"checks": checks, "details": details}))
    return 0 if all(checks.values()) else 1


def jwt_header_kid(token: str) -> bool:
    """Whether the JWS header says RS256 and names its key."""
    segment = token.split(".")[0]
    header = json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))
    return header.get("alg") == "RS256" and bool(header.get("kid"))


if __name__ == "__main__":
    sys.exit(main())
