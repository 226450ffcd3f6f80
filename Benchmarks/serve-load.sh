#!/usr/bin/env bash
# Load benchmark of `ssokit serve` (issue 13 §5; Benchmarks/README.md). Not run by CI.
#
# Builds release; starts `ssokit dev-idp` and `ssokit serve` on loopback TCP (--insecure-loopback, with a
# registry); logs in once (the dev IdP's credentials interaction, answered through POST /v1/interactions/ID); then
# drives POST /v1/authorize with a cache-hit `refresh` with wrk (64 connections, 30 s) and, in the same run, a
# Hummingbird server answering a constant 200 (Benchmarks/Sources/HummingbirdCeiling, in the Benchmarks package),
# driven identically: the ceiling.
# Reports req/s, p50/p99, errors (socket errors, non-2xx answers, and answers that are not a token), the serve
# process's RSS before and after, the ratio to the ceiling, and whether each target is met (exit 1 if one is not).
#
# Environment: SSOKIT_BENCH_DURATION (seconds per server, default 30), SSOKIT_BENCH_ROUNDS (the turns the two
# servers take, default 3), SSOKIT_BENCH_CONNECTIONS (64), SSOKIT_BENCH_THREADS (2), SSOKIT_BENCH_WARMUP (seconds
# of load whose figures are dropped, before RSS "before" is read; default 5), SSOKIT_BENCH_NO_BUILD=1
# (use the existing release builds), SSOKIT_BENCH_PERF=FILE (record the serve process with `perf record -g` during
# the run, into FILE; then `perf report -i FILE`).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

duration=${SSOKIT_BENCH_DURATION:-30}
rounds=${SSOKIT_BENCH_ROUNDS:-3}
connections=${SSOKIT_BENCH_CONNECTIONS:-64}
threads=${SSOKIT_BENCH_THREADS:-2}
warmup=${SSOKIT_BENCH_WARMUP:-5}

if ! command -v wrk > /dev/null; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends wrk
fi
if [ "${SSOKIT_BENCH_NO_BUILD:-0}" != 1 ]; then
    swift build -c release --product ssokit
    swift build -c release --package-path Benchmarks --product HummingbirdCeiling
fi
bin=$(swift build -c release --show-bin-path)
ceiling_bin=$(swift build -c release --package-path Benchmarks --show-bin-path)

work=$(mktemp -d /tmp/ssokit-serve-load.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2> /dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# Starts "$@" in the background with stdout in $work/$name.out; waits at most 60 s for its READY line and sets
# $ready to what follows READY, $pid to the process.
start() {
    local name=$1
    shift
    "$@" > "$work/$name.out" 2> "$work/$name.err" &
    pid=$!
    pids+=("$pid")
    for _ in $(seq 600); do
        ready=$(sed -n 's/^READY //p' "$work/$name.out" | head -n 1)
        if [ -n "$ready" ]; then return 0; fi
        if ! kill -0 "$pid" 2> /dev/null; then break; fi
        sleep 0.1
    done
    echo "serve-load: $name did not start:" >&2
    tail -n 20 "$work/$name.err" >&2
    exit 1
}

json_field() { python3 -c 'import json, sys; v = json.load(sys.stdin); print(eval("v" + sys.argv[1]))' "$1"; }
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

# The dev IdP with one user, and `ssokit serve` for its demo client; the registry lets loopback act as one app.
password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
printf '{"users": [{"username": "bench", "password": "%s", "claims": {"name": "Bench"}}]}' "$password" \
    > "$work/users.json"
start idp "$bin/ssokit" dev-idp --port 0 --data "$work/idp" --users "$work/users.json"
idp=$ready
cat > "$work/profile.json" << JSON
{"PayloadContent": [
 {"PayloadType": "com.apple.extensiblesso", "PayloadIdentifier": "bench.serve.oidc",
  "ExtensionIdentifier": "com.example.sso.extension", "TeamIdentifier": "ABCDE12345", "Type": "Redirect",
  "URLs": ["$idp/authorize"],
  "ExtensionData": {"protocol": "oidc", "issuer": "$idp", "client_id": "ssokit-demo", "client_auth": "none",
   "scopes": "openid profile", "redirect_uri": "http://127.0.0.1:9/callback"}}]}
JSON
echo '{"loopback": ["com.example.bench"]}' > "$work/registry.json"
XDG_CONFIG_HOME="$work/config" start serve "$bin/ssokit" serve --profile "$work/profile.json" \
    --host 127.0.0.1 --port 0 --insecure-loopback --registry "$work/registry.json" --cache "$work/cache"
serve=$ready
serve_pid=$pid

# One login: a credentials interaction, answered through the interaction route.
post() { curl -sS --max-time 30 -H 'Content-Type: application/json' -d "$2" "$serve$1"; }
login=$(post /v1/authorize "{\"app\": \"com.example.bench\", \"operation\": \"login\", \"url\": \"$idp/authorize\"}")
interaction=$(json_field '["interaction"]["id"]' <<< "$login")
signed_in=$(post "/v1/interactions/$interaction" "{\"username\": \"bench\", \"password\": \"$password\"}")
if [ "$(json_field '["result"]' <<< "$signed_in")" != http_response ]; then
    echo "serve-load: the login failed: $(json_field '["result"]' <<< "$signed_in")" >&2
    exit 1
fi
refresh="{\"app\": \"com.example.bench\", \"operation\": \"refresh\", \"url\": \"$idp/authorize\"}"
hit=$(post /v1/authorize "$refresh")
if [ "$(json_field '["result"]' <<< "$hit")" != http_response ]; then
    echo "serve-load: the refresh is not answered from the cache: $hit" >&2
    exit 1
fi

# Runs wrk against $1 with the refresh body; prints its RESULT line.
drive() {
    SSOKIT_BENCH_BODY=$refresh SSOKIT_BENCH_EXPECT='"result":"http_response"' \
        wrk -t "$threads" -c "$connections" -d "$2" -s Benchmarks/serve-load.lua "$1/v1/authorize" \
        | sed -n 's/^RESULT //p'
}
field() { tr ' ' '\n' <<< "$1" | sed -n "s/^$2=//p"; }

start ceiling "$ceiling_bin/HummingbirdCeiling" 0
ceiling_url=$ready

# The two servers run side by side (the idle one costs nothing) and take turns, in $rounds slices each, so that a
# change in the machine's other load falls on both alike.
slice=$((duration / rounds))
echo "wrk: $connections connections, $threads threads, ${duration} s per server in $rounds turns; $(nproc) cores"
rss_cold=$(rss_kib "$serve_pid")
drive "$serve" "${warmup}s" > /dev/null
drive "$ceiling_url" "${warmup}s" > /dev/null
idp_requests_before=$(wc -l < "$work/idp.err")
rss_before=$(rss_kib "$serve_pid")
perf_pid=""
if [ -n "${SSOKIT_BENCH_PERF:-}" ]; then
    perf record -g -F 499 -o "$SSOKIT_BENCH_PERF" -p "$serve_pid" > /dev/null 2>&1 &
    perf_pid=$!
fi
for _ in $(seq "$rounds"); do
    drive "$serve" "${slice}s" >> "$work/served.txt"
    drive "$ceiling_url" "${slice}s" >> "$work/ceiling.txt"
done
if [ -n "$perf_pid" ]; then
    kill -INT "$perf_pid"
    wait "$perf_pid" || true
fi
rss_after=$(rss_kib "$serve_pid")
idp_requests=$(($(wc -l < "$work/idp.err") - idp_requests_before))

python3 - "$work/served.txt" "$work/ceiling.txt" "$rss_cold" "$rss_before" "$rss_after" "$idp_requests" << 'PY'
import sys
def parse(path):
    turns = [{k: float(v) for k, v in (p.split("=") for p in line.split())} for line in open(path) if line.strip()]
    total = {k: sum(t[k] for t in turns) for k in ("requests", "duration_us", "socket_errors", "non2xx", "unexpected")}
    total["rps"] = total["requests"] / (total["duration_us"] / 1e6)
    # Latency: the worst turn's percentiles (wrk's histograms are not merged).
    for k in ("p50_us", "p99_us", "max_us"):
        total[k] = max(t[k] for t in turns)
    total["turns"] = " ".join(f"{t['rps']:.0f}" for t in turns)
    return total
served, ceiling = parse(sys.argv[1]), parse(sys.argv[2])
cold, before, after, idp = (int(v) for v in sys.argv[3:7])
def row(name, r):
    errors = r["socket_errors"] + r["non2xx"] + r["unexpected"]
    print(f"{name:<22} {r['rps']:>10.0f} req/s   p50 {r['p50_us'] / 1000:6.2f} ms   p99 {r['p99_us'] / 1000:6.2f} ms"
          f"   max {r['max_us'] / 1000:7.2f} ms   errors {errors:.0f} (socket {r['socket_errors']:.0f},"
          f" non-2xx {r['non2xx']:.0f}, not a token {r['unexpected']:.0f});   turns: {r['turns']} req/s")
    return errors
errors = row("ssokit serve", served)
row("Hummingbird ceiling", ceiling)
ratio = served["rps"] / ceiling["rps"]
growth = (after - before) / before
print(f"ratio to the ceiling   {ratio:.2f}")
print(f"serve RSS              {cold} KiB at start, {before} KiB after the warm-up, {after} KiB after the run"
      f" ({growth * 100:+.1f} %)")
print(f"IdP requests during the run: {idp} (a cache hit needs none)")
checks = [("req/s >= 0.5 x ceiling", ratio >= 0.5), ("p99 < 5 ms", served["p99_us"] < 5000),
          ("0 errors", errors == 0), ("RSS growth < 10 %", growth < 0.10), ("no IdP request", idp == 0)]
for name, ok in checks: print(f"{'met   ' if ok else 'MISSED'} {name}")
sys.exit(0 if all(ok for _, ok in checks) else 1)
PY
