"""`hub4eval project` takes every option that changes a score, and the file it
writes scores exactly the ceiling that `score` prints under the same options.

Each case runs on real recognizer output (examples/asr_numbers: espeak-ng and
pocketsphinx; examples/asr): `score REF HYP --json` gives the ceiling's counts,
`project REF -o P.tpl` then `score REF P.tpl --json` must give the same counts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hub4eval.cli import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NUMBERS = EXAMPLES / "asr_numbers"
ASR = EXAMPLES / "asr"
TEXTS = {
    "numbers": (NUMBERS / "ref.tpl", NUMBERS / "hyp.tpl", NUMBERS / "reference.sgml", NUMBERS / "asr.sgml"),
    "unsegmented": (ASR / "ref.tpl", ASR / "hyp.tpl", ASR / "reference.sgml", ASR / "asr_unsegmented.sgml"),
}
COUNTS = ("COR", "INC", "MIS", "SPU", "OPT", "REM")

# every option of `score` that changes a score, each with a value that changes it here
OPTIONS = [
    ("numbers", []),
    ("numbers", ["--spoken-forms", "none"]),  # the case: 71.4 against 59.0
    ("numbers", ["--glm", "none"]),
    ("numbers", ["--compare", "content"]),
    ("numbers", ["--compare", "extent"]),
    ("numbers", ["--content", "clean"]),
    ("numbers", ["--beta", "2"]),
    ("numbers", ["--min-map-f", "0.9"]),
    ("numbers", ["--unscored-slot", "WHO"]),
    ("numbers", ["--premodifiers", "on"]),
    ("numbers", ["--keep-punctuation"]),
    ("numbers", ["--case-sensitive"]),
    ("numbers", ["--fillers", "thirty"]),
    ("numbers", ["--non-extractable", "TEXT"]),
    ("numbers", ["--spoken-element", "DOCNO"]),
    ("unsegmented", []),
    ("unsegmented", ["--unsegmented", "--glm", "none"]),
]


def _run(*args: object) -> dict:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout) if result.stdout.lstrip().startswith("{") else {}


@pytest.mark.parametrize(("texts", "options"), OPTIONS, ids=[f"{t}:{' '.join(o) or 'defaults'}" for t, o in OPTIONS])
def test_the_projected_file_scores_exactly_the_ceiling(tmp_path: Path, texts: str, options: list[str]) -> None:
    ref, hyp, ref_text, hyp_text = TEXTS[texts]
    text_args = ["--ref-text", ref_text, "--hyp-text", hyp_text]
    scored = _run("score", ref, hyp, *text_args, *options, "--json", "-", "-q")
    ceiling = scored["ceiling"]["ceiling"]
    projected = tmp_path / "ceiling.tpl"
    _run("project", ref, "-o", projected, *text_args, *options, "-q")
    again = _run("score", ref, projected, *text_args, *options, "--json", "-", "-q")
    assert {k: again["summary"][k] for k in COUNTS} == {k: ceiling[k] for k in COUNTS}
    assert again["summary"]["F"] == ceiling["F"]
    assert again["signature"] == scored["signature"]


def test_the_options_change_the_ceiling() -> None:
    # without spoken forms the written and spoken numbers differ: a lower ceiling, so the
    # test above would catch a projection made with the default options
    ref, hyp, ref_text, hyp_text = TEXTS["numbers"]
    args = ["score", ref, hyp, "--ref-text", ref_text, "--hyp-text", hyp_text, "--json", "-", "-q"]
    default = _run(*args)["ceiling"]["ceiling_F"]
    plain = _run(*args, "--spoken-forms", "none")["ceiling"]["ceiling_F"]
    assert plain < default


@pytest.mark.parametrize("missing", ["--ref-text", "--hyp-text"])
def test_project_needs_both_texts(tmp_path: Path, missing: str) -> None:
    ref, _, ref_text, hyp_text = TEXTS["numbers"]
    given = {"--ref-text": ref_text, "--hyp-text": hyp_text}
    del given[missing]
    args = ["project", str(ref), "-o", str(tmp_path / "p.tpl")]
    for name, path in given.items():
        args += [name, str(path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"project needs {missing} (hint: give the reference and the hypothesis texts)"
    ]
