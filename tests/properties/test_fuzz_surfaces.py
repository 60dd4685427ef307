"""The campaign over every input format, every command and every option an outsider can give.

Complements ``test_fuzz.py`` (templette files, SGML, encodings, failing
outputs, damaged caches) with the surfaces the second outside campaign
attacked:

* **line formats**: ctm, stm, trn and plain-text corpora, mutated (NUL bytes,
  alternations, labels, ignored segments, huge numbers, recording names that
  clash), read by ``text``, ``align``, ``check --text`` and ``score`` with
  texts that differ (spoken forms on);
* **options**: every command with random values of its count-like options
  (``--bootstrap``, ``--seed``, ``--jobs``, ``--context``, ``--beta``,
  ``--min-map-f``), its output paths (empty, ``-``, an input, a link to an
  input, a directory, two outputs on one file) and list values holding
  ``|``, ``,`` or ``%``;
* **real processes** for a sample of those (exit codes, one line on stderr).

The oracle of every run: exit status 0 or 2; on 2, exactly one line on
stderr and never a traceback or an internal error; **no input file changes**
and no temporary file is left behind; a JSON output has counts that add up
and matches docs/score-output.schema.json. ``pytest -m fuzz`` runs the long
versions; ``HUB4EVAL_FUZZ_REPORT=FILE`` collects the outcomes per surface.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hub4eval.cli import app
from tests.support.fuzz import report_outcomes

ROOT = Path(__file__).resolve().parents[2]
ASR = ROOT / "examples" / "asr"
SCHEMA = json.loads((ROOT / "docs" / "score-output.schema.json").read_text(encoding="utf-8"))
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
ENV.pop("HUB4EVAL_DEBUG", None)

QUICK = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
LONG = settings(max_examples=5000, deadline=None, suppress_health_check=list(HealthCheck))
PROCESSES = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))

runner = CliRunner()
OUTCOMES: Counter[str] = Counter()


@pytest.fixture(scope="module", autouse=True)
def outcomes_at_the_end() -> Iterator[None]:
    yield
    report_outcomes(OUTCOMES, "fuzz surfaces")


# ------------------------------------------------------------------ the inputs

WORDS = (ASR / "reference.sgml").read_text(encoding="utf-8").split("<TEXT>")[1].split("</TEXT>")[0].split()


def _line_formats() -> dict[str, bytes]:
    """The reference's words in each line format (two recordings, two channels in one)."""
    half = len(WORDS) // 2
    ctm = "".join(f"rec{1 + (i >= half)} {1 + (i % 2) * (i < half)} {i}.0 0.5 {w}\n" for i, w in enumerate(WORDS))
    stm = ";; comment\n" + "".join(
        f"rec {1 + (k % 2)} spk {k}.0 {k}.9 <o,f0,male> {' '.join(WORDS[k * 5 : k * 5 + 5])}\n"
        for k in range(len(WORDS) // 5 + 1)
    )
    trn = "".join(f"{' '.join(WORDS[k * 6 : k * 6 + 6])} (utt{k // 2})\n" for k in range(len(WORDS) // 6 + 1))
    return {
        "ctm": ctm.encode(),
        "stm": stm.encode(),
        "trn": trn.encode(),
        "txt": " ".join(WORDS).encode() + b"\n",
        "sgml": (ASR / "asr_segmented.sgml").read_bytes(),
    }


BASES = _line_formats()
SPECIAL = [
    b"\x00",
    b"\t",
    b"\n",
    b"\r",
    b" ",
    b";;",
    b";",
    b"-",
    b"a-1",
    b"*",
    b"nan",
    b"inf",
    b"-1",
    b"1e400",
    b"1" * 5000,
    b"fifty eight",
    b"$12,500",
    b"July 4",
    b"<ALT_BEGIN>",
    b"<ALT>",
    b"<ALT_END>",
    b"<o,f0,male>",
    b"<",
    b">",
    b"(",
    b")",
    b"{",
    b"/",
    b"}",
    b"@",
    b"IGNORE_TIME_SEGMENT_IN_SCORING",
    b"<DOC>",
    b"</DOC>",
    b"<DOCNO>",
    b"\xff",
    b"\xe2\x80\xa8",
    b"\xef\xbb\xbf",
]


@st.composite
def mutated(draw, data: bytes) -> bytes:
    """``data`` with 0-4 edits: delete, insert, replace, duplicate or swap lines, truncate."""
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "dup_line", "swap_lines", "truncate"]))
        n = len(data)
        piece = draw(st.sampled_from(SPECIAL) | st.binary(min_size=1, max_size=3))
        if kind in ("delete", "replace") and n:
            start = draw(st.integers(0, n - 1))
            end = min(n, start + draw(st.integers(1, 8)))
            data = data[:start] + (b"" if kind == "delete" else piece) + data[end:]
        elif kind == "insert":
            at = draw(st.integers(0, n))
            data = data[:at] + piece + data[at:]
        elif kind == "truncate" and n:
            data = data[: draw(st.integers(0, n - 1))]
        elif kind in ("dup_line", "swap_lines"):
            lines = data.split(b"\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            if kind == "dup_line":
                lines.insert(j, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
    return data


# ------------------------------------------------------------------ the oracle

COUNT_KEYS = ("POS", "ACT", "COR", "INC", "MIS", "SPU")


def check_json(data: dict) -> None:
    """Counts add up at every level; the whole matches the published schema."""
    for level in ("by_slot", "by_type", "by_document", "by_kind"):
        totals = dict.fromkeys(COUNT_KEYS, 0)
        for counts in data[level].values():
            assert counts["POS"] == counts["COR"] + counts["INC"] + counts["MIS"], counts
            assert counts["ACT"] == counts["COR"] + counts["INC"] + counts["SPU"], counts
            for key in COUNT_KEYS:
                totals[key] += counts[key]
        assert all(totals[key] == data["summary"][key] for key in COUNT_KEYS), level
    jsonschema.validate(data, SCHEMA)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file() and not p.is_symlink()}


def run(surface: str, args: list[str], folder: Path, inputs: dict[str, bytes]) -> int:
    """Run the CLI in-process and check the oracle; ``inputs`` are the files that must not change."""
    result = runner.invoke(app, args)
    output = result.output
    OUTCOMES[f"{surface} runs"] += 1
    assert "Traceback" not in output and "internal error" not in output, (args, output)
    assert result.exit_code in (0, 2), (args, result.exit_code, output, result.exception)
    after = snapshot(folder)
    for name, content in inputs.items():
        assert after.get(name) == content, (args, f"the input {name} changed")
    assert not [name for name in after if name.endswith(".tmp")], (args, sorted(after))
    if result.exit_code == 2:
        # one error line, last; warnings of the inputs read before it are lines of their own
        *warnings, line = result.stderr.splitlines()
        assert all("warning:" in w for w in warnings), (args, result.stderr)
        assert "warning:" not in line
        OUTCOMES[f"{surface} refused (exit 2, one line)"] += 1
        return 2
    OUTCOMES[f"{surface} scored (exit 0)"] += 1
    given = [args[k + 1] for k, arg in enumerate(args[:-1]) if arg == "--json"]
    if args[0] == "score" and given and given[-1] == "-":  # the last --json counts
        check_json(json.loads(result.stdout))
    return 0


def workdir() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="hub4eval-surfaces-")


# ------------------------------------------------------------------ line formats


@st.composite
def format_cases(draw) -> tuple[str, bytes, str]:
    form = draw(st.sampled_from(sorted(BASES)))
    data = draw(mutated(BASES[form]))
    command = draw(st.sampled_from(["text", "align-ref", "align-hyp", "check", "score"]))
    return form, data, command


def _format_case(case: tuple[str, bytes, str]) -> None:
    form, data, command = case
    with workdir() as name:
        folder = Path(name)
        corpus = folder / f"corpus.{form}"
        corpus.write_bytes(data)
        for file in ("ref.tpl", "hyp.tpl", "reference.sgml", "asr_unsegmented.sgml"):
            shutil.copy(ASR / file, folder / file)
        inputs = snapshot(folder)
        ref, hyp, reference = (str(folder / f) for f in ("ref.tpl", "hyp.tpl", "reference.sgml"))
        if command == "text":
            args = ["text", str(corpus)]
        elif command == "align-ref":
            args = ["align", str(corpus), str(folder / "asr_unsegmented.sgml"), "--json", "-"]
        elif command == "align-hyp":
            args = ["align", reference, str(corpus), "--show"]
        elif command == "check":
            args = ["check", ref, "--text", str(corpus)]
        else:
            args = ["score", ref, hyp, "--ref-text", reference, "--hyp-text", str(corpus), "--json", "-"]
        run(f"format {form}", args, folder, inputs)


@QUICK
@given(format_cases())
def test_line_formats_score_or_are_one_line(case) -> None:
    _format_case(case)


@pytest.mark.fuzz
@LONG
@given(format_cases())
def test_line_formats_score_or_are_one_line_long(case) -> None:
    _format_case(case)


# ------------------------------------------------------------------ options

COUNTS = ["-1", "0", "1", "3", "10000000", "10000001", "100000000000", "x", "", "1e3", "99999999999999999999999"]
FLOATS = ["0", "-1", "0.5", "1", "inf", "nan", "1e308", "x", ""]
TRICKY = ["a|b", "a,b", "%2C", "-", "", "the", "x y", "%hesitation", "|", ","]
PATHS = ["", "-", "out.json", "out2.json", "ref.tpl", "hyp.tpl", "reference.sgml", "link", "hard", ".", "no/dir/x"]


@st.composite
def option_cases(draw) -> tuple[str, list[str]]:
    command = draw(st.sampled_from(["score", "explain", "compare", "align", "project", "check", "text"]))
    args: list[str] = {
        "score": ["score", "ref.tpl", "hyp.tpl"],
        "explain": ["explain", "ref.tpl", "hyp.tpl"],
        "compare": ["compare", "ref.tpl", "hyp.tpl", "hyp.tpl", "--bootstrap", "20"],
        "align": ["align", "reference.sgml", "asr_unsegmented.sgml"],
        "project": ["project", "ref.tpl", "--ref-text", "reference.sgml", "--hyp-text", "asr_unsegmented.sgml"],
        "check": ["check", "ref.tpl"],
        "text": ["text", "reference.sgml"],
    }[command]
    texts = command in ("score", "explain", "compare") and draw(st.booleans())
    if texts:
        args += ["--ref-text", "reference.sgml", "--hyp-text", "asr_unsegmented.sgml"]
    choices: dict[str, list[str]] = {}
    if command in ("score", "compare"):
        choices.update({"--bootstrap": COUNTS, "--seed": COUNTS, "--json": PATHS})
    if command == "score":
        choices.update({"--csv": PATHS, "--html": PATHS, "--jobs": COUNTS})
    if command == "explain":
        choices["--context"] = COUNTS
    if command == "align":
        choices["--json"] = PATHS
    if command == "project":
        choices["-o"] = PATHS
    if command in ("score", "explain", "compare"):
        choices.update(
            {
                "--beta": FLOATS,
                "--min-map-f": FLOATS,
                "--premodifiers": TRICKY,
                "--fillers": TRICKY,
                "--unscored-slot": [*TRICKY, "WINNER,LOSER", "WINNER", "A.B"],
            }
        )
    if command in ("score", "explain", "compare", "align", "project"):
        choices.update({"--non-extractable": TRICKY, "--glm": ["", "none", "default", "ref.tpl", "mine.glm"]})
    for option in draw(st.lists(st.sampled_from(sorted(choices)), max_size=4)) if choices else []:
        args += [option, draw(st.sampled_from(choices[option]))]
    if command == "project" and "-o" not in args:
        args += ["-o", draw(st.sampled_from(PATHS))]
    return command, args


OUTPUT_OPTIONS = ("--json", "--csv", "--html", "-o")
LINKS = {"link": "hyp.tpl", "hard": "ref.tpl"}


def _setup(folder: Path, args: list[str]) -> dict[str, bytes]:
    """The files of an option case; returns the inputs of ``args`` (which must not change)."""
    for file in ("ref.tpl", "hyp.tpl", "reference.sgml", "asr_unsegmented.sgml"):
        shutil.copy(ASR / file, folder / file)
    (folder / "mine.glm").write_text("colour => color / [ ] __ [ ]\n", encoding="utf-8")
    (folder / "link").symlink_to(folder / "hyp.tpl")
    os.link(folder / "ref.tpl", folder / "hard")
    files = snapshot(folder)
    named = {arg for k, arg in enumerate(args) if not (k and args[k - 1] in OUTPUT_OPTIONS)}
    named = {LINKS.get(arg, arg) for arg in named}
    return {name: content for name, content in files.items() if name in named}


def _option_case(case: tuple[str, list[str]]) -> None:
    command, args = case
    with workdir() as name:
        folder = Path(name)
        inputs = _setup(folder, args)
        cwd = os.getcwd()
        os.chdir(folder)  # relative paths, as a user types them
        try:
            run(f"options {command}", args, folder, inputs)
        finally:
            os.chdir(cwd)


@QUICK
@given(option_cases())
def test_any_option_values_score_or_are_one_line(case) -> None:
    _option_case(case)


@pytest.mark.fuzz
@LONG
@given(option_cases())
def test_any_option_values_score_or_are_one_line_long(case) -> None:
    _option_case(case)


# ------------------------------------------------------------------ real processes

FILE_LINE = re.compile(r"^\S")


def _process_case(case: tuple[str, list[str]]) -> None:
    command, args = case
    with workdir() as name:
        folder = Path(name)
        inputs = _setup(folder, args)
        proc = subprocess.run(
            [sys.executable, "-m", "hub4eval", *args], cwd=folder, env=ENV, capture_output=True, timeout=300
        )
        after = snapshot(folder)
    stderr = proc.stderr.decode("utf-8", "replace")
    OUTCOMES["process runs"] += 1
    assert proc.returncode in (0, 2), (args, proc.returncode, stderr)
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    assert all(after.get(name) == content for name, content in inputs.items()), args
    if proc.returncode == 2:
        OUTCOMES["process refused (exit 2, one line)"] += 1
        *warnings, line = stderr.splitlines()
        assert all("warning:" in w for w in warnings) and FILE_LINE.match(line), stderr
    else:
        OUTCOMES["process exit 0"] += 1


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(option_cases())
def test_real_processes_exit_0_or_2_with_one_line(case) -> None:
    _process_case(case)


@pytest.mark.fuzz
@PROCESSES
@given(option_cases())
def test_real_processes_exit_0_or_2_with_one_line_long(case) -> None:
    _process_case(case)


# ------------------------------------------------------------------ hub4eval sclite

SCLITE = ROOT / "examples" / "sclite"


def _sclite_bases() -> dict[str, bytes]:
    """sclite's three input formats: the example's trn, and an stm with a ctm whose words fall in its segments."""
    stm_lines, ctm_lines = [";; comment\n"], []
    for k in range(len(WORDS) // 5 + 1):
        words = WORDS[k * 5 : k * 5 + 5]
        if not words:
            continue
        channel = 1 + (k % 2)
        stm_lines.append(f"rec {channel} spk {k}.0 {k}.9 <o,f0,male> {' '.join(words)}\n")
        ctm_lines += [f"rec {channel} {k + j * 0.15:.2f} 0.1 {w}\n" for j, w in enumerate(words)]
    ctm_lines.sort(key=lambda line: (line.split()[1], float(line.split()[2])))
    return {
        "ref.trn": (SCLITE / "ref.trn").read_bytes(),
        "hyp.trn": (SCLITE / "hyp.trn").read_bytes(),
        "ref.stm": "".join(stm_lines).encode(),
        "hyp.ctm": "".join(ctm_lines).encode(),
        "glm": b";; a GLM\ncolour => color / [ ] __ [ ]\nwanna => want to / [ ] __ [ ]\n",
    }


SCLITE_BASES = _sclite_bases()
SCLITE_PAIRS = {"trn": ("ref.trn", "trn", "hyp.trn", "trn"), "stm": ("ref.stm", "stm", "hyp.ctm", "ctm")}
SCLITE_PAIRS["ctm"] = ("hyp.ctm", "ctm", "hyp.ctm", "ctm")
SCLITE_OPTIONS: dict[str, list[list[str]]] = {
    "-i": [["-i", v] for v in ("spu_id", "rm", "swb", "wsj", "sp", "atis", "x", "")],
    "-o": [["-o", *v] for v in (["sum"], ["sum", "rsum", "pra", "dtl", "sgml"], ["all"], ["stdout"], ["none"], [])]
    + [["-o", "rsum", "stdout"], ["-o", "x"], ["-o", "sum", "sum"]],
    "-O": [["-O", v] for v in ("", ".", "out", "no/dir", "ref", "r.sys")],
    "-n": [["-n", v] for v in ("", "r", "hyp", "x/y", "sys", ".")],
    "-f": [["-f", v] for v in ("0", "-1", "x", "99999999999999999999", "")],
    "-e": [
        ["-e", *v] for v in (["utf-8"], ["ascii"], ["gb"], ["euc"], ["utf-8", "babel_turkish"], ["x"], ["utf-8", "x"])
    ],
    "-m": [["-m"], ["-m", "ref"], ["-m", "hyp"], ["-m", "ref", "hyp"], ["-m", "x"]],
    "-c": [["-c"], ["-c", "NOASCII"], ["-c", "DH"], ["-c", "x"]],
    "flags": [["-s"], ["-F"], ["-D"], ["-T"], ["-l", "100"], ["-l"], ["-x"], ["-S", "algo1"], ["-S", "algo3", "lex"]],
    "--glm": [["--glm", v] for v in ("mine.glm", "mine.glm", "", "none", "r.sys", "missing.glm")]
    + [["--glm", "mine.glm", "--glm-dh"], ["--glm", "mine.glm", "--glm-no-sides"], ["--glm-dh"]],
}


@st.composite
def sclite_cases(draw) -> tuple[dict[str, bytes], list[str]]:
    """Files (name -> content) and a command line: one pairing, mutated inputs, random options."""
    ref_base, ref_form, hyp_base, hyp_form = SCLITE_PAIRS[draw(st.sampled_from(sorted(SCLITE_PAIRS)))]
    ref_name = draw(st.sampled_from(["r.sys", "r.trn", "r.pra"]))  # -n r -o sum aims a report at it
    hyp_name = draw(st.sampled_from(["h." + hyp_form, "h.sys"]))
    mutate = draw(st.sampled_from(["none", "ref", "hyp", "both", "glm"]))
    files = {
        ref_name: draw(mutated(SCLITE_BASES[ref_base])) if mutate in ("ref", "both") else SCLITE_BASES[ref_base],
        hyp_name: draw(mutated(SCLITE_BASES[hyp_base])) if mutate in ("hyp", "both") else SCLITE_BASES[hyp_base],
        "mine.glm": draw(mutated(SCLITE_BASES["glm"])) if mutate == "glm" else SCLITE_BASES["glm"],
    }
    args = ["sclite", "-r", ref_name, *draw(st.sampled_from([[ref_form], [], ["x"]])), "-h", hyp_name, hyp_form]
    if ref_form == "trn":
        args += ["-i", "spu_id"]
    for option in draw(st.lists(st.sampled_from(sorted(SCLITE_OPTIONS)), max_size=4)):
        args += draw(st.sampled_from(SCLITE_OPTIONS[option]))
    if draw(st.booleans()):
        args += ["-h", hyp_name, hyp_form, "second"]
    return files, args


def _sclite_case(case: tuple[dict[str, bytes], list[str]]) -> None:
    files, args = case
    with workdir() as name:
        folder = Path(name)
        for file, content in files.items():
            (folder / file).write_bytes(content)
        cwd = os.getcwd()
        os.chdir(folder)
        try:
            run("sclite", args, folder, snapshot(folder))
        finally:
            os.chdir(cwd)


@QUICK
@given(sclite_cases())
def test_sclite_scores_or_is_one_line(case) -> None:
    _sclite_case(case)


@pytest.mark.fuzz
@LONG
@given(sclite_cases())
def test_sclite_scores_or_is_one_line_long(case) -> None:
    _sclite_case(case)


# ------------------------------------------------------------------ hub4eval ne

NE = ROOT / "examples" / "asr_ne"
_MARKUP = re.compile(r'<(ENAMEX|TIMEX|NUMEX) TYPE="([^"]*)">(.*?)</\1>')


def _jsonl(sgml: str) -> bytes:
    """The same documents and entities as JSON Lines (offsets counted in the text without markup)."""
    lines = []
    for doc in sgml.split("<DOC>")[1:]:
        docno = doc.split("<DOCNO>")[1].split("</DOCNO>")[0].strip()
        marked = doc.split("<TEXT>")[1].split("</TEXT>")[0]
        text, entities, at = "", [], 0
        for match in _MARKUP.finditer(marked):
            text += marked[at : match.start()]
            entities.append([match.group(2), len(text), len(text) + len(match.group(3)), match.group(1)])
            text += match.group(3)
            at = match.end()
        text += marked[at:]
        lines.append(json.dumps({"id": docno, "text": text, "entities": entities}))
    return ("\n".join(lines) + "\n").encode()


NE_BASES = {
    "ref.sgml": (NE / "reference.sgml").read_bytes(),
    "ref.jsonl": _jsonl((NE / "reference.sgml").read_text(encoding="utf-8")),
    "asr.sgml": (NE / "asr_tagged.sgml").read_bytes(),
    "stream.sgml": (NE / "asr_tagged_unsegmented.sgml").read_bytes(),
    "tagged.sgml": (NE / "transcript_tagged.sgml").read_bytes(),
    "tagged.jsonl": _jsonl((NE / "transcript_tagged.sgml").read_text(encoding="utf-8")),
}
NE_SPECIAL = [b'<ENAMEX TYPE="PERSON">', b"</ENAMEX>", b"<TIMEX>", b'TYPE=""', b'"', b"{", b"}", b"[", b"]", b"-1"]
NE_OUTPUTS = ("--json", "--csv", "--html", "--to-templettes")  # a file none of the run reads may be replaced
NE_PATHS = [*PATHS, "ref.sgml", "hyp.sgml", "ref.jsonl", "versus.sgml"]


@st.composite
def ne_cases(draw) -> tuple[dict[str, bytes], list[str]]:
    ref_base = draw(st.sampled_from(["ref.sgml", "ref.jsonl"]))
    hyp_base = draw(st.sampled_from(["asr.sgml", "stream.sgml", "tagged.sgml", "tagged.jsonl", ref_base]))
    ref_name = "ref" + ref_base[3:]
    hyp_name = "hyp" + hyp_base[hyp_base.index(".") :]
    mutate = draw(st.sampled_from(["none", "ref", "hyp", "both", "versus"]))

    def content(base: str, edit: bool) -> bytes:
        data = draw(mutated(NE_BASES[base])) if edit else NE_BASES[base]
        if edit and draw(st.booleans()):  # a piece of markup or JSON somewhere
            at = draw(st.integers(0, len(data)))
            data = data[:at] + draw(st.sampled_from(NE_SPECIAL)) + data[at:]
        return data

    files = {
        ref_name: content(ref_base, mutate in ("ref", "both")),
        hyp_name: content(hyp_base, mutate in ("hyp", "both")),
        "versus.sgml": content("asr.sgml", mutate == "versus"),
        "mine.glm": b"colour => color / [ ] __ [ ]\n",
    }
    args = ["ne", ref_name, hyp_name]
    choices: dict[str, list[str]] = {
        "--ref-format": ["muc", "jsonl", "MUC", "x", ""],
        "--hyp-format": ["muc", "jsonl", "x"],
        "--json": NE_PATHS,
        "--csv": NE_PATHS,
        "--html": NE_PATHS,
        "--to-templettes": ["", ".", "out", "ref.sgml", "hyp.sgml", "no/dir", "out"],
        "--bootstrap": COUNTS,
        "--seed": COUNTS,
        "--versus": ["versus.sgml", "hyp.sgml", "missing.sgml", "", "-"],
        "--beta": FLOATS,
        "--min-map-f": FLOATS,
        "--premodifiers": TRICKY,
        "--fillers": TRICKY,
        "--non-extractable": TRICKY,
        "--glm": ["", "none", "default", "ref.sgml", "mine.glm"],
    }
    for option in draw(st.lists(st.sampled_from(sorted(choices)), max_size=4)):
        args += [option, draw(st.sampled_from(choices[option]))]
    args += draw(st.lists(st.sampled_from(["--explain", "--no-ceiling", "-q"]), max_size=2, unique=True))
    return files, args


def _ne_case(case: tuple[dict[str, bytes], list[str]]) -> None:
    files, args = case
    with workdir() as name:
        folder = Path(name)
        for file, content in files.items():
            (folder / file).write_bytes(content)
        cwd = os.getcwd()
        os.chdir(folder)
        named = {arg for k, arg in enumerate(args) if not (k and args[k - 1] in NE_OUTPUTS)}
        inputs = {file: content for file, content in snapshot(folder).items() if file in named}
        try:
            run("ne", args, folder, inputs)
        finally:
            os.chdir(cwd)


@QUICK
@given(ne_cases())
def test_ne_scores_or_is_one_line(case) -> None:
    _ne_case(case)


@pytest.mark.fuzz
@LONG
@given(ne_cases())
def test_ne_scores_or_is_one_line_long(case) -> None:
    _ne_case(case)
