"""The package layout is the pipeline: imports only flow from later stages to earlier ones.

Ranks (a module may import only from ranks at or below its own):
util 0 < foundation (errors, config, model) 1 < io 2 < text 3 < scoring 4
< report 5 < api, parallel 6 < cli 7. Within a rank any import is allowed. Checked on
every ``import`` statement, including those inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import hub4eval

PACKAGE = Path(hub4eval.__file__).parent
RANKS = {
    "util": 0,
    "errors": 1,
    "config": 1,
    "model": 1,
    "io": 2,
    "text": 3,
    "scoring": 4,
    "report": 5,
    "api": 6,
    "parallel": 6,
    "cli": 7,
    "__init__": 8,
    "__main__": 8,
}


def _rank(module: str) -> int:
    """Rank of a dotted module path below ``hub4eval`` (``text.align`` -> text's rank)."""
    return RANKS[module.split(".")[0]]


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "hub4eval":
                found += [(alias.name, node.lineno) for alias in node.names if alias.name in RANKS]
            elif node.module.startswith("hub4eval."):
                found.append((node.module.removeprefix("hub4eval."), node.lineno))
        elif isinstance(node, ast.ImportFrom) and node.level > 0:
            found.append(("<relative>", node.lineno))
        elif isinstance(node, ast.Import):
            found += [
                (alias.name.removeprefix("hub4eval."), node.lineno)
                for alias in node.names
                if alias.name.startswith("hub4eval.")
            ]
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_top_level_name_has_a_rank():
    names = {p.name.removesuffix(".py") for p in PACKAGE.iterdir() if p.suffix == ".py" or p.is_dir()}
    names -= {"__pycache__", "grammars", "mapping_files"}
    assert names <= set(RANKS), names - set(RANKS)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_flow_one_way(path: Path):
    own = _rank(".".join(path.relative_to(PACKAGE).with_suffix("").parts))
    for target, line in _imports(path):
        assert target != "<relative>", f"{path}:{line}: use absolute imports (hub4eval.stage.module)"
        assert _rank(target) <= own, f"{path}:{line}: imports hub4eval.{target}, a later stage"


@pytest.mark.parametrize("package", ["io", "text", "scoring", "report", "cli", "util"])
def test_each_stage_says_what_it_owns_and_may_import(package: str):
    doc = (PACKAGE / package / "__init__.py").read_text()
    module = ast.get_docstring(ast.parse(doc)) or ""
    assert "import" in module.lower(), f"hub4eval/{package}/__init__.py must say what it may import"
    assert len(module.split()) > 20
