"""The strings :mod:`hub4eval.scoring.pipeline` normalizes all at once before the mappings.

``pipeline._strings`` reads the text fills of several template sets in one walk; the
oracle is the definition, set after set: each text fill of a scored slot
(:meth:`~hub4eval.model.TemplateSet.text_fills`), its content and, when its minimal
strings are not the content itself, those strings, in file order. The sets are random
reference templettes over the shipped examples' texts (minimal strings in brackets,
second alternatives, optional slots, unscored ``OBJ_STATUS``).

A score that wants only the ceiling's projection (``count_wer=False``, as
:func:`hub4eval.api.project_files` asks) does not count sclite's alignment of the
texts, and has the projection of a full score.
"""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.config import ScoreConfig
from hub4eval.io.templettes import parse_templates
from hub4eval.model import FillAlternative, Instance, InstanceSet, Slot, TemplateSet, TextFill
from hub4eval.scoring.pipeline import _strings
from hub4eval.util.records import replace
from tests.support.children import started_children
from tests.support.reference_fills import references


@settings(max_examples=60, deadline=None, derandomize=True)
@given(texts=st.lists(references("asr"), min_size=1, max_size=3), scored=st.booleans())
def test_the_strings_of_several_sets_are_those_of_each_set_in_turn(texts: list[str], scored: bool) -> None:
    config = ScoreConfig()
    if not scored:  # an unscored slot's fills are not normalized
        config = dataclasses.replace(config, unscored_slots=(*config.unscored_slots, "LOSER"))
    tsets = [parse_templates(text, role="reference") for text in texts]
    expected = []
    for tset in tsets:
        for _, fill in tset.text_fills(frozenset(config.unscored_slots)):
            expected.append(fill.content)
            if fill.minimal_spans != ((0, len(fill.content)),):
                expected.extend(fill.minimal_strings)
    assert _strings(tsets, config) == expected


def _usual_lines(text: str) -> str:
    """A reference templette of ``references`` with the lines the reader does not make a usual
    line at a time (second alternatives, ``OBJ_STATUS``) left out and brackets removed."""
    lines = [line for line in text.split("\n") if not line.lstrip().startswith("/") and "OBJ_STATUS" not in line]
    return "\n".join(lines).replace("[", "").replace("]", "")


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    texts=st.lists(references("asr").map(_usual_lines), min_size=1, max_size=3), unscored=st.sampled_from(["", "LOSER"])
)
def test_the_strings_of_sets_the_reader_listed_are_those_of_the_walk(texts: list[str], unscored: str) -> None:
    """Sets whose every text fill the reader listed (``TemplateSet.usual_fills``: a usual line
    each) give the strings of the walk over their instances (a copy without the list, and the
    definition), whether every slot is scored (the list read) or not (the walk)."""
    config = ScoreConfig()
    if unscored:
        config = dataclasses.replace(config, unscored_slots=(*config.unscored_slots, unscored))
    tsets = [parse_templates(text, role="reference") for text in texts]
    assert all(tset.usual_fills() is not None for tset in tsets)
    walked = [replace(tset) for tset in tsets]  # a copy: without the reader's list
    assert all(tset.usual_fills() is None for tset in walked)
    expected = [fill.content for tset in tsets for _, fill in tset.text_fills(frozenset(config.unscored_slots))]
    assert _strings(tsets, config) == _strings(walked, config) == expected
    # listed sets beside sets without the list: all walked (none of the sets' fills left out)
    for mixed in ([tsets[0], *walked[1:]], [walked[0], *tsets[1:]]):
        assert _strings(mixed, config) == expected


def test_a_fill_made_by_hand_is_read_by_its_spans_not_by_the_reader_s_shared_span() -> None:
    """The reader's usual fill shares its whole span (one tuple per length), which _strings
    recognizes by identity; a fill made by hand has a span of its own, read as it is: whole,
    its content alone; not whole, its content and its minimal strings."""
    fills = [
        TextFill("red wings", ((0, 9),)),  # whole, not the reader's tuple: the content once
        TextFill("the red wings", ((4, 13),), bracketed=True),
        TextFill("a b", ((0, 1), (2, 3)), bracketed=True),
        TextFill("xy", ((0, 2),), bracketed=True),  # a whole bracketed string: its content once
    ]
    slots = tuple(Slot("WINNER", (FillAlternative((fill,)),)) for fill in fills)
    tset = TemplateSet((InstanceSet("d1", (Instance("ENTITY", "d1", 1, slots),)),))
    assert _strings([tset], ScoreConfig()) == ["red wings", "the red wings", "red wings", "a b", "a", "b", "xy"]


def test_a_projection_alone_counts_no_wer_and_is_the_ceilings_projection(monkeypatch) -> None:
    from pathlib import Path

    import hub4eval.text.wer as wer
    from hub4eval.api import project_files
    from hub4eval.io.corpus import read_corpus
    from hub4eval.io.templettes.reader import read_templates
    from hub4eval.scoring.pipeline import score

    asr = Path(__file__).resolve().parents[2] / "examples" / "asr"
    ref, hyp = read_templates(asr / "ref.tpl"), read_templates(asr / "hyp.tpl", role="hypothesis")
    texts = {"ref_corpus": read_corpus(asr / "reference.sgml"), "hyp_corpus": read_corpus(asr / "asr_unsegmented.sgml")}
    full = score(ref, hyp, **texts)
    assert full.wer is not None and full.ceiling is not None and full.ceiling.wer == full.wer

    def counted(*args, **kwargs):
        raise AssertionError("sclite's alignment counted")

    monkeypatch.setattr(wer, "corpus_wer_summary", counted)
    monkeypatch.setattr(wer, "corpus_wer", counted)
    alone = score(ref, hyp, **texts, count_wer=False)
    assert alone.wer is None and alone.ceiling is not None and alone.ceiling.wer is None
    assert alone.ceiling.projection == full.ceiling.projection
    assert alone.tally == full.tally and alone.matches == full.matches
    projected = project_files(asr / "ref.tpl", ref_text=asr / "reference.sgml", hyp_text=asr / "asr_unsegmented.sgml")
    assert projected.instance_sets == full.ceiling.projection.instance_sets
    # in processes, no child counts it either
    import hub4eval.text.aligned_texts as aligned_texts

    started = started_children(monkeypatch, aligned_texts)
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", 0)
    beside = score(ref, hyp, **texts, count_wer=False, jobs=2)
    assert started and not any(name.startswith("_sclite") for name in started)
    assert beside.wer is None and beside.ceiling is not None and beside.ceiling.wer is None
    assert beside.ceiling.projection == full.ceiling.projection and beside.tally == full.tally
    # a segmented hypothesis text (its documents aligned in runs), projected as `project` does
    started.clear()
    segmented = {**texts, "hyp_corpus": read_corpus(asr / "asr_segmented.sgml")}
    empty = TemplateSet((), role="hypothesis")
    projected = score(ref, empty, **segmented, ceiling=True, count_wer=False, jobs=2)
    assert started and not any(name.startswith("_sclite") for name in started)
    monkeypatch.undo()
    assert projected.ceiling is not None and projected.ceiling.wer is None
    alone = score(ref, empty, **segmented, ceiling=True)
    assert alone.ceiling is not None and projected.ceiling.projection == alone.ceiling.projection


def test_a_ceiling_asked_without_aligned_texts_has_the_scores_wer() -> None:
    from pathlib import Path

    from hub4eval.io.templettes.reader import read_templates
    from hub4eval.scoring.pipeline import score

    asr = Path(__file__).resolve().parents[2] / "examples" / "asr"
    ref, hyp = read_templates(asr / "ref.tpl"), read_templates(asr / "hyp.tpl", role="hypothesis")
    result = score(ref, hyp, ceiling=True)  # no texts: nothing to count a WER of
    assert result.wer is None and result.ceiling is not None and result.ceiling.wer is None


def test_a_ceiling_asked_of_a_count_without_texts_is_made() -> None:
    """A score that keeps only counts, with no texts, returns early from its count unless a
    ceiling is asked: then the ceiling is made, with the counts of the full score."""
    from pathlib import Path

    from hub4eval.io.templettes.reader import read_templates
    from hub4eval.scoring.pipeline import score

    asr = Path(__file__).resolve().parents[2] / "examples" / "asr"
    ref, hyp = read_templates(asr / "ref.tpl"), read_templates(asr / "hyp.tpl", role="hypothesis")
    counted, full = score(ref, hyp, ceiling=True, counts_only=True), score(ref, hyp, ceiling=True)
    assert counted.ceiling is not None and full.ceiling is not None
    assert counted.ceiling.total == full.ceiling.total and counted.total == full.total
