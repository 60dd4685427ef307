"""The ceiling's projection made in forked children gives the ceiling of one process.

When the texts are long enough to be aligned in processes (``jobs`` above 1,
:data:`hub4eval.text.aligned_texts.PARALLEL_WORDS` tokens), the reference is
projected onto the hypothesis text in runs of its instance sets, shared out
among children (one for each core that neither the caller nor a child still
counting sclite's alignment takes) while the caller maps the system's
templettes, and the caller once it is done; the projection and the whole
result must be those of ``jobs=1``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import hub4eval.text.aligned_texts as aligned_texts
import hub4eval.util.forked as forked
from hub4eval.io.corpus import read_corpus
from hub4eval.io.templettes.reader import read_templates
from hub4eval.model import TemplateSet
from hub4eval.scoring.pipeline import score
from hub4eval.util.forked import can_fork
from tests.support.children import recording_beside

ASR = Path(__file__).resolve().parents[2] / "examples" / "asr"


def _example() -> tuple[Any, Any, Any, Any]:
    """examples/asr: its reference and hypothesis templettes, its reference text and its
    unsegmented hypothesis text."""
    ref, hyp = read_templates(ASR / "ref.tpl"), read_templates(ASR / "hyp.tpl", role="hypothesis")
    return ref, hyp, read_corpus(ASR / "reference.sgml"), read_corpus(ASR / "asr_unsegmented.sgml")


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: the projection runs in the caller")
@pytest.mark.parametrize(("jobs", "counting", "children"), [(2, 0, 1), (3, 0, 2), (4, 0, 2), (2, 1, 0), (3, 1, 1)])
def test_the_projection_made_in_children_is_the_one_of_one_process(monkeypatch, jobs, counting, children):
    # a child for each core that neither the caller nor a child counting sclite's alignment takes,
    # each projecting the runs of the instance sets it takes (the example has two sets: a run
    # each at least); none, the caller projects them all: the same result every time
    ref, hyp, ref_text, hyp_text = _example()
    alone = score(ref, hyp, ref_corpus=ref_text, hyp_corpus=hyp_text, jobs=1)
    started = []
    monkeypatch.setattr(aligned_texts.AlignedTexts, "counting", lambda self: counting)
    Recording = recording_beside(
        lambda function, *_, **kwargs: started.append((function.__name__, kwargs.get("forked", True)))
    )
    monkeypatch.setattr(forked, "Beside", Recording)
    monkeypatch.setattr(aligned_texts, "Beside", Recording)
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", 0)
    beside = score(ref, hyp, ref_corpus=ref_text, hyp_corpus=hyp_text, jobs=jobs)
    assert started.count(("_take_all_pickled", True)) == children
    assert alone.ceiling is not None and beside.ceiling is not None
    assert beside.ceiling.projection == alone.ceiling.projection
    assert beside.ceiling.to_json() == alone.ceiling.to_json()
    assert beside.to_json() == alone.to_json()


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: the projection runs in the caller")
def test_the_child_finds_the_fills_this_process_maps_already_prepared(monkeypatch):
    # the judge prepares every reference fill and normalizes the strings the system's
    # templettes repeat: made before the child is forked, it inherits them
    from hub4eval.config import ScoreConfig
    from hub4eval.model import TextFill

    ref, hyp, ref_text, hyp_text = _example()
    at_fork = []

    def note(function, *args, **kwargs):
        if function.__name__ == "_take_all_pickled":  # a child taking runs to project (hub4eval.util.forked.Shared)
            mapper = args[1].args[3].mapper  # the judge's, given to each run's projection
            prepared = dict(mapper.ref_prep._prepared or {})
            at_fork.append((prepared, set(mapper.hyp_prep._texts.under)))

    monkeypatch.setattr(forked, "Beside", recording_beside(note))
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", 0)
    monkeypatch.setattr(aligned_texts.AlignedTexts, "counting", lambda self: 0)  # sclite's child done
    score(ref, hyp, ref_corpus=ref_text, hyp_corpus=hyp_text, jobs=3)
    assert len(at_fork) == 2  # a child for each of the two cores the caller leaves
    prepared, strings = at_fork[0]
    scored = [
        (fill, inst.docid)
        for inst in ref.instances
        for slot in inst.slots
        if slot.name not in ScoreConfig().unscored_slots
        for alternative in slot.alternatives
        for fill in alternative.fills
        if type(fill) is TextFill
    ]
    assert scored and all(id(fill) in prepared.get(docid, {}) for fill, docid in scored)  # per DOCID, by id()
    hyp_fills = [f for i in hyp.instances for s in i.slots for a in s.alternatives for f in a.fills]
    assert {f.content for f in hyp_fills if type(f) is TextFill} <= strings


def test_many_jobs_share_out_no_more_runs_than_can_be_shared(monkeypatch):
    # far more jobs than runs can be numbered: the runs are still shared out, not all made here
    from hub4eval.scoring import ceiling_runs

    ref = read_templates(ASR / "ref.tpl")
    many = TemplateSet(ref.instance_sets * 200, role=ref.role)  # more sets than runs can be shared
    shared = []

    class Recording(forked.Shared):  # type: ignore[misc]
        def __init__(self, function, count, children, **kwargs):
            shared.append((count, children, kwargs))
            super().__init__(function, count, children, forked=False)

    monkeypatch.setattr(forked, "Shared", Recording)
    ceiling_runs.ProjectionRuns(many, None, None, None, 1000)
    assert shared == [(forked.MOST_SHARED, 1000, {"forked": True})]


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: the aligning is done in the caller")
def test_sclites_child_starts_after_the_strings_are_normalized_and_before_the_alignment_is_awaited(monkeypatch):
    # an unsegmented hypothesis: the weighted alignment's child first; sclite's, whose counts are
    # asked for last, once this process has normalized the templettes' strings (not three
    # processes on two cores), and before it waits for the alignment (not after: then it would
    # count alone at the end)
    from hub4eval.scoring.fills import FillPreparer

    ref, hyp, ref_text, hyp_text = _example()
    events = []

    def normalizing(self, strings):
        events.append("normalize")
        return normalize(self, strings)

    def awaited(*args):
        events.append("alignment awaited")
        return corpus_of(*args)

    normalize, corpus_of = FillPreparer.normalize, aligned_texts._corpus_of
    monkeypatch.setattr(
        aligned_texts, "Beside", recording_beside(lambda function, *_, **__: events.append(function.__name__))
    )
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", 0)
    monkeypatch.setattr(FillPreparer, "normalize", normalizing)
    monkeypatch.setattr(aligned_texts, "_corpus_of", awaited)
    result = score(ref, hyp, ref_corpus=ref_text, hyp_corpus=hyp_text, jobs=2)
    assert events[:4] == ["_weighted_ids", "normalize", "_sclite_all", "alignment awaited"]
    assert result.to_json() == score(ref, hyp, ref_corpus=ref_text, hyp_corpus=hyp_text, jobs=1).to_json()


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: the hypothesis is tokenized in the caller")
def test_a_segmented_score_normalizes_the_strings_once_the_runs_children_are_forked(monkeypatch):
    # a segmented hypothesis: the caller aligns half the documents itself, and normalizes the
    # strings once the children aligning the other runs are forked (which then do not hold
    # them), whether the child tokenizing the hypothesis was still at it or not: once either
    # way, and the same result
    from hub4eval.scoring.fills import FillPreparer

    ref, _, ref_text, _ = _example()
    hyp = read_templates(ASR / "ref.tpl", role="hypothesis")  # (its extents are the reference text's)
    hyp_text = read_corpus(ASR / "asr_segmented.sgml")
    normalize = FillPreparer.normalize
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", 0)
    results, orders = [], []
    for still_tokenizing in (True, False):
        events: list[str] = []

        class Tokenizing(forked.Beside):  # type: ignore[type-arg]
            @property
            def running(self, still: bool = still_tokenizing) -> bool:
                return still

        def normalizing(self, strings, events=events):
            events.append("normalize")
            return normalize(self, strings)

        monkeypatch.setattr(forked, "Beside", Tokenizing)
        monkeypatch.setattr(
            aligned_texts, "Beside", recording_beside(lambda f, *_, events=events, **__: events.append(f.__name__))
        )
        monkeypatch.setattr(FillPreparer, "normalize", normalizing)
        results.append(score(ref, hyp, ref_corpus=ref_text, hyp_corpus=hyp_text, jobs=2, force=True).to_json())
        orders.append(events)
    for events in orders:
        assert "normalize" not in events[: events.index("weighted_alignments")]  # after the fork
        assert events.count("normalize") == 1
    assert results[0] == results[1] == score(ref, hyp, ref_corpus=ref_text, hyp_corpus=hyp_text, force=True).to_json()


def test_no_child_projects_when_the_texts_were_not_aligned_in_processes():
    from hub4eval.scoring.pipeline import _projecting_children
    from hub4eval.text.aligned_texts import AlignedTexts

    assert _projecting_children(4, None) == 0  # (the texts were not aligned here)
    assert _projecting_children(4, AlignedTexts(None, lambda: None, forked=False)) == 0  # short texts
    assert _projecting_children(4, AlignedTexts(None, lambda: None, forked=True)) == 3
    assert _projecting_children(1, AlignedTexts(None, lambda: None, forked=True)) == 0


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: the projection runs in the caller")
@pytest.mark.parametrize(
    ("jobs", "done_by_then", "children", "later"), [(2, True, 1, True), (2, False, 0, True), (3, True, 1, False)]
)
def test_a_core_freed_while_the_system_is_mapped_gets_a_child_that_projects(
    monkeypatch, jobs, done_by_then, children, later
):
    # sclite's child still counts when the projection would start, and takes the one core left:
    # the children are decided again once the system's templettes are mapped (a child then for
    # each core free); with a core free at the start, they start then, as they are. The same
    # result every time
    from hub4eval.scoring.mapping import Mapper

    ref, hyp, ref_text, hyp_text = _example()
    alone = score(ref, hyp, ref_corpus=ref_text, hyp_corpus=hyp_text, jobs=1)
    events: list[str] = []
    mapped = Mapper.match_template_sets

    def mapping(self, *args, **kwargs):
        events.append("system mapped")  # (first: the system's; the ceiling's comes last)
        return mapped(self, *args, **kwargs)

    monkeypatch.setattr(Mapper, "match_template_sets", mapping)
    # one child counting until the system is mapped, then none (or still one)
    monkeypatch.setattr(
        aligned_texts.AlignedTexts,
        "counting",
        lambda self: 0 if done_by_then and "system mapped" in events else 1,
    )
    Recording = recording_beside(lambda function, *_, **__: events.append(function.__name__))
    monkeypatch.setattr(forked, "Beside", Recording)
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", 0)
    beside = score(ref, hyp, ref_corpus=ref_text, hyp_corpus=hyp_text, jobs=jobs)
    projecting = [k for k, event in enumerate(events) if event == "_take_all_pickled"]
    assert len(projecting) == children
    assert all((k > events.index("system mapped")) == later for k in projecting)
    assert beside.ceiling is not None and alone.ceiling is not None
    assert beside.to_json() == alone.to_json()


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: the projection runs in the caller")
@pytest.mark.parametrize(("form", "counts_only", "prepared"), [
    ("unsegmented", True, True),  # the children's judge reads the prepared fills the mapping made too
    ("segmented", False, True),  # the system's mapping of match records prepares them anyway
    ("segmented", True, False),  # its counts read fill tables: prepared for the children only, so not
])  # fmt: skip
def test_the_reference_fills_are_prepared_before_the_children_fork_only_where_the_mapping_needs_them(
    monkeypatch, form, counts_only, prepared
):
    import hub4eval.scoring.pipeline as pipeline
    from hub4eval.scoring.mapping import Mapper

    ref, hyp, ref_text, hyp_text = _example()
    if form == "segmented":
        hyp = read_templates(ASR / "ref.tpl", role="hypothesis")  # (its extents are the reference text's)
        hyp_text = read_corpus(ASR / "asr_segmented.sgml")
    events: list[str] = []
    preparing, counting, matching = pipeline._prepare_fills, Mapper.count_template_sets, Mapper.match_template_sets

    def prepare(*args, **kwargs):
        events.append("prepared")
        return preparing(*args, **kwargs)

    monkeypatch.setattr(pipeline, "_prepare_fills", prepare)
    monkeypatch.setattr(
        Mapper, "count_template_sets", lambda self, *a, **k: events.append("mapped") or counting(self, *a, **k)
    )
    monkeypatch.setattr(
        Mapper, "match_template_sets", lambda self, *a, **k: events.append("mapped") or matching(self, *a, **k)
    )
    monkeypatch.setattr(aligned_texts.AlignedTexts, "counting", lambda self: 0)  # (a child projects from the start)
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", 0)
    score(ref, hyp, ref_corpus=ref_text, hyp_corpus=hyp_text, jobs=2, counts_only=counts_only, force=True)
    assert ("prepared" in events[: events.index("mapped")]) == prepared
