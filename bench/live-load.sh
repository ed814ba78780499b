#!/bin/sh
# Load test of the live games (`arbiter serve`, Play a friend) on the loopback interface: GAMES
# games at once (default 1,000), each of two WebSocket clients playing random valid moves until
# the game ends or MOVES plies (default 100), each move sent THINK ms (default 0) after the
# opponent's was shown, and SPECTATORS more sockets watching each game (default 0). Starts a
# release `arbiter serve` on a fresh data directory, prints the moves a second, the time from a
# move sent to the opponent's socket and to each spectator's showing it, the server's memory
# (and what an idle socket costs it), and the check of its database against every acknowledged
# move; exits non-zero on any move lost or duplicated. Further arguments go to live-load (see
# `--help`).
#
#   bash bench/live-load.sh
#   GAMES=20 MOVES=10 bash bench/live-load.sh
#   GAMES=1000 SPECTATORS=8 THINK=1000 bash bench/live-load.sh        # 10,000 sockets
#   GAMES=2000 MOVES=300 THINK=500 bash bench/live-load.sh            # 2,000 games to their end
#   PROXY=1 GAMES=1000 SPECTATORS=8 THINK=1000 bash bench/live-load.sh  # the same through nginx
#   DATA_DIR=/dev/shm/arbiter-load GAMES=1000 SPECTATORS=8 THINK=1000 bash bench/live-load.sh
#
# DATA_DIR (a directory that does not exist yet, removed after) puts the server's database there
# instead of a temporary folder: on a tmpfs, the disk's sync latency leaves the figures, which
# shows how much of the latency is the disk's. A move is answered, and shown, once it is synced.
#
# Run from the repository root. Each game's clients use a loopback address of their own
# (127.1.0.1, 127.1.0.2, ...): the server's per-client quotas hold with their defaults. With
# PROXY=1 the server listens behind Debian's nginx (deploy/nginx/arbiter.conf, its TLS server
# made plain HTTP on a free port, run as an ordinary process), started with --trusted-proxy
# 127.0.0.1: every connection reaches arbiter from nginx's one address, and the limits count the
# clients nginx forwards. The soft limit on open files is raised to the hard one (`ulimit -n`).
set -eu
cargo build --quiet --release -p arbiter-cli -p arbiter-live-load
ulimit -n "$(ulimit -Hn)"
uptime
games=${GAMES:-1000}
spectators=${SPECTATORS:-0}
set -- --games "$games" --moves "${MOVES:-100}" --think "${THINK:-0}" \
    --spectators "$spectators" "$@"
data=${DATA_DIR:-}
if [ -n "$data" ]; then
    [ ! -e "$data" ] || { echo "DATA_DIR $data exists: name a new directory" >&2; exit 2; }
    trap 'rm -rf "$data"' EXIT
fi
if [ -z "${PROXY:-}" ]; then
    if [ -n "$data" ]; then
        ./target/release/live-load --server target/release/arbiter --data-dir "$data" "$@"
        exit
    fi
    exec ./target/release/live-load --server target/release/arbiter "$@"
fi

work=$(mktemp -d)
data=${data:-$work/data}
trap 'kill $(cat "$work/nginx.pid" 2> /dev/null) $server 2> /dev/null; rm -rf "$work" "$data"' EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# Every socket within the 7/8 of the connections sockets may take, each game's HTTP connection,
# and room to spare.
connections=$(((games * (2 + spectators) + 6) / 7 * 8 + games + 256))
port=$(free_port)
./target/release/arbiter serve --port 0 --data-dir "$data" --trusted-proxy 127.0.0.1 \
    --public-url "http://127.0.0.1:$port" --max-connections "$connections" > "$work/serve.out" &
server=$!
while ! grep -q http:// "$work/serve.out" 2> /dev/null; do sleep 0.1; done
upstream=$(grep -o 'http://[^/]*' "$work/serve.out" | head -n 1 | cut -c8-)
# The site as deployed, its HTTPS server made a plain one on $port, its redirect left out.
sed -e "s|server 127.0.0.1:8080;|server $upstream;|" \
    -e "s|listen 443 ssl;|listen 127.0.0.1:$port;|" -e '/listen \[::\]:443 ssl;/d' \
    -e '/ssl_/d' -e 's|listen 80;|listen 127.0.0.1:'"$(free_port)"';|' -e '/listen \[::\]:80;/d' \
    deploy/nginx/arbiter.conf > "$work/site.conf"
cat > "$work/nginx.conf" <<EOF
worker_processes 2;
worker_rlimit_nofile $(ulimit -Hn);
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections $((connections * 2)); }
http {
    access_log off;
    client_body_temp_path $work/body; proxy_temp_path $work/proxy;
    fastcgi_temp_path $work/fastcgi; uwsgi_temp_path $work/uwsgi; scgi_temp_path $work/scgi;
    include $work/site.conf;
}
EOF
nginx -p "$work/" -c "$work/nginx.conf" -e "$work/error.log"
./target/release/live-load --addr "127.0.0.1:$port" --data-dir "$data" --pid "$server" "$@"
