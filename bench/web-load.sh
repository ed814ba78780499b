#!/bin/sh
# Load test of `arbiter serve` on the loopback interface: $TOTAL requests (default 100,000) from
# wrk, $THREADS threads (default 2) over $CONNECTIONS connections (default 32), at most
# $DURATION (default 90s), mixing valid API calls, engine searches (answered, or refused with a
# 429 while every core is searching and the queue is full), malformed JSON, oversized bodies,
# unknown routes and path traversal attempts (bench/web-load.lua). Prints wrk's figures, the responses
# by status next to the counts the mix expects, and the server's peak resident memory.
#
#   bash bench/web-load.sh
#
# Run from the repository root; needs wrk (Debian: apt-get install wrk).
set -eu
total=${TOTAL:-100000}
threads=${THREADS:-2}
connections=${CONNECTIONS:-32}
duration=${DURATION:-90s}
work=$(mktemp -d)

cargo build --quiet --release -p arbiter-cli
./target/release/arbiter serve --host 127.0.0.1 --port 0 > "$work/serve.out" &
server=$!
trap 'kill "$server" 2> /dev/null; rm -rf "$work"' EXIT
url=
for _ in $(seq 50); do
    url=$(grep -o 'http://[^ ]*' "$work/serve.out" || true)
    [ -n "$url" ] && break
    sleep 0.1
done
[ -n "$url" ] || { echo "arbiter serve did not start" >&2; exit 1; }
echo "server: $url (pid $server); idle resident memory: $(awk '/VmRSS/ { print $2, $3 }' "/proc/$server/status")"
uptime
# wrk always runs for the whole -d duration; the script reports the time its requests took.
TOTAL=$total THREADS=$threads wrk -t "$threads" -c "$connections" -d "$duration" --timeout 10s \
    -s bench/web-load.lua "$url"
uptime
echo "server peak resident memory (VmHWM): $(awk '/VmHWM/ { print $2, $3 }' "/proc/$server/status")"
echo "server still answers: $(curl -s -o /dev/null -w '%{http_code}' "${url}api/")"
