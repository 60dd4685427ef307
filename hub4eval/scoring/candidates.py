"""Which instance pairs can score a COR: keys that two such instances share.

The greedy mapping (§5) ranks every candidate pair of a type, but a pair
without a single COR point has F = 0 and ranks after every pair with one.
So only pairs that *can* have a COR need their counts before the pairs with
F > 0 are chosen; the F = 0 pairs matter only between the instances left
over (see :func:`hub4eval.scoring.pairs.map_groups`).

A fill pair can give a COR only if the two fills share a key (a necessary
condition, never a sufficient one: shared keys only make a pair worth
counting exactly):

- pointer: the reference target is mapped to the hypothesis target (§6);
- clean content: the hypothesis string lies inside the reference maximal
  string and contains a minimal string, so it is one of the substrings of
  the maximal string that contain a minimal one;
- noisy content: every kept hypothesis word is a word of the reference
  maximal string (the hypothesis is a run of it, optional words skipped), so
  the key of the hypothesis is one of them, its longest (the first of the
  longest: long words are the rare ones, which few reference fills share);
  words are compared as the comparison compares them, less a trailing
  possessive (``clinton's`` shares the key of ``clinton``); a
  hypothesis with no kept word shares the empty key with every reference
  that has a minimal string of optional tokens only (§6: the empty run);
- extent: the hypothesis extent starts inside the reference maximal extent
  (widened over inserted words at its edges, §7.3), so its start falls in a
  block of ``_BLOCK`` columns the reference extent covers.

Every key carries the slot name: fills are compared only within a slot. A
reference fill that would have too many keys gets the wildcard instead,
which pairs it with every hypothesis instance.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from hub4eval.model import PointerFill
from hub4eval.scoring.fills import PreparedFill
from hub4eval.scoring.greedy import TooManyPairs
from hub4eval.scoring.verdicts import TextComparison

Key = tuple  # ("p" | "c" | "w" | "x", slot name, value)
WILDCARD: Key = ("*",)  # a reference fill with too many keys: shared with every hypothesis

_BLOCK = 16  # offsets (characters, or columns when the texts differ) per extent block: see RESULTS.md
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


def reference_content_keys(slot: str, fill: PreparedFill, how: TextComparison) -> list[Key] | None:
    """Content keys of a reference text fill (distinct); None when it has too many (the wildcard)."""
    maximal = fill.maximal
    if how.noisy:
        keys = [("w", slot, word) for word in dict.fromkeys(maximal.noisy_words(how.fillers).words)]
        if any(all(minimal.noisy_words(how.fillers).optional) for minimal in fill.minimals):
            keys.append(("w", slot, ""))  # an empty hypothesis can be correct (§6)
        return list(dict.fromkeys(keys))
    if fill.minimals == (maximal,):  # no brackets: only the maximal string itself
        return [("c", slot, maximal.text)]
    substrings = _substrings_with(maximal.text, {m.text for m in fill.minimals})
    if substrings is None:
        return None
    return [("c", slot, text) for text in substrings]


def reference_extent_keys(slot: str, fill: PreparedFill) -> list[Key] | None:
    """Extent keys of a reference text fill that has an extent (distinct); None: too many (the wildcard)."""
    extent = fill.enclosing  # the maximal extent, widened over inserted words at its edges
    if not fill.has_extent or extent is None:
        return []
    first, last = extent.start // _BLOCK, extent.end // _BLOCK
    if first == last:  # the usual short extent
        return [("x", slot, first)]
    if last - first >= _MAX_KEYS:
        return None
    return [("x", slot, block) for block in range(first, last + 1)]


def reference_text_keys(slot: str, fill: PreparedFill, how: TextComparison) -> list[Key]:
    """Keys of a reference text fill: one of them is shared with any hypothesis fill it can COR."""
    keys: list[Key] = []
    if how.content:
        content = reference_content_keys(slot, fill, how)
        if content is None:
            return [WILDCARD]
        keys += content
    if how.extent:
        extent = reference_extent_keys(slot, fill)
        if extent is None:
            return [WILDCARD]
        keys += extent
    return keys


def hypothesis_content_key(slot: str, fill: PreparedFill, how: TextComparison) -> Key:
    """The content key of a hypothesis text fill (see :func:`reference_content_keys`)."""
    if how.noisy:
        kept = fill.maximal.noisy_words(how.fillers).kept
        return ("w", slot, max(kept, key=len) if kept else "")
    return ("c", slot, fill.maximal.text)


def hypothesis_extent_key(slot: str, fill: PreparedFill) -> Key | None:
    """The extent key of a hypothesis text fill, None when it has no extent to compare."""
    extent = fill.maximal.extent
    if not fill.has_extent or extent is None:
        return None
    return ("x", slot, extent.start // _BLOCK)


def hypothesis_text_keys(slot: str, fill: PreparedFill, how: TextComparison) -> list[Key]:
    """Keys of a hypothesis text fill (see :func:`reference_text_keys`)."""
    keys: list[Key] = []
    if how.content:
        keys.append(hypothesis_content_key(slot, fill, how))
    if how.extent:
        extent = hypothesis_extent_key(slot, fill)
        if extent is not None:
            keys.append(extent)
    return keys


def reference_pointer_key(slot: str, fill: PointerFill, mapping: Mapping[str, str]) -> Key | None:
    """The key a reference pointer shares with a COR hypothesis pointer, None if it has none."""
    mapped = mapping.get(fill.key)
    return None if mapped is None else ("p", slot, mapped)


def hypothesis_pointer_key(slot: str, fill: PointerFill) -> Key:
    return ("p", slot, fill.key)


def sharing_pairs(
    ref_keys: Sequence[Iterable[Key]], hyp_keys: Sequence[Iterable[Key]], limit: int | None = None
) -> set[tuple[int, int]]:
    """(i, j) for every reference i and hypothesis j that share a key
    (a reference with the :data:`WILDCARD` key pairs with every hypothesis).

    Raises:
        TooManyPairs: more than ``limit`` pairs (checked after each reference).
    """
    index: dict[Key, list[int]] = {}
    for j, keys in enumerate(hyp_keys):
        for key in keys:
            holders = index.get(key)
            if holders is None:
                index[key] = [j]
            elif holders[-1] != j:
                holders.append(j)
    index.pop(WILDCARD, None)  # a wildcard pairs with every hypothesis: never looked up
    every = range(len(hyp_keys))
    pairs: set[tuple[int, int]] = set()
    add = pairs.add
    for i, keys in enumerate(ref_keys):
        for key in keys:
            sharing: Sequence[int] | None = index.get(key)
            if sharing is None:
                if key != WILDCARD:
                    continue
                sharing = every
            for j in sharing:
                add((i, j))
        if limit is not None and len(pairs) > limit:
            raise TooManyPairs(len(pairs))
    return pairs
