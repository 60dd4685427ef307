"""The early refusal of a type of a document far too large: a lower bound of its candidate pairs.

The mapping engine (:mod:`hub4eval.scoring.pairs`) counts the candidate pairs
of every group of instances (a type of a document) before it makes one, and
refuses a group with more than the bound (see
:data:`hub4eval.scoring.mapping.MAX_CANDIDATE_PAIRS`). That count needs every
fill prepared. This module counts, from the content strings as written, a
lower bound of it that needs no prepared fill: with clean content compared and
both sides normalizing alike, two usual text fills of plain instances (a
reference fill without minimal strings) whose contents are written alike share
their normalized text, which is their key, so the pairs of equal written
contents, slot by slot, are some of the pairs the engine counts. A document far
too large is refused from it in a fraction of the time preparing its fills
takes; when it is not too large, the engine's own count decides.

It imports no numpy, so that a run in groups of documents
(:mod:`hub4eval.parallel`) can refuse such a document from the counts of each
side, the hypothesis's counted in another process, without mapping anything.
"""

from __future__ import annotations

import itertools
import operator
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from hub4eval.io.templettes.checks import WHOLE_SPANS
from hub4eval.model import Instance, TemplateSet, TextFill

# Slots an instance would need for a group of fewer instance pairs to be refused early:
# a group of at most ``max_pairs / EARLY_SLOTS`` instance pairs (the usual document) is
# left to the engine's count, without counting the bound.
EARLY_SLOTS = 64

Counted = dict[Any, int]  # (slot name, content as written) -> the usual text fills that hold it
Keys = Iterator[tuple[str, str]]  # the (slot name, content as written) of each fill counted


def may_be_refused(n_ref: int, n_hyp: int, max_pairs: int) -> bool:
    """Whether a group of ``n_ref`` by ``n_hyp`` instances is worth a count of its bound
    (at most the instances of a whole document, when the types are not known yet)."""
    return n_ref * n_hyp * EARLY_SLOTS > max_pairs


def written_contents(instances: Sequence[Instance], unscored: frozenset[str], reference: bool) -> Counted:
    """How many usual text fills of the plain instances (as ``Mapper._view`` and
    ``pairs._fills_by_slot`` see them) hold each (slot, content as written)."""
    counts: Counted = {}
    get = counts.get
    whole = WHOLE_SPANS.get
    for inst in instances:
        seen: set[str] = set()
        keys = []
        for slot in inst.slots:
            name = slot.name
            if name in unscored or name in seen:
                continue
            seen.add(name)
            alternatives = slot.alternatives
            if not alternatives or (reference and len(alternatives) != 1) or len(alternatives[0].fills) != 1:
                break  # not plain: compared pair by pair, outside the estimate
            fill = alternatives[0].fills[0]
            if type(fill) is not TextFill:
                continue
            content = fill.content
            # the reader's usual fill shares its one whole span (WHOLE_SPANS) and its extents as
            # its minimal extents: then it is minimal_is_maximal, without the property's call
            if (
                reference
                and not (
                    fill.minimal_spans is whole(len(content))
                    and fill.minimal_extents is fill.extents
                    and len(fill.extents) < 2
                )
                and not fill.minimal_is_maximal
            ):
                continue  # minimal strings: other keys than its text (as prepared, see FillPreparer.prepare)
            keys.append((name, content))
        else:
            for key in keys:
                counts[key] = get(key, 0) + 1
    return counts


_TYPE = operator.attrgetter("type")
_CONTENT = operator.attrgetter("content")


def usual_written(tset: TemplateSet, index: int, unscored: frozenset[str]) -> dict[str, tuple[int, Keys]] | None:
    """Per type of the instances of instance set ``index``: how many, and the (slot, content
    as written) of each fill :func:`written_contents` counts in them (in either role), read from
    the lists the reader made of the set's text fills as it read them
    (``TemplateSet.usual_fills``, ``TemplateSet.usual_slots``) instead of a walk over every
    slot; None when it made none.  The keys are read when iterated (once), by C loops.

    Such a file's every slot holds one alternative, its name comes once in its instance,
    and each listed fill is usual (its content its one minimal string at its one extent:
    counted in a reference too), so what the walk decides is left: an unscored slot's fills
    are not counted, nor those of an instance with a scored slot of several fills (not
    plain); a pointer alone in its slot is not listed.  The instances of a type are cut into
    runs of consecutive ones, each a slice of the lists.
    """
    usual, slots = tset.usual_fills(), tset.usual_slots()
    if usual is None or slots is None:
        return None
    fills, names, heads = usual[0], slots.names, slots.heads
    first = sum(len(iset.instances) for iset in tset.instance_sets[:index])  # the file's index of its first
    instances = tset.instance_sets[index].instances
    size = len(instances)
    not_plain = sorted({k - first for k, name in slots.several if first <= k < first + size and name not in unscored})
    types = list(map(_TYPE, instances))
    # the runs of instances of one type (found by C loops), each cut where an instance is not plain
    starts = [0, *itertools.compress(range(1, size), map(operator.ne, types[1:], types)), size]
    runs: dict[str, list[tuple[int, int]]] = {}
    sizes: dict[str, int] = {}
    for start, end in zip(starts, starts[1:], strict=False):
        name = types[start]
        sizes[name] = sizes.get(name, 0) + end - start
        held = runs.setdefault(name, [])
        for k in not_plain[bisect_left(not_plain, start) : bisect_left(not_plain, end)]:
            held.append((first + start, first + k))
            start = k + 1
        held.append((first + start, first + end))
    out: dict[str, tuple[int, Keys]] = {}
    for name, held in runs.items():
        spans = [(heads[start], heads[end]) for start, end in held if start < end]
        if len(spans) == 1:
            begin, stop = spans[0]
            kept_names, kept_fills = names[begin:stop], fills[begin:stop]
        else:
            kept_names = list(itertools.chain.from_iterable(names[begin:stop] for begin, stop in spans))
            kept_fills = list(itertools.chain.from_iterable(fills[begin:stop] for begin, stop in spans))
        keys: Keys = zip(kept_names, map(_CONTENT, kept_fills), strict=True)
        if unscored and not unscored.isdisjoint(kept_names):
            keys = itertools.compress(keys, map(operator.not_, map(unscored.__contains__, kept_names)))
        out[name] = (sizes[name], keys)
    return out


def counted(keys: Keys) -> Counted:
    """How many of ``keys`` are each key: :func:`written_contents` from :func:`usual_written`."""
    return dict(Counter(keys))


def usual_counted(tset: TemplateSet, index: int, unscored: frozenset[str]) -> dict[str, tuple[int, Counted]] | None:
    """:func:`usual_written` with each type's keys counted: per type, how many instances and
    :func:`written_contents` of them; None when the reader made no lists."""
    usual = usual_written(tset, index, unscored)
    return None if usual is None else {name: (size, counted(keys)) for name, (size, keys) in usual.items()}


def alike_with(keys: Keys, hyp_counts: Counted) -> int:
    """:func:`pairs_alike` of the counts of ``keys`` with ``hyp_counts``, without those counts:
    each key is in as many pairs as the hypothesis has fills written so (one look-up a key,
    where counting them took two)."""
    return sum(map(hyp_counts.get, keys, itertools.repeat(0)))


def pairs_alike(ref_counts: Counted, hyp_counts: Counted) -> int:
    """The pairs of fills of the two sides written alike in the same slot: the lower bound."""
    return sum(n * hyp_counts.get(key, 0) for key, n in ref_counts.items())


def most_alike(n_ref: int, hyp_counts: Counted) -> int:
    """At most :func:`pairs_alike` of ``n_ref`` reference instances with these counts, whatever
    their contents: an instance has one fill counted per slot at most, written alike with at
    most the hypothesis's most frequent content of that slot (the reference's contents need not
    be counted when this is under the limit)."""
    most: dict[str, int] = {}
    for (slot, _), n in hyp_counts.items():
        if n > most.get(slot, 0):
            most[slot] = n
    return n_ref * sum(most.values())
