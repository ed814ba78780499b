"""``python -m arbiter.selfplay``: ``arbiter duck selfplay`` spread over the workers of a Dask
cluster, merged into the one data file a single machine's run of the same games writes.

The games are cut in chunks of ``--chunk`` games; a chunk is one task, which runs
``arbiter duck selfplay --first-game FIRST --games END`` on a worker (game ``g`` is played
from seed ``--seed + g`` whoever plays it, so a chunk's records do not depend on the worker) and
sends its records back. The client keeps each finished chunk in ``OUT.parts/`` and, when every
chunk is there, writes ``OUT``: the header, then the records of the chunks in the order of their
games, which is byte for byte the file of ``arbiter duck selfplay --out OUT --games N`` with the
same settings. A worker lost in the middle of a chunk has its chunk played again by another
(Dask reschedules it); the chunk's result is taken once, so no position is written twice. A run
stopped is started again with the same command: the chunks already in ``OUT.parts/`` are kept.

Each worker's positions per second are printed at the end, and the summary is written to
``OUT.json``.

    python -m arbiter.selfplay --out gen6.bin --games 12000 --nodes 5000 --seed 3000001 \\
        --eval-file crates/duck-engine/networks/duck-h256-gen5.nnue --workers 2
    python -m arbiter.selfplay --out gen6.bin ... --scheduler tcp://10.0.0.1:8786

The ``arbiter`` binary (``--arbiter``, by default the one on the ``PATH``) and the network file
must be at the same path on every worker.
The fixed-node gate spreads the same way: ``python -m arbiter.selfplay gate DIR --games N
[--pairs K] [--workers N | --scheduler ADDRESS] -- MATCH ARGUMENTS`` plays the games of
``arbiter duck match MATCH ARGUMENTS --games N`` in shares of K pairs (``--only-games``), one
task each, puts their results in ``DIR/results.jsonl`` with the match's ``arguments.json``, and
lets ``arbiter duck match --resume DIR`` count them in the order of their numbers: the report
(with ``--sprt``, stopped where a match played one game at a time stops) is the one
``arbiter duck match MATCH ARGUMENTS --games N --concurrency 1`` prints, in ``DIR/report.json``.

    python -m arbiter.selfplay gate target/gate --games 400 --workers 2 -- \\
        --engine "arbiter duck uci" --option EvalFile=next.nnue --name next \\
        --engine "arbiter duck uci" --name previous --nodes 5000 --random-openings 4 \\
        --seed 17 --sprt elo0=0,elo1=20
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from arbiter.scale import connect

#: The test hook: ``FIRST:SECONDS:MARKER`` makes the chunk (or the gate's share) that starts at
#: game FIRST, the first time it is played, write its worker's process id to MARKER and sleep,
#: so that a test can kill that worker in the middle of it.
SLEEP_HOOK = "ARBITER_SELFPLAY_SLEEP"


def header_len(data: bytes) -> int:
    """The length of a data file's header: 48 bytes in version 1, 56 in version 2 (the
    format: ``crates/duck-train/src/record.rs``)."""
    if len(data) < 10 or data[:8] != b"ARBTRAIN":
        raise ValueError("not a self-play data file")
    version = int.from_bytes(data[8:10], "little")
    if version not in (1, 2):
        raise ValueError(f"data file version {version}, expected 1 or 2")
    return 48 if version == 1 else 56


def chunks(games: int, size: int) -> List[Tuple[int, int]]:
    """The chunks of ``games`` games: ``(first, end)`` pairs of at most ``size`` games."""
    return [(first, min(first + size, games)) for first in range(0, games, size)]


def sleep_hook(first: int) -> None:
    """The test hook (see SLEEP_HOOK)."""
    hook = os.environ.get(SLEEP_HOOK)
    if not hook:
        return
    number, seconds, marker = hook.split(":", 2)
    if int(number) != first:
        return
    try:
        descriptor = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.write(descriptor, str(os.getpid()).encode())
    os.close(descriptor)
    time.sleep(float(seconds))


def play_chunk(arbiter: str, settings: List[str], first: int, end: int) -> Dict[str, Any]:
    """Plays games ``first`` to ``end`` on this worker: the chunk's file as bytes, and what
    it cost."""
    sleep_hook(first)
    try:
        from dask.distributed import get_worker

        worker = get_worker().address
    except (ImportError, ValueError):
        worker = socket.gethostname()
    started, cpu = time.monotonic(), os.times()
    with tempfile.TemporaryDirectory(prefix="arbiter-selfplay-") as scratch:
        out = Path(scratch) / "chunk.bin"
        command = [arbiter, "duck", "selfplay", "--out", str(out), "--threads", "1"]
        command += ["--first-game", str(first), "--games", str(end), *settings]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"games {first} to {end}: {' '.join(command)}: {run.stderr.strip()}")
        data = out.read_bytes()
    after = os.times()
    records = len(data) - header_len(data)
    return {
        "first": first,
        "end": end,
        "data": data,
        "positions": records // 56,
        "seconds": time.monotonic() - started,
        "cpu": (after.children_user + after.children_system)
        - (cpu.children_user + cpu.children_system),
        "worker": worker,
    }


def part_path(parts: Path, first: int, end: int) -> Path:
    return parts / f"games-{first:09d}-{end:09d}.bin"


def write_atomically(path: Path, data: bytes) -> None:
    """Writes ``path`` whole or not at all: a temporary file beside it, then a rename."""
    temporary = path.with_name(f".{path.name}.tmp")
    with open(temporary, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)


def merge(parts: List[bytes]) -> bytes:
    """One data file from the files of consecutive chunks: the first one's header, then every
    chunk's records in order. The headers must be the same (the same settings)."""
    header = parts[0][: header_len(parts[0])]
    for part in parts:
        if part[: header_len(part)] != header:
            raise ValueError("chunks made with other settings cannot be merged")
    return header + b"".join(part[len(header) :] for part in parts)


def settings_of(args: argparse.Namespace) -> List[str]:
    """The arguments of ``arbiter duck selfplay`` every chunk shares."""
    settings = ["--nodes", str(args.nodes), "--seed", str(args.seed)]
    settings += ["--random-plies", str(args.random_plies)]
    if args.eval_file:
        settings += ["--eval-file", args.eval_file]
    return settings


def run(args: argparse.Namespace) -> Dict[str, Any]:
    from dask.distributed import as_completed

    out = Path(args.out)
    if out.exists():
        raise SystemExit(f"{out}: already exists; write the data to a new file")
    arbiter = args.arbiter or shutil.which("arbiter")
    if not arbiter:
        raise SystemExit("no arbiter binary on the PATH: give its path with --arbiter")
    arbiter = str(Path(arbiter).resolve())
    parts = out.with_name(out.name + ".parts")
    parts.mkdir(parents=True, exist_ok=True)
    settings = settings_of(args)
    plan = chunks(args.games, args.chunk)
    todo = [(first, end) for first, end in plan if not part_path(parts, first, end).exists()]
    started = time.monotonic()
    workers: Dict[str, Dict[str, float]] = {}
    with connect(args.scheduler, args.workers) as client:
        futures = [
            client.submit(play_chunk, arbiter, settings, first, end, key=f"selfplay-{first}-{end}")
            for first, end in todo
        ]
        for future in as_completed(futures):
            chunk = future.result()
            write_atomically(part_path(parts, chunk["first"], chunk["end"]), chunk["data"])
            tally = workers.setdefault(chunk["worker"], {"chunks": 0, "positions": 0, "seconds": 0.0})
            tally["chunks"] += 1
            tally["positions"] += chunk["positions"]
            tally["seconds"] += chunk["seconds"]
            print(
                f"games {chunk['first']} to {chunk['end']}: {chunk['positions']} positions in "
                f"{chunk['seconds']:.1f} s on {chunk['worker']}",
                file=sys.stderr,
                flush=True,
            )
    data = merge([part_path(parts, first, end).read_bytes() for first, end in plan])
    write_atomically(out, data)
    shutil.rmtree(parts)
    wall = time.monotonic() - started
    positions = (len(data) - header_len(data)) // 56
    summary = {
        "out": str(out),
        "games": args.games,
        "chunks": len(plan),
        "played_now": len(todo),
        "positions": positions,
        "wall_seconds": round(wall, 3),
        "positions_per_second": round(positions / wall, 1) if wall and todo else None,
        "workers": {
            address: {
                "chunks": int(tally["chunks"]),
                "positions": int(tally["positions"]),
                "positions_per_second": round(tally["positions"] / tally["seconds"], 1)
                if tally["seconds"]
                else None,
            }
            for address, tally in sorted(workers.items())
        },
    }
    write_atomically(out.with_name(out.name + ".json"), json.dumps(summary, indent=1).encode())
    return summary


#: The flags of ``duck match`` the gate sets itself for each share.
GATE_OWN = {"--save", "--games", "--resume", "--only-games", "--concurrency", "--json"}


def play_share(
    arbiter: str, match: List[str], games: int, first: int, last: int
) -> Dict[str, Any]:
    """Plays games ``first`` to ``last`` of the match on this worker: their results lines."""
    sleep_hook(first)
    try:
        from dask.distributed import get_worker

        worker = get_worker().address
    except (ImportError, ValueError):
        worker = socket.gethostname()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="arbiter-gate-") as scratch:
        save = Path(scratch) / "share"
        command = [arbiter, "duck", "match", *match, "--games", str(games)]
        command += ["--only-games", f"{first}-{last}", "--concurrency", "1", "--save", str(save)]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"games {first} to {last}: {run.stderr.strip()}")
        lines = (save / "results.jsonl").read_text().splitlines()
    return {
        "first": first,
        "last": last,
        "lines": lines,
        "seconds": time.monotonic() - started,
        "worker": worker,
    }


def gate(args: argparse.Namespace) -> Dict[str, Any]:
    from dask.distributed import as_completed

    match = list(args.match)
    own = sorted(GATE_OWN & {word.split("=", 1)[0] for word in match})
    if own:
        raise SystemExit(f"the gate sets {', '.join(own)} itself: leave them out")
    directory = Path(args.dir)
    if (directory / "results.jsonl").exists():
        raise SystemExit(f"{directory} already holds a match: the gate needs a directory of its own")
    arbiter = args.arbiter or shutil.which("arbiter")
    if not arbiter:
        raise SystemExit("no arbiter binary on the PATH: give its path with --arbiter")
    arbiter = str(Path(arbiter).resolve())
    step = 2 * args.pairs
    shares = [(first, min(first + step - 1, args.games)) for first in range(1, args.games + 1, step)]
    started = time.monotonic()
    lines: Dict[int, str] = {}
    workers: Dict[str, Dict[str, float]] = {}
    with connect(args.scheduler, args.workers) as client:
        futures = [
            client.submit(play_share, arbiter, match, args.games, first, last,
                          key=f"gate-{first}-{last}")
            for first, last in shares
        ]
        for future in as_completed(futures):
            share = future.result()
            for line in share["lines"]:
                lines[json.loads(line)["game"]] = line
            tally = workers.setdefault(share["worker"], {"games": 0, "seconds": 0.0})
            tally["games"] += len(share["lines"])
            tally["seconds"] += share["seconds"]
    if sorted(lines) != list(range(1, args.games + 1)):
        raise SystemExit(f"the shares gave {len(lines)} of the {args.games} games")
    directory.mkdir(parents=True, exist_ok=True)
    arguments = [*match, "--games", str(args.games), "--save", str(directory), "--json"]
    write_atomically(directory / "arguments.json", (json.dumps(arguments) + "\n").encode())
    results = "".join(lines[game] + "\n" for game in sorted(lines))
    write_atomically(directory / "results.jsonl", results.encode())
    # The games are counted by arbiter itself, in the order of their numbers: the report is the
    # match's own. Its engines are this command's, written above: trusted.
    command = [arbiter, "duck", "match", "--resume", str(directory), "--trust-saved-engines"]
    counted = subprocess.run(command, capture_output=True, text=True)
    if counted.returncode != 0:
        raise SystemExit(f"counting the games: {counted.stderr.strip()}")
    report = json.loads(counted.stdout.strip().splitlines()[-1])
    report["wall_seconds"] = round(time.monotonic() - started, 3)
    report["workers"] = {
        address: {
            "games": int(tally["games"]),
            "games_per_second": round(tally["games"] / tally["seconds"], 3)
            if tally["seconds"]
            else None,
        }
        for address, tally in sorted(workers.items())
    }
    write_atomically(directory / "report.json", json.dumps(report, indent=1).encode())
    return report


def gate_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m arbiter.selfplay gate",
        description="Play `arbiter duck match` over Dask workers in shares of pairs; the report "
        "is the one the match played on one machine, one game at a time, prints.",
    )
    add = parser.add_argument
    add("dir", metavar="DIR", help="the match's save directory (results.jsonl, report.json)")
    add("--games", required=True, type=int, metavar="N", help="games in all, even")
    add("--pairs", type=int, default=1, metavar="K", help="pairs of games per task (default 1)")
    add("--arbiter", metavar="PATH", help="the arbiter binary (default: the one on the PATH)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS", help="a scheduler's address or file")
    where.add_argument("--workers", type=int, metavar="N", help="local worker processes")
    parser.usage = "%(prog)s DIR --games N [options] -- MATCH ARGUMENTS"
    parser.epilog = "MATCH ARGUMENTS: those of `arbiter duck match` (engines, limits, openings, --sprt)"
    argv = list(argv)
    if "--" not in argv:
        parser.error("expected `-- MATCH ARGUMENTS` after the gate's own")
    split = argv.index("--")
    args = parser.parse_args(argv[:split])
    args.match = argv[split + 1 :]
    if args.games < 2 or args.games % 2 or args.pairs < 1:
        parser.error("--games must be even and at least 2, --pairs at least 1")
    report = gate(args)
    print(json.dumps(report))
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["gate"]:
        return gate_main(argv[1:])
    parser = argparse.ArgumentParser(
        prog="python -m arbiter.selfplay",
        description="Play `arbiter duck selfplay` over Dask workers into one data file.",
    )
    add = parser.add_argument
    add("--out", required=True, metavar="FILE", help="the data file to write (must not exist)")
    add("--games", required=True, type=int, metavar="N", help="games in all, numbered 0 to N-1")
    add("--chunk", type=int, default=100, metavar="N", help="games per task (default 100)")
    add("--nodes", type=int, default=5000, metavar="N", help="nodes a move (default 5000)")
    add("--seed", type=int, default=1, metavar="N", help="game G's seed is N + G (default 1)")
    add("--random-plies", type=int, default=8, metavar="N", help="random opening plies (8)")
    add("--eval-file", metavar="NET", help="the network that plays (default: classical)")
    add("--arbiter", metavar="PATH", help="the arbiter binary (default: the one on the PATH)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS", help="a scheduler's address or file")
    where.add_argument("--workers", type=int, metavar="N", help="local worker processes")
    args = parser.parse_args(argv)
    if args.games < 1 or args.chunk < 1:
        parser.error("--games and --chunk must be at least 1")
    summary = run(args)
    for address, worker in summary["workers"].items():
        print(
            f"{address}: {worker['chunks']} chunks, {worker['positions']} positions, "
            f"{worker['positions_per_second']} positions/s"
        )
    print(
        f"{summary['out']}: {summary['games']} games, {summary['positions']} positions in "
        f"{summary['wall_seconds']:.1f} s ({summary['positions_per_second']} positions/s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
