"""User-facing text never cites the specification ("§N", "spec"): users do not have it.

Help texts, error messages and hints, README.md, docs/ and the docstrings of
the library API that README.md and docs/ show say the rule in words. Other
docstrings and comments (read by developers) may cite sections.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re

import pytest
import typer.main
from typer.testing import CliRunner

from hub4eval.cli import app
from tests.support import ROOT

CITATION = re.compile(r"§|\bspec\b|\bspecification\b", re.IGNORECASE)
COMMANDS = sorted(typer.main.get_command(app).commands)  # every registered command, sclite and ne too


def _docstring_nodes(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _strings_outside_docstrings(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstring_nodes(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip.add(id(node.value))  # a bare string statement documents the line above it
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node.lineno, node.value


def test_no_message_or_help_string_in_the_package_cites_the_spec():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}"
        for path in sorted((ROOT / "hub4eval").rglob("*.py"))
        for line, text in _strings_outside_docstrings(path)
        if CITATION.search(text)
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_texts_do_not_cite_the_spec(command):
    args = ["--help"] if command is None else [command, "--help"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Usage" in result.output
    assert not CITATION.search(result.output), result.output


def test_every_command_is_checked():
    assert {"score", "sclite", "ne", "text"} <= set(COMMANDS)


def test_readme_docs_and_shipped_files_do_not_cite_the_spec():
    """README, docs/, the examples' READMEs and the shipped mapping files (users open en.glm)."""
    files = [
        ROOT / "README.md",
        *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "examples").rglob("*.md")),
        *sorted((ROOT / "mapping_files").glob("*.glm")),
    ]
    assert ROOT / "mapping_files" / "en.glm" in files
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()[:80]}"
        for path in files
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if CITATION.search(line)
    ]
    assert not found, "\n".join(found)


# The library API that README.md and docs/ show, and what it returns.
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
    """(name, docstring) of a module, its public names and their public methods and properties."""
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
def test_library_api_docstrings_do_not_cite_the_spec(module_name):
    assert [where for where, doc in _public_docstrings(module_name) if CITATION.search(doc)] == []


def test_the_docstring_check_reaches_the_documented_entry_points():
    names = {where for module_name in LIBRARY_API for where, _ in _public_docstrings(module_name)}
    assert {"hub4eval.api.score_files", "hub4eval.config.ScoreConfig", "hub4eval.read_templates"} <= names
    assert "hub4eval.scoring.result.ScoreResult.to_json" in names
