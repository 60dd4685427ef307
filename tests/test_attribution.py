"""§11: causes of errors (recognition / extraction), the ceiling, entity WER."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hub4eval.api import score, score_files
from hub4eval.cli import app
from hub4eval.config import ScoreConfig
from hub4eval.io.corpus import parse_corpus
from hub4eval.io.templettes import parse_templates, write_templates
from hub4eval.scoring.attribution import CAUSES, ERROR_CATEGORIES
from hub4eval.scoring.projection import project

ROOT = Path(__file__).resolve().parent.parent
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
    """The ceiling is scored on the same texts: sclite's WER is counted once, not twice."""
    import hub4eval.text.wer as wer_module
    from hub4eval.api import score_files

    calls = []
    original = wer_module.corpus_wer

    def counting(alignment, *counted):
        calls.append(alignment)
        return original(alignment, *counted)

    monkeypatch.setattr(wer_module, "corpus_wer", counting)
    asr = Path(__file__).resolve().parent.parent / "examples" / "asr"
    result = score_files(
        asr / "ref.tpl", asr / "hyp.tpl", ref_text=asr / "reference.sgml", hyp_text=asr / "asr_unsegmented.sgml"
    )
    assert result.ceiling is not None and len(calls) == 1
    assert result.ceiling.wer == result.wer


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
