"""A count of sets paired by overlap, made in parts in processes, is the count of one process.

:func:`~hub4eval.scoring.counted_parts.join_parts` of the parts' counts
(:func:`~hub4eval.scoring.counted_parts.count_part`, each made in a forked
child) must give what ``Mapper.count_template_sets`` gives with the same extent
functions: the same counted sets in the same order, each instance match with
the same instances, counts and signature (read through the caller's mapper's
numbering), also when a child fails, and when a hypothesis set overlaps
reference sets of two parts or the parts were counted in another order of the
types (then the whole is counted in one piece). The oracle is the count of one
process. The ceiling of a score whose texts are aligned in processes is counted
so, by the children that project it; the score is compared with the one of
``jobs=1``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hub4eval.text.aligned_texts as aligned_texts
import hub4eval.util.forked as forked
from hub4eval.config import ScoreConfig
from hub4eval.io.templettes import parse_templates
from hub4eval.model import Extent, InstanceSet, TemplateSet
from hub4eval.scoring import ceiling_runs, counted_parts, projection
from hub4eval.scoring.counted_parts import count_part, join_parts
from hub4eval.scoring.fills import FillPreparer
from hub4eval.scoring.mapping import CountedSet, Mapper
from hub4eval.util.forked import can_fork
from tests.support.reference_fills import references, with_ceiling

needs_fork = pytest.mark.skipif(not can_fork(), reason="no fork on this platform: every part is counted here")

WORDS = ("acme", "boston", "smith", "jones", "paris", "ford", "the board", "general motors")
SPAN = 100  # characters of each made-up document: document k is [k * SPAN, k * SPAN + SPAN - 1]


def _sets(seed: int, documents: int, straddle: float) -> tuple[TemplateSet, TemplateSet]:
    """A reference of 0-3 events a document and a hypothesis extracted from the same text: its
    events moved, changed, dropped, repeated; some of its fills (``straddle``) in the next
    document, so that its set overlaps two reference sets; a set of an unknown document."""
    rng = random.Random(seed)

    def fill(doc: int) -> str:
        word = rng.choice(WORDS)
        start = doc * SPAN + rng.randrange(SPAN - len(word))
        return f'"{word}" ##{start}#{start + len(word)}#'

    ref, hyp = [], []
    for doc in range(documents):
        for number in range(1, rng.randint(0, 3) + 1):
            slots = [(slot, fill(doc)) for slot in ("WINNER", "LOSER", "PLACE") if rng.random() < 0.8]
            optional = ["    OBJ_STATUS: OPTIONAL"] if rng.random() < 0.1 else []
            ref.append("\n".join([f"<EVENT-D{doc}-{number}> :=", *(f"    {s}: {f}" for s, f in slots), *optional]))
            for again in range(rng.choice((0, 1, 1, 1, 2))):
                kept = [(s, f if rng.random() < 0.7 else fill(doc)) for s, f in slots if rng.random() < 0.85]
                if rng.random() < straddle and doc + 1 < documents:
                    kept.append(("SITE", fill(doc + 1)))
                if kept:
                    lines = [f"    {s}: {f}" for s, f in kept]
                    hyp.append("\n".join([f"<EVENT-D{doc}-{number + 10 * again}> :=", *lines]))
        if rng.random() < 0.05:
            hyp.append(f"<EVENT-X{doc}-1> :=\n    WINNER: {fill(doc)}")  # no reference set of its DOCID
    return (
        parse_templates("\n\n".join(ref) + "\n", role="reference"),
        parse_templates("\n\n".join(hyp) + "\n", role="hypothesis"),
    )


def _document_extent(iset: InstanceSet) -> Extent:
    doc = int(iset.docid[1:])
    return Extent(doc * SPAN, doc * SPAN + SPAN - 1)


def _set_extent(iset: InstanceSet) -> Extent | None:
    extents = [f.extents[0] for i in iset.instances for s in i.slots for a in s.alternatives for f in a.fills]
    return Extent(min(e.start for e in extents), max(e.end for e in extents)) if extents else None


def _mapper() -> Mapper:
    config = ScoreConfig()
    return Mapper(config, FillPreparer(config), FillPreparer(config, reference=False))


def _plain(mapper: Mapper, counted: tuple[CountedSet, ...]) -> list[tuple]:
    """Each counted set with its sets and instances (by identity) and its instance matches'
    counts and signatures (by value)."""
    return [
        (
            id(c.ref),
            id(c.hyp),
            c.counts,
            [(id(m.ref), id(m.hyp), m.counts, mapper.signatures[m.signature]) for m in c.instances],
        )
        for c in counted
    ]


def _alone(ref: TemplateSet, hyp: TemplateSet) -> list[tuple]:
    mapper = _mapper()
    return _plain(mapper, mapper.count_template_sets(ref, hyp, ref_extent=_document_extent, hyp_extent=_set_extent))


def _pieces(ref: TemplateSet, hyp: TemplateSet, parts: int) -> list[tuple[TemplateSet, TemplateSet]]:
    """The sets cut into consecutive parts: the reference at about equal numbers of sets, a
    hypothesis set in the part of the reference set of its DOCID (unknown: the part before)."""
    sets = ref.instance_sets
    starts = [len(sets) * k // parts for k in range(parts)]
    part_of = {iset.docid: sum(number >= s for s in starts) - 1 for number, iset in enumerate(sets)}
    hyp_parts: list[list[InstanceSet]] = [[] for _ in range(parts)]
    part = 0
    for iset in hyp.instance_sets:
        part = max(part, part_of.get(iset.docid, part))
        hyp_parts[part].append(iset)
    ends = [*starts[1:], len(sets)]
    return [
        (TemplateSet(sets[a:b], role="reference"), TemplateSet(tuple(h), role="hypothesis"))
        for a, b, h in zip(starts, ends, hyp_parts, strict=True)
    ]


ORDER = ("EVENT",)


def _in_parts(ref: TemplateSet, hyp: TemplateSet, parts: int, order: tuple[str, ...] = ORDER) -> list[tuple]:
    """The parts counted in children (a fresh mapper each, as a child that projected its run
    makes), joined here."""
    pieces = _pieces(ref, hyp, parts)

    def one(r: TemplateSet, h: TemplateSet) -> counted_parts.Part:
        return count_part(_mapper(), r, h, ref_extent=_document_extent, hyp_extent=_set_extent, order=order)

    children = [forked.Beside(one, r, h) for r, h in pieces]
    mapper = _mapper()
    counted = join_parts(
        mapper,
        ref,
        TemplateSet(tuple(iset for _, h in pieces for iset in h.instance_sets), role="hypothesis"),
        pieces,
        [child.result() for child in children],
        ref_extent=_document_extent,
        hyp_extent=_set_extent,
        order=order,
    )
    return _plain(mapper, counted)


def _across(ref: TemplateSet, hyp: TemplateSet, parts: int) -> bool:
    """Whether a hypothesis set overlaps a reference set of another part."""
    pieces = _pieces(ref, hyp, parts)
    return any(
        (e := _set_extent(other)) is not None and _document_extent(iset).overlaps(e)
        for p, (r, _) in enumerate(pieces)
        for q, (_, h) in enumerate(pieces)
        if p != q
        for iset in r.instance_sets
        for other in h.instance_sets
    )


@needs_fork
@pytest.mark.parametrize("parts", [2, 3])
@pytest.mark.parametrize("seed", range(12))
def test_parts_counted_in_children_give_the_count_of_one_process(seed, parts):
    ref, hyp = _sets(seed, documents=12, straddle=0.0)
    assert not _across(ref, hyp, parts)
    assert _in_parts(ref, hyp, parts) == _alone(ref, hyp)


def _counting_wholes(monkeypatch, ref: TemplateSet) -> list[bool]:
    """Records, for each count of the mapper, whether it is a count of the whole reference."""
    wholes: list[bool] = []
    count = Mapper.count_template_sets

    def recording(self, r, h, *args, **kwargs):  # type: ignore[no-untyped-def]
        wholes.append(r.instance_sets == ref.instance_sets)
        return count(self, r, h, *args, **kwargs)

    monkeypatch.setattr(Mapper, "count_template_sets", recording)
    return wholes


@pytest.mark.parametrize("seed", range(12))
def test_sets_overlapping_across_the_cut_are_counted_in_one_piece(monkeypatch, seed):
    ref, hyp = _sets(seed, documents=12, straddle=0.3)
    expected = _alone(ref, hyp)
    wholes = _counting_wholes(monkeypatch, ref)
    assert _in_parts(ref, hyp, 2) == expected
    # counted in parts (in children: not seen here, or here without fork), then once more
    # as a whole, here, when a pair crosses the cut
    assert (bool(wholes) and wholes[-1]) is _across(ref, hyp, 2)


def test_parts_counted_in_another_order_of_the_types_are_counted_in_one_piece(monkeypatch):
    ref, hyp = _sets(4, documents=12, straddle=0.0)
    expected = _alone(ref, hyp)
    wholes = _counting_wholes(monkeypatch, ref)
    assert _in_parts(ref, hyp, 2, order=("EVENT", "TEMPLATE")) == expected
    assert wholes[-1]


@needs_fork
def test_a_part_whose_child_fails_is_counted_here(monkeypatch):
    ref, hyp = _sets(5, documents=12, straddle=0.0)
    expected = _alone(ref, hyp)
    count = Mapper.count_template_sets

    def failing_in_a_child(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        if forked.in_child():
            raise RuntimeError("only in the child")
        return count(self, *args, **kwargs)

    monkeypatch.setattr(Mapper, "count_template_sets", failing_in_a_child)
    assert _in_parts(ref, hyp, 3) == expected


def test_without_fork_or_processes_the_parts_are_counted_here(monkeypatch):
    ref, hyp = _sets(3, documents=12, straddle=0.0)
    expected = _alone(ref, hyp)
    monkeypatch.setattr(forked, "_start", lambda *args: (None, None))  # no process to be had
    assert _in_parts(ref, hyp, 2) == expected
    monkeypatch.setattr(forked, "can_fork", lambda: False)
    assert _in_parts(ref, hyp, 3) == expected


@needs_fork
@pytest.mark.parametrize("jobs", [2, 3])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data())
def test_the_ceiling_counted_in_parts_is_the_ceiling_of_one_process(jobs: int, data: st.DataObject) -> None:
    # the ceiling of an unsegmented hypothesis, its texts aligned in processes: counted in
    # parts; the projection spoiled, so that its sets are not the reference's one to one
    ref_text = data.draw(references("asr_unsegmented"))
    seed = data.draw(st.integers(0, 2**32 - 1))
    project = projection.project

    def spoiled(*args, **kwargs):  # type: ignore[no-untyped-def]
        # each set as its own (the projection is made in runs of sets, in children)
        made = project(*args, **kwargs)
        sets = [
            InstanceSet(s.docid, s.instances[: random.Random(f"{seed} {s.docid}").randint(0, len(s.instances))])
            for s in made.instance_sets
        ]
        return TemplateSet(tuple(sets), role="hypothesis", path=made.path)

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(projection, "project", spoiled)
        alone = with_ceiling("asr_unsegmented", ref_text, ScoreConfig(), ceiling_counts=True, jobs=1)
        patched.setattr(aligned_texts, "PARALLEL_WORDS", 0)
        # sclite's child done: the projection's children do not depend on when it ends (with two
        # jobs, none would project while it counts, and nothing would be counted in parts)
        patched.setattr(aligned_texts.AlignedTexts, "counting", lambda self: 0)
        joined: list[int] = []
        join = counted_parts.join_parts

        def recording(mapper, ref, hyp, pieces, parts, **kwargs):  # type: ignore[no-untyped-def]
            joined.append(len(parts))
            return join(mapper, ref, hyp, pieces, parts, **kwargs)

        patched.setattr(counted_parts, "join_parts", recording)
        in_parts = with_ceiling("asr_unsegmented", ref_text, ScoreConfig(), ceiling_counts=True, jobs=jobs)
    assert alone.ceiling is not None and in_parts.ceiling is not None
    assert in_parts.ceiling.tally == alone.ceiling.tally
    assert in_parts.ceiling.slot_errors == alone.ceiling.slot_errors
    assert in_parts.to_json() == alone.to_json()
    assert in_parts.causes == alone.causes
    # the ceiling counted where each run was projected (a part each, at most RUNS_PER_CHILD a job)
    assert len(joined) == 1 and 1 <= joined[0] <= jobs * ceiling_runs.RUNS_PER_CHILD
