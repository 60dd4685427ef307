"""A count of sets paired by overlap, cut into parts counted in processes, is the count of one process.

:func:`hub4eval.scoring.counted_parts.count_in_parts` must give what
``Mapper.count_template_sets`` gives with the same extent functions: the same
counted sets in the same order, each instance match with the same instances,
counts and signature (read through the caller's mapper's numbering) whatever
the parts, when the platform cannot fork, when no process is to be had, and
when a hypothesis set overlaps reference sets of two parts (the cut is not
clean: the whole is counted in one piece). The oracle is the count of one
process. The ceiling of a score whose texts are aligned in processes is
counted so; the score is compared with the one of ``jobs=1``.
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
from hub4eval.scoring import counted_parts, projection
from hub4eval.scoring.counted_parts import count_in_parts
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


def _in_parts(ref: TemplateSet, hyp: TemplateSet, parts: int) -> list[tuple]:
    mapper = _mapper()
    counted = count_in_parts(mapper, ref, hyp, ref_extent=_document_extent, hyp_extent=_set_extent, parts=parts)
    return _plain(mapper, counted)


class _Recording(forked.Beside):  # type: ignore[misc]
    started: list[str] = []

    def __init__(self, function, *args, **kwargs):  # type: ignore[no-untyped-def]
        _Recording.started.append(function.__name__)
        super().__init__(function, *args, **kwargs)


@needs_fork
@pytest.mark.parametrize("parts", [2, 3])
@pytest.mark.parametrize("seed", range(12))
def test_parts_counted_in_children_give_the_count_of_one_process(monkeypatch, seed, parts):
    ref, hyp = _sets(seed, documents=12, straddle=0.0)
    monkeypatch.setattr(forked, "Beside", _Recording)
    _Recording.started = []
    assert _in_parts(ref, hyp, parts) == _alone(ref, hyp)
    assert _Recording.started == ["_count_part"] * (parts - 1)


@pytest.mark.parametrize("seed", range(12))
def test_sets_overlapping_across_the_cut_are_counted_in_one_piece(monkeypatch, seed):
    ref, hyp = _sets(seed, documents=12, straddle=0.3)
    wholes = []
    count = Mapper.count_template_sets

    def recording(self, r, h, *args, **kwargs):  # type: ignore[no-untyped-def]
        wholes.append(r.instance_sets == ref.instance_sets)
        return count(self, r, h, *args, **kwargs)

    expected = _alone(ref, hyp)
    monkeypatch.setattr(Mapper, "count_template_sets", recording)
    assert _in_parts(ref, hyp, 2) == expected
    cuts = counted_parts._cuts(ref, hyp, 2)
    assert cuts is not None
    (_, (r, h)) = cuts
    across = [
        (i, j)
        for i, iset in enumerate(ref.instance_sets)
        for j, other in enumerate(hyp.instance_sets)
        if (i < r) != (j < h) and (e := _set_extent(other)) is not None and _document_extent(iset).overlaps(e)
    ]
    # counted in parts, then (a pair across the cut) once more as a whole, here
    assert wholes[-1] is bool(across)


def test_without_fork_or_processes_the_parts_are_counted_here(monkeypatch):
    ref, hyp = _sets(3, documents=12, straddle=0.0)
    expected = _alone(ref, hyp)
    monkeypatch.setattr(forked, "_start", lambda *args: (None, None))  # no process to be had
    assert _in_parts(ref, hyp, 2) == expected
    monkeypatch.setattr(forked, "can_fork", lambda: False)
    assert _in_parts(ref, hyp, 3) == expected


@needs_fork
def test_a_part_whose_child_fails_is_counted_here(monkeypatch):
    ref, hyp = _sets(5, documents=12, straddle=0.0)
    expected = _alone(ref, hyp)
    here = counted_parts._count_part

    def failing_in_a_child(*args):  # type: ignore[no-untyped-def]
        if forked.in_child():
            raise RuntimeError("only in the child")
        return here(*args)

    monkeypatch.setattr(counted_parts, "_count_part", failing_in_a_child)
    assert _in_parts(ref, hyp, 3) == expected


def test_cuts_follow_the_reference_and_give_up_on_sets_out_of_order():
    ref, hyp = _sets(7, documents=12, straddle=0.0)
    cuts = counted_parts._cuts(ref, hyp, 2)
    assert cuts is not None and cuts[0] == (0, 0)
    (_, (r, h)) = cuts
    ref_docids = {iset.docid for iset in ref.instance_sets[:r]}
    assert all(iset.docid in ref_docids or iset.docid.startswith("X") for iset in hyp.instance_sets[:h])
    assert not any(iset.docid in ref_docids for iset in hyp.instance_sets[h:])
    backwards = TemplateSet(tuple(reversed(hyp.instance_sets)), role="hypothesis")
    assert counted_parts._cuts(ref, backwards, 2) is None
    assert _in_parts(ref, backwards, 2) == _alone(ref, backwards)


@needs_fork
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data())
def test_the_ceiling_counted_in_parts_is_the_ceiling_of_one_process(data: st.DataObject) -> None:
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
        patched.setattr(forked, "Beside", _Recording)
        _Recording.started = []
        in_parts = with_ceiling("asr_unsegmented", ref_text, ScoreConfig(), ceiling_counts=True, jobs=2)
    assert alone.ceiling is not None and in_parts.ceiling is not None
    assert in_parts.ceiling.tally == alone.ceiling.tally
    assert in_parts.ceiling.slot_errors == alone.ceiling.slot_errors
    assert in_parts.to_json() == alone.to_json()
    assert in_parts.causes == alone.causes
    assert ("_count_part" in _Recording.started) is (len(alone.ceiling.projection.instance_sets) > 1)
