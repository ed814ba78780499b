#!/usr/bin/env bash
# `arbiter chess pgn` against the library it reads PGN with and against pgn-extract, on
# lichess-style PGN, in one run (figures in BENCHMARKS.md, "PGN against pgn-reader").
#
#   bash bench/pgn_speed.sh [GAMES] [SEED] [RUNS]      (defaults: 120000 games, seed 2026, 2 runs)
#   REPEAT=5 bash bench/pgn_speed.sh ...               (each program's runs within a round)
#
# Generates the file with bench/lichess_pgn.rs (17 tags, a clock comment after every move,
# evaluations in one game in ten), builds pgn-reader's own `validate` example from the crate's
# published source (the version arbiter's lock file holds, taken from ~/.cargo/registry, where
# `cargo fetch` puts it; built in target/pgn-reader-validate, nothing committed) with arbiter's
# release settings, and runs RUNS rounds. A round runs, on one core each, REPEAT times over and
# interleaved (arbiter, pgn-reader, pgn-extract, arbiter, ...), so that a change in the machine's
# load during the round falls on the three alike:
#
#   arbiter chess pgn FILE       strict, every finding reported (RAYON_NUM_THREADS=1)
#   validate FILE                pgn-reader's example: tags skipped, every move's legality checked
#   pgn-extract -s -o /dev/null  reads and checks every game
#
# then `arbiter chess pgn` once on every core (wall time). Each run is timed by /usr/bin/time
# (CPU time = user + system, wall time, peak RSS) and gets a line; the round ends with, for each
# program, the median CPU time with its minimum and maximum, the median wall time and the largest
# peak RSS of its runs, and the ratios of the median CPU times. The load average is printed
# before the round and before each run: the machine may be shared, and CPU time is the figure
# that holds under load (a single run of a program still moved by a quarter from one round to
# the next; the median of several interleaved runs moves much less). The generated file is kept
# in $PGN_SPEED_DIR when it is set (and reused), else in a temporary folder removed at the end.
set -euo pipefail

games=${1:-120000}
seed=${2:-2026}
runs=${3:-2}
repeat=${REPEAT:-5}
[ "$repeat" -ge 1 ] 2>/dev/null || { echo "REPEAT must be a number of at least 1" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${PGN_SPEED_DIR:-}" ]; then
    work=$PGN_SPEED_DIR
    mkdir -p "$work"
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
cd "$root"
cargo build --release --quiet -p arbiter-cli
cargo build --release --quiet -p arbiter-chess-record --example lichess_pgn
arbiter=$root/target/release/arbiter

# pgn-reader's validate example, from the published crate of the version arbiter locks.
version=$(awk '/^name = "pgn-reader"$/ { getline; gsub(/"/, "", $3); print $3 }' Cargo.lock)
shakmaty=$(awk '/^name = "shakmaty"$/ { getline; gsub(/"/, "", $3); print $3 }' Cargo.lock)
project=$root/target/pgn-reader-validate
mkdir -p "$project/src"
cat >"$project/Cargo.toml" <<EOF
[package]
name = "pgn-reader-validate"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
pgn-reader = "=$version"
shakmaty = "=$shakmaty"
zstd = "0.13"

[profile.release]
codegen-units = 1
lto = "thin"

[workspace]
EOF
# The source is fetched with the project, which needs a main file to be one.
[ -s "$project/src/main.rs" ] || echo "fn main() {}" >"$project/src/main.rs"
(cd "$project" && cargo fetch --quiet)
source=$(find "${CARGO_HOME:-$HOME/.cargo}/registry/src" -maxdepth 2 -type d -name "pgn-reader-$version" | head -n 1)
[ -n "$source" ] || { echo "pgn-reader $version not found in the cargo registry" >&2; exit 1; }
cp "$source/examples/validate.rs" "$project/src/main.rs"
(cd "$project" && CARGO_TARGET_DIR=$project/target cargo build --release --quiet)
validate=$project/target/release/pgn-reader-validate

extract=$(command -v pgn-extract || command -v /usr/games/pgn-extract || true)

file=$work/lichess-$games-$seed.pgn
[ -s "$file" ] || target/release/examples/lichess_pgn "$games" "$seed" >"$file"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "input: $games lichess-style games, $(stat -c %s "$file") bytes (seed $seed); pgn-reader $version"

# run NAME COMMAND...: one line, and the run's "CPU WALL RSS" added to $work/runs-NAME.
run() {
    local name=$1
    shift
    local load
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >"$work/out" 2>"$work/err" || true
    local wall user sys rss cpu last
    read -r wall user sys rss < <(tail -n 1 "$work/time")
    # The program's last line, the input's long path shortened to FILE.
    last=$(tail -n 1 "$work/out")
    last=${last//"$file"/FILE}
    cpu=$(echo "$user + $sys" | bc -l)
    echo "$cpu $wall $rss" >>"$work/runs-$name"
    printf '    %-19s cpu %6.2f s  wall %6.2f s  peak RSS %6.1f MiB  (load %s)  | %s\n' "$name" \
        "$cpu" "$wall" "$(echo "$rss / 1024" | bc -l)" "$load" "${last:0:60}"
}

# median FILE COLUMN: the median of a column of numbers (the mean of the two middle ones when
# there is an even count of them).
median() {
    cut -d' ' -f"$2" "$1" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# summary NAME: the median CPU time of NAME's runs, its range, the median wall time and the
# largest peak RSS; the median CPU time goes to $work/cpu-NAME for the ratios.
summary() {
    local name=$1 runs=$work/runs-$1
    local cpu low high wall rss
    cpu=$(median "$runs" 1)
    low=$(cut -d' ' -f1 "$runs" | sort -g | head -n 1)
    high=$(cut -d' ' -f1 "$runs" | sort -g | tail -n 1)
    wall=$(median "$runs" 2)
    rss=$(cut -d' ' -f3 "$runs" | sort -g | tail -n 1)
    echo "$cpu" >"$work/cpu-$name"
    printf '  %-19s median cpu %6.2f s (%.2f-%.2f over %d runs)  median wall %6.2f s  peak RSS %6.1f MiB\n' \
        "$name" "$cpu" "$low" "$high" "$(wc -l <"$runs")" "$wall" "$(echo "$rss / 1024" | bc -l)"
}

for round in $(seq "$runs"); do
    echo "round $round ($repeat runs of each, interleaved; load average $(cut -d' ' -f1-3 /proc/loadavg)):"
    rm -f "$work"/runs-*
    for _ in $(seq "$repeat"); do
        RAYON_NUM_THREADS=1 run arbiter "$arbiter" chess pgn "$file"
        grep -q ": $games games: $games ok, 0 with errors, 0 warnings" "$work/out" \
            || { echo "arbiter did not accept every game: $(tail -n 1 "$work/out")" >&2; exit 1; }
        run pgn-reader "$validate" "$file"
        grep -q "success" "$work/out" || { echo "validate found errors" >&2; exit 1; }
        if [ -n "$extract" ]; then
            run pgn-extract "$extract" -s -o /dev/null "$file"
        fi
    done
    run arbiter-all-cores "$arbiter" chess pgn "$file"
    summary arbiter
    summary pgn-reader
    [ -z "$extract" ] || summary pgn-extract
    a=$(cat "$work/cpu-arbiter")
    printf '  arbiter / pgn-reader, median CPU time: %.2fx (target at most 1.2x)\n' \
        "$(echo "$a / $(cat "$work/cpu-pgn-reader")" | bc -l)"
    if [ -n "$extract" ]; then
        printf '  pgn-extract / arbiter, median CPU time: %.1fx (target at least 10x)\n' \
            "$(echo "$(cat "$work/cpu-pgn-extract") / $a" | bc -l)"
    fi
done
