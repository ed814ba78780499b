#!/usr/bin/env bash
# One generation of the engine's network: takes network N to N+1 by self-play, training, the
# fixed-node gate and the timed gate, and records every seed and parameter, so that anyone with
# the time makes the same network bit for bit (docs/engine.md, "Making the next network").
#
#   bash bench/duck_generation.sh DIR [NAME=VALUE ...]
#
# Every setting is a NAME=VALUE argument (or an environment variable of that name); the
# defaults are the third network's recipe on the default network (the fourth and fifth
# networks': crates/duck-engine/networks/PROVENANCE.md). DIR receives the data, the network
# (`DIR/$OUT_NAME`), the matches' reports and `DIR/generation.json`, which holds the commit,
# the arbiter version, every setting, every command as it ran, the network's fingerprint and
# the gates' results. The network's provenance text ends with the commit and this command.
#
# Settings:
#   ARBITER       the arbiter binary (target/release/arbiter, built first when absent)
#   NET           network N, which plays the games and is the gates' reference
#                 (crates/duck-engine/networks/duck-h256-gen5.nnue)
#   GAMES NODES SEED RANDOM_PLIES   self-play: games, nodes a move, the first game's seed, random
#                 opening plies (12000, 5000, 3000001, 8)
#   EXTRA_DATA    earlier data files trained on as well, by their names in DIR (put them or
#                 links to them there), separated by spaces (none)
#   WORKERS SCHEDULER CHUNK   self-play and the fixed-node gate on Dask (python -m
#                 arbiter.selfplay) with WORKERS local workers or the scheduler SCHEDULER, CHUNK
#                 games a self-play task; the same file and the same gate report as without
#                 (default: `arbiter duck selfplay --threads THREADS`, `duck match`)
#   RESCORE_NODES the self-play positions searched again at this many nodes by NET before
#                 training (`duck rescore`), or `none` (none)
#   HIDDEN EPOCHS BATCH LR LAMBDA TRAIN_SEED MIRROR   training (256, 2, 1024, 0.001, 0.75, 1, 1)
#   INIT          a network the training starts from rather than random weights, e.g. NET's
#                 file (none); linked into DIR under its file name, which the provenance
#                 names, so its name must not be OUT_NAME
#   FEATURES OUTPUT_BUCKETS DEDUP WEIGHT_DECAY   the network's feature set and output layers,
#                 and deduplication and weight decay in training (pieces, 1, 0, 0)
#   THREADS       self-play and training threads (2); the network does not depend on it
#   GATE_NODES GATE_GAMES GATE_SEED GATE_SPRT   the fixed-node gate (5000, 400, 17,
#                 elo0=0,elo1=20); `none` as GATE_GAMES skips it. Its report is reproducible
#                 on Dask or with THREADS=1 (games counted in the order of their numbers); with
#                 two games at a time the SPRT may stop a game earlier or later
#   TIMED_MOVETIME TIMED_GAMES TIMED_SEED TIMED_SPRT   the timed gate, one game at a time, each
#                 engine pinned to a core: it needs an otherwise idle machine (100, 200, 18,
#                 elo0=0,elo1=20); `none` as TIMED_GAMES skips it
#   OUT_NAME      the new network's file name (next.nnue)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 1 ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 2
fi
dir=$1
shift
for setting in "$@"; do
    case $setting in
    [A-Z]*=*) export "${setting?}" ;;
    *) echo "expected NAME=VALUE, found \`$setting\`" >&2 && exit 2 ;;
    esac
done
: "${NET:=$root/crates/duck-engine/networks/duck-h256-gen5.nnue}"
: "${GAMES:=12000}" "${NODES:=5000}" "${SEED:=3000001}" "${RANDOM_PLIES:=8}" "${EXTRA_DATA:=}"
: "${WORKERS:=}" "${SCHEDULER:=}" "${CHUNK:=100}"
: "${HIDDEN:=256}" "${EPOCHS:=2}" "${BATCH:=1024}" "${LR:=0.001}" "${LAMBDA:=0.75}"
: "${TRAIN_SEED:=1}" "${MIRROR:=1}" "${THREADS:=2}" "${RESCORE_NODES:=none}" "${INIT:=}"
: "${FEATURES:=pieces}" "${OUTPUT_BUCKETS:=1}" "${DEDUP:=0}" "${WEIGHT_DECAY:=0}"
: "${GATE_NODES:=5000}" "${GATE_GAMES:=400}" "${GATE_SEED:=17}" "${GATE_SPRT:=elo0=0,elo1=20}"
: "${TIMED_MOVETIME:=100}" "${TIMED_GAMES:=200}" "${TIMED_SEED:=18}" "${TIMED_SPRT:=elo0=0,elo1=20}"
: "${OUT_NAME:=next.nnue}"
if [ -z "${ARBITER:-}" ]; then
    (cd "$root" && cargo build --release --quiet -p arbiter-cli)
    ARBITER=$root/target/release/arbiter
fi
ARBITER=$(realpath "$ARBITER")
NET=$(realpath "$NET")
[ -n "$INIT" ] && INIT=$(realpath "$INIT")
# Training finds INIT in DIR by its name (below), where the new network is written too.
if [ -n "$INIT" ] && [ "$(basename "$INIT")" = "$OUT_NAME" ]; then
    echo "INIT and the new network are both named $OUT_NAME: set OUT_NAME to another name" >&2
    exit 2
fi
mkdir -p "$dir"
dir=$(realpath "$dir")
commit=$(git -C "$root" rev-parse --short=12 HEAD 2> /dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2> /dev/null)" ]; then
    commit="$commit (with uncommitted changes)"
fi
version=$("$ARBITER" --version)
fingerprint() { "$ARBITER" duck network show "$1" | sed -n 's/.*fingerprint \([0-9a-f]*\)$/\1/p'; }
log=$dir/commands.txt
: > "$log"
# step COMMAND...: logs the command as it runs, then runs it.
step() {
    printf '%q ' "$@" >> "$log"
    echo >> "$log"
    "$@"
}
# The command line that ran, settings and all: what the provenance names.
invocation="bash bench/duck_generation.sh DIR"
for name in NET GAMES NODES SEED RANDOM_PLIES EXTRA_DATA RESCORE_NODES HIDDEN EPOCHS BATCH LR \
    LAMBDA TRAIN_SEED MIRROR INIT FEATURES OUTPUT_BUCKETS DEDUP WEIGHT_DECAY GATE_NODES \
    GATE_GAMES GATE_SEED GATE_SPRT TIMED_MOVETIME TIMED_GAMES TIMED_SEED TIMED_SPRT; do
    value=${!name}
    case $name in NET | INIT) value=${value#"$root"/} ;; esac
    invocation="$invocation $name=$(printf '%q' "$value")"
done

# Where the Dask steps run, when they do.
where=(--workers "${WORKERS:-2}")
[ -n "$SCHEDULER" ] && where=(--scheduler "$SCHEDULER")

# Self-play: network N against itself.
data=$dir/selfplay-n$NODES-s$SEED.bin
if [ ! -e "$data" ]; then
    settings=(--games "$GAMES" --nodes "$NODES" --seed "$SEED" --random-plies "$RANDOM_PLIES"
        --eval-file "$NET")
    if [ -n "$WORKERS$SCHEDULER" ]; then
        step python3 -m arbiter.selfplay --out "$data" --arbiter "$ARBITER" --chunk "$CHUNK" \
            "${settings[@]}" "${where[@]}"
    else
        step "$ARBITER" duck selfplay --out "$data" --threads "$THREADS" "${settings[@]}"
    fi
fi

# Rescoring: each kept position searched again, deeper, by network N.
if [ "$RESCORE_NODES" != none ]; then
    rescored=$dir/selfplay-n$NODES-s$SEED-r$RESCORE_NODES.bin
    step "$ARBITER" duck rescore --data "$data" --out "$rescored" --nodes "$RESCORE_NODES" \
        --eval-file "$NET" --threads "$THREADS"
    data=$rescored
fi

# Training, on the new games and any earlier ones.
net=$dir/$OUT_NAME
read -r -a extra <<< "$EXTRA_DATA"
mirror=()
[ "$MIRROR" = 1 ] && mirror=(--mirror)
shape=(--features "$FEATURES" --output-buckets "$OUTPUT_BUCKETS" --weight-decay "$WEIGHT_DECAY")
[ "$DEDUP" = 1 ] && shape+=(--dedup)
# The network started from goes in DIR under its own name, so that the provenance names it by
# that name rather than by a path of this machine: the same bits wherever the clone is.
if [ -n "$INIT" ]; then
    [ "$(dirname "$INIT")" = "$dir" ] || ln -sfn "$INIT" "$dir/$(basename "$INIT")"
    shape+=(--init "$(basename "$INIT")")
fi
# Run from DIR with the data by its own name: the provenance names the files as given, and
# must not depend on where DIR is.
(cd "$dir" && step "$ARBITER" duck train --data "$(basename "$data")" "${extra[@]}" \
    --out "$OUT_NAME" --hidden "$HIDDEN" --epochs "$EPOCHS" --batch "$BATCH" --lr "$LR" \
    --lambda "$LAMBDA" --threads "$THREADS" --seed "$TRAIN_SEED" "${mirror[@]}" "${shape[@]}" \
    --note "arbiter commit $commit ($version): $invocation")
new=$(fingerprint "$net")
old=$(fingerprint "$NET")

# The gates: N+1 against N.
rm -f "$dir/gate.json" "$dir/timed.json"
gate=(--engine "$ARBITER duck uci" --option "EvalFile=$net" --name next
    --engine "$ARBITER duck uci" --option "EvalFile=$NET" --name previous
    --nodes "$GATE_NODES" --random-openings 4 --seed "$GATE_SEED" --sprt "$GATE_SPRT")
if [ "$GATE_GAMES" != none ] && [ -n "$WORKERS$SCHEDULER" ]; then
    # Over Dask: the report of the match played on one machine, one game at a time.
    step python3 -m arbiter.selfplay gate "$dir/gate" --games "$GATE_GAMES" --arbiter "$ARBITER" \
        "${where[@]}" -- "${gate[@]}" > /dev/null
    cp "$dir/gate/report.json" "$dir/gate.json"
elif [ "$GATE_GAMES" != none ]; then
    step "$ARBITER" duck match "${gate[@]}" --games "$GATE_GAMES" --concurrency "$THREADS" \
        --json --save "$dir/gate" | tail -n 1 > "$dir/gate.json"
fi
if [ "$TIMED_GAMES" != none ]; then
    step "$ARBITER" duck match --engine "$ARBITER duck uci" --option "EvalFile=$net" --name next \
        --engine "$ARBITER duck uci" --option "EvalFile=$NET" --name previous \
        --movetime "$TIMED_MOVETIME" --time-margin 1000 --affinity --concurrency 1 \
        --random-openings 4 --seed "$TIMED_SEED" --sprt "$TIMED_SPRT" --games "$TIMED_GAMES" \
        --json --save "$dir/timed" | tail -n 1 > "$dir/timed.json"
fi

python3 - "$dir/generation.json" "$log" "$dir/gate.json" "$dir/timed.json" <<EOF
import json, os, sys
def report(path):
    return json.load(open(path)) if os.path.exists(path) else None
settings = {name: value for name, value in [
    ("NET", "${NET#"$root"/}"), ("GAMES", "$GAMES"), ("NODES", "$NODES"), ("SEED", "$SEED"),
    ("RANDOM_PLIES", "$RANDOM_PLIES"), ("EXTRA_DATA", "$EXTRA_DATA"),
    ("RESCORE_NODES", "$RESCORE_NODES"), ("HIDDEN", "$HIDDEN"),
    ("EPOCHS", "$EPOCHS"), ("BATCH", "$BATCH"), ("LR", "$LR"), ("LAMBDA", "$LAMBDA"),
    ("TRAIN_SEED", "$TRAIN_SEED"), ("MIRROR", "$MIRROR"), ("INIT", "${INIT#"$root"/}"),
    ("FEATURES", "$FEATURES"), ("OUTPUT_BUCKETS", "$OUTPUT_BUCKETS"), ("DEDUP", "$DEDUP"),
    ("WEIGHT_DECAY", "$WEIGHT_DECAY"), ("GATE_NODES", "$GATE_NODES"),
    ("GATE_GAMES", "$GATE_GAMES"), ("GATE_SEED", "$GATE_SEED"), ("GATE_SPRT", "$GATE_SPRT"),
    ("TIMED_MOVETIME", "$TIMED_MOVETIME"), ("TIMED_GAMES", "$TIMED_GAMES"),
    ("TIMED_SEED", "$TIMED_SEED"), ("TIMED_SPRT", "$TIMED_SPRT"),
]}
record = {
    "commit": "$commit",
    "arbiter": "$version",
    "invocation": """$invocation""",
    "settings": settings,
    "previous": {"file": settings["NET"], "fingerprint": "$old"},
    "network": {"file": "$OUT_NAME", "fingerprint": "$new"},
    "commands": open(sys.argv[2]).read().splitlines(),
    "gate": report(sys.argv[3]),
    "timed_gate": report(sys.argv[4]),
}
json.dump(record, open(sys.argv[1], "w"), indent=1)
EOF
echo "$net: fingerprint $new (from $old); $dir/generation.json records how"
