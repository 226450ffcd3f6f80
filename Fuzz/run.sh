#!/usr/bin/env bash
# Builds the fuzz driver and runs every fuzz target (or the ones named) for SECONDS each, one after the other.
# Fails when any target crashes or breaks a property; the crashing input is kept in .build-fuzz/artifacts/TARGET/.
#
#   bash Fuzz/run.sh SECONDS [TARGET...]
#
# Extra libFuzzer flags for every target go in FUZZ_FLAGS (e.g. FUZZ_FLAGS="-jobs=1 -workers=1 -runs=10000000").
# The build is the fuzz build only: SSOKIT_FUZZ=1, scratch path .build-fuzz, release with the instrumentation
# flags of Package.swift's fuzz section. The normal build (.build) is never touched, unless SSOKIT_FUZZ_SCRATCH
# names it: CI sets SSOKIT_FUZZ_SCRATCH=.build after its release build, so that the fuzz build reuses every
# dependency compiled there and recompiles only the instrumented modules (about 100 s instead of 11 minutes from
# cold). Those modules in .build/release are then the instrumented ones until the next normal release build, which
# recompiles them (their flags differ).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -d /opt/swift/usr/bin ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
seconds=${1:?usage: bash Fuzz/run.sh SECONDS [TARGET...]}
shift

scratch=${SSOKIT_FUZZ_SCRATCH:-.build-fuzz}
SSOKIT_FUZZ=1 swift build -c release --scratch-path "$scratch" --product ssokit-fuzz
fuzz=$scratch/release/ssokit-fuzz
declare -A kind
all=()
while IFS=$'\t' read -r name mode _; do
    kind[$name]=$mode
    all+=("$name")
done < <("$fuzz" --list)
if [ "${#all[@]}" -eq 0 ]; then
    echo "Fuzz: $fuzz --list named no target" >&2
    exit 1
fi
if [ "$#" -gt 0 ]; then targets=("$@"); else targets=("${all[@]}"); fi

# Swift's crash backtracer reads the crashed process's memory in a way ASan reports as a use-after-free, which hides
# the real report: libFuzzer prints the stack itself.
export SWIFT_BACKTRACE=enable=no
# Leak detection: on for synchronous targets (allocations a Swift static holds for the process are suppressed, see
# lsan.supp); off for async ones, whose tasks free their memory after the callback returns, so that libFuzzer
# would run a full leak scan after almost every input (5 to 10 times slower) and find nothing.
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}"

failed=()
root=$PWD
for target in "${targets[@]}"; do
    corpus=$root/.build-fuzz/corpus/$target
    artifacts=$root/.build-fuzz/artifacts/$target
    log=$root/.build-fuzz/logs/$target.log
    # libFuzzer's -jobs mode writes each job's output to fuzz-N.log in the working directory: one per target.
    work=$root/.build-fuzz/work/$target
    rm -rf "$work"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")" "$work"
    "$fuzz" --target="$target" --write-seeds="$corpus" > /dev/null
    corpora=("$corpus")
    if [ -d "Fuzz/Regressions/$target" ]; then corpora+=("$root/Fuzz/Regressions/$target"); fi
    leaks=1
    if [ "${kind[$target]:-}" = async ]; then leaks=0; fi
    # Crashes, leaks, timeouts and out-of-memory inputs; a `slow-unit-` file only says an input took long on a
    # loaded machine (libFuzzer's -report_slow_units), which is not a failure.
    found_before=$(find "$artifacts" -type f ! -name 'slow-unit-*' | wc -l)
    # shellcheck disable=SC2086  # FUZZ_FLAGS is a list of flags
    if (cd "$work" && ASAN_OPTIONS="detect_leaks=$leaks:${ASAN_OPTIONS:-}" "$root/$fuzz" --target="$target" \
        -max_total_time="$seconds" -timeout=10 -print_final_stats=1 -artifact_prefix="$artifacts/" \
        ${FUZZ_FLAGS:-} "${corpora[@]}") > "$log" 2>&1; then
        status=ok
    else
        status=FAILED
        failed+=("$target")
    fi
    for job in "$work"/fuzz-*.log; do
        if [ -f "$job" ]; then cat "$job" >> "$log"; fi
    done
    # In -jobs mode a job's crash may not reach the exit status; a new artifact always means one.
    if [ "$status" = ok ] && [ "$(find "$artifacts" -type f ! -name 'slow-unit-*' | wc -l)" -gt "$found_before" ]; then
        status=FAILED
        failed+=("$target")
    fi
    runs=$(grep -m1 '^stat::number_of_executed_units:' "$log" | awk '{print $2}' || true)
    speed=$(grep -m1 '^stat::average_exec_per_sec:' "$log" | awk '{print $2}' || true)
    coverage=$(grep -oE '\bcov: [0-9]+' "$log" | tail -n 1 | awk '{print $2}' || true)
    printf '%-22s %-6s %12s runs %8s exec/s  cov %s\n' "$target" "$status" "${runs:-?}" "${speed:-?}" "${coverage:-?}"
done

if [ "${#failed[@]}" -gt 0 ]; then
    for target in "${failed[@]}"; do
        echo "--- $target (.build-fuzz/logs/$target.log, input in .build-fuzz/artifacts/$target/):" >&2
        grep -E 'ERROR|Fatal error|violat|SUMMARY|Test unit written' ".build-fuzz/logs/$target.log" | head -n 20 >&2 || true
    done
    echo "Fuzz: ${failed[*]} crashed" >&2
    exit 1
fi
echo "Fuzz: every target ran ${seconds}s without a crash"
