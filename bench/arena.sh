#!/bin/sh
# Skill arena timings: the official data (20 games), the generated maximum-size input
# (T = 20, N = M = 100, K = 200, R = 1000, seed 2018) and the near-tie input
# (fixtures/adversarial/1.in); wall-clock milliseconds of $RUNS runs (default 20) of the release
# binary, process start and file reading included, and of $REFERENCE_RUNS runs (default 5) of the
# reference (17 s a run on the maximum input).
#
#   bench/arena.sh [REFERENCE]
#
# REFERENCE is a C++ solution of the problem (REFERENCE.cpp, e.g. the official one, compiled here
# with g++ -O2) or an executable reading standard input; it is timed on the same inputs in the
# same run, and its output compared with arbiter's. With hyperfine installed, it takes the times
# (after warm-up runs; each program reads its input from standard input through the shell, whose
# start hyperfine subtracts); without it, clock readings around each run do. Run from the
# repository root.
set -eu
reference=${1:-}
runs=${RUNS:-20}
reference_runs=${REFERENCE_RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --quiet --release -p arbiter-cli
cargo run --quiet --release -p arbiter-arena --example max_input 2018 > "$work/max.in"
cp crates/arena/tests/fixtures/official/1.in "$work/official.in"
cp crates/arena/tests/fixtures/adversarial/1.in "$work/near-ties.in"
arbiter="$PWD/target/release/arbiter"
case "$reference" in
    '') ;;
    *.cpp)
        g++ -O2 -o "$work/reference" "$reference"
        reference="$work/reference"
        ;;
    *) reference=$(realpath "$reference") ;;
esac

# field NAME: the number NAME in hyperfine's JSON export (one benchmark).
field() {
    grep -o "\"$1\": *[0-9.e+-]*" "$work/times.json" | head -1 | sed 's/.*: *//'
}

# timing RUNS INPUT PROGRAM...: the best, median and mean wall milliseconds of RUNS runs.
timing() {
    count=$1 input=$2
    shift 2
    if command -v hyperfine > /dev/null; then
        hyperfine --style none --warmup "$((count < 5 ? 1 : 3))" --runs "$count" \
            --export-json "$work/times.json" "$* < $input" > /dev/null 2> "$work/hyperfine.err" ||
            { cat "$work/hyperfine.err" >&2; return 1; }
        echo "$(field min) $(field median) $(field mean)" |
            awk '{ printf "%.1f %.1f %.1f\n", $1 * 1000, $2 * 1000, $3 * 1000 }'
        return
    fi
    : > "$work/times"
    i=0
    while [ "$i" -lt "$count" ]; do
        start=$(date +%s%N)
        "$@" < "$input" > /dev/null
        end=$(date +%s%N)
        echo $(((end - start) / 1000)) >> "$work/times"
        i=$((i + 1))
    done
    sort -n "$work/times" |
        awk '{ t[NR] = $1; s += $1 } END { printf "%.1f %.1f %.1f\n", t[1] / 1000, t[int((NR + 1) / 2)] / 1000, s / NR / 1000 }'
}

uptime
printf '%-36s %9s %9s %9s\n' "input / program" "best ms" "median ms" "mean ms"
for name in official max near-ties; do
    "$arbiter" arena < "$work/$name.in" > "$work/$name.arbiter"
    printf '%-36s %9s %9s %9s\n' "$name / arbiter arena" $(timing "$runs" "$work/$name.in" "$arbiter" arena)
    if [ -n "$reference" ]; then
        "$reference" < "$work/$name.in" > "$work/$name.reference"
        printf '%-36s %9s %9s %9s\n' "$name / reference" $(timing "$reference_runs" "$work/$name.in" "$reference")
        if cmp -s "$work/$name.arbiter" "$work/$name.reference"; then
            echo "  outputs identical"
        else
            echo "  outputs differ"
        fi
    fi
done
uptime
cmp -s "$work/official.arbiter" crates/arena/tests/fixtures/official/1.ans &&
    echo "official output identical to official/1.ans"
