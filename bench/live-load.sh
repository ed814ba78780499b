#!/bin/sh
# Load test of the live games (`arbiter serve`, Play a friend) on the loopback interface: GAMES
# games at once (default 1,000), each of two WebSocket clients playing random valid moves until
# the game ends or MOVES plies (default 100), each move sent THINK ms (default 0) after the
# opponent's was shown. Starts a release `arbiter serve` on a fresh data directory, prints the
# moves a second, the time from a move sent to the opponent's socket showing it, the server's
# memory, and the check of its database against every acknowledged move; exits non-zero on any
# move lost or duplicated. Further arguments go to live-load (see `--help`).
#
#   bash bench/live-load.sh
#   GAMES=20 MOVES=10 bash bench/live-load.sh
#
# Run from the repository root. Each game's clients use a loopback address of their own
# (127.1.0.1, 127.1.0.2, ...): the server's per-address quotas hold with their defaults.
set -eu
cargo build --quiet --release -p arbiter-cli -p arbiter-live-load
uptime
exec ./target/release/live-load --server target/release/arbiter \
    --games "${GAMES:-1000}" --moves "${MOVES:-100}" --think "${THINK:-0}" "$@"
