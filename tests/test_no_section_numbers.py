"""Users never see the specification, so nothing they read may send them to one of its sections.

Help texts, messages and hints are string literals of the package; the user
documentation is README.md and docs/ (docs/architecture.md, for contributors,
maps each section of the internal specification to its modules, and is left
out on purpose); the library API is what README.md and docs/ import, and what
it returns.  A section sign in any of them fails here.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest
from conftest import ROOT
from typer.testing import CliRunner

from hub4eval.cli import app

SECTION = "\u00a7"
COMMANDS = [[], ["score"], ["compare"], ["align"], ["explain"], ["project"], ["check"], ["text"]]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "hub4eval")
def test_help_names_no_section(command: list[str]) -> None:
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert SECTION not in result.stdout


def _string_literals(path: Path) -> list[tuple[int, str]]:
    """The string literals of a module that are not docstrings (messages, hints, help texts)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_no_message_hint_or_help_text_names_a_section() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text[:60]!r}"
        for path in sorted((ROOT / "hub4eval").rglob("*.py"))
        for line, text in _string_literals(path)
        if SECTION in text
    ]
    assert found == []


def test_user_documentation_names_no_section() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    found = [page.name for page in pages if page.name != "architecture.md" and SECTION in page.read_text("utf-8")]
    assert found == []


LIBRARY_API = [
    "hub4eval",
    "hub4eval.api",
    "hub4eval.config",
    "hub4eval.errors",
    "hub4eval.model",
    "hub4eval.report.confidence",
    "hub4eval.report.systems",
    "hub4eval.scoring.result",
]


def _public_docstrings(module_name: str) -> list[tuple[str, str]]:
    module = importlib.import_module(module_name)
    found = [(module_name, inspect.getdoc(module) or "")]
    names = getattr(module, "__all__", None) or [
        name for name, value in vars(module).items() if getattr(value, "__module__", None) == module_name
    ]
    for name in names:
        if name.startswith("_"):
            continue
        value = getattr(module, name)
        found.append((f"{module_name}.{name}", inspect.getdoc(value) or ""))
        if inspect.isclass(value):
            for member, attribute in vars(value).items():
                if member.startswith("_") and member != "__init__":
                    continue
                function = getattr(attribute, "__func__", attribute)
                if callable(function) or isinstance(function, property):
                    found.append((f"{module_name}.{name}.{member}", inspect.getdoc(function) or ""))
    return found


@pytest.mark.parametrize("module_name", LIBRARY_API)
def test_library_api_docstrings_name_no_section(module_name: str) -> None:
    assert [where for where, doc in _public_docstrings(module_name) if SECTION in doc] == []


def test_the_check_sees_the_public_docstrings() -> None:
    # The walk above must reach the documented entry points, or it proves nothing.
    names = {where for module_name in LIBRARY_API for where, _ in _public_docstrings(module_name)}
    assert {"hub4eval.api.score_files", "hub4eval.config.ScoreConfig", "hub4eval.read_templates"} <= names
    assert "hub4eval.scoring.result.ScoreResult.to_json" in names
