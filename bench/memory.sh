#!/usr/bin/env bash
# Peak memory of the judges on hostile input (docs/rules.md#the-command-line: at most 64 MiB
# whatever the input).
#
#   bash bench/memory.sh [ARBITER]        (default: target/release/arbiter, built first)
#
# ARBITER may be an older build, to compare; set MAX_KIB (e.g. 4194304) to cap its address space
# with `ulimit -v`, since a build that reads /dev/zero whole grows by gigabytes a second.
#
# Each case feeds one judge an input no judge should hold: /dev/zero (one endless token), lines
# of 100 MB, 1 GB of valid commands, a stream that never ends (stopped after 10 s). GNU time
# (/usr/bin/time -f %M) reports the peak resident set size of the process tree it runs, timeout
# and the input generators excluded (they run outside it). Prints one Markdown row per case:
# peak RSS, wall time, exit status (124 = stopped by timeout, as intended for endless streams).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
arbiter=${1:-}
if [ -z "$arbiter" ]; then
    cargo build --release --quiet -p arbiter-cli
    arbiter=target/release/arbiter
fi
arbiter=$(realpath "$arbiter")
if [ -n "${MAX_KIB:-}" ]; then
    ulimit -v "$MAX_KIB"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mb=100000000

# The inputs, as generators: each writes its input on stdout.
duck_line() { echo 12500000; yes '0 3 1 4 1 4 0 3' | tr '\n' ' ' | head -c $mb; }
duck_gb() { echo 125000000; yes '0 3 1 4' | head -c 1000000000; }
duck_endless() { echo 1000000000000000000; yes '0 3 1 4'; }
record_line() { awk 'BEGIN { for (i = 1; ; i++) printf "%d. %s ", i, (i % 2 ? "Nf3 Nf6" : "Ng1 Ng8") }' | head -c $mb; }
record_lines() { yes '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7' | head -c $mb; }
record_endless() { yes '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7'; }
arena_line() { printf '1\n1 2 1 1\n0'; head -c $mb /dev/zero | tr '\0' ' '; printf ' 0\n1 1 1 1 0 3 1 1 1 toolihai\n'; }
bad_records() { yes '1. e4 e5+' | head -c $mb; }
whitespace_endless() { yes ' '; }

# case_row NAME GENERATOR LIMIT ARGS...: runs `arbiter ARGS` (stopped after LIMIT seconds) on the
# generator's output, or on nothing when GENERATOR is `-` (the file is in ARGS).
case_row() {
    local name=$1 generator=$2 limit=$3
    shift 3
    local status start end
    start=$(date +%s.%N)
    set +e
    if [ "$generator" = - ]; then
        /usr/bin/time -f %M -o "$work/rss" timeout "$limit" "$arbiter" "$@" > /dev/null 2> /dev/null
        status=$?
    else
        "$generator" | /usr/bin/time -f %M -o "$work/rss" timeout "$limit" "$arbiter" "$@" > /dev/null 2> /dev/null
        status=${PIPESTATUS[1]}
    fi
    set -e
    end=$(date +%s.%N)
    local rss
    rss=$(tail -1 "$work/rss")
    printf '| %s | `arbiter %s` | %.1f MiB | %.1f s | %s |\n' "$name" "$*" "$(echo "$rss / 1024" | bc -l)" \
        "$(echo "$end - $start" | bc -l)" "$status"
}

echo "arbiter: $arbiter"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| input | command | peak RSS | wall | exit |"
echo "| --- | --- | ---: | ---: | ---: |"
case_row "/dev/zero" - 60 duck /dev/zero
case_row "/dev/zero" - 60 duck explain /dev/zero
case_row "/dev/zero" - 60 chess /dev/zero
case_row "/dev/zero" - 60 chess --each-line /dev/zero
case_row "/dev/zero" - 60 arena /dev/zero
case_row "/dev/zero" - 60 arena trace /dev/zero
case_row "one line of 100 MB: 12.5 M commands" duck_line 600 duck
case_row "one line of 100 MB: 12.5 M commands" duck_line 600 duck explain
case_row "1 GB of commands, 125 M lines" duck_gb 600 duck
case_row "endless commands (stopped after 10 s)" duck_endless 10 duck
case_row "endless whitespace (stopped after 10 s)" whitespace_endless 10 duck
case_row "one record of 100 MB (12 M plies)" record_line 600 chess
case_row "100 MB of records, one per line" record_lines 600 chess --each-line
case_row "100 MB of wrong records, explained" bad_records 600 chess --each-line --explain
case_row "endless records (stopped after 10 s)" record_endless 10 chess --each-line
case_row "one game with a line of 100 MB" arena_line 600 arena
case_row "endless whitespace (stopped after 10 s)" whitespace_endless 10 arena
