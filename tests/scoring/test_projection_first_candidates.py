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

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub4eval.api import score_files
from hub4eval.config import ScoreConfig
from hub4eval.io.corpus import read_corpus
from hub4eval.io.templettes import parse_templates
from hub4eval.scoring import projection
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


def test_a_system_that_is_its_own_projection_reaches_the_spellings_route() -> None:
    # the test above reaches the route it guards: fills ruled out from their letters
    from hub4eval.scoring import run_spellings

    calls: list[int] = []
    read = run_spellings.RunSpellings.first_only

    def counted(self: object, *args: object) -> list[bool]:
        out = read(self, *args)  # type: ignore[arg-type]
        calls.append(len(out))
        return out

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(run_spellings.RunSpellings, "first_only", counted)
        for name in sorted(TEXTS):
            ref_text = (EXAMPLES / TEXTS[name][0]).with_name("ref.tpl").read_text(encoding="utf-8")
            first = with_ceiling(name, ref_text, ScoreConfig())
            assert first.ceiling is not None and first.ceiling.projection is not None
            with_ceiling(name, ref_text, ScoreConfig(), hyp=first.ceiling.projection)
    assert sum(calls) > 0


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
