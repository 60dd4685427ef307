"""Fuzzing the CLI: every input either scores consistently or is one clear error.

For random valid template sets (``tests/support/strategies.py`` written by
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
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hub4eval.cli import app
from hub4eval.io.templettes import write_templates
from hub4eval.util.records import replace
from tests.support import ROOT
from tests.support.fuzz import report_outcomes
from tests.support.strategies import DOCIDS, WORDS, as_hypothesis, template_sets

SAMPLE = ROOT / "examples" / "sample"
SAMPLE_FILES = {name: (SAMPLE / name).read_bytes() for name in ("ref.tpl", "hyp.tpl", "text.sgml")}
HAS_CORPUS = importlib.util.find_spec("hub4eval.io.corpus") is not None
needs_corpus = pytest.mark.skipif(not HAS_CORPUS, reason="hub4eval.io.corpus (text corpora) has not landed yet")

QUICK = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LONG = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# The mutation tests of `pytest -m fuzz`: 4 x 2,500 mutated inputs (plus the
# long-run and encoding mutations), so a fuzz run feeds hub4eval more than
# 10,000 mutated files.
MUTATIONS = settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])

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


# Outcomes of every run of this module: printed at the end (pytest -s), and
# appended to the file named by $HUB4EVAL_FUZZ_REPORT (docs/input-errors.md
# records the numbers of a `pytest -m fuzz` run).
OUTCOMES: Counter[str] = Counter()


@pytest.fixture(scope="module", autouse=True)
def outcomes_at_the_end() -> Iterator[None]:
    yield
    report_outcomes(OUTCOMES, "fuzz outcomes")


def run(
    args: list[str], must_score: bool = False, positioned: re.Pattern[str] = POSITIONED, kind: str = "cli"
) -> dict | None:
    """Run the CLI; return the JSON when it scored, None when it refused the input."""
    result = runner.invoke(app, args)
    output = result.output
    assert "Traceback" not in output, output
    assert result.exit_code in (0, 2), (args, result.exit_code, output, result.exception)
    OUTCOMES[f"{kind} runs"] += 1
    if result.exit_code == 2:
        assert not must_score, (args, output)
        lines = result.stderr.splitlines()
        assert len(lines) == 1, output
        assert positioned.match(lines[0]), lines[0]
        assert "warning:" not in lines[0]
        OUTCOMES[f"{kind} refused (exit 2, one line)"] += 1
        return None
    OUTCOMES[f"{kind} scored (exit 0)"] += 1
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
        data = run(["score", str(ref), str(hyp), "--compare", compare, "--json", "-"], must_score=True, kind="valid")
        assert data is not None
        run(["check", str(ref)], must_score=True, kind="valid")
        run(["check", str(hyp), "--hypothesis"], must_score=True, kind="valid")
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


@pytest.mark.slow
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
    b"##",
    b":=",
    b"\xff",
    b"\xc3",
    b"\xe2\x80\xa8",
    b"\x00",
    b"\xef\xbb\xbf",
    b"<DOC>",
    b"</DOC>",
    b"<DOCNO>",
    b"</DOCNO>",
    b"<TEXT>",
    b"<ANNOTATION>",
    b"<",
    b"-1",
    b"99999999",
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
        run(args, kind="mutated")
        if name != "text.sgml":
            role = "--hypothesis" if name == "hyp.tpl" else "--reference"
            run(["check", str(directory / name), role] + (["--text", text] if with_text else []), kind="mutated")


template_mutations = st.sampled_from(["ref.tpl", "hyp.tpl"]).flatmap(
    lambda name: st.tuples(st.just(name), mutated(SAMPLE_FILES[name]))
)


@pytest.mark.slow
@QUICK
@given(template_mutations)
def test_mutated_sample_templates(case) -> None:
    _score_mutation(*case, with_text=False)


@pytest.mark.fuzz
@MUTATIONS
@given(template_mutations)
def test_mutated_sample_templates_long(case) -> None:
    _score_mutation(*case, with_text=False)


any_mutation = st.sampled_from(["ref.tpl", "hyp.tpl", "text.sgml"]).flatmap(
    lambda name: st.tuples(st.just(name), mutated(SAMPLE_FILES[name]))
)


@pytest.mark.slow
@needs_corpus
@QUICK
@given(any_mutation)
def test_mutated_sample_files_with_text(case) -> None:
    _score_mutation(*case, with_text=True)


@needs_corpus
@pytest.mark.fuzz
@MUTATIONS
@given(any_mutation)
def test_mutated_sample_files_with_text_long(case) -> None:
    _score_mutation(*case, with_text=True)


@st.composite
def mutated_written_set(draw) -> tuple[str, bytes]:
    reference = draw(st.booleans())
    tset = draw(template_sets(reference=reference))
    return ("ref.tpl" if reference else "hyp.tpl"), draw(mutated(write_templates(tset).encode("utf-8")))


def _score_mutated_set(case) -> None:
    name, data = case
    with workdir() as directory:
        (directory / name).write_bytes(data)
        other = "hyp.tpl" if name == "ref.tpl" else "ref.tpl"
        (directory / other).write_bytes(SAMPLE_FILES[other])
        run(["score", str(directory / "ref.tpl"), str(directory / "hyp.tpl"), "--json", "-"], kind="mutated")


@pytest.mark.slow
@QUICK
@given(mutated_written_set())
def test_mutated_random_sets(case) -> None:
    _score_mutated_set(case)


@pytest.mark.fuzz
@MUTATIONS
@given(mutated_written_set())
def test_mutated_random_sets_long(case) -> None:
    _score_mutated_set(case)


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
        args = [
            "score",
            str(directory / "ref.tpl"),
            str(directory / "hyp.tpl"),
            "--ref-text",
            str(directory / "ref.sgml"),
        ]
        if hyp_docs == "segmented":
            text = "".join(f"<DOC>\n<DOCNO> {docid} </DOCNO>\n{' '.join(hyp_words)}\n</DOC>\n" for docid in hyp_ids)
        elif hyp_docs == "unsegmented":
            text = " ".join(hyp_words) + "\n"
        else:
            text = None
        if text is not None:
            (directory / "hyp.sgml").write_text(text, encoding="utf-8")
            args += ["--hyp-text", str(directory / "hyp.sgml")]
        run([*args, "--json", "-"], kind="corpora")


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


# ------------------------------------------------- long runs: time bounded per byte

# Runs of one character that once cost time in the square of their length
# (blanks between pieces of a line, quotes, '#', plain words) and a stray
# character after them.
RUN_PIECES = [b" ", b"\t", b"\f", b'"', b"#", b"a", b"a ", b"# ", b'" ', b"-", b"1#", b"[", b"<", b";"]
RUN_ENDS = [b"x", b"\r", b"\rx", b"", b'"', b"##", b"\x00", b"\n", b"\f\n", b" :="]


@st.composite
def long_runs(draw) -> tuple[str, bytes]:
    """A sample templette file with one long run (up to 60,000 bytes) inserted in a line."""
    name = draw(st.sampled_from(["ref.tpl", "hyp.tpl"]))
    data = SAMPLE_FILES[name]
    lines = data.split(b"\n")
    index = draw(st.integers(0, len(lines) - 1))
    line = lines[index]
    at = draw(st.integers(0, len(line)))
    size = draw(st.sampled_from([1_000, 5_000, 20_000, 60_000]))
    piece = draw(st.sampled_from(RUN_PIECES))
    run_ = piece * (size // len(piece)) + draw(st.sampled_from(RUN_ENDS))
    lines[index] = line[:at] + run_ + line[at:]
    data = b"\n".join(lines)
    if draw(st.booleans()):
        data = draw(mutated(data))
    return name, data


def _score_long_run(case) -> None:
    name, data = case
    with workdir() as directory:
        for file, content in SAMPLE_FILES.items():
            (directory / file).write_bytes(data if file == name else content)
        start = time.process_time()  # CPU seconds (the run is in this process): steady on a loaded machine
        run(["score", str(directory / "ref.tpl"), str(directory / "hyp.tpl"), "--json", "-"], kind="long run")
        seconds = time.process_time() - start
    # linear: a fraction of a second for the sample, microseconds per byte (the
    # square of a 20,000-byte run took 26 s); generous for a shared machine
    assert seconds < 2.0 + 30e-6 * len(data), (seconds, len(data))


@QUICK
@given(long_runs())
def test_long_runs_parse_in_time_linear_in_their_length(case) -> None:
    _score_long_run(case)


@pytest.mark.fuzz
@LONG
@given(long_runs())
def test_long_runs_parse_in_time_linear_in_their_length_long(case) -> None:
    _score_long_run(case)


# ---------------------------------------------------------- encodings

CODECS = [
    "utf-8",
    "latin-1",
    "cp1252",
    "utf-16",
    "utf-16-le",
    "utf-32",
    "utf-7",
    "ascii",
    "cp037",
    "koi8-r",
    "shift_jis",
    "unicode_escape",
    "raw_unicode_escape",
    "punycode",
    "idna",
    "undefined",
    "rot13",
    "hex",
    "base64",
    "zlib",
    "bz2",
    "uu",
    "quopri",
    "utf-9",
    "",
    "utf_8_sig",
    "mbcs",
]
# An encoding error names the file, with a position when the codec gives one.
FILE_ERROR = re.compile(r"^\S+\.(tpl|sgml|glm)(:\d+)?(:\d+)?: \S")


@st.composite
def encoded_inputs(draw) -> tuple[str, bytes, str]:
    name = draw(st.sampled_from(["ref.tpl", "hyp.tpl", "text.sgml"]))
    codec = draw(st.sampled_from(CODECS))
    data = SAMPLE_FILES[name]
    if draw(st.booleans()):  # the file really in a text codec (if it can be)
        target = draw(st.sampled_from(["utf-16", "latin-1", "utf-7", "cp037", "utf-32"]))
        try:
            data = data.decode("utf-8").encode(target)
        except UnicodeError:
            pass
    if draw(st.booleans()):
        data = draw(mutated(data))
    return name, data, codec


def _score_encoded(case) -> None:
    name, data, codec = case
    with workdir() as directory:
        for file, content in SAMPLE_FILES.items():
            (directory / file).write_bytes(data if file == name else content)
        ref, hyp, text = (str(directory / f) for f in ("ref.tpl", "hyp.tpl", "text.sgml"))
        run(
            ["score", ref, hyp, "--ref-text", text, "--encoding", codec, "--json", "-"],
            positioned=FILE_ERROR,
            kind="encoding",
        )


@QUICK
@given(encoded_inputs())
def test_any_encoding_scores_or_is_one_line(case) -> None:
    _score_encoded(case)


@pytest.mark.fuzz
@LONG
@given(encoded_inputs())
def test_any_encoding_scores_or_is_one_line_long(case) -> None:
    _score_encoded(case)


# ---------------------------------------------------------- outputs that fail

ROOT_ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
ROOT_ENV.pop("HUB4EVAL_DEBUG", None)
COMMANDS = {
    "score": ["score", str(SAMPLE / "ref.tpl"), str(SAMPLE / "hyp.tpl")],
    "explain": ["explain", str(SAMPLE / "ref.tpl"), str(SAMPLE / "hyp.tpl")],
    "check": ["check", str(SAMPLE / "ref.tpl")],
    "compare": [
        "compare",
        str(SAMPLE / "ref.tpl"),
        str(SAMPLE / "hyp.tpl"),
        str(SAMPLE / "hyp.tpl"),
        "--bootstrap",
        "50",
    ],
    "align": [
        "align",
        str(ROOT / "examples" / "asr" / "reference.sgml"),
        str(ROOT / "examples" / "asr" / "asr_unsegmented.sgml"),
    ],
}
FILE_OPTIONS = {"score": ["--json", "--csv", "--html"], "compare": ["--json"], "align": ["--json"]}


@st.composite
def failing_outputs(draw) -> tuple[list[str], str, int, bool]:
    """A command, an output file option aimed at a place that cannot take it (or
    none), and what happens to standard output: closed early, a full disk, or
    nothing."""
    command = draw(st.sampled_from(sorted(COMMANDS)))
    args = list(COMMANDS[command])
    options = FILE_OPTIONS.get(command, [])
    target = draw(st.sampled_from(["none", "-", "directory", "/dev/full", "missing/dir/out"]))
    if options and target != "none":
        args += [draw(st.sampled_from(options)), target]
    stdout = draw(st.sampled_from(["closed", "full", "pipe"]))
    bad_file = bool(options) and target in ("directory", "/dev/full", "missing/dir/out")
    return args, stdout, draw(st.integers(0, 200)), bad_file


def _run_failing_output(case) -> None:
    args, stdout, read, bad_file = case
    if stdout == "full" and not os.path.exists("/dev/full"):
        return
    with workdir() as directory:
        args = [str(directory) if a == "directory" else a for a in args]
        args = [str(directory / a) if a.startswith("missing/") else a for a in args]
        command = [sys.executable, "-m", "hub4eval", *args]
        if stdout == "full":
            with open("/dev/full", "wb") as full:
                proc = subprocess.run(command, stdout=full, stderr=subprocess.PIPE, env=ROOT_ENV, timeout=300)
            status, stderr = proc.returncode, proc.stderr.decode("utf-8", "replace")
        else:
            proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ROOT_ENV)
            if stdout == "closed":
                proc.stdout.read(read)
                proc.stdout.close()
            else:
                proc.stdout.read()
            stderr = proc.stderr.read().decode("utf-8", "replace")
            status = proc.wait(timeout=300)
    OUTCOMES["output runs"] += 1
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    assert status in (0, 2), (args, stdout, status, stderr)
    if status == 2:
        OUTCOMES["output refused (exit 2, one line)"] += 1
        # the error is one line; warnings printed before it (the inputs' own, such as the note that
        # no texts were given) are lines of their own
        errors = [
            line for line in stderr.splitlines() if not line.startswith("warning: ") and ": warning: " not in line
        ]
        assert len(errors) == 1, stderr
        assert "cannot write" in errors[0], stderr
    else:
        OUTCOMES["output exit 0"] += 1
        # a full disk on standard output can never end with status 0; a closed pipe
        # ends quietly; a file option aimed at a bad place never scores silently
        assert stdout != "full", stderr
        # an output file aimed at a directory, a full disk or a missing directory
        # is written before anything is printed: it can never end with status 0
        assert not bad_file, (args, stderr)
        assert stderr == "" or all("warning" in line for line in stderr.splitlines()), stderr


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(failing_outputs())
def test_outputs_that_fail_are_one_line_or_quiet(case) -> None:
    _run_failing_output(case)


@pytest.mark.fuzz
@settings(max_examples=80, deadline=None)
@given(failing_outputs())
def test_outputs_that_fail_are_one_line_or_quiet_long(case) -> None:
    _run_failing_output(case)


# ---------------------------------------------------------- a damaged numba cache


@st.composite
def cache_damage(draw) -> list[tuple[int, str, int]]:
    """Damage to the cache files, by file number: garbage, truncation, a flipped byte, swapped."""
    return draw(
        st.lists(
            st.tuples(
                st.integers(0, 50),
                st.sampled_from(["garbage", "truncate", "flip", "swap", "empty"]),
                st.integers(0, 10**6),
            ),
            min_size=1,
            max_size=6,
        )
    )


_CLEAN_CACHE: dict[str, Path] = {}


def _damaged_cache_run(damage) -> None:
    import random
    import shutil

    align = COMMANDS["align"]
    if "dir" not in _CLEAN_CACHE:
        directory = Path(tempfile.mkdtemp(prefix="hub4eval-numba-"))
        proc = subprocess.run(
            [sys.executable, "-m", "hub4eval", *align],
            capture_output=True,
            env={**ROOT_ENV, "NUMBA_CACHE_DIR": str(directory)},
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr
        _CLEAN_CACHE["dir"], _CLEAN_CACHE["out"] = directory, proc.stdout
    with workdir() as work:
        cache = work / "cache"
        shutil.copytree(_CLEAN_CACHE["dir"], cache)
        files = sorted(cache.rglob("*.nb?"))
        for number, how, seed in damage:
            path = files[number % len(files)]
            data = path.read_bytes()
            rng = random.Random(seed)
            if how == "garbage":
                data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400)))
            elif how == "truncate":
                data = data[: rng.randrange(len(data) + 1)]
            elif how == "flip" and data:
                at = rng.randrange(len(data))
                data = data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]
            elif how == "swap":
                data = files[(number + 1) % len(files)].read_bytes()
            elif how == "empty":
                data = b""
            path.write_bytes(data)
        proc = subprocess.run(
            [sys.executable, "-m", "hub4eval", *align],
            capture_output=True,
            env={**ROOT_ENV, "NUMBA_CACHE_DIR": str(cache)},
            timeout=300,
        )
    OUTCOMES["numba cache runs"] += 1
    stderr = proc.stderr.decode("utf-8", "replace")
    # the same result as with a sound cache; at most one warning line
    assert proc.returncode == 0, stderr
    assert proc.stdout == _CLEAN_CACHE["out"]
    assert len(stderr.splitlines()) <= 1 and (not stderr or stderr.startswith("hub4eval: warning: ")), stderr


@pytest.mark.fuzz
@settings(max_examples=25, deadline=None)
@given(cache_damage())
def test_a_damaged_numba_cache_never_fails_a_run(damage) -> None:
    _damaged_cache_run(damage)


# ------------------------------------------------------------ the oracle


def test_oracle_rejects_inconsistent_counts() -> None:
    """The invariant check itself catches a broken summary (so the fuzz tests can fail)."""
    good = {
        "POS": 2,
        "ACT": 1,
        "COR": 1,
        "INC": 0,
        "MIS": 1,
        "SPU": 0,
        "OPT": 0,
        "REM": 0,
        "REC": 0.5,
        "PRE": 1.0,
        "F": 2 / 3,
        "UND": 0.5,
        "OVG": 0.0,
        "SUB": 0.0,
        "ERR": 0.5,
    }
    check_counts("good", good)
    for bad in ({**good, "POS": 3}, {**good, "ACT": 2}, {**good, "F": 1.5}, {**good, "REC": None}):
        with pytest.raises(AssertionError):
            check_counts("bad", bad)
