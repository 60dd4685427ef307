"""Which instance pairs can score a COR: keys that two such instances share.

The greedy mapping (§5) ranks every candidate pair of a type, but a pair
without a single COR point has F = 0 and ranks after every pair with one.
So only pairs that *can* have a COR need their counts before the pairs with
F > 0 are chosen; the F = 0 pairs matter only between the instances left
over (see :func:`hub4eval.greedy.greedy_map_sparse`).

A fill pair can give a COR only if the two fills share a key (a necessary
condition, never a sufficient one: shared keys only make a pair worth
counting exactly):

- pointer: the reference target is mapped to the hypothesis target (§6);
- clean content: the hypothesis string lies inside the reference maximal
  string and contains a minimal string, so it is one of the substrings of
  the maximal string that contain a minimal one;
- noisy content: the first kept hypothesis word is a word of the reference
  maximal string (the hypothesis is a run of it, optional words skipped);
- extent: the hypothesis extent starts inside the reference maximal extent,
  so its start falls in a block of ``_BLOCK`` columns the reference extent
  covers.

Every key carries the slot name: fills are compared only within a slot. A
reference fill with too many keys gets the slot's wildcard, which every
hypothesis fill of that slot carries.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from .compare import TextComparison
from .model import PointerFill
from .noisy import kept_hypothesis_tokens
from .prepare import PreparedFill

Key = tuple  # ("p" | "c" | "w" | "x" | "*", slot name, value)

_BLOCK = 64  # columns per extent block
_MAX_KEYS = 256  # more keys for one reference fill: use the slot's wildcard instead


def _substrings_with(text: str, minimals: Iterable[str]) -> set[str] | None:
    """The substrings of ``text`` that contain one of ``minimals``; None if too many."""
    found: set[str] = set()
    for minimal in minimals:
        size = len(minimal)
        at = text.find(minimal)
        while at >= 0:
            if len(found) + (at + 1) * (len(text) - at - size + 1) > _MAX_KEYS:
                return None
            for start in range(at + 1):
                for end in range(at + size, len(text) + 1):
                    found.add(text[start:end])
            at = text.find(minimal, at + 1)
    return found


def reference_text_keys(slot: str, fill: PreparedFill, how: TextComparison) -> Iterator[Key]:
    """Keys of a reference text fill: one of them is shared with any hypothesis fill it can COR."""
    if how.content:
        if how.noisy:
            for token in fill.maximal.tokens:
                yield ("w", slot, token.text)
        else:
            substrings = _substrings_with(fill.maximal.text, {m.text for m in fill.minimals})
            if substrings is None:
                yield ("*", slot, None)
            else:
                for text in substrings:
                    yield ("c", slot, text)
    extent = fill.maximal.extent
    if how.extent and fill.has_extent and extent is not None:
        first, last = extent.start // _BLOCK, extent.end // _BLOCK
        if last - first >= _MAX_KEYS:
            yield ("*", slot, None)
        else:
            for block in range(first, last + 1):
                yield ("x", slot, block)


def hypothesis_text_keys(slot: str, fill: PreparedFill, how: TextComparison) -> Iterator[Key]:
    """Keys of a hypothesis text fill (see :func:`reference_text_keys`)."""
    yield ("*", slot, None)
    if how.content:
        if how.noisy:
            kept = kept_hypothesis_tokens(fill.maximal.tokens, how.fillers)
            if kept:
                yield ("w", slot, kept[0].text)
        else:
            yield ("c", slot, fill.maximal.text)
    extent = fill.maximal.extent
    if how.extent and fill.has_extent and extent is not None:
        yield ("x", slot, extent.start // _BLOCK)


def reference_pointer_key(slot: str, fill: PointerFill, mapping: Mapping[str, str]) -> Key | None:
    """The key a reference pointer shares with a COR hypothesis pointer, None if it has none."""
    mapped = mapping.get(fill.key)
    return None if mapped is None else ("p", slot, mapped)


def hypothesis_pointer_key(slot: str, fill: PointerFill) -> Key:
    return ("p", slot, fill.key)


def sharing_pairs(ref_keys: Sequence[Iterable[Key]], hyp_keys: Sequence[Iterable[Key]]) -> set[tuple[int, int]]:
    """(i, j) for every reference i and hypothesis j that share a key."""
    index: dict[Key, list[int]] = {}
    for j, keys in enumerate(hyp_keys):
        for key in keys:
            holders = index.get(key)
            if holders is None:
                index[key] = [j]
            elif holders[-1] != j:
                holders.append(j)
    pairs: set[tuple[int, int]] = set()
    for i, keys in enumerate(ref_keys):
        for key in keys:
            for j in index.get(key, ()):
                pairs.add((i, j))
    return pairs
