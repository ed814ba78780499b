#!/usr/bin/env bash
# PGN to Parquet and back (figures in BENCHMARKS.md, "Games as Parquet"): `arbiter chess
# convert` on lichess-style PGN, one core, and the dataset's size against the PGN's Zstandard.
#
#   bash bench/chess_convert.sh [GAMES] [SEED]      (defaults: 120000 games, seed 2026)
#
# Generates the file with bench/lichess_pgn.rs (kept in $PGN_SPEED_DIR when it is set, as
# bench/pgn_speed.sh does), then runs, each once with RAYON_NUM_THREADS=1 and once on every core:
#
#   arbiter chess convert FILE --to parquet --out DIR    MB/s and games/s per CPU second
#   arbiter chess convert DIR --to pgn                    the way back, checked against the file
#
# and compresses the file with `zstd -3` (the command's default, lichess's files) and `zstd -19`.
# CPU time (user + system), wall time and peak RSS come from /usr/bin/time; the load average is
# printed before each run, the machine may be shared. Needs zstd on the PATH.
set -euo pipefail

games=${1:-120000}
seed=${2:-2026}
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

file=$work/lichess-$games-$seed.pgn
[ -s "$file" ] || target/release/examples/lichess_pgn "$games" "$seed" >"$file"
bytes=$(stat -c %s "$file")
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "input: $games lichess-style games, $bytes bytes (seed $seed)"

# run NAME COMMAND...: one line; "CPU WALL" in $work/last.
run() {
    local name=$1
    shift
    local load
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >"$work/out" 2>"$work/err" || {
        cat "$work/err" >&2
        exit 1
    }
    local wall user sys rss cpu
    read -r wall user sys rss < <(tail -n 1 "$work/time")
    cpu=$(echo "$user + $sys" | bc -l)
    echo "$cpu $wall" >"$work/last"
    printf '  %-30s cpu %6.2f s  wall %6.2f s  peak RSS %6.1f MiB  (load %s)\n' "$name" "$cpu" \
        "$wall" "$(echo "$rss / 1024" | bc -l)" "$load"
}

rate() { # CPU-or-wall seconds: "MB/s, games/s"
    printf '%.1f MB/s, %.0f games/s' "$(echo "$bytes / 1000000 / $1" | bc -l)" \
        "$(echo "$games / $1" | bc -l)"
}

for threads in 1 all; do
    rm -rf "$work/dataset"
    if [ "$threads" = 1 ]; then
        RAYON_NUM_THREADS=1 run "to parquet, one core" "$arbiter" chess convert "$file" --to parquet --out "$work/dataset"
    else
        run "to parquet, every core" "$arbiter" chess convert "$file" --to parquet --out "$work/dataset"
    fi
    read -r cpu wall <"$work/last"
    echo "    per CPU second: $(rate "$cpu"); by wall time: $(rate "$wall")"
    echo "    $(tail -n 1 "$work/out")"
done
parquet=$(du -sb "$work/dataset" | cut -f1)
RAYON_NUM_THREADS=1 run "to pgn, one core" "$arbiter" chess convert "$work/dataset" --to pgn --out "$work/back.pgn"
read -r cpu wall <"$work/last"
echo "    per CPU second: $(rate "$cpu")"
cmp -s "$file" "$work/back.pgn" && echo "    the same bytes as the file" || {
    echo "the PGN written back differs from the file" >&2
    exit 1
}
rm -f "$work/back.pgn"
zstd -q -f -3 "$file" -o "$work/file.zst"
three=$(stat -c %s "$work/file.zst")
zstd -q -f -19 -T0 "$file" -o "$work/file.zst"
nineteen=$(stat -c %s "$work/file.zst")
rm -f "$work/file.zst"
printf 'sizes: PGN %.1f MB, zstd -3 %.1f MB, zstd -19 %.1f MB, Parquet %.1f MB (%.2fx zstd -3, %.2fx zstd -19)\n' \
    "$(echo "$bytes / 1000000" | bc -l)" "$(echo "$three / 1000000" | bc -l)" \
    "$(echo "$nineteen / 1000000" | bc -l)" "$(echo "$parquet / 1000000" | bc -l)" \
    "$(echo "$parquet / $three" | bc -l)" "$(echo "$parquet / $nineteen" | bc -l)"
