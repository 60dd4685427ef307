"""The HTML report's stylesheet and script are files of the package (hub4eval/report/assets/), written into the page."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from hub4eval.api import score_files
from hub4eval.report.html import PAGE_SIZE, asset, to_html

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "hub4eval" / "report" / "assets"
SAMPLE = ROOT / "examples" / "sample"


@pytest.fixture(scope="module")
def page() -> str:
    return to_html(score_files(SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl"))


def test_the_page_holds_the_files_as_they_are(page: str):
    css = (ASSETS / "report.css").read_text(encoding="utf-8")
    js = (ASSETS / "report.js").read_text(encoding="utf-8")
    assert asset("report.css") == css and asset("report.js") == js
    assert f"<style>\n{css}</style>" in page
    assert "<script>\n" + js.replace("__PAGE__", str(PAGE_SIZE)) + "</script>" in page
    assert "__PAGE__" in js and "__PAGE__" not in page  # the one placeholder, filled in


def test_the_script_sets_text_never_markup():
    """Strings from the data reach the page with textContent: no innerHTML, no document.write."""
    js = asset("report.js")
    assert "textContent" in js
    assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write", js)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed: the script's syntax is not checked")
def test_the_script_is_valid_javascript(tmp_path: Path):
    script = tmp_path / "report.js"
    script.write_text(asset("report.js").replace("__PAGE__", str(PAGE_SIZE)), encoding="utf-8")
    run = subprocess.run(["node", "--check", str(script)], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr


def test_the_stylesheet_has_balanced_rules():
    css = asset("report.css")
    depth = 0
    for char in css:
        depth += {"{": 1, "}": -1}.get(char, 0)
        assert depth in (0, 1), "a rule is nested or closed twice"
    assert depth == 0 and css.count("{") > 10
