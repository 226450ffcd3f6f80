#!/usr/bin/env bash
# The instruction-count gate (README.md): every gated workload's instructions per operation against the baseline
# in instructions-baseline.tsv; exit 1 when one is more than 5 % above it.
#
#   bash Benchmarks/check.sh            check against the baseline
#   bash Benchmarks/check.sh --update   measure and rewrite the baseline
#
# Instructions are counted by valgrind (cachegrind without the cache simulation), not by the CPU's counters: the
# count does not depend on the machine's load, and this machine has no hardware counters. Each workload runs twice
# in `instruction-count` (release build): WARMUP calls then N calls, and WARMUP calls then 2N calls; (I(2N) - I(N))
# / N is the count per call, with setup and warm-up cancelled out. N is the workload's in the baseline (new
# workloads: chosen so that N calls take about 50 ms natively, seconds under valgrind). SWIFT_DETERMINISTIC_HASHING
# fixes Swift's hash seeds, so that dictionaries do the same work on every run.
#
# Environment: SSOKIT_BENCH_POSTGRES_URL adds the PostgreSQL workloads; SSOKIT_BENCH_ONLY=REGEX keeps the
# workloads whose names match; SSOKIT_BENCH_THRESHOLD (percent, 5); SSOKIT_BENCH_OUT=FILE also writes the counts
# measured (workload, iterations, instructions/op) to FILE.
set -euo pipefail
cd "$(dirname "$0")"
if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

update=0
case "${1:-}" in
    --update) update=1 ;;
    "") ;;
    *)
        echo "usage: check.sh [--update]" >&2
        exit 64
        ;;
esac
baseline=instructions-baseline.tsv
threshold=${SSOKIT_BENCH_THRESHOLD:-5}
warmup=20
export SWIFT_DETERMINISTIC_HASHING=1

if ! command -v valgrind > /dev/null; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends valgrind
fi
swift build -c release --product instruction-count
work=$(mktemp -d /tmp/ssokit-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
# Without its debug information: valgrind 3.19 cannot read the DWARF 5 that Swift 6.3 writes, and gives up.
bin="$work/instruction-count"
strip --strip-debug -o "$bin" "$(swift build -c release --show-bin-path)/instruction-count"

# The instructions of one run: instruction-count NAME ITERATIONS under cachegrind.
instructions() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$bin" "$1" "$2" "$warmup" \
        2> "$work/valgrind.$2.log" > /dev/null || {
        echo "check.sh: $1 failed under valgrind:" >&2
        tail -n 20 "$work/valgrind.$2.log" >&2
        return 1
    }
    sed -n 's/^==[0-9]*== I *refs: *//p' "$work/valgrind.$2.log" | tr -d ,
}

: > "$work/now.tsv"
for name in $("$bin" --list --gated); do
    if [ -n "${SSOKIT_BENCH_ONLY:-}" ] && ! [[ $name =~ $SSOKIT_BENCH_ONLY ]]; then continue; fi
    iterations=$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' "$baseline" 2> /dev/null || true)
    if [ -z "$iterations" ]; then iterations=$("$bin" --calibrate "$name"); fi
    # The N and 2N runs side by side: one per core.
    instructions "$name" "$iterations" > "$work/single" &
    single_pid=$!
    double=$(instructions "$name" $((2 * iterations)))
    wait "$single_pid"
    single=$(cat "$work/single")
    printf '%s\t%s\t%s\n' "$name" "$iterations" $(((double - single) / iterations)) | tee -a "$work/now.tsv" \
        | awk -F'\t' '{ printf "  %-48s N = %-6s %12d instructions/op\n", $1, $2, $3 }' >&2
done
if [ -n "${SSOKIT_BENCH_OUT:-}" ]; then cp "$work/now.tsv" "$SSOKIT_BENCH_OUT"; fi

if [ "$update" = 1 ]; then
    {
        printf '# workload\titerations\tinstructions/op (valgrind, release build; Benchmarks/check.sh --update)\n'
        cat "$work/now.tsv"
    } > "$baseline"
    echo "check.sh: wrote $baseline"
fi

python3 - "$baseline" "$work/now.tsv" "$threshold" << 'PY'
import sys
def read(path):
    rows = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        name, iterations, count = line.rstrip("\n").split("\t")
        rows[name] = int(count)
    return rows
baseline, now, threshold = read(sys.argv[1]), read(sys.argv[2]), float(sys.argv[3])
print(f"{'workload':<48} {'baseline':>12} {'now':>12} {'change':>8}")
regressions = []
for name, count in now.items():
    before = baseline.get(name)
    if before is None:
        print(f"{name:<48} {'(new)':>12} {count:>12,}")
        continue
    change = (count - before) / before * 100
    flag = ""
    if change > threshold:
        flag = "  REGRESSION"
        regressions.append(f"{name} ({change:+.1f} %)")
    print(f"{name:<48} {before:>12,} {count:>12,} {change:>+7.1f}%{flag}")
for name in baseline:
    if name not in now:
        print(f"{name:<48} {baseline[name]:>12,} {'(not run)':>12}")
print()
print("Instructions per operation, SSOKit / floor (floor / SSOKit in brackets, the wall-time ratio's orientation):")
pairs = [
    ("IDToken/rs256-verify", "IDToken/rs256-floor-swift-crypto"),
    ("IDToken/es256-verify", "IDToken/es256-floor-swift-crypto"),
    ("IDToken/eddsa-verify", "IDToken/eddsa-floor-swift-crypto"),
    ("SAML/verify", "SAML/floor-c-loop-bare-key"),
    ("SAML/authnrequest-redirect-signed", "SAML/floor-rsa2048-sign"),
    ("ProfileMatch/match-redirect", "TokenCache/floor-memory-cache-hit"),
    ("ProfileMatch/match-credential", "TokenCache/floor-memory-cache-hit"),
    ("Adapter/refresh-from-cache", "TokenCache/floor-memory-cache-hit"),
    ("Adapter/bearer-challenge", "TokenCache/floor-memory-cache-hit"),
]
for candidate, floor in pairs:
    if candidate in now and floor in now and now[floor] > 0:
        ratio = now[candidate] / now[floor]
        print(f"  {candidate} / {floor}: {ratio:.3f} ({1 / ratio:.3f})")
if regressions:
    print(f"\ncheck.sh: more than {threshold:g} % above the baseline: " + ", ".join(regressions))
    sys.exit(1)
print(f"\ncheck.sh: no workload is more than {threshold:g} % above the baseline")
PY
