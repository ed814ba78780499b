#!/bin/sh
# Speed of `arbiter duck test` against a fast program, against a baseline measured in the same
# run: a minimal C driver that does nothing but run the same program on the same kind of inputs.
#
#   bench/contest.sh [CASES] [ROUNDS]     # defaults 4000 cases, 3 rounds; JOBS (default 2) at a time
#
# The program is the C++ solution printed with the Duck Chess statement
# (crates/contest/tests/fixtures/duck/seed000.cpp), correct and fast, built twice with g++ -O2:
# as usual (dynamically linked: a run is mostly loading libstdc++) and with -static (a run is
# little more than an exec: the fast program the speed target speaks of). The driver (written
# below, gcc -O2) starts it with posix_spawn, writes an input of the `short` profile to its
# standard input through a pipe, reads its output through another, and waits for it,
# CASES / JOBS times in each of JOBS copies running side by side, on 200 inputs in turn: the
# most a stress tester can get out of this machine with this program.
# `arbiter duck test --profile short --jobs JOBS` does that and also generates, judges and
# compares every case and watches every run (its time limit, its process group). The two are
# timed alternately, ROUNDS times each, so that both meet the same load; the table gives the
# median of each. `--profile mixed` (one case in twenty of 1000 commands) is timed once, for
# scale. Needs gcc and g++ (and a static libstdc++ for the second build, skipped without it);
# run from the repository root.
set -eu
cases=${1:-4000}
rounds=${2:-3}
jobs=${JOBS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --quiet --release -p arbiter-cli
arbiter="$PWD/target/release/arbiter"
source=crates/contest/tests/fixtures/duck/seed000.cpp
g++ -std=c++11 -O2 -w -o "$work/dynamic" "$source"
builds=dynamic
if g++ -std=c++11 -O2 -w -static -o "$work/static" "$source" 2> /dev/null; then
    builds="dynamic static"
fi
mkdir "$work/inputs"
seed=1
while [ "$seed" -le 200 ]; do
    "$arbiter" duck gen --profile short --seed "$seed" > "$work/inputs/$seed.in"
    seed=$((seed + 1))
done

cat > "$work/driver.c" <<'EOF'
/* driver COUNT PROGRAM INPUT...: runs PROGRAM COUNT times, one after another, on the inputs in
   turn: each through a pipe to its standard input, its output read from a pipe and dropped. */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
extern char **environ;
int main(int argc, char **argv) {
    int count = atoi(argv[1]), inputs = argc - 3;
    char **data = malloc(sizeof(char *) * inputs);
    int *size = malloc(sizeof(int) * inputs);
    for (int i = 0; i < inputs; i++) {
        data[i] = malloc(1 << 16);
        int fd = open(argv[3 + i], O_RDONLY);
        size[i] = read(fd, data[i], 1 << 16);
        close(fd);
    }
    char buffer[1 << 16];
    for (int i = 0; i < count; i++) {
        int in[2], out[2];
        if (pipe(in) || pipe(out)) return 1;
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in[0], 0);
        posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        posix_spawn_file_actions_addclose(&actions, in[1]);
        posix_spawn_file_actions_addclose(&actions, out[0]);
        char *args[] = {argv[2], NULL};
        pid_t pid;
        if (posix_spawn(&pid, argv[2], &actions, NULL, args, environ)) return 1;
        posix_spawn_file_actions_destroy(&actions);
        close(in[0]);
        close(out[1]);
        if (write(in[1], data[i % inputs], size[i % inputs]) < 0) return 1;
        close(in[1]);
        while (read(out[0], buffer, sizeof buffer) > 0) {}
        close(out[0]);
        waitpid(pid, NULL, 0);
    }
    return 0;
}
EOF
gcc -O2 -o "$work/driver" "$work/driver.c"

# seconds COMMAND...: wall seconds of one run of COMMAND.
seconds() {
    start=$(date +%s.%N)
    "$@" > /dev/null
    end=$(date +%s.%N)
    echo "$start $end" | awk '{ printf "%.3f\n", $2 - $1 }'
}

# drivers PROGRAM: JOBS copies of the driver side by side, CASES runs in all.
drivers() {
    i=0
    while [ "$i" -lt "$jobs" ]; do
        "$work/driver" "$((cases / jobs))" "$1" "$work"/inputs/*.in &
        i=$((i + 1))
    done
    wait
}

# median NAME: the median of the times in NAME.times.
median() {
    sort -n "$work/$1.times" | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
}

echo "| $cases cases, $jobs at a time (median of $rounds) | time | cases/s | share of the driver's rate |"
echo "| --- | --- | --- | --- |"
for build in $builds; do
    program="$work/$build"
    round=0
    while [ "$round" -lt "$rounds" ]; do
        seconds drivers "$program" >> "$work/$build-driver.times"
        seconds "$arbiter" duck test --profile short --cases "$cases" --seed 1 --jobs "$jobs" \
            -- "$program" >> "$work/$build-short.times"
        round=$((round + 1))
    done
    seconds "$arbiter" duck test --profile mixed --cases "$cases" --seed 1 --jobs "$jobs" \
        -- "$program" >> "$work/$build-mixed.times"
    base=$(median "$build-driver")
    awk -v t="$base" -v n="$cases" -v b="$build" 'BEGIN {
        printf "| %s build: C driver, runs the program only | %.2f s | %.0f | 100%% |\n", b, t, n / t
    }'
    for profile in short mixed; do
        awk -v t="$(median "$build-$profile")" -v n="$cases" -v base="$base" -v p="$profile" \
            -v b="$build" 'BEGIN {
            printf "| %s build: `arbiter duck test --profile %s` | %.2f s | %.0f | %.0f%% |\n",
                b, p, t, n / t, 100 * base / t
        }'
    done
done
