"""The package works from a built wheel: grammar and mapping file are inside it."""

from __future__ import annotations

import subprocess
import sys
import zipfile

import pytest

from tests.support import ROOT


@pytest.mark.slow
def test_wheel_ships_the_grammar_and_the_mapping_file(tmp_path):
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-w", str(tmp_path), "-q"],
        capture_output=True,
        text=True,
        check=False,
    )
    if build.returncode != 0:
        pytest.skip(f"cannot build a wheel here: {build.stderr.strip()[-200:]}")
    [wheel] = tmp_path.glob("hub4eval-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "hub4eval/grammars/templette.lark" in names
    assert "hub4eval/mapping_files/en.glm" in names
    # typed package (PEP 561) and its licence text travel with the wheel
    assert "hub4eval/py.typed" in names
    assert "hub4eval/docs/score-output.schema.json" in names
    # the HTML report's stylesheet and script, read with importlib.resources
    assert {"hub4eval/report/assets/report.css", "hub4eval/report/assets/report.js"} <= names
    assert any(name.endswith(".dist-info/licenses/LICENSE") or name.endswith(".dist-info/LICENSE") for name in names)
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    requires = [
        line.split(":", 1)[1].strip()
        for line in zipfile.ZipFile(wheel).read(metadata).decode().splitlines()
        if line.startswith("Requires-Dist:") and "extra ==" not in line
    ]
    assert requires and not [r for r in requires if r.startswith(("jiwer", "rapidfuzz"))], requires
    # installed as a plain package (no checkout beside it), the data is found inside the package
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    probe = (
        "import hub4eval.util.resources as r, hub4eval.io.templettes as t, hub4eval.text.glm as g;"
        "print(r.data_path('grammars', 'templette.lark'));"
        "print(len(t.parse_templates('<T-D-1> :=\\n  A: x\\n').instances), len(g.default_glm().rules) > 100);"
        "import hub4eval.report.html as h; print(h.__file__, len(h.asset('report.js')) > 1000)"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env={"PYTHONPATH": str(target), "PATH": ""},
    )
    assert run.returncode == 0, run.stderr
    first, second, third = run.stdout.splitlines()
    assert first.startswith(str(target)) and second == "1 True"
    assert third.startswith(str(target)) and third.endswith(" True")  # the script, read from the wheel


def test_license_is_mit_and_matches_the_project_metadata():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert 'license = { text = "MIT" }' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert (ROOT / "hub4eval" / "py.typed").is_file()


BLOCK_TEST_ONLY = (
    "import sys, runpy; sys.modules['jiwer'] = None; sys.modules['rapidfuzz'] = None; "
    "sys.argv = ['hub4eval', *sys.argv[1:]]; runpy.run_module('hub4eval', run_name='__main__')"
)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["score", "align"])
def test_runs_without_the_test_only_packages(command, tmp_path):
    """jiwer and rapidfuzz are test extras: a scoring run and an alignment never import them."""
    asr = ROOT / "examples" / "asr"
    if command == "score":
        args = [
            "score",
            asr / "ref.tpl",
            asr / "hyp.tpl",
            "--ref-text",
            asr / "reference.sgml",
            "--hyp-text",
            asr / "asr_unsegmented.sgml",
            "--json",
            tmp_path / "out.json",
            "-q",
        ]
    else:
        args = ["align", asr / "reference.sgml", asr / "asr_unsegmented.sgml", "--show", "-q"]
    run = subprocess.run(
        [sys.executable, "-c", BLOCK_TEST_ONLY, *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    assert "WER" in run.stdout


def test_substitution_cost_needs_no_edit_distance_package():
    """The reference cost function computes Levenshtein itself; it agrees with rapidfuzz."""
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from rapidfuzz.distance import Levenshtein

    from hub4eval.text.align import costs

    @settings(max_examples=300, deadline=None)
    @given(st.text(max_size=12), st.text(max_size=12))
    def agree(a, b):
        assert costs._levenshtein(a, b) == Levenshtein.distance(a, b)

    agree()
    import doctest

    assert doctest.testmod(costs).failed == 0
