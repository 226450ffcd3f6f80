#!/usr/bin/env bash
# Starts the lab for the serve review: `ssokit dev-idp` (users alice and bob) and `ssokit serve` on a Unix socket
# with a registry that gives uid 0 the app com.example.mail, and the intercepting proxy (--proxy-port 0).
# Usage: SSOKIT=.build/debug/ssokit Adversary/serve/lab.sh [DIR]   (run as root: the attacks use another uid)
# Writes DIR/env with IDP, PROXY, SOCKET, SERVE_PID, IDP_PID; stop with: kill $SERVE_PID $IDP_PID
set -euo pipefail
SSOKIT=${SSOKIT:-.build/debug/ssokit}
DIR=${1:-/tmp/ssokit-adversary}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$DIR" && chmod 755 "$DIR"
cp "$HERE"/*.py "$DIR"/ && chmod 644 "$DIR"/*.py
cat > "$DIR/users.json" <<'JSON'
{"users": [{"username": "alice", "password": "alice-pw-123", "claims": {"name": "Alice"}},
           {"username": "bob", "password": "bob-pw-456", "claims": {"name": "Bob"}}]}
JSON
"$SSOKIT" dev-idp --port 0 --users "$DIR/users.json" --data "$DIR/idp-data" > "$DIR/idp.out" 2> "$DIR/idp.err" &
IDP_PID=$!
for _ in $(seq 100); do grep -q READY "$DIR/idp.out" && break; sleep 0.2; done
IDP=$(awk '/READY/ {print $2}' "$DIR/idp.out")
cat > "$DIR/profile.json" <<JSON
{"PayloadContent": [
 {"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "adv.oidc",
  "ExtensionIdentifier": "com.example.sso.extension", "TeamIdentifier": "ABCDE12345", "Type": "Redirect",
  "URLs": ["$IDP/authorize"],
  "ExtensionData": {"protocol": "oidc", "issuer": "$IDP", "client_id": "ssokit-demo", "client_auth": "none",
   "scopes": "openid profile", "redirect_uri": "http://127.0.0.1:9/callback"}}]}
JSON
echo "{\"uids\": {\"$(id -u)\": [\"com.example.mail\"]}}" > "$DIR/registry.json"
XDG_CONFIG_HOME="$DIR/config" "$SSOKIT" serve --profile "$DIR/profile.json" --socket "$DIR/s.sock" \
  --registry "$DIR/registry.json" --cache "$DIR/cache" --proxy-port 0 > "$DIR/serve.out" 2> "$DIR/serve.err" &
SERVE_PID=$!
for _ in $(seq 150); do grep -q READY "$DIR/serve.out" && break; sleep 0.2; done
PROXY=$(grep -o '"port":"[0-9]*"' "$DIR/serve.err" | head -1 | grep -o '[0-9]*')
printf 'IDP=%s\nPROXY=%s\nSOCKET=%s\nSERVE_PID=%s\nIDP_PID=%s\nDIR=%s\n' \
  "$IDP" "$PROXY" "$DIR/s.sock" "$SERVE_PID" "$IDP_PID" "$DIR" | tee "$DIR/env"
