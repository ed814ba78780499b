"""arbiter: a fast referee for chess records and PGN, Duck Chess (鸭棋) and the skill arena."""

import os
from typing import (
    IO,
    Any,
    Iterable,
    Iterator,
    Literal,
    Optional,
    Sequence,
    Tuple,
    Union,
    final,
    overload,
)

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

__version__: str

#: The largest game check_pgn and check_pgn_file read by default, in bytes (64 MiB).
MAX_GAME_BYTES: int

_Dialect = Literal["contest", "standard"]
_Mode = Literal["strict", "lenient"]
_Side = Literal["white", "black"]
_ProblemKind = Literal[
    "move", "syntax", "fen", "variant", "no_result", "too_large", "result", "truncated", "clock"
]
_Fault = Literal[
    "move_number",
    "missing_black_move",
    "black_move_number",
    "missing_move",
    "not_a_move",
    "illegal",
    "ambiguous",
    "missing_promotion",
    "misspelled",
    "after_game_end",
    "null_move",
]

@final
class Verdict:
    """The verdict on a record: ``ok`` and how many moves were read, and for a record that is
    not valid, its first wrong token, where it stands, the rule it breaks and how to write it.

    ``bool(verdict)`` is ``verdict.ok``; ``str(verdict)`` is the official answer, ``Yes`` or
    ``No``. The attributes that describe the wrong token are None when the record is valid.
    """

    @property
    def ok(self) -> bool:
        """Whether every token is the canonical spelling of a legal move (the official Yes)."""
    @property
    def plies(self) -> int:
        """How many moves were read and accepted: all of them when the record is valid, else
        those before the wrong token."""
    @property
    def explanation(self) -> Optional[str]:
        """What is wrong, as ``arbiter chess --explain`` says it: ``5. white 0-0 (ply 9):
        castling is written with the letter O, not zeros; write O-O``."""
    @property
    def reason(self) -> Optional[str]:
        """The explanation without the token's place."""
    @property
    def fault(self) -> Optional[_Fault]:
        """The kind of mistake."""
    @property
    def rule(self) -> Optional[str]:
        """For a misspelled move, the rule of the spelling it breaks: ``zero_castling``,
        ``missing_check``, ``mate_sign``, ``promotion_equals``, ``uci``, ..."""
    @property
    def ply(self) -> Optional[int]:
        """The ply of the wrong token, from 1."""
    @property
    def move_number(self) -> Optional[int]:
        """The move number of the wrong token's ply."""
    @property
    def side(self) -> Optional[_Side]:
        """Whose move it is."""
    @property
    def token(self) -> Optional[str]:
        """The wrong token as written; empty when the record ends too early."""
    @property
    def offset(self) -> Optional[int]:
        """Where the wrong token starts in the record, as an index into the string."""
    @property
    def line(self) -> Optional[int]:
        """The line of the wrong token, from 1."""
    @property
    def column(self) -> Optional[int]:
        """The column of the wrong token, from 1, in characters."""
    @property
    def canonical(self) -> Optional[str]:
        """How the move must be written, when the token is a legal move misspelled."""
    @property
    def alternatives(self) -> list[str]:
        """Every canonical spelling that fits the token: the one of a misspelled move, the
        candidates of an ambiguous one or of a promotion that names no piece; else empty."""
    def __bool__(self) -> bool: ...

def check_record(record: str, dialect: _Dialect = "contest") -> Verdict:
    """Checks a contest record, ``1. e4 e5 2. Nf3 ...``: is every token exactly the canonical
    SAN of a legal move in ``dialect``?

    ``dialect="contest"`` (the official judge) writes a promotion without ``=`` (``e8Q``) and a
    mate with ``+``; ``dialect="standard"`` is standard SAN (``e8=Q``, ``#``). Raises
    ValueError for an unknown dialect.
    """

@final
class Problem:
    """A problem found in a PGN game (an error, or in lenient mode a warning), or a move
    ``fix`` could not rewrite. ``str(problem)`` is its message.

    The attributes about the move are None for the kinds other than ``move``.
    """

    @property
    def kind(self) -> _ProblemKind:
        """``move``, ``syntax``, ``fen``, ``variant``, ``no_result`` or ``too_large``; for the
        warnings on a game's consistency ``result`` (the result written disagrees with the
        ``Result`` tag, or with a mate or stalemate on the board), ``truncated`` (the last game
        stops without a result in the middle of a line) or ``clock`` (a clock comment that is
        not ``[%clk H:MM:SS]``)."""
    @property
    def game(self) -> Optional[int]:
        """The number of its game in the PGN source, from 1; None in a record."""
    @property
    def line(self) -> int:
        """Its line, from 1."""
    @property
    def column(self) -> int:
        """Its column, from 1, in characters."""
    @property
    def message(self) -> str:
        """What is wrong, as ``arbiter chess pgn`` says it."""
    @property
    def ply(self) -> Optional[int]:
        """For a move, the ply, from 1."""
    @property
    def move_number(self) -> Optional[int]:
        """For a move, its move number."""
    @property
    def side(self) -> Optional[_Side]:
        """For a move, whose it is."""
    @property
    def token(self) -> Optional[str]:
        """For a move, the token as written."""
    @property
    def reason(self) -> Optional[str]:
        """For a move, what is wrong with it, without its place."""
    @property
    def fault(self) -> Optional[_Fault]:
        """For a move, the kind of fault."""
    @property
    def rule(self) -> Optional[str]:
        """For a misspelled move, the rule of the spelling it breaks: ``uci``, ..."""
    @property
    def canonical(self) -> Optional[str]:
        """For a misspelled move, its canonical spelling."""
    @property
    def alternatives(self) -> list[str]:
        """For a move, every canonical spelling that fits the token; else empty."""
    def to_dict(self) -> dict[str, Any]:
        """The JSON object ``arbiter chess pgn --json`` writes for it."""

@final
class GameReport:
    """The verdict on one game of a PGN source. ``bool(report)`` is ``report.ok``."""

    @property
    def index(self) -> int:
        """Its number in the source, from 1 (``game`` in the JSON)."""
    @property
    def line(self) -> int:
        """The line it starts on, from 1."""
    @property
    def column(self) -> int:
        """The column of its first character, from 1."""
    @property
    def offset(self) -> int:
        """Where its first character (of its tags, or of its movetext) stands in the source, in
        bytes of the text read (decompressed): where to seek to find it again."""
    @property
    def id(self) -> Optional[str]:
        """What the file calls it: the ``Site`` tag when it is a URL
        (``https://lichess.org/abcd1234``), else the ``GameId`` tag, else None."""
    @property
    def white(self) -> str:
        """The ``White`` tag, or ``?``; bytes that are not UTF-8 are written ``\\xfc``."""
    @property
    def black(self) -> str:
        """The ``Black`` tag, or ``?``."""
    @property
    def variant(self) -> str:
        """``Standard``, ``Chess960``, ``Antichess``, ``Atomic``, ``Crazyhouse``,
        ``King of the Hill``, ``Three-check``, ``Racing Kings`` or ``Horde``."""
    @property
    def result(self) -> Optional[str]:
        """The ``Result`` tag as written (``1-0``, ``0-1``, ``1/2-1/2``, ``*``), or None; not in
        ``to_dict``."""
    @property
    def ok(self) -> bool:
        """Whether the game has no error."""
    @property
    def plies(self) -> int:
        """How many mainline moves were read and accepted (null moves included)."""
    @property
    def error(self) -> Optional[Problem]:
        """The first error, if any."""
    @property
    def warnings(self) -> list[Problem]:
        """In lenient mode, each departure from the export format that was accepted."""
    def to_dict(self) -> dict[str, Any]:
        """The JSON object ``arbiter chess pgn --json`` writes for the game, without ``file``."""
    def __bool__(self) -> bool: ...

@final
class GameReports(Iterator[GameReport]):
    """The reports on the games of a PGN source, one per game, in order."""

    def __iter__(self) -> "GameReports": ...
    def __next__(self) -> GameReport: ...

def check_pgn(
    pgn: Union[str, bytes, bytearray], mode: _Mode = "strict", *, max_game_bytes: int = ...
) -> GameReports:
    """Checks every game of PGN text given as str or bytes (compressed bytes too: gzip,
    bzip2, zstd), in ``mode`` ``strict`` (PGN's export format) or ``lenient`` (what real files
    hold, with a warning for each departure). A game larger than ``max_game_bytes`` is reported
    as such (``too_large``) and skipped."""

def check_pgn_file(
    file: Union[str, "os.PathLike[str]", IO[bytes], IO[str]],
    mode: _Mode = "strict",
    *,
    max_game_bytes: int = ...,
    shard: Optional[Shard] = None,
) -> GameReports:
    """Checks every game of a PGN file: a path or a file object opened for reading (binary, or
    text, read as UTF-8), plain or compressed (gzip, bzip2, zstd). Otherwise like
    ``check_pgn``. A missing file raises FileNotFoundError at once.

    With ``shard`` (one of ``shards(file, ...)``; ``file`` is then its path), only the games
    that begin in the shard are checked, numbered and placed as in the whole file when the
    shard is placed."""

_Layout = Literal["text", "zstd_frames", "whole"]
_Compression = Literal["none", "gzip", "bzip2", "zstd"]

@final
class Shard:
    """A part of a PGN file to check on its own: bytes ``start`` to ``end`` of the file at
    ``path`` (compressed bytes for Zstandard frames). ``text_start``, ``line`` and ``game`` say
    what comes before it (bytes of text, the line it starts on, games); None when not known,
    and its reports then count from the shard's own start. Shards pickle, for other processes."""

    def __new__(
        cls,
        path: Union[str, "os.PathLike[str]"],
        number: int,
        start: int,
        end: int,
        layout: _Layout,
        compression: _Compression,
        text_start: Optional[int] = None,
        line: Optional[int] = None,
        game: Optional[int] = None,
    ) -> "Shard": ...
    @property
    def path(self) -> str:
        """The path of its file."""
    @property
    def number(self) -> int:
        """Its number among the file's shards, from 0."""
    @property
    def start(self) -> int:
        """Where its range starts in the file, in bytes."""
    @property
    def end(self) -> int:
        """Where its range ends in the file, in bytes: the next shard's start."""
    @property
    def layout(self) -> _Layout:
        """``text`` (plain bytes), ``zstd_frames`` (whole frames) or ``whole`` (read from the
        file's start: gzip, bzip2, Zstandard in one frame)."""
    @property
    def compression(self) -> _Compression:
        """How the file is compressed."""
    @property
    def text_start(self) -> Optional[int]:
        """Bytes of (decompressed) text before its range."""
    @property
    def line(self) -> Optional[int]:
        """The line its range starts on, from 1."""
    @property
    def game(self) -> Optional[int]:
        """Games before its first."""
    def placed(self, text_start: int, line: int, game: int) -> "Shard":
        """The shard with what comes before it known."""
    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]: ...

def shards(path: Union[str, "os.PathLike[str]"], target_bytes: int) -> list[Shard]:
    """Cuts a PGN file into shards of about ``target_bytes``: byte ranges of plain text, runs of
    whole frames of a Zstandard file made of several, else one shard. Every game is checked by
    exactly one shard, whatever their size. The first shard is placed."""

def shard_extent(shard: Shard) -> Tuple[int, int, int]:
    """What a shard's range holds, read through: ``(text_bytes, line_breaks, games)``."""

def convert_shard(
    shard: Shard,
    out: Union[str, "os.PathLike[str]"],
    file_number: int,
    label: str,
    mode: _Mode = "strict",
    *,
    max_game_bytes: int = ...,
) -> dict[str, Any]:
    """Converts a shard's games into the Parquet dataset in ``out``: a row per game with typed
    columns, Hive partitions by month, one file per month named by ``file_number`` and the
    shard's number. Returns ``games``, ``ok``, ``plies``, ``wrong``, ``kept_text`` and
    ``parts`` (``[path, rows]``, paths relative to ``out``). Raises as ``check_pgn_file``
    does when the shard cannot be read through, leaving no file."""

def place_shards(
    shards: Sequence[Shard], extents: Optional[Iterable[Tuple[int, int, int]]] = None
) -> list[Shard]:
    """The shards of one file, all in order, each placed: ``extents`` are their
    ``shard_extent`` (counted elsewhere, e.g. in parallel), or are counted here."""

@overload
def fix(text: str, dialect: _Dialect = "standard") -> str:
    """Rewrites a contest record or PGN into canonical SAN in ``dialect``, as
    ``arbiter chess fix`` does; returns str for str and bytes for bytes (kept byte for byte).
    Raises FixError when something could not be rewritten."""
@overload
def fix(text: bytes, dialect: _Dialect = "standard") -> bytes: ...

def judge_chess(input: str) -> str:
    """The official record judge: ``Yes\\n`` or ``No\\n``."""

def judge_duck(input: str, *, explain: bool = False, board: bool = False) -> str:
    """The official Duck Chess judge: the official output, one line per command; with
    ``explain`` a ``# reason`` line after each ``Invalid command``; with ``board`` (which
    implies ``explain``) the board after each valid move too. Raises InputError for malformed
    input."""

def judge_arena(input: str, rules: str = "official") -> str:
    """The official skill-arena judge, in the rule reading ``rules`` (``official``,
    ``statement``, then ``,+NAME`` / ``,-NAME`` switches). Raises ValueError for unknown rules,
    InputError for malformed input."""

class InputError(ValueError):
    """Malformed input: the message is arbiter's, ``LINE:COL: expected ..., found ...``."""

    line: Optional[int]
    column: Optional[int]
    #: The official output of the complete commands or games before the error.
    output: str

class FixError(ValueError):
    """Moves ``fix`` could not rewrite."""

    problems: list[Problem]
    #: The input rewritten as far as it could be (PGN), or None (a record).
    text: Union[str, bytes, None]

class InputWarning(UserWarning):
    """Input arbiter ignored, such as text after the last command a judge reads."""
