"""Placing the shards of a file: what comes before each (bytes of text, lines, games) is the
sum of what the shards before it hold, so its reports read as the whole file's."""

from typing import Iterable, List, Optional, Sequence, Tuple

from . import Shard, shard_extent


def place_shards(
    shards: Sequence[Shard], extents: Optional[Iterable[Tuple[int, int, int]]] = None
) -> List[Shard]:
    """The shards of one file, all of them in order, each placed: ``extents`` are their
    ``shard_extent`` (counted elsewhere, e.g. in parallel), or are counted here one by one."""
    if extents is None:
        extents = [shard_extent(shard) for shard in shards]
    placed = []
    text_start, line, game = 0, 1, 0
    for number, (shard, (text_bytes, line_breaks, games)) in enumerate(zip(shards, extents)):
        if shard.number != number:
            raise ValueError(f"expected shard {number} of {shard.path}, found shard {shard.number}")
        placed.append(shard.placed(text_start, line, game))
        text_start, line, game = text_start + text_bytes, line + line_breaks, game + games
    return placed
