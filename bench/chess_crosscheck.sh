#!/usr/bin/env bash
# Cross-checks `arbiter chess` against the python-chess strict check (bench/chess_baseline.py) on
# random legal games with one token spoilt at random, so that both Yes and No answers are compared.
#
#   bash bench/chess_crosscheck.sh [GAMES] [SEED]      (defaults: 3000 games, seed 1)
#
# Prints how many answers agree and shows the first records where they differ; exits 1 if any do.
set -euo pipefail

games=${1:-3000}
seed=${2:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"

for args in "-p arbiter-cli" "-p arbiter-chess-record --example gen_games"; do
    # shellcheck disable=SC2086
    if ! cargo build --release --quiet $args 2>"$work/build.log"; then
        cat "$work/build.log" >&2
        exit 1
    fi
done

target/release/examples/gen_games "$games" "$seed" | python3 bench/chess_mutate.py "$seed" >"$work/records"
target/release/arbiter chess --each-line "$work/records" >"$work/arbiter"
python3 bench/chess_baseline.py "$work/records" >"$work/python"

paste -d'|' "$work/python" "$work/arbiter" "$work/records" | awk -F'|' '
    { total++; if ($1 == $2) { agree++; yes += ($1 == "Yes") } else if (shown++ < 5) print "python " $1 ", arbiter " $2 ": " $3 }
    END { printf "%d of %d answers agree (%d Yes, %d No)\n", agree, total, yes, agree - yes; exit agree != total }'
