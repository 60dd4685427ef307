"""Every command example of README.md and docs/*.md runs, and prints what the doc shows.

The examples are the docs' ``console`` blocks; doc_examples.py (beside this
file) says how they run and what is normalised. When the tool's output
changes on purpose: ``python tests/docs/doc_examples.py --update``, then read
the diff.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest

from tests.docs.doc_examples import DOCS, FENCE, ROOT, all_blocks, blocks, differences, normalise, run, update

BLOCKS = all_blocks()


@pytest.mark.slow
@pytest.mark.parametrize("block", BLOCKS, ids=lambda block: block.name)
def test_the_doc_shows_what_the_tool_prints(block):
    found = differences(block)
    assert not found, "\n\n".join(found) + "\n\nIf the new output is right: python tests/docs/doc_examples.py --update"


def test_the_readme_and_the_docs_have_examples():
    names = {block.path.name for block in BLOCKS}
    assert {"README.md", "drilldown.md", "attribution.md", "confidence.md", "text-formats.md"} <= names
    assert sum(len(block.commands) for block in BLOCKS) >= 15


@pytest.mark.parametrize("path", DOCS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_command_example_is_run(path: Path):
    """A block that shows a hub4eval command is a ``console`` example (run by the test above)
    or a ``text`` synopsis (placeholders such as REF.tpl, not runnable): never an unmarked block."""
    text = path.read_text(encoding="utf-8")
    unmarked = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, fence.start()) + 1}"
        for fence in FENCE.finditer(text)
        if fence.group("lang") not in ("console", "text") and re.search(r"^(\$ )?hub4eval ", fence.group("body"), re.M)
    ]
    assert not unmarked, "make these console examples (or text synopses): " + ", ".join(unmarked)


# -- the runner itself ----------------------------------------------------------------------


DOC = """# A doc

```console
$ hub4eval --version
hub4eval 9.9.9
$ echo one \\
    two
one two
```

```sh
hub4eval score A.tpl B.tpl
```
"""


def test_a_block_is_read_as_commands_and_their_output(tmp_path: Path):
    doc = tmp_path / "doc.md"
    doc.write_text(DOC, encoding="utf-8")
    [block] = blocks(doc)
    assert block.line == 3
    assert [(c.line, c.command, c.output) for c in block.commands] == [
        (4, "hub4eval --version", "hub4eval 9.9.9\n"),
        (6, "echo one \\\n    two", "one two\n"),
    ]


def test_a_wrong_output_is_found_and_update_writes_the_real_one(tmp_path: Path):
    doc = tmp_path / "doc.md"
    doc.write_text(DOC.replace("one two\n", "one three\n"), encoding="utf-8")
    [block] = blocks(doc)
    [found] = differences(block)  # the version is normalised away; the echo's output is wrong
    assert "-one three" in found and "+one two" in found
    assert update(doc)
    assert doc.read_text(encoding="utf-8") == DOC.replace("hub4eval 9.9.9", run(block)[0])
    assert differences(blocks(doc)[0]) == []


def test_normalised_are_only_blanks_at_line_ends_the_version_and_the_folder():
    assert normalise("a  \nb\n\n\n") == "a\nb"
    assert normalise("hub4eval 0.1.0|texts:none") == normalise("hub4eval 1.2.3rc1|texts:none")
    folder = os.path.join(tempfile.gettempdir(), "x", "repository")
    assert normalise(f"{folder}/a.tpl:1:1: error", folder) == "./a.tpl:1:1: error"
    assert normalise("F = 80.0") != normalise("F = 80.1")
    assert normalise("  leading blanks stay") == "  leading blanks stay"
