"""Command-line conventions: --version, '-' for standard input, completion, choices, list options, outputs."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

import hub4eval
from hub4eval.cli import app
from hub4eval.scoring.pipeline import RAW_OFFSETS
from tests.support import EXAMPLES, ROOT

SAMPLE = EXAMPLES / "sample"
ASR = EXAMPLES / "asr"
runner = CliRunner()


def invoke(*args: object, **kwargs):
    return runner.invoke(app, [str(a) for a in args], **kwargs)


def test_version_in_process_and_as_a_real_process():
    result = invoke("--version")
    assert result.exit_code == 0 and result.stdout == f"hub4eval {hub4eval.__version__}\n"
    proc = subprocess.run([sys.executable, "-m", "hub4eval", "--version"], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0 and proc.stdout == f"hub4eval {hub4eval.__version__}\n"


def test_shell_completion_completes_commands_and_choices():
    env = {"_HUB4EVAL_COMPLETE": "complete_bash", "COMP_WORDS": "hub4eval sco", "COMP_CWORD": "1"}
    result = runner.invoke(app, [], prog_name="hub4eval", env=env)
    assert result.exit_code == 0 and result.stdout.split() == ["score"]
    env = {"_HUB4EVAL_COMPLETE": "complete_bash", "COMP_WORDS": "hub4eval score r h --compare ", "COMP_CWORD": "5"}
    result = runner.invoke(app, [], prog_name="hub4eval", env=env)
    assert result.stdout.split() == ["both", "content", "extent"]
    assert "--install-completion" in invoke("--help").stdout


@pytest.mark.parametrize(
    ("command", "choices"),
    [("score", ["both|content|extent", "auto|clean|noisy", "document|type"]), ("explain", ["COR|INC|MIS|SPU|OPT|REM"])],
)
def test_help_lists_the_choices(command, choices):
    text = invoke(command, "--help", env={"COLUMNS": "200"}).stdout
    for listed in choices:
        assert listed in text


def test_an_unknown_choice_is_one_line_naming_the_choices():
    result = invoke("explain", SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", "--category", "WRONG")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "invalid value for '--category': 'WRONG' is not one of 'cor', 'inc', 'mis', 'spu', 'opt', 'rem' "
        "(hint: see hub4eval explain --help)"
    ]
    assert invoke("explain", SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", "--category", "cor").exit_code == 0


def test_unknown_option_and_missing_argument_are_one_line_exit_2_in_a_real_process():
    for args in (["score", "x"], ["score", "x", "y", "--nope"], ["nocommand"]):
        proc = subprocess.run([sys.executable, "-m", "hub4eval", *args], capture_output=True, text=True, cwd=ROOT)
        assert proc.returncode == 2, proc.stderr
        assert len(proc.stderr.splitlines()) == 1 and "(hint: see hub4eval" in proc.stderr
        assert proc.stdout == ""


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["score", ASR / "ref.tpl", ASR / "hyp.tpl", "--ref-text", ""], "'--ref-text'"),
        (["score", "", ASR / "hyp.tpl"], "'ref'"),
        (["check", ASR / "ref.tpl", "--text", ""], "'--text'"),
        (["ne", "", ASR / "hyp.tpl"], "'ref'"),
    ],
)
def test_an_empty_path_is_a_usage_error_naming_the_option(args, named):
    # pathlib reads '' as '.', which was reported as ".: is a directory"
    result = invoke(*args)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"invalid value for {named}: an empty path; give the path of a file (hint: see hub4eval {args[0]} --help)"
    ]


def _json(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_dash_reads_a_templette_file_from_standard_input():
    from_files = _json(invoke("score", SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", "--json", "-"))
    hyp = (SAMPLE / "hyp.tpl").read_bytes()
    from_stdin = _json(invoke("score", SAMPLE / "ref.tpl", "-", "--json", "-", input=hyp))
    assert from_stdin["summary"] == from_files["summary"] and from_stdin["summary"]["COR"] == 13
    proc = subprocess.run(
        [sys.executable, "-m", "hub4eval", "score", "-", str(SAMPLE / "hyp.tpl"), "--json", "-"],
        input=(SAMPLE / "ref.tpl").read_bytes(),
        capture_output=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["summary"] == from_files["summary"]


def test_dash_reads_a_text_corpus_from_standard_input():
    args = [ASR / "ref.tpl", ASR / "hyp.tpl", "--ref-text", ASR / "reference.sgml", "--json", "-"]
    from_files = _json(invoke("score", *args, "--hyp-text", ASR / "asr_unsegmented.sgml"))
    from_stdin = _json(invoke("score", *args, "--hyp-text", "-", input=(ASR / "asr_unsegmented.sgml").read_bytes()))
    assert from_stdin["summary"] == from_files["summary"] and from_stdin["wer"] == from_files["wer"]
    aligned = _json(
        invoke("align", "-", ASR / "asr_unsegmented.sgml", "--json", "-", input=(ASR / "reference.sgml").read_bytes())
    )
    assert aligned["summary"] == from_files["wer"] or aligned["summary"]["wer"] == from_files["wer"]["wer"]


def test_a_bad_byte_from_standard_input_is_positioned():
    result = invoke("check", "-", input=b'<T-D-1> :=\n  X: "caf\xe9"\n')
    assert result.exit_code == 2
    assert result.stderr.startswith("-:2:")


def test_compare_reads_a_reference_from_standard_input_for_both_systems():
    result = invoke(
        "compare",
        "-",
        SAMPLE / "hyp.tpl",
        SAMPLE / "hyp.tpl",
        "--bootstrap",
        "20",
        "--json",
        "-",
        input=(SAMPLE / "ref.tpl").read_bytes(),
    )
    data = _json(result)
    assert data["difference"] == 0 and data["documents"] == 3


def test_only_one_input_may_be_standard_input():
    result = invoke("score", SAMPLE / "ref.tpl", "-", "--ref-text", "-", "--hyp-text", SAMPLE / "text.sgml")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "HYP and --ref-text both read standard input ('-') "
        "(hint: standard input can be read once: give all but one of them as files)"
    ]


def test_csv_to_standard_output_prints_only_csv():
    result = invoke("score", SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", "--csv", "-")
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0][:3] == ["level", "name", "POS"]
    assert all(len(row) == len(rows[0]) == 18 for row in rows)  # level, name, 8 counts, 8 metrics (SER last)
    assert rows[-1][:2] == ["all", "ALL"] and "F =" not in result.stdout and "hub4eval " not in result.stdout


@pytest.mark.parametrize("pair", [("--json", "--csv"), ("--json", "--html"), ("--csv", "--html")])
def test_two_outputs_on_standard_output_is_a_usage_error(pair):
    result = invoke("score", SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", pair[0], "-", pair[1], "-")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"{pair[0]} and {pair[1]} both write to standard output ('-') "
        "(hint: standard output holds one output: write the others to files)"
    ]


def _signature(*options: str, quiet: bool = True) -> tuple[str, str]:
    result = invoke(
        "score", SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", "--json", "-", *(["-q"] if quiet else []), *options
    )
    return _json(result)["signature"], result.stderr


def test_list_options_repeat_replace_the_default_and_empty_means_none():
    signature, _ = _signature("--premodifiers", "a", "--premodifiers", "the", "--fillers", "uh")
    assert "|premodifiers:a,the|" in signature and "|fillers:uh|" in signature
    signature, _ = _signature("--premodifiers", "", "--unscored-slot", "", "--non-extractable", "")
    assert "|premodifiers:-|" in signature and "|unscored_slots:-|" in signature and "|non_extractable:-|" in signature
    signature, _ = _signature("--unscored-slot", "COMMENT", "--unscored-slot", "DATE")
    assert "|unscored_slots:COMMENT,DATE|" in signature


def test_the_old_space_separated_form_still_works_with_a_deprecation_warning():
    new, _ = _signature("--premodifiers", "a", "--premodifiers", "the")
    old, stderr = _signature("--premodifiers", "a the", quiet=False)
    assert old == new
    assert stderr.splitlines() == [
        str(RAW_OFFSETS),  # no texts given while the templettes carry extents
        # printed when the command has ended well, so that a refused run stays one line
        "warning: --premodifiers 'a the': a space-separated list is deprecated; repeat the option: "
        "--premodifiers a --premodifiers the",
    ]
    assert _signature("--premodifiers", "a the")[1] == ""  # --quiet hides it


def test_every_scoring_command_takes_the_shared_options_in_one_order():
    """score, explain and compare get their shared options from one list
    (cli.options.scoring_options): each lists all of them, in that order, and
    none shows the `scoring` parameter they arrive in."""
    import typer.main

    from hub4eval.cli.options import _SCORING_OPTIONS

    shared = [name for name, _, _ in _SCORING_OPTIONS]
    group = typer.main.get_command(app)
    for name in ("score", "explain", "compare"):
        params = [p.name for p in group.commands[name].params]  # type: ignore[attr-defined]
        assert "scoring" not in params
        start = params.index(shared[0])
        assert params[start : start + len(shared)] == shared, name


def test_the_shared_options_reach_the_command_as_given(tmp_path):
    """Shared options given on the command line are the ones scored with:
    the result's signature names them, and --compare content leaves no
    extent points."""
    sample = EXAMPLES / "sample"
    out = tmp_path / "r.json"
    options = ["--compare", "content", "--beta", "2", "--case-sensitive", "--fillers", "uh", "--spoken-forms", "none"]
    args = ["score", str(sample / "ref.tpl"), str(sample / "hyp.tpl"), *options, "--json", str(out)]
    assert CliRunner().invoke(app, args).exit_code == 0
    data = json.loads(out.read_text())
    for part in ("compare:content", "beta:2.0", "case_sensitive:True", "fillers:uh|", "spoken_forms:none"):
        assert part in data["signature"], part
    assert set(data["by_kind"]) == {"content", "pointer"}


def test_scoring_options_needs_a_scoring_parameter():
    from hub4eval.cli.options import scoring_options

    def command(ref: str = "") -> None:
        pass

    with pytest.raises(TypeError, match="no 'scoring' parameter"):
        scoring_options(command)


def test_an_input_error_is_kept_until_the_process_ends(tmp_path, monkeypatch):
    """What a refused run read (its traceback holds it: a refused document is millions of
    objects) is not freed one by one before the one line is written: the CLI keeps the error
    until it ends the process, as it keeps a result (in a process that ends without freeing,
    as the CLI's main says of its own)."""
    from hub4eval.errors import InputError
    from hub4eval.util import kept as kept_module

    monkeypatch.setattr(kept_module, "_KEPT", [])
    monkeypatch.setattr(kept_module, "_PROCESS", [])
    kept_module.ends_without_freeing()

    broken = tmp_path / "hyp.tpl"
    broken.write_text('<EVENT-D-1> :=\n    NAME: "unterminated\n', encoding="utf-8")
    result = invoke("score", SAMPLE / "ref.tpl", broken, "-q")
    assert result.exit_code == 2
    [kept] = kept_module._KEPT[-1]
    assert isinstance(kept, InputError) and str(kept) in result.output
