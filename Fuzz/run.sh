#!/bin/sh
# Runs every libFuzzer target for a bounded time (`make fuzz`); fails when one finds a crash,
# a leak, an ASan report or a broken invariant.
#
#   FUZZ_SECONDS=60 Fuzz/run.sh [target...]
#
# Each target starts from its seed corpus Fuzz/corpus/<target>/ (read only: new inputs go to
# a working corpus under FUZZ_BUILD, so the repository keeps small hand-made seeds). A
# finding is saved as FUZZ_BUILD/artifacts/<target>/crash-* and its input is printed; once
# fixed, copy it into Fuzz/corpus/<target>/ as a regression seed. FUZZ_JOBS (default 1)
# runs that many fuzzing processes per target.
set -u
cd "$(dirname "$0")/.."
FUZZ_BUILD=${FUZZ_BUILD:-/tmp/mo-fuzz-build}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_JOBS=${FUZZ_JOBS:-1}
FUZZ_MAX_LEN=${FUZZ_MAX_LEN:-4096}
TARGETS=${*:-$(cat Fuzz/targets)}
# Swift's own crash backtracer trips ASan (a false stack-buffer-underflow in
# CrashHandlerLinux); libFuzzer and ASan print the stack of a finding themselves.
export SWIFT_BACKTRACE=enable=no

Fuzz/build.sh $TARGETS || exit 2

failed=""
summary=""
for target in $TARGETS; do
    work="$FUZZ_BUILD/work/$target"
    artifacts="$FUZZ_BUILD/artifacts/$target"
    log="$FUZZ_BUILD/$target.log"
    mkdir -p "$work" "$artifacts"
    echo "fuzz: $target for ${FUZZ_SECONDS}s (log $log)"
    # First replay the seeds alone: a seed that crashes is a regression.
    if ! "$FUZZ_BUILD/fuzz-$target" -runs=0 -max_len="$FUZZ_MAX_LEN" \
        -artifact_prefix="$artifacts/" "Fuzz/corpus/$target" >"$log.seeds" 2>&1; then
        echo "fuzz: $target FAILS on its seed corpus:"; tail -30 "$log.seeds"
        failed="$failed $target"
        continue
    fi
    # -jobs=N with -workers=N keeps N processes; each child logs to fuzz-N.log in the cwd.
    if [ "$FUZZ_JOBS" -gt 1 ]; then parallel="-jobs=$FUZZ_JOBS -workers=$FUZZ_JOBS"; else parallel=""; fi
    # shellcheck disable=SC2086
    (cd "$FUZZ_BUILD" && "./fuzz-$target" $parallel -max_total_time="$FUZZ_SECONDS" \
        -max_len="$FUZZ_MAX_LEN" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "$work" "$OLDPWD/Fuzz/corpus/$target") >"$log" 2>&1
    status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" "$FUZZ_BUILD"/fuzz-*.log 2>/dev/null \
        | awk '{ s += $1 } END { print s + 0 }')
    rm -f "$FUZZ_BUILD"/fuzz-*.log
    crashes=$(ls "$artifacts" 2>/dev/null | wc -l)
    summary="$summary
  $target: $runs executions, corpus $(ls "$work" | wc -l) inputs, findings $crashes"
    if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
        echo "fuzz: $target found a problem (exit $status):"
        grep -E "ERROR|SUMMARY|Fatal error|invariant|Test unit written" "$log" | head -20
        for crash in "$artifacts"/*; do
            [ -e "$crash" ] || continue
            echo "--- $crash:"; od -c "$crash" | head -20
        done
        failed="$failed $target"
    fi
done
echo "fuzz: summary (${FUZZ_SECONDS}s per target):$summary"
if [ -n "$failed" ]; then
    echo "fuzz: FAILED:$failed"
    exit 1
fi
echo "fuzz: no findings"
