# Any local user: each GET through the proxy with prompt=login leaves a pending interaction and an owner record.
import http.client, sys, urllib.parse
idp, proxy, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for i in range(n):
    url = idp + "/authorize?" + urllib.parse.urlencode({"response_type": "code", "client_id": "ssokit-demo",
        "redirect_uri": "http://127.0.0.1:9/callback", "scope": "openid", "state": "s%d" % i, "prompt": "login",
        "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "code_challenge_method": "S256"})
    c = http.client.HTTPConnection("127.0.0.1", proxy); c.request("GET", url); r = c.getresponse(); r.read()
print("last status", r.status)
