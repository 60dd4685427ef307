"""Objects kept until the process ends: only in the process that ends without freeing, never in
a forked child nor in the library's use; the CLI says so, a score of texts that differ keeps."""

from __future__ import annotations

import os
import subprocess
import sys
import weakref

import pytest

from hub4eval.util import kept
from hub4eval.util.forked import can_fork
from tests.support import EXAMPLES


class _Thing:
    """Something a weak reference can watch."""


@pytest.fixture
def fresh(monkeypatch):
    """Each test starts with nothing kept and no process that ends without freeing."""
    monkeypatch.setattr(kept, "_KEPT", [])
    monkeypatch.setattr(kept, "_PROCESS", [])
    return kept


def test_nothing_is_kept_unless_the_process_ends_without_freeing(fresh):
    thing = _Thing()
    watch = weakref.ref(thing)
    fresh.keep_until_exit(thing)
    del thing
    assert watch() is None  # freed at once: the library's use


def test_kept_once_the_process_ends_without_freeing(fresh):
    fresh.ends_without_freeing()
    thing = _Thing()
    watch = weakref.ref(thing)
    fresh.keep_until_exit(thing, None)
    del thing
    assert watch() is not None


def test_what_was_kept_is_freed_when_asked(fresh):
    """A command that scores twice frees the first score's makings before the second."""
    fresh.ends_without_freeing()
    thing = _Thing()
    watch = weakref.ref(thing)
    fresh.keep_until_exit(thing)
    del thing
    fresh.free_kept()
    assert watch() is None


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform")
def test_a_forked_child_keeps_nothing(fresh):
    """A worker of --jobs scores group after group: what it made is freed as usual."""
    fresh.ends_without_freeing()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        try:
            thing = _Thing()
            watch = weakref.ref(thing)
            fresh.keep_until_exit(thing)
            del thing
            os.write(write, b"freed" if watch() is None else b"kept")
        finally:
            os._exit(0)
    os.close(write)
    answer = os.read(read, 16)
    os.close(read)
    os.waitpid(pid, 0)
    assert answer == b"freed"


def test_the_command_line_keeps_what_a_score_of_texts_that_differ_made():
    """``main`` says its process ends without freeing; the score keeps its preparers and the
    template sets read (counted from the process itself, which then exits without freeing)."""
    asr = EXAMPLES / "asr"
    probe = (
        "import os, sys\n"
        "from hub4eval.util import kept\n"
        "from hub4eval.cli import app as app_module\n"
        "import importlib\n"
        "module = importlib.import_module('hub4eval.cli.app')\n"
        "real = os._exit\n"
        "def ending(code):\n"
        "    sys.stderr.write(f'kept {len(kept._KEPT)}\\n'); sys.stderr.flush(); real(code)\n"
        "module.os._exit = ending\n"
        "sys.argv = ['hub4eval', *sys.argv[1:]]\n"
        "module.main()\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            probe,
            "score",
            str(asr / "ref.tpl"),
            str(asr / "hyp.tpl"),
            "--ref-text",
            str(asr / "reference.sgml"),
            "--hyp-text",
            str(asr / "asr_unsegmented.sgml"),
            "--quiet",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    kept_line = [line for line in done.stderr.splitlines() if line.startswith("kept ")]
    assert kept_line and int(kept_line[-1].split()[1]) >= 2, done.stderr  # the inputs read, the score's makings
