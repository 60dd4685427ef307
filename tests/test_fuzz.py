"""Fuzzing the CLI: every input either scores consistently or is one clear error.

For random valid template sets (``tests/strategies.py`` written by
``write_templates``), random text corpora, and random byte-level mutations of
the sample files, ``hub4eval score`` and ``hub4eval check`` must either

* exit 0, and then the ``--json -`` output obeys POS = COR + INC + MIS,
  ACT = COR + INC + SPU and 0 <= metric <= 1 (or null) at every level, or
* exit 2 with exactly one stderr line ``FILE:LINE[:COL]: message``,

never any other exit status and never a traceback.  The default run is short;
``pytest -m fuzz`` runs the same properties with many more examples.
"""

from __future__ import annotations

import importlib.util
import json
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import DOCIDS, WORDS, as_hypothesis, template_sets
from typer.testing import CliRunner

from hub4eval.cli import app
from hub4eval.io.templettes import write_templates

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "sample"
SAMPLE_FILES = {name: (SAMPLE / name).read_bytes() for name in ("ref.tpl", "hyp.tpl", "text.sgml")}
HAS_CORPUS = importlib.util.find_spec("hub4eval.io.corpus") is not None
needs_corpus = pytest.mark.skipif(not HAS_CORPUS, reason="hub4eval.io.corpus (text corpora) has not landed yet")

QUICK = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LONG = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])

COUNT_KEYS = ("POS", "ACT", "COR", "INC", "MIS", "SPU", "OPT", "REM")
METRIC_KEYS = ("REC", "PRE", "F", "UND", "OVG", "SUB", "ERR")
# An error names the file and at least its line (the file is one we wrote).
POSITIONED = re.compile(r"^\S+\.(tpl|sgml|glm):\d+(:\d+)?: \S")

runner = CliRunner()


# ------------------------------------------------------------------ oracle


def check_counts(where: str, counts: dict) -> None:
    for key in COUNT_KEYS:
        assert isinstance(counts[key], int) and counts[key] >= 0, (where, counts)
    assert counts["POS"] == counts["COR"] + counts["INC"] + counts["MIS"], (where, counts)
    assert counts["ACT"] == counts["COR"] + counts["INC"] + counts["SPU"], (where, counts)
    for key in METRIC_KEYS:
        value = counts[key]
        assert value is None or 0.0 <= value <= 1.0, (where, key, counts)
    assert (counts["REC"] is None) == (counts["POS"] == 0), (where, counts)
    assert (counts["PRE"] is None) == (counts["ACT"] == 0), (where, counts)


def check_json(data: dict) -> None:
    check_counts("summary", data["summary"])
    for level in ("by_slot", "by_type", "by_document", "by_kind"):
        total = dict.fromkeys(COUNT_KEYS, 0)
        for name, counts in data[level].items():
            check_counts(f"{level}[{name}]", counts)
            for key in COUNT_KEYS:
                total[key] += counts[key]
        for key in COUNT_KEYS:  # every level partitions the same points
            assert total[key] == data["summary"][key], (level, key)
    assert isinstance(data["warnings"], list)


def run(args: list[str], must_score: bool = False) -> dict | None:
    """Run the CLI; return the JSON when it scored, None when it refused the input."""
    result = runner.invoke(app, args)
    output = result.output
    assert "Traceback" not in output, output
    assert result.exit_code in (0, 2), (args, result.exit_code, output, result.exception)
    if result.exit_code == 2:
        assert not must_score, (args, output)
        lines = result.stderr.splitlines()
        assert len(lines) == 1, output
        assert POSITIONED.match(lines[0]), lines[0]
        assert "warning:" not in lines[0]
        return None
    if "--json" in args:
        data = json.loads(result.stdout)
        check_json(data)
        return data
    return {}


@contextmanager
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="hub4eval-fuzz-") as name:
        yield Path(name)


# ---------------------------------------------------------- valid inputs


def _score_random_sets(ref_set, hyp_set, compare: str) -> None:
    with workdir() as directory:
        ref = directory / "ref.tpl"
        hyp = directory / "hyp.tpl"
        ref.write_text(write_templates(ref_set), encoding="utf-8")
        hyp.write_text(write_templates(hyp_set), encoding="utf-8")
        data = run(["score", str(ref), str(hyp), "--compare", compare, "--json", "-"], must_score=True)
        assert data is not None
        run(["check", str(ref)], must_score=True)
        run(["check", str(hyp), "--hypothesis"], must_score=True)
        # Consistent counts alone would pass if every fill scored INC: the reference
        # scored against itself (one alternative, no brackets) must be perfect.
        same = replace(as_hypothesis(ref_set), role="reference")
        ref.write_text(write_templates(same), encoding="utf-8")
        hyp.write_text(write_templates(as_hypothesis(ref_set)), encoding="utf-8")
        summary = run(["score", str(ref), str(hyp), "--compare", compare, "--json", "-"], must_score=True)["summary"]
        assert summary["INC"] == summary["MIS"] == summary["SPU"] == 0, summary
        assert summary["COR"] == summary["POS"] == summary["ACT"], summary
        assert summary["F"] == (1.0 if summary["POS"] else None), summary


random_pairs = st.tuples(
    template_sets(reference=True),
    st.one_of(template_sets(reference=False), template_sets(reference=True).map(as_hypothesis)),
    st.sampled_from(["both", "content", "extent"]),
)


@QUICK
@given(random_pairs)
def test_random_valid_sets_always_score(pair) -> None:
    _score_random_sets(*pair)


@pytest.mark.fuzz
@LONG
@given(random_pairs)
def test_random_valid_sets_always_score_long(pair) -> None:
    _score_random_sets(*pair)


# ---------------------------------------------------------- byte mutations

SPECIAL = [bytes([c]) for c in b'"#<>/[]?;:= \t\n\r-0123456789'] + [
    b"##", b":=", b"\xff", b"\xc3", b"\xe2\x80\xa8", b"\x00", b"\xef\xbb\xbf", b"<DOC>", b"</DOC>",
    b"<DOCNO>", b"</DOCNO>", b"<TEXT>", b"<ANNOTATION>", b"<", b"-1", b"99999999",
]


@st.composite
def mutated(draw, data: bytes) -> bytes:
    """``data`` with 1-4 random edits: delete, insert, replace, duplicate or swap lines."""
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "dup_line", "swap_lines", "truncate"]))
        n = len(data)
        if kind in ("delete", "replace") and n:
            start = draw(st.integers(0, n - 1))
            end = min(n, start + draw(st.integers(1, 8)))
            piece = b"" if kind == "delete" else draw(st.sampled_from(SPECIAL) | st.binary(min_size=1, max_size=4))
            data = data[:start] + piece + data[end:]
        elif kind == "insert":
            at = draw(st.integers(0, n))
            piece = draw(st.sampled_from(SPECIAL) | st.binary(min_size=1, max_size=4))
            data = data[:at] + piece + data[at:]
        elif kind == "truncate" and n:
            data = data[: draw(st.integers(0, n - 1))]
        elif kind in ("dup_line", "swap_lines"):
            lines = data.split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if kind == "dup_line":
                lines.insert(j, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
    return data


def _score_mutation(name: str, data: bytes, with_text: bool) -> None:
    with workdir() as directory:
        for file, content in SAMPLE_FILES.items():
            (directory / file).write_bytes(data if file == name else content)
        ref, hyp, text = (str(directory / f) for f in ("ref.tpl", "hyp.tpl", "text.sgml"))
        args = ["score", ref, hyp, "--json", "-"]
        if with_text:
            args += ["--ref-text", text]
        run(args)
        if name != "text.sgml":
            role = "--hypothesis" if name == "hyp.tpl" else "--reference"
            run(["check", str(directory / name), role] + (["--text", text] if with_text else []))


template_mutations = st.sampled_from(["ref.tpl", "hyp.tpl"]).flatmap(
    lambda name: st.tuples(st.just(name), mutated(SAMPLE_FILES[name]))
)


@QUICK
@given(template_mutations)
def test_mutated_sample_templates(case) -> None:
    _score_mutation(*case, with_text=False)


@pytest.mark.fuzz
@LONG
@given(template_mutations)
def test_mutated_sample_templates_long(case) -> None:
    _score_mutation(*case, with_text=False)


any_mutation = st.sampled_from(["ref.tpl", "hyp.tpl", "text.sgml"]).flatmap(
    lambda name: st.tuples(st.just(name), mutated(SAMPLE_FILES[name]))
)


@needs_corpus
@QUICK
@given(any_mutation)
def test_mutated_sample_files_with_text(case) -> None:
    _score_mutation(*case, with_text=True)


@needs_corpus
@pytest.mark.fuzz
@LONG
@given(any_mutation)
def test_mutated_sample_files_with_text_long(case) -> None:
    _score_mutation(*case, with_text=True)


@st.composite
def mutated_written_set(draw) -> tuple[str, bytes]:
    reference = draw(st.booleans())
    tset = draw(template_sets(reference=reference))
    return ("ref.tpl" if reference else "hyp.tpl"), draw(mutated(write_templates(tset).encode("utf-8")))


@QUICK
@given(mutated_written_set())
def test_mutated_random_sets(case) -> None:
    name, data = case
    with workdir() as directory:
        (directory / name).write_bytes(data)
        other = "hyp.tpl" if name == "ref.tpl" else "ref.tpl"
        (directory / other).write_bytes(SAMPLE_FILES[other])
        run(["score", str(directory / "ref.tpl"), str(directory / "hyp.tpl"), "--json", "-"])


# ---------------------------------------------------------- random corpora


@st.composite
def corpus_and_sets(draw):
    """A segmented corpus of documents D1..D3 and template sets whose extents point into it.

    Documents are long enough for every extent the strategies draw (< 60), so
    most cases score (with content-mismatch warnings) rather than stop.
    """
    documents: dict[str, str] = {}
    for docid in DOCIDS:
        words = draw(st.lists(st.sampled_from(WORDS + ("uh", "h-", "(um)")), min_size=12, max_size=30))
        documents[docid] = f"<DOC>\n<DOCNO> {docid} </DOCNO>\n<TEXT>\n{' '.join(words)}\n</TEXT>\n</DOC>\n"
    ref_set = draw(template_sets(reference=True))
    hyp_set = draw(st.one_of(template_sets(reference=False), template_sets(reference=True).map(as_hypothesis)))
    hyp_words = draw(st.lists(st.sampled_from(WORDS), min_size=0, max_size=40))
    hyp_docs = draw(st.sampled_from(["same", "segmented", "unsegmented"]))
    hyp_ids = draw(st.lists(st.sampled_from(DOCIDS), min_size=1, max_size=3, unique=True))
    return documents, ref_set, hyp_set, hyp_words, hyp_docs, hyp_ids


def _score_with_corpora(case) -> None:
    documents, ref_set, hyp_set, hyp_words, hyp_docs, hyp_ids = case
    with workdir() as directory:
        (directory / "ref.tpl").write_text(write_templates(ref_set), encoding="utf-8")
        (directory / "hyp.tpl").write_text(write_templates(hyp_set), encoding="utf-8")
        (directory / "ref.sgml").write_text("".join(documents.values()), encoding="utf-8")
        args = ["score", str(directory / "ref.tpl"), str(directory / "hyp.tpl"), "--ref-text", str(directory / "ref.sgml")]
        if hyp_docs == "segmented":
            text = "".join(f"<DOC>\n<DOCNO> {docid} </DOCNO>\n{' '.join(hyp_words)}\n</DOC>\n" for docid in hyp_ids)
        elif hyp_docs == "unsegmented":
            text = " ".join(hyp_words) + "\n"
        else:
            text = None
        if text is not None:
            (directory / "hyp.sgml").write_text(text, encoding="utf-8")
            args += ["--hyp-text", str(directory / "hyp.sgml")]
        run([*args, "--json", "-"])


@needs_corpus
@QUICK
@given(corpus_and_sets())
def test_random_corpora(case) -> None:
    _score_with_corpora(case)


@needs_corpus
@pytest.mark.fuzz
@LONG
@given(corpus_and_sets())
def test_random_corpora_long(case) -> None:
    _score_with_corpora(case)


# ------------------------------------------------------------ the oracle


def test_oracle_rejects_inconsistent_counts() -> None:
    """The invariant check itself catches a broken summary (so the fuzz tests can fail)."""
    good = {"POS": 2, "ACT": 1, "COR": 1, "INC": 0, "MIS": 1, "SPU": 0, "OPT": 0, "REM": 0,
            "REC": 0.5, "PRE": 1.0, "F": 2 / 3, "UND": 0.5, "OVG": 0.0, "SUB": 0.0, "ERR": 0.5}
    check_counts("good", good)
    for bad in ({**good, "POS": 3}, {**good, "ACT": 2}, {**good, "F": 1.5}, {**good, "REC": None}):
        with pytest.raises(AssertionError):
            check_counts("bad", bad)
