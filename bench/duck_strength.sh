#!/usr/bin/env bash
# The Duck Chess engine's strength against fairy-stockfish 11.1: the matches behind the strength
# table of BENCHMARKS.md, one per row.
#
#   bash bench/duck_strength.sh book        # 100 ms each, the opening book, both colours
#   bash bench/duck_strength.sh random8     # 100 ms each, 8 random plies (the earlier setup)
#   bash bench/duck_strength.sh odds        # fairy-stockfish 400 ms against arbiter 100 ms
#   bash bench/duck_strength.sh odds-random4  # the same odds from 4 random plies (seed 2026)
#
# The scaling table (strength at the time controls people analyse and play at, not only at
# 100 ms): equal time at 100 ms (`book` above), 1 s and 10+0.1, and time odds of 4x (`odds`,
# `odds-random4`) and 16x, each from the book and from 4 random plies:
#   bash bench/duck_strength.sh eq1s        # 1 s a move each, the book
#   bash bench/duck_strength.sh eq10        # a clock of 10 s + 0.1 s a move each, the book
#   bash bench/duck_strength.sh odds16      # fairy-stockfish 1,600 ms against arbiter 100 ms
#   bash bench/duck_strength.sh odds16-random4  # the same odds from 4 random plies (seed 2026)
# A long row is best run with `--save DIR` and, if stopped, resumed with
# `target/release/arbiter duck match --resume DIR`.
#   GAMES=40 bash bench/duck_strength.sh ROW     # fewer games (extra flags go to `duck match`)
#   EVAL=classical bash bench/duck_strength.sh ROW   # arbiter with its classical evaluation
#   EVAL=crates/duck-engine/networks/duck-h256.nnue bash bench/duck_strength.sh ROW
#                                           # arbiter with another network (here the first one)
#
# Timed matches are fair only on an idle machine: each engine is pinned to a core of its own
# (--affinity), one game at a time, and the load average is printed first (the runner warns
# too when it is high). The book, bench/openings/duck-short.txt, holds 60 openings of 2, 4 and
# 6 plies that fairy-stockfish finds balanced (bench/duck_book.py made it); every opening is
# played twice, once with each engine as red.
set -euo pipefail
cd "$(dirname "$0")/.."
rows="book|random8|odds|odds-random4|eq1s|eq10|odds16|odds16-random4"
row=${1:?"usage: bash bench/duck_strength.sh $rows [duck match flags...]"}
shift
cargo build --release -q -p arbiter-cli
A=target/release/arbiter
FSF=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}
VP=crates/duck/tests/fixtures/duck-variants.ini
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, $(git rev-parse --short HEAD)"
arbiter=(--engine "$A duck uci" --name arbiter)
case ${EVAL:-network} in
network) ;;
classical) arbiter=(--engine "$A duck uci" --option EvalFile= --name arbiter-classical) ;;
*.nnue) arbiter=(--engine "$A duck uci" --option "EvalFile=$EVAL" --name "arbiter-$(basename "$EVAL" .nnue)") ;;
*) echo "unknown EVAL=$EVAL: network, classical or a .nnue file" >&2; exit 2 ;;
esac
common=("${arbiter[@]}" --engine "$FSF" --option "VariantPath=$VP"
    --option UCI_Variant=duck --name fairy-stockfish --affinity --concurrency 1
    --time-margin 1000)
# The time odds: fairy-stockfish (the second engine) gets four (or sixteen) times arbiter's
# time.
odds=(--engine-movetime 400 --movetime 100 --games "${GAMES:-100}")
odds16=(--engine-movetime 1600 --movetime 100 --games "${GAMES:-100}")
case $row in
book) "$A" duck match "${common[@]}" --movetime 100 --games "${GAMES:-120}" \
    --openings bench/openings/duck-short.txt "$@" ;;
random8) "$A" duck match "${common[@]}" --movetime 100 --games "${GAMES:-100}" \
    --random-openings 8 --seed 2026 "$@" ;;
odds) "$A" duck match "${common[@]}" "${odds[@]}" --openings bench/openings/duck-short.txt "$@" ;;
odds-random4) "$A" duck match "${common[@]}" "${odds[@]}" --random-openings 4 --seed 2026 "$@" ;;
eq1s) "$A" duck match "${common[@]}" --movetime 1000 --games "${GAMES:-100}" \
    --openings bench/openings/duck-short.txt "$@" ;;
eq10) "$A" duck match "${common[@]}" --tc 10+0.1 --games "${GAMES:-100}" \
    --openings bench/openings/duck-short.txt "$@" ;;
odds16) "$A" duck match "${common[@]}" "${odds16[@]}" --openings bench/openings/duck-short.txt "$@" ;;
odds16-random4) "$A" duck match "${common[@]}" "${odds16[@]}" --random-openings 4 --seed 2026 \
    "$@" ;;
*) echo "unknown row $row: ${rows//|/, }" >&2; exit 2 ;;
esac
