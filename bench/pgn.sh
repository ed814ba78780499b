#!/usr/bin/env bash
# PGN at scale: throughput and peak memory of `arbiter chess pgn` and `chess fix` on a generated
# multi-GB file (plain, zstd, gzip, and bzip2 on a slice), and peak memory on hostile inputs.
#
#   bash bench/pgn.sh [GIB] [BASELINE_ARBITER]      (default: 2 GiB; no baseline)
#
# With a baseline binary (an older build of arbiter) the hostile inputs are measured with it too,
# in the same run. Every figure is the whole process: wall-clock time, CPU time (user + system)
# and peak RSS from /usr/bin/time. The generated files live in a temporary folder, removed at the
# end, or in $PGN_BENCH_DIR when it is set, kept there and reused by the next run; nothing is
# committed. Needs zstd, gzip and bzip2 on the PATH.
set -euo pipefail

gib=${1:-2}
base=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${PGN_BENCH_DIR:-}" ]; then
    work=$PGN_BENCH_DIR
    mkdir -p "$work"
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi
cd "$root"
cargo build --release --quiet -p arbiter-cli
cargo build --release --quiet -p arbiter-chess-record --example gen_games
arbiter=$root/target/release/arbiter

# run LABEL COMMAND...: prints the label, wall s, cpu s, peak RSS MiB and the last line of stdout.
run() {
    local label=$1
    shift
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >"${OUT:-$work/out}" 2>"$work/err" || true
    local wall user sys rss
    # The last line: /usr/bin/time writes a line of its own first when the status is not 0.
    read -r wall user sys rss < <(tail -n 1 "$work/time")
    printf '%-44s wall %7.2f s  cpu %7.2f s  peak RSS %7.1f MiB  | %s\n' "$label" "$wall" \
        "$(echo "$user + $sys" | bc -l)" "$(echo "$rss / 1024" | bc -l)" \
        "$(tail -n 1 "$work/out" | cut -c1-70)"
}

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# A multi-GB file of random legal games (about 715 bytes each).
games=$((gib * 1024 * 1024 * 1024 / 715))
big=$work/games-$gib.pgn
if [ ! -s "$big.gz" ]; then
    target/release/examples/gen_games --pgn "$games" 2026 >"$big"
    zstd -q -f -T0 -3 "$big" -o "$big.zst"
    target/release/examples/gen_games --pgn 290000 7 >"$work/slice.pgn"
    bzip2 -c "$work/slice.pgn" >"$work/slice.pgn.bz2"
    gzip -1 -c "$big" >"$big.gz"
fi
[ -s "$big" ] || gzip -dc "$big.gz" >"$big"
bytes=$(stat -c %s "$big")
echo "input: $games games, $bytes bytes"
for file in "$big" "$big.zst" "$big.gz"; do
    run "chess pgn $(basename "$file")" "$arbiter" chess pgn "$file"
    echo "    $(echo "$bytes / $(cut -d' ' -f1 "$work/time") / 1048576" | bc) MiB/s of PGN"
done
run "chess pgn slice.pgn (200 MiB)" "$arbiter" chess pgn "$work/slice.pgn"
run "chess pgn slice.pgn.bz2" "$arbiter" chess pgn "$work/slice.pgn.bz2"
run "chess pgn --json slice.pgn" "$arbiter" chess pgn --json "$work/slice.pgn"
OUT=/dev/null run "chess fix $(basename "$big") > /dev/null" "$arbiter" chess fix "$big"
OUT=/dev/null run "zstd -d $(basename "$big.zst") (reference)" zstd -d -c "$big.zst"
rm -f "$big"

# Hostile inputs: one game of 100 MB of moves (a knight going back and forth), one of 100 MB of
# comment, and a million games that each end in an illegal move.
[ -s "$work/junk.pgn" ] || python3 - "$work" <<'EOF'
import sys
work = sys.argv[1]
with open(f"{work}/moves.pgn", "w") as f:
    f.write('[White "A"]\n[Black "B"]\n\n')
    n, size, parts = 1, 0, []
    while size < 100_000_000:
        s = f"{n}. Nf3 Nf6 {n + 1}. Ng1 Ng8 " + ("\n" if n % 20 == 1 else "")
        parts.append(s)
        size += len(s)
        n += 2
    f.write("".join(parts) + "*\n")
with open(f"{work}/comment.pgn", "w") as f:
    f.write('[White "A"]\n[Black "B"]\n\n1. e4 {' + "x" * 100_000_000 + "} e5 *\n")
with open(f"{work}/junk.pgn", "w") as f:
    f.write('[White "x"]\n\n1. e4 e5 2. Ke3 *\n\n' * 1_000_000)
EOF
for bin in "$arbiter" ${base:+"$base"}; do
    name=arbiter
    [ "$bin" = "$arbiter" ] || name=baseline
    echo "-- $name ($bin)"
    for file in moves comment; do
        run "$name chess pgn $file.pgn" "$bin" chess pgn "$work/$file.pgn"
        OUT=/dev/null run "$name chess fix $file.pgn" "$bin" chess fix "$work/$file.pgn"
        if [ "$name" = arbiter ]; then
            run "$name chess pgn --max-game-mib 128 $file.pgn" "$bin" chess pgn --max-game-mib 128 "$work/$file.pgn"
            OUT=/dev/null run "$name chess fix --max-game-mib 128 $file.pgn" "$bin" chess fix --max-game-mib 128 "$work/$file.pgn"
        fi
    done
    run "$name chess pgn junk.pgn (1 M games)" "$bin" chess pgn "$work/junk.pgn"
    OUT=/dev/null run "$name chess fix junk.pgn (1 M games)" "$bin" chess fix "$work/junk.pgn"
done
