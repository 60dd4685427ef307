"""The package works from a built wheel: grammar and mapping file are inside it."""

from __future__ import annotations

import subprocess
import sys
import zipfile

import pytest
from conftest import ROOT


@pytest.mark.slow
def test_wheel_ships_the_grammar_and_the_mapping_file(tmp_path):
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-w", str(tmp_path), "-q"],
        capture_output=True, text=True, check=False,
    )
    if build.returncode != 0:
        pytest.skip(f"cannot build a wheel here: {build.stderr.strip()[-200:]}")
    [wheel] = tmp_path.glob("hub4eval-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "hub4eval/grammars/templette.lark" in names
    assert "hub4eval/mapping_files/en.glm" in names
    # installed as a plain package (no checkout beside it), the data is found inside the package
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    probe = (
        "import hub4eval.util.resources as r, hub4eval.io.templettes as t, hub4eval.text.glm as g;"
        "print(r.data_path('grammars', 'templette.lark'));"
        "print(len(t.parse_templates('<T-D-1> :=\\n  A: x\\n').instances), len(g.default_glm().rules) > 100)"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False,
        cwd=tmp_path, env={"PYTHONPATH": str(target), "PATH": ""},
    )
    assert run.returncode == 0, run.stderr
    first, second = run.stdout.splitlines()
    assert first.startswith(str(target)) and second == "1 True"
