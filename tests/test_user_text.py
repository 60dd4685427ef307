"""User-facing text never cites the specification ("§N", "spec"): users do not have it.

Help texts, error messages and hints, README.md and docs/ say the rule in words.
Docstrings and comments (read by developers) may cite sections.
"""

from __future__ import annotations

import ast
import re

import pytest
from conftest import ROOT
from typer.testing import CliRunner

from hub4eval.cli import app

CITATION = re.compile(r"§|\bspec\b|\bspecification\b", re.IGNORECASE)
COMMANDS = ["score", "check", "align", "explain", "compare"]


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


def test_readme_and_docs_do_not_cite_the_spec():
    # docs/architecture.md is the maintainers' map from each section of the
    # internal specification to the module that implements it: not a user doc.
    docs = [path for path in sorted((ROOT / "docs").glob("*.md")) if path.name != "architecture.md"]
    files = [ROOT / "README.md", *docs]
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()[:80]}"
        for path in files
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if CITATION.search(line)
    ]
    assert not found, "\n".join(found)
