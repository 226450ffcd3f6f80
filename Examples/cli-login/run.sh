#!/usr/bin/env bash
# A CLI walk-through: a full OpenID Connect login with the ssokit CLI against a real provider we did not write
# (oidc-provider-mock, on 127.0.0.1), with a scripted browser standing in for the user.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

bash .ci/install-deps
swift build -c release --product ssokit
ssokit=.build/release/ssokit
peer=Tests/SSOKitEndToEndTests/peer
python=.venv/bin/python3
cache=$(mktemp -d)
# The cache key lives outside the cache folder, in $XDG_CONFIG_HOME/ssokit; the demo keeps its own.
config=$(mktemp -d)
export XDG_CONFIG_HOME="$config"

ready=$(mktemp)
"$python" "$peer/op.py" --port 0 --max-seconds 300 > "$ready" &
op_pid=$!
trap 'kill $op_pid 2>/dev/null || true; rm -rf "$cache" "$config" "$ready"' EXIT
for _ in $(seq 1 150); do grep -q '^READY ' "$ready" && break; sleep 0.2; done
issuer=$(sed -n 's/^READY //p' "$ready")
[ -n "$issuer" ] || { echo "the provider did not start" >&2; exit 1; }
echo "== provider: $issuer"

client=(--issuer "$issuer" --client-id ssokit-e2e --client-secret e2e-secret --cache "$cache" --app com.example.demo)

echo "== ssokit oidc login (authorization code + PKCE S256, loopback redirect)"
"$ssokit" oidc login "${client[@]}" --browser-command "$python $peer/browser.py --quiet" --userinfo --json

echo "== ssokit cache list (the session is in SQLite, sealed with AES-GCM; no token is printed)"
"$ssokit" cache list --cache "$cache" --app com.example.demo
id_token=$("$ssokit" cache show --issuer "$issuer" --client-id ssokit-e2e --cache "$cache" --app com.example.demo \
  --reveal | "$python" -c 'import json,sys; print(json.load(sys.stdin)["id_token"])')
echo "== ssokit oidc verify-id-token (discovery + JWKS over HTTP)"
"$ssokit" oidc verify-id-token "$id_token" --issuer "$issuer" --client-id ssokit-e2e
echo "== the same token for another client is refused (exit 1)"
"$ssokit" oidc verify-id-token "$id_token" --issuer "$issuer" --client-id another-client || true

echo "== ssokit oidc refresh"
"$ssokit" oidc refresh "${client[@]}" --json
echo "== ssokit oidc logout"
"$ssokit" oidc logout "${client[@]}"
echo "== demo finished"
