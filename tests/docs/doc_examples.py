"""The command examples of README.md and docs/*.md: find them, run them, compare or rewrite their output.

An example is a fenced ``console`` block: each line that starts with ``$ ``
is a command (continued on the next line after a trailing ``\\``), and the
lines after it, up to the next command or the end of the block, are what it
prints (standard output and standard error, in the order written)::

    ```console
    $ hub4eval score examples/sample/ref.tpl examples/sample/hyp.tpl
    Scores per slot
    ...
    ```

The commands of a block run one after the other with ``bash`` in a fresh
temporary folder that holds a copy of ``examples/`` (so an example may write
files, or ``cd examples/asr``, without touching the repository), with
``hub4eval`` and ``python`` on the PATH meaning the interpreter that runs the
tests (``python -m hub4eval``: the code of this checkout), no ``COLUMNS``
(tables are 160 characters wide, as when piped) and unbuffered output.

Before comparing, both sides are normalised, and only in what cannot be
the same from run to run: trailing blanks of each line and trailing blank
lines (rich pads a table's title with blanks; editors strip them); the
version in ``hub4eval X.Y.Z`` (the signature line), so that a release does
not touch every example; the temporary folder's path, written as ``.``. No
example prints a time; a command that did would have to filter it out
(``| grep -v``), visibly, in the example itself.

``python tests/docs/doc_examples.py --update`` runs every example and writes
its real output into the docs (``--check`` only compares; file names narrow
it to those docs). Run it after a change of what the tool prints, and read
the diff.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
FENCE = re.compile(r"^```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)
VERSION = re.compile(r"\bhub4eval \d+\.\d+\.\d+[^\s|]*")
TIMEOUT = 600


@dataclass(frozen=True)
class Command:
    """One ``$`` command of a block and the output the doc shows for it."""

    line: int  # of the ``$`` line in the doc, from 1
    command: str  # as bash reads it (continuation lines joined by the newline)
    output: str  # the lines after it, as written
    output_start: int  # offset of the output in the doc's text
    output_end: int


@dataclass(frozen=True)
class Block:
    """A ``console`` block of a doc."""

    path: Path
    line: int  # of the opening fence, from 1
    commands: tuple[Command, ...]

    @property
    def name(self) -> str:
        return f"{shown(self.path)}:{self.line}"


def shown(path: Path) -> str:
    """A doc's path as messages show it: from the repository's top."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def blocks(path: Path) -> list[Block]:
    """The ``console`` blocks of a doc, in order."""
    text = path.read_text(encoding="utf-8")
    found = []
    for fence in FENCE.finditer(text):
        if fence.group("lang") != "console":
            continue
        start = fence.start("body")
        lines = fence.group("body").splitlines(keepends=True)
        commands: list[Command] = []
        n = 0
        offset = start
        while n < len(lines):
            if not lines[n].startswith("$ "):
                raise ValueError(
                    f"{shown(path)}:{text.count(chr(10), 0, offset) + 1}: "
                    "a console block's lines before its first '$ ' command must be commands"
                )
            first = n
            command = [lines[n][2:].rstrip("\n")]
            offset += len(lines[n])
            n += 1
            while command[-1].endswith("\\") and n < len(lines):
                command.append(lines[n].rstrip("\n"))
                offset += len(lines[n])
                n += 1
            output_start = offset
            while n < len(lines) and not lines[n].startswith("$ "):
                offset += len(lines[n])
                n += 1
            commands.append(
                Command(
                    line=text.count("\n", 0, start) + 1 + first,
                    command="\n".join(command),
                    output=text[output_start:offset],
                    output_start=output_start,
                    output_end=offset,
                )
            )
        found.append(Block(path, text.count("\n", 0, fence.start()) + 1, tuple(commands)))
    return found


def all_blocks(paths: tuple[Path, ...] = DOCS) -> list[Block]:
    return [block for path in paths for block in blocks(path)]


def normalise(text: str, folder: str | None = None) -> str:
    """What is compared: see the module's text for each rule."""
    if folder is not None:
        text = text.replace(os.path.realpath(folder), ".").replace(folder, ".")
    text = VERSION.sub("hub4eval VERSION", text)
    return "\n".join(line.rstrip() for line in text.splitlines()).rstrip("\n")


def _environment(bin_dir: Path) -> dict[str, str]:
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in ("COLUMNS", "LINES", "FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")
    }
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONUNBUFFERED"] = "1"
    env["TERM"] = "dumb"
    # the checkout's package, also where hub4eval is installed from another checkout
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def run(block: Block) -> list[str]:
    """The output of each command of ``block``, run as the module's text says (normalised)."""
    with tempfile.TemporaryDirectory(prefix="hub4eval-doc-") as folder:
        work = Path(folder) / "repository"
        shutil.copytree(ROOT / "examples", work / "examples")
        bin_dir = Path(folder) / "bin"
        bin_dir.mkdir()
        for name, program in (("hub4eval", f'"{sys.executable}" -m hub4eval'), ("python", f'"{sys.executable}"')):
            shim = bin_dir / name
            shim.write_text(f'#!/bin/sh\nexec {program} "$@"\n', encoding="utf-8")
            shim.chmod(0o755)
        env = _environment(bin_dir)
        cwd = work
        outputs = []
        for command in block.commands:
            move = re.fullmatch(r"cd (\S+)", command.command.strip())
            if move is not None:  # the one command whose effect lasts: the folder of the next ones
                cwd = (cwd / move.group(1)).resolve()
                outputs.append("")
                continue
            done = subprocess.run(
                ["bash", "-c", command.command],
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                timeout=TIMEOUT,
                check=False,
            )
            outputs.append(normalise(done.stdout, str(work)))
        return outputs


def differences(block: Block) -> list[str]:
    """A unified diff per command whose output differs from the doc's (empty: the doc is right)."""
    found = []
    for command, actual in zip(block.commands, run(block), strict=True):
        expected = normalise(command.output)
        if expected != actual:
            diff = difflib.unified_diff(
                expected.splitlines(), actual.splitlines(), "in the doc", "printed now", lineterm="", n=2
            )
            where = f"{shown(block.path)}:{command.line}"
            found.append(f"{where}: $ {command.command}\n" + "\n".join(diff))
    return found


def update(path: Path) -> bool:
    """Write the real output of every example of one doc into it; True when it changed."""
    text = path.read_text(encoding="utf-8")
    pieces = []
    position = 0
    for block in blocks(path):
        for command, actual in zip(block.commands, run(block), strict=True):
            pieces.append(text[position : command.output_start])
            pieces.append(actual + "\n" if actual else "")
            position = command.output_end
    new = "".join(pieces) + text[position:]
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--update", action="store_true", help="write the real outputs into the docs")
    mode.add_argument("--check", action="store_true", help="only compare (the default)")
    parser.add_argument("docs", nargs="*", type=Path, help="docs to run (default: README.md and docs/*.md)")
    args = parser.parse_args(argv)
    paths = tuple(p.resolve() for p in args.docs) or DOCS
    if args.update:
        for path in paths:
            if update(path):
                print(f"updated {shown(path)}")
        return 0
    failed = [diff for block in all_blocks(paths) for diff in differences(block)]
    print("\n\n".join(failed) if failed else f"{sum(len(b.commands) for b in all_blocks(paths))} commands agree")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
