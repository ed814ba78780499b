#!/bin/sh
# Skill arena timings: the official data (20 games), the generated maximum-size input
# (T = 20, N = M = 100, K = 200, R = 1000, seed 2018) and the near-tie input
# (fixtures/adversarial/1.in); best and median wall-clock milliseconds of
# $RUNS runs (default 10) of the release binary, process start and file reading included.
#
#   bench/arena.sh [REFERENCE.cpp]
#
# With REFERENCE.cpp (a C++ solution of the problem, e.g. the official one), it is compiled here
# with g++ -O2 and timed on the same inputs in the same run. Run from the repository root.
set -eu
reference=${1:-}
runs=${RUNS:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --quiet --release -p arbiter-cli
cargo run --quiet --release -p arbiter-arena --example max_input 2018 > "$work/max.in"
cp crates/arena/tests/fixtures/official/1.in "$work/official.in"
cp crates/arena/tests/fixtures/adversarial/1.in "$work/near-ties.in"
if [ -n "$reference" ]; then
    g++ -O2 -o "$work/reference" "$reference"
fi

# best INPUT OUTPUT PROGRAM...: prints the best and the median wall milliseconds of $runs runs.
best() {
    input=$1 output=$2
    shift 2
    : > "$work/times"
    i=0
    while [ "$i" -lt "$runs" ]; do
        start=$(date +%s%N)
        "$@" < "$input" > "$output"
        end=$(date +%s%N)
        echo $(((end - start) / 1000)) >> "$work/times"
        i=$((i + 1))
    done
    sort -n "$work/times" | awk '{ t[NR] = $1 } END { printf "%.1f %.1f\n", t[1] / 1000, t[int((NR + 1) / 2)] / 1000 }'
}

printf '%-36s %9s %9s\n' "input / program" "best ms" "median ms"
for name in official max near-ties; do
    times=$(best "$work/$name.in" "$work/$name.arbiter" target/release/arbiter arena)
    printf '%-36s %9s %9s\n' "$name / arbiter arena" $times
    if [ -n "$reference" ]; then
        times=$(best "$work/$name.in" "$work/$name.reference" "$work/reference")
        printf '%-36s %9s %9s\n' "$name / reference (g++ -O2)" $times
        if cmp -s "$work/$name.arbiter" "$work/$name.reference"; then
            echo "  outputs identical"
        else
            echo "  outputs differ"
        fi
    fi
done
cmp -s "$work/official.arbiter" crates/arena/tests/fixtures/official/1.ans &&
    echo "official output identical to official/1.ans"
