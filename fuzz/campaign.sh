#!/usr/bin/env bash
# Runs fuzz targets for a fixed number of executions each and prints one table row per target
# (the format of FUZZING.md's "Runs and figures").
#
#   fuzz/campaign.sh [RUNS] [TARGET...]
#
# RUNS defaults to 10000000; the targets default to all of them. JOBS=N runs N targets at a
# time (default 1), each under `nice -n 15`. MAX_LEN (default 4096; 1024 at most for the PGN
# targets) caps an input's size. Each
# target's corpus (fuzz/corpus/TARGET) starts from its seeds and the fixtures of the crate it
# exercises; what libFuzzer printed is kept in fuzz/logs/TARGET.log, crashes go to
# fuzz/artifacts/TARGET/. The script exits non-zero when a target stops before RUNS executions
# (a crash, a broken property, a timeout or an out-of-memory).
set -euo pipefail

cd "$(dirname "$0")"
RUNS=${1:-10000000}
shift || true
JOBS=${JOBS:-1}
MAX_LEN=${MAX_LEN:-4096}
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
    mapfile -t TARGETS < <(cargo fuzz list)
fi

# The fixtures each target starts from, besides fuzz/seeds/TARGET.
fixtures() {
    case "$1" in
        duck_judge) echo ../crates/duck/tests/fixtures/sample ../crates/duck/tests/fixtures/official ;;
        match_openings) echo ../crates/duck-match/tests/fixtures/openings.txt ;;
        chess_record) echo ../crates/chess-record/tests/fixtures/sample ;;
        chess_pgn | chess_fix) echo ../crates/chess-record/tests/fixtures/pgn ;;
        arena_judge | arena_trace)
            echo ../crates/arena/tests/fixtures/sample ../crates/arena/tests/fixtures/adversarial ;;
        contest_check) echo ../crates/contest/tests/fixtures/duck ;;
    esac
}

# The PGN targets check every game in both modes and every variant's rules, from a stream too:
# at 4 KiB an execution costs a millisecond. A KiB still holds games of 40 moves and more.
max_len() {
    case "$1" in
        chess_pgn | chess_fix) echo $((MAX_LEN < 1024 ? MAX_LEN : 1024)) ;;
        *) echo "$MAX_LEN" ;;
    esac
}

RUSTC_BOOTSTRAP=1 cargo fuzz build -s none -a >&2
BIN=target/x86_64-unknown-linux-gnu/release
mkdir -p logs

run() {
    local target=$1
    mkdir -p "corpus/$target" "artifacts/$target"
    for source in $(fixtures "$target"); do
        find "$source" -type f ! -name '*.md' -exec cp -t "corpus/$target" {} +
    done
    local start=$SECONDS status=0
    nice -n 15 "$BIN/$target" -runs="$RUNS" -max_len="$(max_len "$target")" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="artifacts/$target/" \
        "corpus/$target" "seeds/$target" >"logs/$target.log" 2>&1 || status=$?
    local time=$((SECONDS - start))
    local runs cov ft corpus
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "logs/$target.log")
    read -r cov ft < <(grep -o 'cov: [0-9]* ft: [0-9]*' "logs/$target.log" | tail -1 | awk '{print $2, $4}')
    # libFuzzer's own corpus at the end: inputs and their total size.
    corpus=$(grep -o 'corp: [0-9]*/[0-9A-Za-z]*' "logs/$target.log" | tail -1 | cut -d' ' -f2)
    printf '| `%s` | %.2f M | %d s | %s | %s | %s / %s | %s |%s\n' "$target" \
        "$(echo "${runs:-0} / 1000000" | bc -l)" "$time" "$(( ${runs:-0} / (time > 0 ? time : 1) ))" \
        "$(max_len "$target")" \
        "$cov" "$ft" "${corpus/\// inputs, }" "$([ $status -eq 0 ] || echo " **stopped: exit $status**")"
    return $status
}
export -f run fixtures max_len
export RUNS MAX_LEN BIN

printf '%s\n' "${TARGETS[@]}" | xargs -P "$JOBS" -I{} bash -c 'run {}'
