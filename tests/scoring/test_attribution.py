"""§11: causes of errors (recognition / extraction), the ceiling, entity WER."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hub4eval.api import score, score_files
from hub4eval.cli import app
from hub4eval.config import ScoreConfig
from hub4eval.io.corpus import parse_corpus, read_corpus
from hub4eval.io.templettes import parse_templates, write_templates
from hub4eval.model import TemplateSet
from hub4eval.report.explain import explain
from hub4eval.scoring.attribution import CAUSES, ERROR_CATEGORIES
from hub4eval.scoring.projection import project
from tests.support import ROOT
from tests.support.reference_fills import EXAMPLES, TEXTS, references

ASR = ROOT / "examples" / "asr"
ASR_TEXTS = ("--ref-text", str(ASR / "reference.sgml"), "--hyp-text", str(ASR / "asr_unsegmented.sgml"))

WORDS = "in tennis martina hingis beat conchita martinez in melbourne on sunday".split()


def _doc(words: list[str]) -> str:
    return "<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\n" + " ".join(words) + "\n</TEXT>\n</DOC>\n"


def _span(text: str, phrase: str) -> str:
    """``"phrase" ##start#end#`` of the phrase's first occurrence in the text (after the DOCNO)."""
    start = text.index(phrase, text.index("<TEXT>"))
    return f'"{phrase}" ##{start}#{start + len(phrase)}#'


def _templates(text: str, fills: dict[str, str]) -> str:
    lines = ["<EVENT-D1-1> :="] + [f"    {slot}: {_span(text, phrase)}" for slot, phrase in fills.items()]
    return "\n".join(lines) + "\n"


def _score(ref_words, hyp_words, ref_fills, hyp_fills, **kwargs):
    ref_text, hyp_text = _doc(ref_words), _doc(hyp_words)
    ref = parse_templates(_templates(ref_text, ref_fills), "ref.tpl", role="reference")
    hyp = parse_templates(_templates(hyp_text, hyp_fills), "hyp.tpl", role="hypothesis")
    return score(
        ref,
        hyp,
        ref_corpus=parse_corpus(ref_text, "ref.sgml"),
        hyp_corpus=parse_corpus(hyp_text, "hyp.sgml"),
        config=ScoreConfig(),
        **kwargs,
    )


def _errors(result):
    return [(p.slot, p.kind, p.category, p.cause) for p in result.points if p.category in ERROR_CATEGORIES]


REF_FILLS = {"WINNER": "martina hingis", "LOSER": "conchita martinez", "LOCATION": "melbourne"}


def test_same_words_every_error_is_extraction_and_the_ceiling_is_100():
    # punctuation and case make the texts differ (so they are aligned) while every word matches
    hyp_words = [w.capitalize() + "," for w in WORDS]
    result = _score(WORDS, hyp_words, REF_FILLS, {"WINNER": "Conchita,", "LOCATION": "Sunday,"})
    errors = _errors(result)
    assert errors and all(cause == "extraction" for *_, cause in errors)
    assert result.ceiling is not None
    assert result.ceiling.total.metrics()["F"] == 1.0
    assert result.ceiling_summary()["ceiling_F"] == 1.0


def test_same_texts_have_no_cause_and_a_full_ceiling_when_asked():
    result = _score(WORDS, WORDS, REF_FILLS, {"WINNER": "conchita"}, ceiling=True)
    assert result.alignment is None
    assert result.points  # not vacuous: COR, INC and MIS points
    assert all(p.cause is None for p in result.points)
    assert result.causes == {}
    assert result.ceiling.total.metrics()["F"] == 1.0


def test_fill_over_a_substituted_word_is_recognition_over_right_words_extraction():
    misheard = [w if w != "hingis" else "hinges" for w in WORDS]
    # WINNER over "martina hinges": the reference fill's word `hingis` was misheard
    bad = _score(WORDS, misheard, {"WINNER": "martina hingis"}, {"WINNER": "martina hinges"})
    assert ("WINNER", "content", "INC", "recognition") in _errors(bad)
    # the same hypothesis fill, but the recognizer heard every word right: the extractor's error
    good_words = list(WORDS)
    good = _score(
        WORDS,
        good_words[:2] + ["martina", "hinges"] + good_words[3:],
        {"WINNER": "martina"},
        {"WINNER": "martina hinges"},
    )
    # `martina` is recognized (an inserted `hinges` lies outside the reference fill)
    assert [e for e in _errors(good) if e[0] == "WINNER"] and all(
        cause == "extraction" for slot, *_, cause in _errors(good) if slot == "WINNER"
    )
    point = next(p for p in bad.points if p.category == "INC")
    from hub4eval.report.explain import explain

    rows = explain(bad, causes=["recognition"])
    assert [row.point for row in rows] == [p for p in bad.points if p.cause == "recognition"]
    assert rows[0].cause_note == "the recognizer heard `hinges` for `hingis`"
    assert point.cause == "recognition"


def test_spurious_fill_of_inserted_words_is_recognition_of_heard_words_extraction():
    inserted = WORDS[:9] + ["boris", "becker"] + WORDS[9:]
    result = _score(
        WORDS,
        inserted,
        {"WINNER": "martina hingis"},
        {"WINNER": "martina hingis", "LOSER": "boris becker", "LOCATION": "sunday"},
    )
    causes = {(slot, kind): cause for slot, kind, category, cause in _errors(result) if category == "SPU"}
    assert causes == {
        ("LOSER", "content"): "recognition",
        ("LOSER", "extent"): "recognition",  # words never said
        ("LOCATION", "content"): "extraction",
        ("LOCATION", "extent"): "extraction",  # `sunday` heard right
    }


def test_missed_fill_over_a_deleted_word_is_recognition():
    deleted = [w for w in WORDS if w != "melbourne"]
    result = _score(WORDS, deleted, REF_FILLS, {"WINNER": "martina hingis", "LOSER": "conchita martinez"})
    assert {e[3] for e in _errors(result) if e[0] == "LOCATION"} == {"recognition"}
    # the ceiling cannot recover the deleted word: LOCATION is dropped from the projection
    projected = project(
        parse_templates(_templates(_doc(WORDS), REF_FILLS), "ref.tpl"),
        result.alignment,
        parse_corpus(_doc(deleted), "hyp.sgml"),
    )
    assert [s.name for s in projected.instances[0].slots] == ["WINNER", "LOSER"]
    # 4 of the 6 reference points are reachable: F = 2*4 / (6 + 4)
    assert result.ceiling.total.metrics()["F"] == 2 * 4 / (6 + 4)


def test_entity_wer_counts_only_words_inside_reference_fills():
    misheard = [w if w != "hingis" else "hinges" for w in WORDS]
    misheard = [w if w != "on" else "and" for w in misheard]  # outside every fill
    result = _score(WORDS, misheard, REF_FILLS, {"WINNER": "martina hinges"})
    entity = result.entity_wer
    # fills hold martina hingis | conchita martinez | melbourne: 5 words, one substituted
    assert entity["summary"]["ref_words"] == 5 and entity["summary"]["errors"] == 1
    assert entity["summary"]["wer"] == 1 / 5
    assert entity["by_slot"]["EVENT.WINNER"]["wer"] == 1 / 2
    assert entity["by_slot"]["EVENT.LOCATION"]["wer"] == 0.0
    # the text WER also counts `on`/`and`: 2 errors over the text's words (DOCNO words included)
    assert result.wer["errors"] == 2


def test_hypothesis_equal_to_the_projection_scores_exactly_the_ceiling():
    result = score_files(
        ASR / "ref.tpl", ASR / "hyp.tpl", ref_text=ASR / "reference.sgml", hyp_text=ASR / "asr_unsegmented.sgml"
    )
    ceiling = result.ceiling
    projected = project(
        parse_templates((ASR / "ref.tpl").read_text(), "ref.tpl"),
        result.alignment,
        parse_corpus((ASR / "asr_unsegmented.sgml").read_text(), "asr.sgml"),
    )
    reread = parse_templates(write_templates(projected), "ceiling.tpl", role="hypothesis")
    again = score(
        parse_templates((ASR / "ref.tpl").read_text(), "ref.tpl"),
        reread,
        ref_corpus=parse_corpus((ASR / "reference.sgml").read_text(), "ref.sgml"),
        hyp_corpus=parse_corpus((ASR / "asr_unsegmented.sgml").read_text(), "asr.sgml"),
    )
    assert again.total == ceiling.total
    assert again.total.metrics()["F"] >= result.total.metrics()["F"]


def _check_sums(result):
    causes = result.causes
    if result.alignment is None:  # identical texts: nothing is blamed on a recognizer
        assert causes == {} and all(p.cause is None for p in result.points)
        return
    for level in ("slot", "type", "document", "kind"):
        assert set(causes[level]) == set(result.by(level))
        for name, counts in result.by(level).items():
            split = causes[level][name]
            for category in ERROR_CATEGORIES:
                assert sum(split[c][category] for c in CAUSES) == getattr(counts, category.lower())
    split = causes["all"][""]
    for category in ERROR_CATEGORIES:
        assert sum(split[c][category] for c in CAUSES) == getattr(result.total, category.lower())
    # and each point's cause agrees with the counts
    for category in ERROR_CATEGORIES:
        for cause in CAUSES:
            assert split[cause][category] == sum(
                1 for p in result.points if p.category == category and p.cause == cause
            )
    assert all((p.cause is None) == (p.category not in ERROR_CATEGORIES) for p in result.points)


@settings(max_examples=60, deadline=None)
@given(
    edits=st.lists(st.sampled_from(["keep", "sub", "del", "ins"]), min_size=len(WORDS), max_size=len(WORDS)),
    picks=st.lists(
        st.tuples(st.sampled_from(["WINNER", "LOSER", "LOCATION", "DATE"]), st.integers(0, 12), st.integers(1, 3)),
        max_size=4,
    ),
)
def test_cause_counts_sum_to_error_counts_at_every_level(edits, picks):
    hyp_words: list[str] = []
    for word, edit in zip(WORDS, edits, strict=True):
        if edit == "keep":
            hyp_words.append(word)
        elif edit == "sub":
            hyp_words.append(word + "x")
        elif edit == "ins":
            hyp_words += [word, "uhm" + word]
    if not hyp_words:
        hyp_words = ["nothing"]
    hyp_fills = {}
    for slot, start, length in picks:
        phrase = " ".join(hyp_words[start % len(hyp_words) : start % len(hyp_words) + length])
        hyp_fills[slot] = phrase
    result = _score(WORDS, hyp_words, REF_FILLS, hyp_fills)
    _check_sums(result)


@settings(max_examples=40, deadline=None)
@given(
    edits=st.lists(st.sampled_from(["keep", "sub", "del", "ins"]), min_size=len(WORDS), max_size=len(WORDS)),
)
def test_a_fill_is_misrecognized_when_its_misrecognition_has_a_column(edits):
    # the causes ask only whether a fill was misrecognized, from the columns' kinds: the
    # same answer as the columns with their words, asked in either order
    hyp_words: list[str] = []
    for word, edit in zip(WORDS, edits, strict=True):
        if edit in ("keep", "ins"):
            hyp_words.append(word)
        if edit == "sub":
            hyp_words.append(word + "x")
        if edit == "ins":
            hyp_words.append("uhm" + word)
    result = _score(WORDS, hyp_words or ["nothing"], REF_FILLS, {})
    assume(result.attributor is not None)  # else the texts are the same: nothing is aligned
    fills = [
        (inst.docid, fill)
        for match in result.matches
        if match.ref is not None
        for inst in match.ref.instances
        for slot in inst.slots
        for alternative in slot.alternatives
        for fill in alternative.fills
    ]
    words_first, kinds_first = result.attributor, type(result.attributor)(result.alignment)
    assert fills
    for docid, fill in fills:
        rows = words_first.misrecognition(docid, fill)
        assert words_first.misrecognized(docid, fill) == bool(rows) == kinds_first.misrecognized(docid, fill)


def test_asr_example_json_points_carry_causes_that_sum():
    runner = CliRunner()
    out = runner.invoke(app, ["score", str(ASR / "ref.tpl"), str(ASR / "hyp.tpl"), *ASR_TEXTS, "--json", "-"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    summary = data["summary"]
    for category in ERROR_CATEGORIES:
        assert sum(data["by_cause"]["summary"][c][category] for c in CAUSES) == summary[category]
        assert sum(1 for p in data["points"] if p["category"] == category) == summary[category]
    assert {p["cause"] for p in data["points"] if p["category"] in ERROR_CATEGORIES} <= set(CAUSES)
    not_errors = [p["cause"] for p in data["points"] if p["category"] not in ERROR_CATEGORIES]
    assert not_errors and set(not_errors) == {None}  # the ASR example has COR points
    # the ceiling: F of the reference projected onto the ASR text
    assert data["ceiling"]["fraction_of_ceiling"] == data["summary"]["F"] / data["ceiling"]["ceiling_F"]
    result = score_files(
        ASR / "ref.tpl", ASR / "hyp.tpl", ref_text=ASR / "reference.sgml", hyp_text=ASR / "asr_unsegmented.sgml"
    )
    _check_sums(result)


def test_cli_score_prints_the_cause_table_and_the_ceiling_only_when_texts_differ():
    runner = CliRunner()
    out = runner.invoke(app, ["score", str(ASR / "ref.tpl"), str(ASR / "hyp.tpl"), *ASR_TEXTS])
    assert out.exit_code == 0, out.output
    assert "What the recognizer cost" in out.stdout
    assert "ceiling (reference projected onto the hypothesis text): F = 80.0" in out.stdout
    assert "entity WER (alignment used for extents) = " in out.stdout
    same = runner.invoke(
        app, ["score", str(ASR / "ref.tpl"), str(ASR / "ref.tpl"), "--ref-text", str(ASR / "reference.sgml")]
    )
    assert same.exit_code == 0, same.output
    assert "What the recognizer cost" not in same.stdout and "ceiling" not in same.stdout
    off = runner.invoke(app, ["score", str(ASR / "ref.tpl"), str(ASR / "hyp.tpl"), *ASR_TEXTS, "--no-ceiling"])
    assert "ceiling (" not in off.stdout


def test_cli_explain_cause_filter_and_its_errors():
    runner = CliRunner()
    base = ["explain", str(ASR / "ref.tpl"), str(ASR / "hyp.tpl"), *ASR_TEXTS]
    out = runner.invoke(app, [*base, "--cause", "recognition"])
    assert out.exit_code == 0, out.output
    assert "heard `hinges` for `hingis`" in out.stdout
    assert "lost to extraction" not in out.stdout
    bad = runner.invoke(app, [*base, "--cause", "asr"])
    assert bad.exit_code == 2 and "unknown --cause value 'asr'" in bad.output
    same = runner.invoke(app, ["explain", str(ASR / "ref.tpl"), str(ASR / "ref.tpl"), "--cause", "extraction"])
    assert same.exit_code == 2 and "--cause needs two different texts" in same.output


@pytest.mark.slow
def test_project_command_writes_a_valid_hypothesis_that_scores_as_the_ceiling(tmp_path):
    output = tmp_path / "ceiling.tpl"
    run = [sys.executable, "-m", "hub4eval"]
    made = subprocess.run(
        [*run, "project", str(ASR / "ref.tpl"), *ASR_TEXTS, "-o", str(output)], capture_output=True, text=True, cwd=ROOT
    )
    assert made.returncode == 0, made.stderr
    checked = subprocess.run(
        [*run, "check", str(output), "--hypothesis", "--text", str(ASR / "asr_unsegmented.sgml")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    scored = subprocess.run(
        [*run, "score", str(ASR / "ref.tpl"), str(output), *ASR_TEXTS, "--json", "-"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert scored.returncode == 0, scored.stderr
    data = json.loads(scored.stdout)
    assert data["summary"]["F"] == data["ceiling"]["ceiling_F"]
    assert data["ceiling"]["fraction_of_ceiling"] == 1.0
    missing = subprocess.run(
        [
            *run,
            "project",
            str(ASR / "ref.tpl"),
            "--ref-text",
            str(ASR / "reference.sgml"),
            "--hyp-text",
            str(tmp_path / "nope.sgml"),
            "-o",
            "-",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert missing.returncode == 2 and "Traceback" not in missing.stderr


def test_ceiling_bootstrap_intervals_contain_the_point_values():
    from hub4eval.report.confidence import ceiling_intervals, document_counts

    result = score_files(
        ASR / "ref.tpl", ASR / "hyp.tpl", ref_text=ASR / "reference.sgml", hyp_text=ASR / "asr_unsegmented.sgml"
    )
    bounds = ceiling_intervals(document_counts(result), document_counts(result.ceiling), 500, 7)
    summary = result.ceiling_summary()
    for key in ("F", "ceiling_F", "fraction_of_ceiling"):
        low, high = bounds[key]
        assert low <= summary[key] <= high
    # the same seed gives the same intervals
    assert bounds == ceiling_intervals(document_counts(result), document_counts(result.ceiling), 500, 7)


def test_the_ceiling_reuses_the_systems_alignment_and_wer(monkeypatch):
    """The ceiling is scored on the same texts: sclite's WER is counted once, not twice (its
    summary alone, all a score keeps: no row per document)."""
    import hub4eval.text.wer as wer_module
    from hub4eval.api import score_files

    calls = []

    def counting(name):
        original = getattr(wer_module, name)

        def counted(alignment, *counts):
            calls.append(name)
            return original(alignment, *counts)

        return counted

    for name in ("corpus_wer", "corpus_wer_summary"):
        monkeypatch.setattr(wer_module, name, counting(name))
    asr = ROOT / "examples" / "asr"
    result = score_files(
        asr / "ref.tpl", asr / "hyp.tpl", ref_text=asr / "reference.sgml", hyp_text=asr / "asr_unsegmented.sgml"
    )
    assert result.ceiling is not None and calls == ["corpus_wer_summary"]
    assert result.ceiling.wer == result.wer


@pytest.mark.slow
def test_project_reads_the_hypothesis_text_in_the_format_given(tmp_path):
    """`project --hyp-text-format trn` reads a trn file whatever its name, as its extension would."""
    lines = (ASR / "asr_unsegmented.sgml").read_text().splitlines()
    words = [line.removeprefix("<s>").removesuffix("</s>").strip() for line in lines if line.strip()]
    trn = "".join(f"{w} (asr)\n" for w in words)
    (tmp_path / "asr.trn").write_text(trn)
    (tmp_path / "asr.words").write_text(trn)  # an extension that means SGML

    def project(hyp_text: str, *extra: str) -> subprocess.CompletedProcess:
        out = tmp_path / f"{Path(hyp_text).name}{len(extra)}.tpl"
        done = subprocess.run(
            [sys.executable, "-m", "hub4eval", "project", str(ASR / "ref.tpl"), "-o", str(out), "-q",
             "--ref-text", str(ASR / "reference.sgml"), "--hyp-text", hyp_text, "--unsegmented", *extra],
            capture_output=True, text=True, cwd=ROOT,
        )  # fmt: skip
        done.stdout = out.read_text() if out.exists() else ""
        return done

    by_extension = project(str(tmp_path / "asr.trn"))
    by_option = project(str(tmp_path / "asr.words"), "--hyp-text-format", "trn")
    as_sgml = project(str(tmp_path / "asr.words"))
    assert by_extension.returncode == 0 and by_option.returncode == 0, by_extension.stderr + by_option.stderr
    assert "brazil" in by_extension.stdout.lower()
    assert by_option.stdout == by_extension.stdout
    assert as_sgml.stdout != by_extension.stdout  # read as SGML, "(asr)" is a word of the text


def test_project_command_takes_glm_files_whole_and_warns_of_nothing(tmp_path):
    # --glm was once typed as one string, so `--glm default` became the files d, e, f, ...;
    # and the command passed its own defaults in the deprecated space-separated form
    runner = CliRunner()
    base = ["project", str(ASR / "ref.tpl"), *ASR_TEXTS, "--output", "-"]
    plain = runner.invoke(app, base)
    assert plain.exit_code == 0, plain.output
    assert "deprecated" not in plain.output
    named = runner.invoke(app, [*base, "--glm", "default"])
    assert named.exit_code == 0, named.output
    assert named.output == plain.output
    missing = tmp_path / "mine.glm"
    bad = runner.invoke(app, [*base, "--glm", "default", "--glm", str(missing)])
    assert bad.exit_code == 2
    assert f"{missing}: cannot read the GLM file" in bad.output


# ----------------------------------------------------------------------------
# Tests that kill mutants of hub4eval/scoring/attribution.py (mutation runs, tools/mutate.py; issue #21)
# What the recognizer cost (hub4eval/scoring/attribution.py): tests that kill its
# mutants (issue #21).
#
# Each test builds a small scoring run where the reference and hypothesis texts
# differ, and checks the cause a user sees on the points (``score``'s
# ``result.points``) and the note ``explain`` prints under a recognition error.
# ----------------------------------------------------------------------------


def _named_doc(docid: str, words: list[str]) -> str:
    return f"<DOC>\n<DOCNO> {docid} </DOCNO>\n<TEXT>\n" + " ".join(words) + "\n</TEXT>\n</DOC>\n"


def _fill(text: str, docid: str, phrase: str | None, extent: tuple[int, int] | None = None) -> str:
    """``"phrase" ##start#end#`` at the phrase's first occurrence in the text of document ``docid``;
    ``extent`` given: that extent instead; ``phrase`` alone with ``extent=()``: no extent."""
    if extent == ():
        return f'"{phrase}"'
    if extent is None:
        docno = text.index(f"<DOCNO> {docid} ")
        opening = text.rindex("<DOC>", 0, docno)  # offsets count from the document's opening tag
        start = text.index(phrase, text.index("<TEXT>", docno)) - opening
        extent = (start, start + len(phrase))
    return f'"{phrase}" ##{extent[0]}#{extent[1]}#'


def _instance_templates(instances: dict[str, dict[str, str]]) -> str:
    lines = []
    for key, slots in instances.items():
        lines.append(f"<{key}> :=")
        lines += [f"    {slot}: {fill}" for slot, fill in slots.items()]
    return "\n".join(lines) + "\n"


def _score_instances(ref_text: str, hyp_text: str, ref_instances, hyp_instances):
    return score(
        parse_templates(_instance_templates(ref_instances), "ref.tpl", role="reference"),
        parse_templates(_instance_templates(hyp_instances), "hyp.tpl", role="hypothesis"),
        ref_corpus=parse_corpus(ref_text, "ref.sgml"),
        hyp_corpus=parse_corpus(hyp_text, "hyp.sgml"),
        config=ScoreConfig(),
        ceiling=False,
    )


def _causes(result) -> set[tuple[str, str, str, str | None]]:
    return {(p.slot, p.kind, p.category, p.cause) for p in result.points if p.category in ("INC", "MIS", "SPU")}


def test_a_missed_fill_without_extent_is_an_extraction_error() -> None:
    """A set-like fill (no extent) touches no recognized word: never the recognizer's fault,
    even in a document whose every word the recognizer got wrong."""
    ref_text = _named_doc("D1", WORDS)
    hyp_text = _named_doc("D1", ["uh"] * len(WORDS))
    ref = {"EVENT-D1-1": {"WINNER": '"martina hingis"', "LOSER": _fill(ref_text, "D1", "conchita martinez")}}
    hyp = {"EVENT-D1-1": {"LOSER": '"boris"'}}
    result = _score_instances(ref_text, hyp_text, ref, hyp)
    causes = _causes(result)
    assert ("WINNER", "content", "MIS", "extraction") in causes
    # the fill with an extent over misheard words: the recognizer's
    assert ("LOSER", "content", "INC", "recognition") in causes


def test_a_fill_whose_extent_touches_no_word_is_an_extraction_error() -> None:
    """Reference and hypothesis extents over blanks only (no token touched) blame nobody's words."""
    ref_words = WORDS[:5] + ["  ,  "] + WORDS[5:]
    ref_text = _named_doc("D1", ref_words)
    hyp_text = _named_doc("D1", [w if w != "melbourne" else "melburn" for w in ref_words])
    blank = ref_text.index("  ,  ")  # the same offsets in both texts (same words up to there)
    assert hyp_text.index("  ,  ") == blank
    ref = {"EVENT-D1-1": {"WINNER": _fill(ref_text, "D1", "  ,  ", (blank, blank + 5))}}
    hyp = {"EVENT-D1-1": {"WINNER": '"beat"', "LOSER": _fill(hyp_text, "D1", "  ,  ", (blank, blank + 5))}}
    result = _score_instances(ref_text, hyp_text, ref, hyp)
    causes = _causes(result)
    assert ("WINNER", "content", "INC", "extraction") in causes
    assert ("LOSER", "content", "SPU", "extraction") in causes
    assert ("LOSER", "extent", "SPU", "extraction") in causes


def test_a_reference_document_the_hypothesis_text_lacks_is_lost_to_recognition() -> None:
    """Every word of D2 was deleted (the recognizer produced no D2): its missed fill is recognition."""
    ref_text = _named_doc("D1", WORDS) + _named_doc("D2", WORDS)
    hyp_text = _named_doc("D1", WORDS)
    ref = {
        "EVENT-D1-1": {"WINNER": _fill(ref_text, "D1", "martina hingis")},
        "EVENT-D2-1": {"WINNER": _fill(ref_text, "D2", "martina hingis")},
    }
    hyp = {"EVENT-D1-1": {"WINNER": _fill(hyp_text, "D1", "conchita martinez")}}
    result = _score_instances(ref_text, hyp_text, ref, hyp)
    by_doc = {(p.docid, p.kind, p.category, p.cause) for p in result.points if p.category in ("INC", "MIS")}
    assert by_doc == {
        ("D1", "content", "INC", "extraction"),  # D1 heard right: the extractor's error
        ("D1", "extent", "INC", "extraction"),
        ("D2", "content", "MIS", "recognition"),
        ("D2", "extent", "MIS", "recognition"),
    }
    rows = [row for row in explain(result, causes=["recognition"]) if row.point.docid == "D2"]
    assert [row.cause_note for row in rows] == ["the recognizer missed `martina`; missed `hingis`"] * 2
    # entity WER: the two words of each fill, those of D2 deleted
    summary = result.entity_wer["summary"]
    assert (summary["ref_words"], summary["deletions"], summary["errors"], summary["wer"]) == (4, 2, 2, 2 / 4)
    # counted on the weighted alignment that places extents, and the output says so
    assert result.entity_wer["alignment"] == "weighted"


def test_a_hypothesis_document_the_reference_text_lacks_is_hallucinated() -> None:
    """D3 exists only in the hypothesis text: its words were all inserted, its spurious fill is recognition."""
    ref_text = _named_doc("D1", WORDS)
    hyp_text = _named_doc("D1", WORDS) + _named_doc("D3", ["boris", "becker", "won"])
    ref = {"EVENT-D1-1": {"WINNER": _fill(ref_text, "D1", "martina hingis")}}
    hyp = {
        "EVENT-D1-1": {"WINNER": _fill(hyp_text, "D1", "martina hingis")},
        "EVENT-D3-1": {"WINNER": _fill(hyp_text, "D3", "boris becker")},
    }
    result = _score_instances(ref_text, hyp_text, ref, hyp)
    assert {(p.docid, p.kind, p.cause) for p in result.points if p.category == "SPU"} == {
        ("D3", "content", "recognition"),
        ("D3", "extent", "recognition"),
    }


def test_the_note_of_a_hallucinated_fill_names_the_heard_words_not_the_missed_ones() -> None:
    """A spurious fill over `boris becker` where `conchita martinez` was said: the note
    lists what was heard for what."""
    ref_text = _named_doc("D1", WORDS)
    hyp_words = WORDS[:5] + ["boris", "becker"] + WORDS[7:]  # conchita martinez -> boris becker
    hyp_text = _named_doc("D1", hyp_words)
    ref = {"EVENT-D1-1": {"WINNER": _fill(ref_text, "D1", "martina hingis")}}
    hyp = {
        "EVENT-D1-1": {
            "WINNER": _fill(hyp_text, "D1", "martina hingis"),
            "LOSER": _fill(hyp_text, "D1", "boris becker"),
        }
    }
    result = _score_instances(ref_text, hyp_text, ref, hyp)
    rows = [row for row in explain(result, causes=["recognition"]) if row.point.slot == "LOSER"]
    assert [row.point.category for row in rows] == ["SPU", "SPU"]
    assert [row.cause_note for row in rows] == [
        "the recognizer heard `boris` for `conchita`; heard `becker` for `martinez`"
    ] * 2


def test_a_misrecognized_fill_notes_a_word_inserted_inside_it() -> None:
    """`martina de hingis` heard for `martina hingis`: the reference fill's columns hold an insertion."""
    ref_text = _named_doc("D1", WORDS)
    hyp_text = _named_doc("D1", WORDS[:3] + ["de"] + WORDS[3:])
    ref = {"EVENT-D1-1": {"WINNER": _fill(ref_text, "D1", "martina hingis")}}
    hyp = {"EVENT-D1-1": {"WINNER": _fill(hyp_text, "D1", "martina")}}
    result = _score_instances(ref_text, hyp_text, ref, hyp)
    rows = explain(result, causes=["recognition"])
    # the extent of `martina` lies inside the reference extent and is correct: one error, in content
    assert [(row.point.kind, row.point.category) for row in rows] == [("content", "INC")]
    assert {row.cause_note for row in rows} == {"the recognizer heard `de` where nothing was said"}
    # entity WER: one insertion over the fill's two words
    summary = result.entity_wer["summary"]
    assert (summary["ref_words"], summary["insertions"], summary["errors"], summary["wer"]) == (2, 1, 1, 1 / 2)


def test_points_of_an_aligned_run_name_both_fills() -> None:
    """With causes attributed, every point still says which reference and hypothesis fill it scores."""
    ref_text = _named_doc("D1", WORDS)
    hyp_text = _named_doc("D1", WORDS[:3] + ["hinges"] + WORDS[4:])
    ref = {"EVENT-D1-1": {"WINNER": _fill(ref_text, "D1", "martina hingis"), "LOCATION": '"melbourne"'}}
    hyp = {"EVENT-D1-1": {"WINNER": _fill(hyp_text, "D1", "martina hinges"), "LOSER": '"boris"'}}
    result = _score_instances(ref_text, hyp_text, ref, hyp)
    start = ref_text.index("martina")
    assert hyp_text.index("martina") == start
    by_slot = {(p.slot, p.kind): (p.category, p.ref, p.hyp, p.cause) for p in result.points}
    category, ref_at, hyp_at, cause = by_slot["WINNER", "content"]
    assert (category, cause) == ("INC", "recognition")
    assert ref_at.as_dict() == {
        "instance": "<EVENT-D1-1>",
        "slot": "WINNER",
        "fill": f'"martina hingis" ##{start}#{start + 14}#',
        "line": 2,
    }
    assert hyp_at.as_dict() == {
        "instance": "<EVENT-D1-1>",
        "slot": "WINNER",
        "fill": f'"martina hinges" ##{start}#{start + 14}#',
        "line": 2,
    }
    category, ref_at, hyp_at, cause = by_slot["LOSER", "content"]
    assert (category, ref_at, hyp_at.fill, cause) == ("SPU", None, '"boris"', "extraction")
    category, ref_at, hyp_at, cause = by_slot["LOCATION", "content"]
    assert (category, ref_at.fill, hyp_at, cause) == ("MIS", '"melbourne"', None, "extraction")


# Paths an independent mutation audit found untested --------------------------------------


def test_entity_wer_leaves_out_a_hypothesis_document_the_reference_lacks() -> None:
    """D3 is only in the hypothesis: its instance set has no reference set, so entity WER
    counts D1's fill alone (2 words, both heard right), and D3's spurious fill is the
    recognizer's, noted as heard where nothing was said."""
    ref_text = _named_doc("D1", WORDS)
    hyp_text = _named_doc("D1", WORDS) + _named_doc("D3", ["boris", "becker", "won"])
    ref = {"EVENT-D1-1": {"WINNER": _fill(ref_text, "D1", "martina hingis")}}
    hyp = {
        "EVENT-D1-1": {"WINNER": _fill(hyp_text, "D1", "martina hingis")},
        "EVENT-D3-1": {"WINNER": _fill(hyp_text, "D3", "boris becker")},
    }
    result = _score_instances(ref_text, hyp_text, ref, hyp)
    entity = result.entity_wer
    expected = {"ref_words": 2, "hyp_words": 2, "matches": 2, "substitutions": 0, "deletions": 0, "insertions": 0}
    assert entity["summary"] == {**expected, "errors": 0, "wer": 0.0}
    assert entity["by_slot"] == {"EVENT.WINNER": {**expected, "errors": 0, "wer": 0.0}}
    notes = [row.cause_note for row in explain(result, causes=["recognition"]) if row.point.docid == "D3"]
    assert notes == ["the recognizer heard `boris` where nothing was said; heard `becker` where nothing was said"] * 2


def test_a_scored_fill_in_a_header_element_is_an_extraction_error_and_not_in_entity_wer() -> None:
    """DOC_NR scored (no slot left unscored): its extent covers `D1` inside <DOCNO>, which is
    not spoken, so it touches no aligned word. Its MIS points are extraction errors with no
    note, and entity WER holds WINNER only (`martina hinges` heard for `martina hingis`:
    1 substitution in 2 words)."""
    ref_text = _named_doc("D1", WORDS)
    hyp_text = _named_doc("D1", WORDS[:3] + ["hinges"] + WORDS[4:])
    docno = ref_text.index("D1")
    ref = {"EVENT-D1-1": {"DOC_NR": f'"D1" ##{docno}#{docno + 2}#', "WINNER": _fill(ref_text, "D1", "martina hingis")}}
    hyp = {"EVENT-D1-1": {"WINNER": _fill(hyp_text, "D1", "martina hinges")}}
    result = score(
        parse_templates(_instance_templates(ref), "ref.tpl", role="reference"),
        parse_templates(_instance_templates(hyp), "hyp.tpl", role="hypothesis"),
        ref_corpus=parse_corpus(ref_text, "ref.sgml"),
        hyp_corpus=parse_corpus(hyp_text, "hyp.sgml"),
        config=ScoreConfig(unscored_slots=()),
        ceiling=False,
    )
    assert _causes(result) == {
        ("DOC_NR", "content", "MIS", "extraction"),
        ("DOC_NR", "extent", "MIS", "extraction"),
        ("WINNER", "content", "INC", "recognition"),
    }
    assert [row.cause_note for row in explain(result) if row.point.slot == "DOC_NR"] == ["", ""]
    entity = result.entity_wer
    assert list(entity["by_slot"]) == ["EVENT.WINNER"]
    summary = entity["summary"]
    assert (summary["ref_words"], summary["substitutions"], summary["errors"], summary["wer"]) == (2, 1, 1, 1 / 2)


def test_the_note_of_a_hallucinated_fill_leaves_out_a_word_deleted_inside_it() -> None:
    """`conchita maria martinez` said, `conchitta martines` heard: the aligner pairs the outer
    words and deletes `maria`, a column inside the spurious fill's columns. Its note names
    what was heard for what; the deleted word was not heard, so it is not listed."""
    ref_words = WORDS[:6] + ["maria"] + WORDS[6:]
    hyp_words = WORDS[:5] + ["conchitta", "martines"] + WORDS[7:]
    ref_text, hyp_text = _named_doc("D1", ref_words), _named_doc("D1", hyp_words)
    ref = {"EVENT-D1-1": {"WINNER": _fill(ref_text, "D1", "martina hingis")}}
    hyp = {
        "EVENT-D1-1": {
            "WINNER": _fill(hyp_text, "D1", "martina hingis"),
            "LOSER": _fill(hyp_text, "D1", "conchitta martines"),
        }
    }
    result = _score_instances(ref_text, hyp_text, ref, hyp)
    document = result.alignment.documents[result.alignment.column_space("D1", reference=False)]
    rows = document.rows(slice(0, len(ref_words)))
    assert [(r, h) for r, h, _ in rows[5:8]] == [("conchita", "conchitta"), ("maria", ""), ("martinez", "martines")]
    notes = [row.cause_note for row in explain(result, causes=["recognition"]) if row.point.slot == "LOSER"]
    assert notes == ["the recognizer heard `conchitta` for `conchita`; heard `martines` for `martinez`"] * 2


def test_a_pointer_error_is_an_extraction_error_when_the_texts_differ() -> None:
    """The hypothesis has one template, pointing to the second event: it maps to the reference
    template that points there (COR, F 100 against 0 for the other), and the reference template
    pointing to the first event is missed. A pointer has no words: its MIS is the extractor's,
    with no note, although the recognizer misheard `hingis` in the same document."""
    ref_text = _named_doc("D1", WORDS)
    hyp_text = _named_doc("D1", WORDS[:3] + ["hinges"] + WORDS[4:])
    ref = {
        "TEMPLATE-D1-1": {"EVENT": "<EVENT-D1-1>"},
        "TEMPLATE-D1-2": {"EVENT": "<EVENT-D1-2>"},
        "EVENT-D1-1": {"WINNER": _fill(ref_text, "D1", "martina hingis")},
        "EVENT-D1-2": {"WINNER": _fill(ref_text, "D1", "conchita martinez")},
    }
    hyp = {
        "TEMPLATE-D1-1": {"EVENT": "<EVENT-D1-2>"},
        "EVENT-D1-1": {"WINNER": _fill(hyp_text, "D1", "martina hinges")},
        "EVENT-D1-2": {"WINNER": _fill(hyp_text, "D1", "conchita martinez")},
    }
    result = _score_instances(ref_text, hyp_text, ref, hyp)
    pointers = [(p.category, p.cause, p.ref.fill) for p in result.points if p.kind == "pointer"]
    assert pointers == [("MIS", "extraction", "<EVENT-D1-1>"), ("COR", None, "<EVENT-D1-2>")]
    assert [row.cause_note for row in explain(result) if row.point.kind == "pointer"] == ["", ""]


def test_describe_and_note_speak_only_of_misheard_words_of_errors() -> None:
    """``describe`` (public) says nothing of matched columns nor of no columns; ``Attributor.note``
    says nothing for a point that is not an error, nor for a spurious fill heard right."""
    from hub4eval.scoring.attribution import describe
    from hub4eval.text.align import MATCH, SUBSTITUTION

    assert describe(()) == ""
    assert describe([("a", "a", MATCH)]) == ""
    assert describe([("x", "y", SUBSTITUTION), ("a", "a", MATCH)]) == "the recognizer heard `y` for `x`"
    ref_text = _named_doc("D1", WORDS)
    hyp_text = _named_doc("D1", WORDS) + _named_doc("D3", ["boris", "becker", "won"])
    ref = {"EVENT-D1-1": {"WINNER": _fill(ref_text, "D1", "martina hingis")}}
    hyp = {
        "EVENT-D1-1": {"WINNER": _fill(hyp_text, "D1", "martina hingis"), "LOSER": _fill(hyp_text, "D1", "beat")},
        "EVENT-D3-1": {"WINNER": _fill(hyp_text, "D3", "boris becker")},
    }
    result = _score_instances(ref_text, hyp_text, ref, hyp)
    hallucinated = next(p.hyp_fill for p in result.points if p.docid == "D3")
    heard_right = next(p.hyp_fill for p in result.points if p.slot == "LOSER")
    note = result.attributor.note
    heard = "the recognizer heard `boris` where nothing was said; heard `becker` where nothing was said"
    assert note("SPU", None, "D3", None, hallucinated) == heard
    assert note("COR", None, "D3", None, hallucinated) == ""
    assert note("SPU", None, "D1", None, heard_right) == ""  # `beat` was said: no words to blame


def test_entity_wer_counts_the_scored_fills_with_an_extent_only() -> None:
    """COMMENT is unscored by default and LOSER has no extent: entity WER holds WINNER alone
    (`martina hinges` for `martina hingis`: 1 substitution in 2 words). A reference whose
    fills have no extent has no word to count: WER undefined, no slot."""
    ref_text = _named_doc("D1", WORDS)
    hyp_text = _named_doc("D1", WORDS[:3] + ["hinges"] + WORDS[4:])
    ref = {
        "EVENT-D1-1": {
            "WINNER": _fill(ref_text, "D1", "martina hingis"),
            "LOSER": _fill(ref_text, "D1", "conchita martinez", ()),
            "COMMENT": _fill(ref_text, "D1", "in melbourne on sunday"),
        }
    }
    hyp = {"EVENT-D1-1": {"WINNER": _fill(hyp_text, "D1", "martina hinges")}}
    entity = _score_instances(ref_text, hyp_text, ref, hyp).entity_wer
    assert list(entity["by_slot"]) == ["EVENT.WINNER"]
    summary = entity["summary"]
    assert (summary["ref_words"], summary["substitutions"], summary["errors"], summary["wer"]) == (2, 1, 1, 1 / 2)
    no_extent = {"EVENT-D1-1": {"LOSER": _fill(ref_text, "D1", "conchita martinez", ())}}
    entity = _score_instances(ref_text, hyp_text, no_extent, hyp).entity_wer
    assert entity["by_slot"] == {}
    assert (entity["summary"]["ref_words"], entity["summary"]["errors"], entity["summary"]["wer"]) == (0, 0, None)


@pytest.mark.parametrize("name", ["asr_numbers", "asr", "asr_unsegmented"])
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_a_fill_is_misrecognized_exactly_when_it_has_misrecognized_columns(name: str, data: st.DataObject) -> None:
    """Attributor.misrecognized (read from the columns' kinds, for the causes) against
    misrecognition (the words, for the notes) on random reference fills."""
    ref = parse_templates(data.draw(references(name)), role="reference")
    ref_text, hyp_text = (str(EXAMPLES / p) for p in TEXTS[name])
    empty = TemplateSet((), role="hypothesis")
    result = score(ref, empty, ref_corpus=read_corpus(ref_text), hyp_corpus=read_corpus(hyp_text), ceiling=False)
    attributor = result.attributor
    seen = set()
    for inst in ref.instances:
        for slot in inst.slots:
            for alternative in slot.alternatives:
                for fill in alternative.fills:
                    seen.add(attributor.misrecognized(inst.docid, fill))
                    assert attributor.misrecognized(inst.docid, fill) == bool(
                        attributor.misrecognition(inst.docid, fill)
                    )
    assert seen
