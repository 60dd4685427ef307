"""The package layout is the pipeline: imports only flow from later stages to earlier ones.

Ranks (a module may import only from ranks at or below its own):
util 0 < foundation (errors, config, model) 1 < io 2 < text 3 < scoring 4
< report 5 < api, parallel 6 < cli 7. Within a rank any import is allowed, but no
circle: no module reaches itself again by following imports (a circle is two
modules that can only be understood, and changed, together). Checked on every
``import`` statement, including those inside functions.
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


def _module_name(path: Path, root: Path = PACKAGE) -> str:
    """``text/align/driver.py`` -> ``text.align.driver``; a package's ``__init__`` is the package."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(paths: list[Path], root: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the package modules it imports (anywhere in it, functions included).

    ``from hub4eval.cli import options`` is an import of ``cli.options`` when that is
    a module, else of the package ``cli``."""
    names = {_module_name(path, root): path for path in paths}
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module != "hub4eval" and not node.module.startswith("hub4eval."):
                    continue
                base = node.module.removeprefix("hub4eval").removeprefix(".")
                for alias in node.names:
                    sub = f"{base}.{alias.name}" if base else alias.name
                    targets.add(sub if sub in names else base)
            elif isinstance(node, ast.Import):
                targets |= {a.name.removeprefix("hub4eval.") for a in node.names if a.name.startswith("hub4eval.")}
        graph[name] = {target for target in targets if target in names and target != name}
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of ``graph``: its strongly connected components of more than one module
    (Tarjan's algorithm, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    return circles


def test_no_import_circle():
    circles = import_circles(import_graph(MODULES))
    assert circles == [], "modules that import each other (break the circle): " + "; ".join(
        " <-> ".join(circle) for circle in circles
    )


def test_the_circle_check_finds_a_circle_and_only_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert import_circles(graph) == [["a", "b", "c"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


def test_the_import_graph_sees_imports_inside_functions(tmp_path: Path):
    (tmp_path / "one.py").write_text("def f():\n    from hub4eval.two import g\n")
    (tmp_path / "two.py").write_text("import hub4eval.one\n")
    (tmp_path / "stage").mkdir()
    (tmp_path / "stage" / "__init__.py").write_text("")
    (tmp_path / "stage" / "part.py").write_text("from hub4eval.stage import part, other\n")
    graph = import_graph(sorted(tmp_path.rglob("*.py")), tmp_path)
    assert graph == {"one": {"two"}, "two": {"one"}, "stage": set(), "stage.part": {"stage"}}
    assert import_circles(graph) == [["one", "two"]]


@pytest.mark.parametrize("package", ["io", "text", "scoring", "report", "cli", "util"])
def test_each_stage_says_what_it_owns_and_may_import(package: str):
    doc = (PACKAGE / package / "__init__.py").read_text()
    module = ast.get_docstring(ast.parse(doc)) or ""
    assert "import" in module.lower(), f"hub4eval/{package}/__init__.py must say what it may import"
    assert len(module.split()) > 20


# A module over this many lines holds two concepts, or says at its top why it is one.
LONG_MODULE = 800


def _long_modules() -> dict[str, int]:
    sizes = {str(path.relative_to(PACKAGE)): len(path.read_text().splitlines()) for path in MODULES}
    return {name: size for name, size in sizes.items() if size > LONG_MODULE}


def test_a_long_module_says_why_it_is_one_module():
    unexplained = [
        f"hub4eval/{name} ({size} lines)"
        for name, size in _long_modules().items()
        if "why one module" not in (ast.get_docstring(ast.parse((PACKAGE / name).read_text())) or "").lower()
    ]
    assert not unexplained, (
        "split these along a concept, or write at the top of each 'Why one module ...' and the reason: "
        + ", ".join(unexplained)
    )
