"""arbiter: a fast referee for chess records and PGN, Duck Chess (鸭棋) and the skill arena.

    >>> import arbiter
    >>> verdict = arbiter.check_record("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. 0-0")
    >>> verdict.ok, verdict.token, verdict.canonical
    (False, '0-0', 'O-O')
    >>> print(verdict.explanation)
    5. white 0-0 (ply 9): castling is written with the letter O, not zeros; write O-O

The work is done in Rust (the crates of the arbiter workspace), without the GIL.
"""

from ._arbiter import (
    MAX_GAME_BYTES,
    FixError,
    GameReport,
    GameReports,
    InputError,
    InputWarning,
    Problem,
    Shard,
    Verdict,
    __version__,
    check_pgn,
    check_pgn_file,
    check_record,
    convert_shard,
    fix,
    judge_arena,
    judge_chess,
    judge_duck,
    shard_extent,
    shards,
)
from ._placing import place_shards

__all__ = [
    "MAX_GAME_BYTES",
    "FixError",
    "GameReport",
    "GameReports",
    "InputError",
    "InputWarning",
    "Problem",
    "Shard",
    "Verdict",
    "__version__",
    "check_pgn",
    "check_pgn_file",
    "check_record",
    "convert_shard",
    "fix",
    "judge_arena",
    "judge_chess",
    "judge_duck",
    "place_shards",
    "shard_extent",
    "shards",
]
