#!/usr/bin/env bash
# A longer local fuzz campaign: builds the fuzz preset and fuzzes every target
# (or the ones named) one after another, each for SECONDS (default 600) or,
# with --runs N, for N executions, one core each. What a run finds stays in
# build/fuzz/tests/fuzz/corpus/<target> and seeds the next run; crashes land
# in build/fuzz/tests/fuzz/artifacts/. Prints executions and crashes per target.
#
#   tests/fuzz/campaign.sh                 # 10 minutes per target
#   tests/fuzz/campaign.sh 3600 otlp       # an hour on the OTLP loader
#   tests/fuzz/campaign.sh --runs 1000000  # a million executions per target
#
# TRACELANE_FUZZ_FLAGS adds libFuzzer flags (e.g. -entropic=0, faster on the
# targets with many features: any_file, analysis); inputs are at most 4 KiB
# unless it sets -max_len.
set -euo pipefail
cd "$(dirname "$0")/../.."

limit=(-max_total_time=600)
if [ "${1:-}" = "--runs" ]; then
    limit=(-runs="$2")
    shift 2
elif [ -n "${1:-}" ] && [[ "$1" =~ ^[0-9]+$ ]]; then
    limit=(-max_total_time="$1")
    shift
fi

# TRACELANE_FUZZ_BUILD names another build folder of the fuzz preset (it is
# then not rebuilt here).
if [ -z "${TRACELANE_FUZZ_BUILD:-}" ]; then
    cmake --preset fuzz >/dev/null
    cmake --build --preset fuzz -j "$(nproc)"
fi
dir=${TRACELANE_FUZZ_BUILD:-build/fuzz}/tests/fuzz
targets=("$@")
if ((${#targets[@]} == 0)); then
    mapfile -t targets < <(find "$dir" -maxdepth 1 -type f -executable -name 'fuzz_*' -printf '%f\n' | sed 's/^fuzz_//' | sort)
fi
# Short allocation stacks: much faster, and a report still names where it broke.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:malloc_context_size=4
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
printf '%-12s %12s %10s %8s  %s\n' target executions exec/s crashes result
for target in "${targets[@]}"; do
    mkdir -p "$dir/corpus/$target" "$dir/artifacts"
    log="$dir/campaign-$target.log"
    status=ok
    # shellcheck disable=SC2086
    "$dir/fuzz_$target" "${limit[@]}" -max_len=4096 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        ${TRACELANE_FUZZ_FLAGS:-} \
        -artifact_prefix="$dir/artifacts/$target-" "$dir/corpus/$target" "$dir/seeds/$target" \
        tests/data/fuzz-regressions >"$log" 2>&1 || status="FAILED (see $log)"
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    crashes=$(find "$dir/artifacts" -name "$target-*" | wc -l)
    printf '%-12s %12s %10s %8s  %s\n' "$target" "$runs" "$rate" "$crashes" "$status"
done
