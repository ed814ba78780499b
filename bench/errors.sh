#!/usr/bin/env bash
# What errors cost: explaining every wrong record or command against only judging it, and the
# system calls one message takes.
#
#   bash bench/errors.sh [ARBITER [OLD_ARBITER]]   (default: target/release/arbiter, built first)
#
# Inputs (generated): 23 MB of wrong contest records, eight kinds of mistake, one per line; a
# Duck Chess game of 1,000,000 commands that are all invalid. Each command runs RUNS times (5)
# with stdout and stderr to files; the least CPU time (user + system) counts. With strace
# installed, also counts the write system calls of `chess --each-line --explain` on 10,000
# wrong records. OLD_ARBITER, if given, is measured the same way in the same run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
arbiter=${1:-}
if [ -z "$arbiter" ]; then
    cargo build --release --quiet -p arbiter-cli
    arbiter=target/release/arbiter
fi
old=${2:-}
runs=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work/records.txt" <<'PY'
import random, sys
rng = random.Random(5)
wrong = [
    "1. e4 e5+", "1. e4 e5 2. Ke3", "1.e4", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0",
    "1. d4 d5 2. c4 dxc4 3. e8Q", "1. Nf3 Nf6 2. Ng1f3", "1. e4 1... e5",
    "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 c6 5. Nf3 Bg4 6. Bf4 e6 7. h3 Bxf3 8. Qxf3 Bb4 "
    "9. Be2 Nd7 10. a3 O-O-O#",
]
with open(sys.argv[1], "w") as out:
    size = 0
    while size < 23_000_000:
        line = rng.choice(wrong) + "\n"
        out.write(line)
        size += len(line)
PY
{ echo 1000000; yes '0 0 1 1' | head -1000000 || true; } > "$work/invalid.in"
head -10000 "$work/records.txt" > "$work/records-10k.txt"

# cpu ARGS...: the least user + system seconds of $runs runs.
cpu() {
    local best=""
    for _ in $(seq "$runs"); do
        /usr/bin/time -f '%U %S' -o "$work/time" "$@" > "$work/out" 2> "$work/err" || true
        local used
        used=$(awk '{ print $1 + $2 }' "$work/time")
        if [ -z "$best" ] || [ "$(echo "$used < $best" | bc -l)" = 1 ]; then best=$used; fi
    done
    echo "$best"
}

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(wc -l < "$work/records.txt") wrong records ($(wc -c < "$work/records.txt") bytes)"
echo
echo "| build | command | CPU (user + system) | explaining costs |"
echo "| --- | --- | ---: | ---: |"
for bin in "$arbiter" $old; do
    judged=$(cpu "$bin" chess --each-line "$work/records.txt")
    explained=$(cpu "$bin" chess --each-line --explain "$work/records.txt")
    printf '| %s | `chess --each-line` | %.2f s | |\n' "$bin" "$judged"
    printf '| %s | `chess --each-line --explain` | %.2f s | %.1f× |\n' "$bin" "$explained" "$(echo "$explained / $judged" | bc -l)"
    judged=$(cpu "$bin" duck "$work/invalid.in")
    explained=$(cpu "$bin" duck explain "$work/invalid.in")
    printf '| %s | `duck` (1 M invalid commands) | %.2f s | |\n' "$bin" "$judged"
    printf '| %s | `duck explain` | %.2f s | %.1f× |\n' "$bin" "$explained" "$(echo "$explained / $judged" | bc -l)"
done
if command -v strace > /dev/null; then
    echo
    for bin in "$arbiter" $old; do
        strace -f -c -e trace=write -o "$work/strace" "$bin" chess --each-line --explain "$work/records-10k.txt" > /dev/null 2> "$work/err"
        calls=$(awk '$NF == "write" { print $4 }' "$work/strace")
        echo "$bin: $calls write calls for 10,000 explained records ($(wc -l < "$work/err") messages)"
    done
fi
