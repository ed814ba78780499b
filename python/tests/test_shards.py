"""Shards: a file cut into parts checked apart gives, part after part, the whole file's reports,
every game exactly once, whatever the parts' size; on random files (hypothesis)."""

import gzip
import pickle
import random
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arbiter

zstandard = pytest.importorskip("zstandard")

#: Pieces of PGN the random files are made of: games of every shape the splitter tells apart
#: (with and without tags, comments over blank lines, comments never closed, `[%clk` lines,
#: tags split by a blank line, escape lines, errors, a game cut off), and blank lines.
PIECES = [
    '[Event "a"]\n[White "W"]\n[Black "B"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n',
    '[Site "https://lichess.org/abcd1234"]\n[Result "1-0"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n',
    "1. d4 d5 2. Ke3 *\n\n",
    "1. e4 {a comment\n\nover a blank line} e5 *\n\n",
    "1. e4 {never closed\n\n",
    '1. e4 {clock\n\n[%clk 0:01:00]} e5 *\n\n',
    '[A "1"]\n\n[B "2"]\n\n1. c4 *\n\n',
    "% an escape line\n1. Nf3 Nf6 *\n",
    "1. e4 e5\n2. Nf3\n\n",
    '[Variant "Atomic"]\n\n1. e4 d5 2. exd5 *\n\n',
    "1.e4 e5 2.0-0 *\n\n",
    "\n",
    "\r\n",
    '[White "x"]\r\n\r\n1. e4 *\r\n\r\n',
    "1. e4 (1. d4 d5) e5 ; a rest-of-line comment\n*\n\n",
    '  [Indented "tag"]\n1. e4 *\n\n',
    "1. e4 e5 2. Qh5",
]


def reports(path, mode="lenient", shard=None):
    return [r.to_dict() for r in arbiter.check_pgn_file(path, mode, shard=shard)]


def sharded(path, target, mode="lenient"):
    shards = arbiter.shards(path, target)
    # Through pickle, as they travel to another process.
    shards = [pickle.loads(pickle.dumps(shard)) for shard in shards]
    placed = arbiter.place_shards(shards)
    return [report for shard in placed for report in reports(path, mode, shard)]


def frames(text, cuts):
    """`text` compressed as independent Zstandard frames, cut at `cuts`."""
    cuts = sorted({cut % (len(text) + 1) for cut in cuts} | {0, len(text)})
    compressor = zstandard.ZstdCompressor(level=1)
    return b"".join(compressor.compress(text[a:b]) for a, b in zip(cuts, cuts[1:]) if b > a)


files = st.lists(st.sampled_from(PIECES), max_size=40).map(lambda pieces: "".join(pieces).encode())


#: The temporary folder is shared by the examples: each writes its file again.
SHARED_TMP = settings(
    deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@settings(SHARED_TMP, max_examples=150)
@given(
    text=files,
    bom=st.booleans(),
    target=st.integers(1, 400),
    mode=st.sampled_from(["strict", "lenient"]),
)
def test_the_shards_of_a_plain_file_give_the_whole_files_reports(tmp_path, text, bom, target, mode):
    path = tmp_path / "games.pgn"
    path.write_bytes(b"\xef\xbb\xbf" * bom + text)
    assert sharded(path, target, mode) == reports(path, mode)


@settings(SHARED_TMP, max_examples=80)
@given(text=files, cuts=st.lists(st.integers(0, 10_000), max_size=8), target=st.integers(1, 600))
def test_the_shards_of_zstd_frames_give_the_whole_files_reports(tmp_path, text, cuts, target):
    path = tmp_path / "games.pgn.zst"
    path.write_bytes(frames(text, cuts))
    assert sharded(path, target) == reports(path)


def test_a_file_that_cannot_be_entered_in_the_middle_is_one_shard(tmp_path):
    text = "".join(PIECES * 20).encode()
    gz = tmp_path / "games.pgn.gz"
    gz.write_bytes(gzip.compress(text))
    one_frame = tmp_path / "games.pgn.zst"
    one_frame.write_bytes(zstandard.ZstdCompressor().compress(text))
    for path in [gz, one_frame]:
        [shard] = arbiter.shards(path, 100)
        assert (shard.layout, shard.start, shard.end) == ("whole", 0, path.stat().st_size)
        assert reports(path, shard=shard) == reports(path)
    many = tmp_path / "many.pgn.zst"
    many.write_bytes(frames(text, range(0, len(text), 500)))
    shards = arbiter.shards(many, 1)
    assert len(shards) > 10 and {s.layout for s in shards} == {"zstd_frames"}
    assert shards[0].compression == "zstd" and shards[1].text_start is None


def test_a_shard_not_placed_counts_from_its_own_start(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_bytes(b'[A "1"]\n\n1. e4 *\n\n[B "2"]\n\n1. d4 *\n\n[C "3"]\n\n1. c4 *\n')
    first, second, third = arbiter.shards(path, 20)
    assert (first.text_start, first.line, first.game) == (0, 1, 0)
    assert (second.text_start, second.line, second.game) == (20, None, None)
    # Its range starts in game B: its first game is C, at byte 36, four line breaks on.
    [report] = arbiter.check_pgn_file(path, shard=second)
    assert (report.index, report.line, report.offset) == (1, 5, 36)
    assert arbiter.shard_extent(second) == (20, 4, 1)
    assert arbiter.shard_extent(third) == (13, 3, 0)
    placed = arbiter.place_shards([first, second, third])[1]
    [report] = arbiter.check_pgn_file(path, shard=placed)
    assert (report.index, report.line, report.offset) == (3, 9, 36)


def test_a_shard_is_checked_only_with_its_own_file(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_bytes(b"1. e4 *\n")
    [shard] = arbiter.shards(path, 10)
    with pytest.raises(ValueError, match="not of"):
        arbiter.check_pgn_file(tmp_path / "other.pgn", shard=shard)
    with pytest.raises(TypeError, match="by its path"):
        arbiter.check_pgn_file(open(path, "rb"), shard=shard)
    with pytest.raises(ValueError, match="at least 1"):
        arbiter.shards(path, 0)
    with pytest.raises(FileNotFoundError):
        arbiter.shards(tmp_path / "missing.pgn", 10)


@pytest.mark.skipif(shutil.which("pzstd") is None, reason="no pzstd")
def test_the_frames_pzstd_writes_are_shards(tmp_path):
    path, packed = tmp_path / "games.pgn", tmp_path / "games.pgn.zst"
    rng = random.Random(3)
    # Enough text for pzstd to cut it in several frames, each after a skippable frame.
    path.write_bytes("".join(rng.choice(PIECES) for _ in range(200_000)).encode())
    subprocess.run(["pzstd", "-q", "-p", "2", "-1", path, "-o", packed], check=True)
    shards = arbiter.place_shards(arbiter.shards(packed, 1000))
    assert len(shards) > 1 and {s.layout for s in shards} == {"zstd_frames"}

    def brief(reports):
        return [(r.index, r.line, r.offset, r.ok, r.plies, len(r.warnings)) for r in reports]

    whole = brief(arbiter.check_pgn_file(packed))
    assert [g for s in shards for g in brief(arbiter.check_pgn_file(packed, shard=s))] == whole
