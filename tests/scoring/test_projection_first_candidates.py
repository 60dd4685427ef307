"""The projection decided from the first candidates of all fills found at once agrees with the per-fill route.

:func:`hub4eval.scoring.projection.project` finds the columns, the hypothesis
tokens and the spans of every fill's first candidate in one pass
(``projection._Batch``), keeps that candidate where it is all correct or where
no later candidate's content can be correct, and sends every other fill through
:meth:`~hub4eval.scoring.projection._Projector.fill`, which tries the candidates
one by one (and which ``test_projection_judge.py`` checks against ranking every
candidate in full). The oracle here is that per-fill route for every fill
(``_Projector.batched`` False): random reference fills over the recognizer
output of the shipped examples, under the comparison options that change a
verdict, with a judge (the ceiling) and without one, must project alike, and
the ceiling must count alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub4eval.api import score_files
from hub4eval.config import ScoreConfig
from hub4eval.io.corpus import read_corpus
from hub4eval.io.templettes import parse_templates
from hub4eval.model import Extent, TemplateSet, TextFill
from hub4eval.scoring import pipeline, projection, run_spellings
from hub4eval.scoring.result import ScoreResult
from tests.support.reference_fills import EXAMPLES, TEXTS, references, with_ceiling

CONFIGS = {
    "default": ScoreConfig(),
    "clean": ScoreConfig(content="clean"),
    "content": ScoreConfig(compare="content"),
    "extent": ScoreConfig(compare="extent"),
    "no spoken forms": ScoreConfig(spoken_forms="none"),
    "punctuation kept": ScoreConfig(keep_punctuation=True),
}


def _one_by_one(patched: pytest.MonkeyPatch) -> None:
    patched.setattr(projection._Projector, "batched", False)


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("name", sorted(TEXTS))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data())
def test_the_ceiling_projects_as_fill_by_fill(name: str, config: str, data: st.DataObject) -> None:
    ref_text = data.draw(references(name))
    batched = with_ceiling(name, ref_text, CONFIGS[config])
    with pytest.MonkeyPatch.context() as patched:
        _one_by_one(patched)
        alone = with_ceiling(name, ref_text, CONFIGS[config])
    assert batched.ceiling is not None and alone.ceiling is not None
    assert batched.ceiling.projection == alone.ceiling.projection
    assert batched.ceiling.to_json() == alone.ceiling.to_json()


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("name", sorted(TEXTS))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data())
def test_the_ceiling_of_a_system_that_is_its_own_projection_projects_as_fill_by_fill(
    name: str, config: str, data: st.DataObject
) -> None:
    # Scored against the projection itself, every first candidate's string is normalized
    # (as the system's) before the batch begins: the batch then decides its fills from the
    # memo, one-COR-point fills through RunSpellings and _only_first, as on large texts,
    # rather than leaving them to their turn as it does against an empty hypothesis.
    ref_text = data.draw(references(name))
    with pytest.MonkeyPatch.context() as patched:
        _one_by_one(patched)
        first = with_ceiling(name, ref_text, CONFIGS[config])
        assert first.ceiling is not None and first.ceiling.projection is not None
        system = first.ceiling.projection
        alone = with_ceiling(name, ref_text, CONFIGS[config], hyp=system)
    batched = with_ceiling(name, ref_text, CONFIGS[config], hyp=system)
    assert batched.ceiling is not None and alone.ceiling is not None
    assert batched.ceiling.projection == alone.ceiling.projection
    assert batched.ceiling.to_json() == alone.ceiling.to_json()
    assert batched.to_json() == alone.to_json()


def _with_ceiling(ref: TemplateSet, hyp: TemplateSet, ref_path: Path, hyp_path: Path, **options: Any) -> ScoreResult:
    """``ref`` and ``hyp`` scored on the texts at ``ref_path`` and ``hyp_path`` (default
    options), the ceiling made."""
    return pipeline.score(
        ref,
        hyp,
        ref_corpus=read_corpus(ref_path),
        hyp_corpus=read_corpus(hyp_path),
        config=ScoreConfig(),
        ceiling=True,
        **options,
    )


@contextmanager
def _later_of_counted() -> Iterator[list[int]]:
    """While it is open, the batch numbers of the fills _Projector._later_of is called for."""
    calls: list[int] = []
    later_of = projection._Projector._later_of

    def counted(self: projection._Projector, number: int, *args: object) -> object:
        calls.append(number)
        return later_of(self, number, *args)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(projection._Projector, "_later_of", counted)
        yield calls


def _project_the_examples_and_their_projections() -> None:
    """Each example's reference projected onto its hypothesis text, then the projection scored
    with its own ceiling (a system that is its reference's projection): the routes the tests
    below count calls of."""
    for name in sorted(TEXTS):
        ref_text = (EXAMPLES / TEXTS[name][0]).with_name("ref.tpl").read_text(encoding="utf-8")
        first = with_ceiling(name, ref_text, ScoreConfig())
        assert first.ceiling is not None and first.ceiling.projection is not None
        with_ceiling(name, ref_text, ScoreConfig(), hyp=first.ceiling.projection)


def _sizes_while_projecting(owner: type, name: str, size: Callable[[Any, tuple[Any, ...], Any], int]) -> list[int]:
    """The examples projected (:func:`_project_the_examples_and_their_projections`) with the method
    ``name`` of ``owner`` watched: ``size(self, args, out)`` of each call (which may check it)."""
    sizes: list[int] = []
    method = getattr(owner, name)

    def watched(self: object, *args: object) -> object:
        out = method(self, *args)
        sizes.append(size(self, args, out))
        return out

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(owner, name, watched)
        _project_the_examples_and_their_projections()
    return sizes


def test_a_system_that_is_its_own_projection_reaches_the_spellings_route() -> None:
    # the test above reaches the route it guards: fills ruled out from their letters
    from hub4eval.scoring import run_spellings

    assert sum(_sizes_while_projecting(run_spellings.RunSpellings, "first_only", lambda _, __, out: len(out))) > 0


def test_the_tests_above_reach_the_later_candidates_of_fills_the_batch_judged() -> None:
    # the two property tests above reach the route they guard: a fill whose first candidate the
    # batch has judged (fewer than both points) and left to its later candidates, which are then
    # tried from its row (_Projector._later_of) rather than looked up again by fill()
    with _later_of_counted() as calls:
        _project_the_examples_and_their_projections()
    assert calls


@pytest.mark.parametrize("name", sorted(TEXTS))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data())
def test_a_projection_without_a_judge_is_that_of_fill_by_fill(name: str, data: st.DataObject) -> None:
    # without a judge, each fill is the tokens of its columns, and a slot its first alternative that survives
    ref_text = data.draw(references(name))
    alignment = with_ceiling(name, ref_text, ScoreConfig()).alignment
    ref = parse_templates(ref_text, role="reference")
    hyp_corpus = read_corpus(EXAMPLES / TEXTS[name][1])
    batched = projection.project(ref, alignment, hyp_corpus)
    with pytest.MonkeyPatch.context() as patched:
        _one_by_one(patched)
        alone = projection.project(ref, alignment, hyp_corpus)
    assert batched == alone


_NUMBERS = ("asr_numbers/ref.tpl", "asr_numbers/hyp.tpl", "asr_numbers/reference.sgml", "asr_numbers/asr.sgml")
_ASR = ("asr/ref.tpl", "asr/hyp.tpl", "asr/reference.sgml", "asr/asr_unsegmented.sgml")  # two sets


@pytest.mark.parametrize(("files", "at_once"), [(_NUMBERS, 1), (_NUMBERS, 2), (_NUMBERS, 4), (_ASR, 1)])
def test_first_candidates_found_a_few_sets_at_a_time_project_alike(
    files: tuple[str, str, str, str], at_once: int
) -> None:
    # project finds the first candidates of a part of the instance sets at a time (to bound its
    # memory): parts of one or two sets, each begun afresh, must project as the per-fill route
    ref, hyp, ref_text, hyp_text = (EXAMPLES / name for name in files)

    def scored() -> ScoreResult:
        return score_files(ref, hyp, ref_text=ref_text, hyp_text=hyp_text)

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(projection, "_SETS_AT_ONCE", at_once)
        parted = scored()
    with pytest.MonkeyPatch.context() as patched:
        _one_by_one(patched)
        alone = scored()
    assert parted.ceiling is not None and alone.ceiling is not None
    assert parted.ceiling.projection is not None and alone.ceiling.projection is not None
    assert len(parted.ceiling.projection.instance_sets) > at_once  # more than one part was projected
    assert parted.ceiling.projection == alone.ceiling.projection
    assert parted.ceiling.to_json() == alone.ceiling.to_json()


@pytest.mark.parametrize("config", ["default", "no spoken forms"])
@pytest.mark.parametrize("name", [*sorted(TEXTS), "asr, a hypothesis DOCID in lower case"])
def test_first_candidates_are_the_per_fill_lookups(name: str, config: str, tmp_path: Path) -> None:
    # Every run of one to three reference words of every line (and a fill past the last token of
    # each document): the batch's columns, tokens, spans and the spans' hypothesis columns must be
    # those the per-fill route looks up one by one (ref_extent, the tokens of the columns,
    # hyp_extent of the span, ref_enclosure). A word that the GLM or the spoken numbers split
    # gives its tokens the word's span: then the span's columns are not its end tokens' and are bisected (reached below), as
    # they are where a hypothesis document is paired by its DOCID in another case (hyp_extent of
    # the reference's DOCID finds no hypothesis document).
    from hub4eval.model import Extent, TemplateSet, TextFill
    from hub4eval.scoring.first_candidates import FirstCandidates
    from tests.support.reference_fills import _lines

    lower = name not in TEXTS
    if lower:
        name = "asr"
    ref_path, hyp_path = (EXAMPLES / path for path in TEXTS[name])
    if lower:
        text = hyp_path.read_text(encoding="utf-8")
        hyp_path = tmp_path / "hyp.sgml"
        assert "<DOCNO> ABC" in text
        hyp_path.write_text(text.replace("<DOCNO> ABC", "<DOCNO> abc", 1), encoding="utf-8")  # one of two
    ref = parse_templates(ref_path.with_name("ref.tpl").read_text(encoding="utf-8"), role="reference")
    alignment = pipeline.score(
        ref,
        TemplateSet((), role="hypothesis"),
        ref_corpus=read_corpus(ref_path),
        hyp_corpus=read_corpus(hyp_path),
        config=CONFIGS[config],
    ).alignment
    assert alignment is not None
    docids: list[str] = []
    fills: list[TextFill] = []
    for docid, text, spans in _lines(name):
        for i in range(len(spans)):
            for j in range(i, min(i + 3, len(spans))):
                extent = Extent(spans[i][0], spans[j][1])
                docids.append(docid)
                fills.append(TextFill(text[extent.start : extent.end], ((0, 1),), (extent,), (extent,)))
        docids.append(docid)
        fills.append(TextFill("x", ((0, 1),), (Extent(len(text) + 5, len(text) + 6),), ()))
    batch = FirstCandidates(alignment, docids, fills)
    projector = projection._Projector(alignment, None)
    shared = 0  # spans whose end tokens share characters with a neighbouring token
    for number, (docid, fill) in enumerate(zip(docids, fills, strict=True)):
        found, space, first, last, start, end, *rest = batch.row(number)
        column_first, column_last, wide_first, wide_last, hyp_found, hyp_first, hyp_last, wide_from, wide_to = rest
        columns = alignment.ref_extent(docid, fill.extents[0])
        number_space = alignment.column_space(docid, reference=True)
        assert found == (columns is not None and number_space is not None)
        if not found:
            continue
        assert (space, column_first, column_last) == (number_space, columns.start, columns.end)
        widened = alignment.ref_enclosure(docid, columns)
        assert (wide_first, wide_last) == (widened.start, widened.end)
        space_view = projector._space_at(space)
        tokens = projector._tokens(space_view, columns)
        wide = projector._tokens(space_view, widened)
        assert (wide_from, wide_to) == ((wide[0], wide[-1]) if wide else (wide_from, wide_from - 1))
        if not tokens:
            assert first > last
            continue
        assert (first, last) == (tokens[0], tokens[-1])
        starts, ends = space_view[1], space_view[2]
        assert (start, end) == (starts[first], ends[last])
        mapped = alignment.hyp_extent(docid, Extent(start, end))
        assert hyp_found == (mapped is not None)
        if mapped is not None:
            assert (hyp_first, hyp_last) == (mapped.start, mapped.end)
        shared += (first > 0 and ends[first - 1] > start) or (last + 1 < len(starts) and starts[last + 1] < end)
    if name == "asr_numbers" and config == "default":
        assert shared  # the bisected spans were reached
    if lower:
        assert alignment.hyp_extent(docids[0], Extent(0, 10**6)) is None  # (no hypothesis document of that DOCID)


def test_a_later_candidate_that_keeps_the_words_is_chosen_as_fill_by_fill(tmp_path: Path) -> None:
    # `y z` (one reference token, its letters joined: `yz`) heard as `y z- z`: the reference token
    # aligns with `y`, and the fragment `z-` and `z` are inserted after it. The first candidate,
    # `y`, has its extent right and its content wrong; the run widened over the fragment, `y z`
    # (a fragment's token ends before its hyphen), keeps `yz` and has both points: it is the
    # projection. The batch must not rule it out (RunSpellings or _only_first ruling out every
    # later candidate keeps `y`). The system's fill is the first candidate, so that its string is
    # normalized before the batch begins, which then decides it at once, as on large texts.
    def corpus(name: str, words: str) -> Path:
        path = tmp_path / name
        path.write_text(f"<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\nwe saw us {words} kgoil today\n</TEXT>\n</DOC>\n")
        return path

    ref_path, hyp_path = corpus("ref.sgml", "y z"), corpus("hyp.sgml", "y z- z")
    start = ref_path.read_text().index("y z")
    ref = parse_templates(f'<EVENT-D1-1> :=\n    TEAM: "y z" ##{start}#{start + 3}#\n', role="reference")
    start = hyp_path.read_text().index("y z")
    hyp = parse_templates(f'<EVENT-D1-1> :=\n    TEAM: "y" ##{start}#{start + 1}#\n', role="hypothesis")
    asked: list[list[bool]] = []
    read = run_spellings.RunSpellings.first_only

    def counted(self: object, *args: object) -> list[bool]:
        out = read(self, *args)  # type: ignore[arg-type]
        asked.append(out)
        return out

    def projected() -> str:
        result = _with_ceiling(ref, hyp, ref_path, hyp_path)
        assert result.ceiling is not None and result.ceiling.projection is not None
        [fill] = result.ceiling.projection.instance_sets[0].instances[0].slots[0].alternatives[0].fills
        assert isinstance(fill, projection.TextFill)
        return fill.content

    with pytest.MonkeyPatch.context() as patched:
        _one_by_one(patched)
        assert projected() == "y z"
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(run_spellings.RunSpellings, "first_only", counted)
        assert projected() == "y z"
    assert asked == [[False]]  # (the batch's route was taken)


def _texts(tmp_path: Path, ref_words: str, hyp_words: str) -> tuple[Path, Path]:
    """A reference and a hypothesis text of one document, D1, of these words."""
    paths = []
    for name, words in (("ref.sgml", ref_words), ("hyp.sgml", hyp_words)):
        path = tmp_path / name
        path.write_text(f"<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\n{words}\n</TEXT>\n</DOC>\n", encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def test_fills_of_documents_no_column_space_holds_have_no_first_candidate(tmp_path: Path) -> None:
    # Fills of DOCIDs that no document of the alignment holds (none of the batch's fills in a
    # column space: no column, no token to read) are each outside every space, with no token
    # and no candidate, as the per-fill route finds none (ref_extent and column_space None).
    from hub4eval.model import Extent, TemplateSet, TextFill
    from hub4eval.scoring.first_candidates import FirstCandidates

    ref_path, hyp_path = _texts(tmp_path, "the red wings won", "the red wings one")
    alignment = pipeline.score(
        parse_templates("", role="reference"),
        TemplateSet((), role="hypothesis"),
        ref_corpus=read_corpus(ref_path),
        hyp_corpus=read_corpus(hyp_path),
        config=ScoreConfig(),
    ).alignment
    assert alignment is not None
    fills = [TextFill("red", ((0, 3),), (Extent(start, start + 3),), ()) for start in (0, 4, 40)]
    docids = ["D2", "D3", "D2"]
    batch = FirstCandidates(alignment, docids, fills)
    assert not batch.arrays[0].any()  # not found in a column space
    for number, (docid, fill) in enumerate(zip(docids, fills, strict=True)):
        found, space, first, last, *_ = batch.row(number)
        assert (found, space) == (False, -1)
        assert first > last  # no hypothesis token
        assert alignment.ref_extent(docid, fill.extents[0]) is None
        assert projection._Projector(alignment, read_corpus(hyp_path)).fill(docid, fill) is None


@pytest.mark.parametrize("hyp_words", ["", "<UNK>"])
def test_a_hypothesis_document_without_a_token_projects_as_fill_by_fill(tmp_path: Path, hyp_words: str) -> None:
    # A hypothesis document without a token (empty, or only a tag the tokenizer drops): every
    # reference token is deleted, so the batch's column spaces hold columns but no hypothesis
    # token. Each fill is found in its columns with no token there (its first candidate none),
    # and the projection, with a judge and without, is the per-fill route's: no fill.
    from hub4eval.model import TemplateSet
    from hub4eval.scoring.first_candidates import FirstCandidates

    ref_path, hyp_path = _texts(tmp_path, "we saw the red wings win today", hyp_words)
    text = ref_path.read_text(encoding="utf-8")
    slots = [
        ("WINNER", text.index("red wings"), len("red wings")),
        ("PLACE", text.index("today"), len("today")),
        ("LOSER", text.index("we saw"), len("we saw")),
    ]
    ref_text = "<EVENT-D1-1> :=\n" + "".join(
        f'    {slot}: "{text[start : start + size]}" ##{start}#{start + size}#\n' for slot, start, size in slots
    )
    ref = parse_templates(ref_text, role="reference")

    def scored() -> ScoreResult:
        return _with_ceiling(ref, TemplateSet((), role="hypothesis"), ref_path, hyp_path)

    batched = scored()
    with pytest.MonkeyPatch.context() as patched:
        _one_by_one(patched)
        alone = scored()
    assert batched.ceiling is not None and alone.ceiling is not None
    assert batched.ceiling.projection == alone.ceiling.projection
    assert batched.ceiling.to_json() == alone.ceiling.to_json()
    alignment = batched.alignment
    assert alignment is not None
    assert not alignment.documents[0].hyp_tokens  # (the case: no hypothesis token)
    fills = [fill for _, fill in ref.text_fills()]
    batch = FirstCandidates(alignment, ["D1"] * len(fills), fills)
    for number in range(len(fills)):
        found, space, first, last, start, end, *_ = batch.row(number)
        assert (found, space) == (True, 0)  # in the columns of the one document
        assert first > last and (start, end) == (0, 0)  # no token: no first candidate
    assert projection.project(ref, alignment, read_corpus(hyp_path)).instance_sets[0].instances[0].slots == ()


_LONG = "y z- z " + " ".join(f"a{letter}" for letter in "bcdefghijklm")  # 15 tokens: a long fill (12 or more)


def _batched_then_alone(scored: Callable[[], ScoreResult]) -> tuple[ScoreResult, ScoreResult, list[int]]:
    """``scored()`` projected in batches (with the batch numbers _later_of was called for), then
    one fill at a time (the oracle)."""
    with _later_of_counted() as later:
        batched = scored()
    with pytest.MonkeyPatch.context() as patched:
        _one_by_one(patched)
        alone = scored()
    return batched, alone, later


@pytest.mark.parametrize(
    ("hyp_words", "system"),
    [
        ("y z- z", None),  # no system fill: the first candidate's string is not normalized (_decided_one)
        ("y z- z", "y"),  # the system's fill the first candidate: decided at once, _only_first asked
        (_LONG, "y"),  # decided at once, a long fill: left to fill() without asking
    ],
    ids=["in its turn", "at once", "at once, a long fill"],
)
def test_a_first_candidate_with_only_its_extent_correct_ties_a_later_one_with_only_its_content(
    tmp_path: Path, hyp_words: str, system: str | None
) -> None:
    # Named entities (extents exact): `y z` (one reference token, its letters joined) heard as
    # `y z- z`, with inserted words after it in the long fill. The first candidate, `y`, has its
    # extent right (the reference token's one column) and its content wrong: one point of two,
    # not kept at once, since a later candidate's content may be correct. `y z` keeps the words
    # but spans the inserted columns: its extent is wrong, one point too, and does not beat the
    # first (the first of equals). The batch must hand fill() the first candidate's COR count with
    # its extent point (_decided_one, _decide_all after _only_first, and for a long fill):
    # counted 0, `y z` beats it, or the fill is left out.
    from hub4eval.model import TemplateSet
    from hub4eval.scoring.entities import EntityMapper

    ref_path, hyp_path = _texts(tmp_path, "we saw us y z kgoil today", f"we saw us {hyp_words} kgoil today")
    start = ref_path.read_text(encoding="utf-8").index("y z")
    ref = parse_templates(
        f'<ENAMEX-D1-1> :=\n    TYPE: PERSON\n    TEXT: "y z" ##{start}#{start + 3}#\n', role="reference"
    )
    if system is None:
        hyp = TemplateSet((), role="hypothesis")
    else:
        start = hyp_path.read_text(encoding="utf-8").index("y z")
        hyp = parse_templates(
            f'<ENAMEX-D1-1> :=\n    TYPE: PERSON\n    TEXT: "{system}" ##{start}#{start + len(system)}#\n',
            role="hypothesis",
        )

    def scored() -> ScoreResult:
        return _with_ceiling(ref, hyp, ref_path, hyp_path, mapper_class=EntityMapper)

    batched, alone, later = _batched_then_alone(scored)
    assert batched.ceiling is not None and alone.ceiling is not None
    assert alone.ceiling.projection is not None
    [instance] = alone.ceiling.projection.instance_sets[0].instances
    texts = [
        fill.content
        for slot in instance.slots
        if slot.name == "TEXT"
        for alternative in slot.alternatives
        for fill in alternative.fills
    ]
    assert texts == ["y"]  # (the case: the first candidate kept, the tie)
    assert batched.ceiling.projection == alone.ceiling.projection
    assert batched.ceiling.to_json() == alone.ceiling.to_json()
    assert later == [0]  # (the batch's route was taken: its later candidates tried from its row)


def test_a_first_candidate_with_only_its_content_correct_loses_to_a_later_one_with_both(tmp_path: Path) -> None:
    # `gonna going to going to` heard for `going to going to`: the GLM splits `gonna` into
    # `going` and `to`, each with the word's span, and the two words after it are inserted at
    # the end. The reference fill spans `to going to` (its columns the first `to` to the last)
    # and its string is `gonna going to`, the first candidate's: its content is correct (its
    # string is the fill's, normalized alike, with no optional word), but its span `gonna`
    # touches the split `going` in the column before the fill's: its extent is not. The later
    # candidate `going to going to` (the fill's columns and the insertions after them) has both
    # points and beats it, so the batch must not keep the first candidate at once (counted 2
    # points for a correct content alone): it hands fill() its one point. The system's fill is
    # the first candidate, so that its string is normalized before the batch begins.
    ref_path, hyp_path = _texts(tmp_path, "we saw going to going to today", "we saw gonna going to going to today")
    start = ref_path.read_text(encoding="utf-8").index("to going to")
    ref = parse_templates(f'<EVENT-D1-1> :=\n    TEAM: "gonna going to" ##{start}#{start + 11}#\n', role="reference")
    start = hyp_path.read_text(encoding="utf-8").index("gonna going to")
    hyp = parse_templates(f'<EVENT-D1-1> :=\n    TEAM: "gonna going to" ##{start}#{start + 14}#\n', role="hypothesis")

    def scored() -> ScoreResult:
        return _with_ceiling(ref, hyp, ref_path, hyp_path)

    batched, alone, later = _batched_then_alone(scored)
    assert batched.ceiling is not None and alone.ceiling is not None
    assert alone.ceiling.projection is not None
    [fill] = alone.ceiling.projection.instance_sets[0].instances[0].slots[0].alternatives[0].fills
    assert isinstance(fill, TextFill)
    assert fill.content == "going to going to"  # (the case: a later candidate beats the first)
    assert batched.ceiling.projection == alone.ceiling.projection
    assert batched.ceiling.to_json() == alone.ceiling.to_json()
    assert later == [0]  # (the batch's route was taken: its later candidates tried from its row)


def _old_hyp_fill(content: str, start: int, end: int) -> TextFill:
    """The oracle: projection._hyp_fill as it was before it read whole_span's memo inline."""
    from hub4eval.io.templettes.checks import OFFSETS, whole_span

    if 0 <= start <= end < len(OFFSETS):
        start, end = OFFSETS[start], OFFSETS[end]
    extents = (Extent(start, end),)
    return TextFill(content, whole_span(len(content)), extents, extents, False, True)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    content=st.text(max_size=40),
    start=st.integers(0, 20_000),
    length=st.integers(0, 20_000),
    fresh=st.integers(10**6, 2 * 10**6),
)
def test_a_projected_fill_is_the_one_the_reader_builds(content: str, start: int, length: int, fresh: int) -> None:
    # the same record, its spans tuple the memo's one of its length and, below 10,000, its
    # offsets the shared int objects; also for a length whose spans are not remembered yet
    from hub4eval.io.templettes.checks import OFFSETS, WHOLE_SPANS

    for text in (content, "x" * fresh):
        WHOLE_SPANS.pop(fresh, None)
        end = start + length
        made, oracle = projection._hyp_fill(text, start, end), _old_hyp_fill(text, start, end)
        assert made == oracle
        assert made.minimal_spans is WHOLE_SPANS[len(text)] and made.minimal_extents is made.extents
        extent = made.extents[0]
        assert (extent.start, extent.end) == (start, end)
        if end < len(OFFSETS):
            assert extent.start is OFFSETS[start] and extent.end is OFFSETS[end]


def test_usual_known_reads_the_usual_words_of_the_normalized_strings_only() -> None:
    # Judge.usual_known, as _decide_all asks it (the fills whose first candidate is not their
    # own string): each fill's usual_words when its content string is normalized already,
    # else None, and no string normalized by it (the texts are numbered in the order they
    # are normalized)

    def checked(judge: projection.Judge, args: tuple[Any, ...], out: list[Any]) -> int:
        (ref_fills,) = args
        get = judge.mapper.ref_prep.lookups()[0]
        normalized = [get(fill.content) is not None for fill in ref_fills]
        assert out == [
            judge.usual_words(fill) if known else None for fill, known in zip(ref_fills, normalized, strict=True)
        ]
        return len(ref_fills)

    normalizing = projection.Judge.usual_known

    def before(judge: projection.Judge, ref_fills: Any) -> list[Any]:
        # nothing normalized by it: a string not normalized before is not after
        get = judge.mapper.ref_prep.lookups()[0]
        known = [get(fill.content) is not None for fill in ref_fills]
        out = normalizing(judge, ref_fills)
        assert [get(fill.content) is not None for fill in ref_fills] == known
        return out

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(projection.Judge, "usual_known", before)
        assert sum(_sizes_while_projecting(projection.Judge, "usual_known", checked)) > 0
