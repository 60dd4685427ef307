"""Start-up (issue #20): what keeps a small `hub4eval score` fast, checked without timing.

A run on a small file once spent most of its time on work that never changes
(the parser's LALR tables, the class of Unicode punctuation) and on importing
numpy for an alignment it did not make. The tables and the class now come
from the user's cache directory (``hub4eval.util.diskcache``), which must
never change a result, and numba is imported only when texts are aligned
(numpy is, since the one mapping engine works on its arrays: issue #37).
The CLI library must not bring heavy imports either (typer 0.29 imports
pydantic on start-up: +90 ms CPU, hence the version bound in pyproject.toml).
Speed itself is measured in ``benchmarks/bench_startup.py``.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

from hub4eval.errors import InputError
from hub4eval.io.templettes import reader
from hub4eval.text import normalize
from hub4eval.util import diskcache
from tests.support import ROOT

SAMPLE = ROOT / "examples" / "sample"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("HUB4EVAL_CACHE_DIR", str(folder))
    return folder


def unusable(tmp_path: Path) -> str:
    """A cache directory that cannot be made (its parent is a file)."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    return str(blocker / "cache")


@pytest.fixture
def no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HUB4EVAL_CACHE_DIR", unusable(tmp_path))


# --- the cache itself ------------------------------------------------------------


def test_content_read_back_is_what_was_written(cache: Path) -> None:
    diskcache.write("x.bin", b"\x00tables\n")
    assert diskcache.read("x.bin") == b"\x00tables\n"
    assert sorted(p.name for p in cache.iterdir()) == ["x.bin"]  # no temporary file left behind


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[:-1],  # truncated
        lambda data: data[:3],
        lambda data: b"",
        lambda data: b"X" + data[1:],  # a changed byte in the content
        lambda data: data[:-2] + b"0\n",  # a changed byte in the seal
        lambda data: data + b"more",  # something after the seal
    ],
)
def test_a_damaged_file_is_not_used(cache: Path, damage) -> None:
    diskcache.write("x.bin", b"abcdef")
    path = cache / "x.bin"
    path.write_bytes(damage(path.read_bytes()))
    assert diskcache.read("x.bin") is None


def test_a_missing_file_is_none(cache: Path) -> None:
    assert diskcache.read("never-written") is None


def test_without_a_usable_directory_nothing_is_cached_and_nothing_fails(no_cache: None) -> None:
    diskcache.write("x.bin", b"abc")
    assert diskcache.read("x.bin") is None


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_directory_others_may_write_to_is_not_used(cache: Path) -> None:
    cache.mkdir()
    cache.chmod(0o777)
    diskcache.write("x.bin", b"abc")
    assert not (cache / "x.bin").exists()
    assert diskcache.read("x.bin") is None


def test_the_key_tells_apart_every_part_and_where_parts_end() -> None:
    keys = {diskcache.key("ab", "c"), diskcache.key("a", "bc"), diskcache.key("abc"), diskcache.key("ab", "d")}
    assert len(keys) == 4
    assert diskcache.key("ab", "c") == diskcache.key("ab", "c")


def test_cached_derives_once_and_then_loads_what_it_kept(cache: Path) -> None:
    calls: list[int] = []

    def derive() -> dict[str, int]:
        calls.append(1)
        return {"a": 1}

    assert diskcache.cached("v.pickle", derive) == {"a": 1}
    assert diskcache.cached("v.pickle", derive) == {"a": 1}
    assert len(calls) == 1
    assert diskcache.cached("t.txt", lambda: "é", dump=str.encode, load=bytes.decode) == "é"
    assert diskcache.read("t.txt") == "é".encode()


@pytest.mark.parametrize(
    "stored",
    [
        b"\x80 not a pickle",  # load fails
        b"\x80\x05\x95",  # a truncated pickle
    ],
)
def test_cached_derives_again_when_what_it_kept_does_not_load(cache: Path, stored: bytes) -> None:
    diskcache.write("v.pickle", stored)
    assert diskcache.cached("v.pickle", lambda: [1, 2]) == [1, 2]
    assert diskcache.cached("v.pickle", lambda: [3]) == [1, 2]  # and keeps the derived value


def test_cached_derives_again_when_what_it_kept_is_of_another_kind(cache: Path) -> None:
    import pickle

    diskcache.write("v.pickle", pickle.dumps(["not a dict"]))
    assert diskcache.cached("v.pickle", lambda: {"a": 1}, kind=dict) == {"a": 1}


def test_cached_gives_a_value_it_cannot_keep_and_keeps_nothing(cache: Path) -> None:
    value = diskcache.cached("v.pickle", lambda: lambda: 1)  # a lambda does not pickle
    assert value() == 1
    assert not (cache / "v.pickle").exists()


def test_cached_without_a_usable_directory_derives_every_time(no_cache: None) -> None:
    calls: list[int] = []
    for _ in range(2):
        assert diskcache.cached("v.pickle", lambda: calls.append(1) or 5) == 5
    assert len(calls) == 2


# --- the parser tables -----------------------------------------------------------

BUILD = reader._parser.__wrapped__  # the uncached builder behind functools.cache

INPUTS = [
    (SAMPLE / "ref.tpl").read_text(encoding="utf-8"),
    (SAMPLE / "hyp.tpl").read_text(encoding="utf-8"),
    '<T-D-1> :=\n  X: "[a] b" ##1#2#3#4#5#6#\n   / <T-D-2>\n<T-D-2> :=\n  Y: c\n',
    # rejected files, explained by the token-level parser
    "X: a\n",
    '<T-D-1> :=\n  X: "abc\n',
    "<T-D-1> :=\n  X: a ##1#x#\n",
    "<T-D-1> :=\n  X: a\n  /\n",
]


def parse_all(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every input parsed with parsers made afresh (through the cache, if any) in both roles."""
    monkeypatch.setattr(reader, "_parser", functools.cache(BUILD))
    results: list[object] = []
    for text in INPUTS:
        for role in ("reference", "hypothesis"):
            try:
                parsed = reader.parse_templates(text, "t.tpl", role)
                results.append((parsed, [str(w) for w in parsed.warnings]))
            except InputError as error:
                results.append(str(error))
    return results


def test_parser_tables_from_the_cache_parse_exactly_as_built_ones(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HUB4EVAL_CACHE_DIR", unusable(tmp_path))
    built = parse_all(monkeypatch)
    monkeypatch.setenv("HUB4EVAL_CACHE_DIR", str(cache))
    assert parse_all(monkeypatch) == built  # first run: built, then stored
    stored = sorted(p.name for p in cache.glob("templette-*.lark"))
    assert [name.split("-")[1] for name in stored] == ["start", "tokens"]

    import lark  # the reader imports it when it makes a parser (a file of usual lines needs none)

    class NotBuilt(lark.Lark):
        def __init__(self, *args: object, **kwargs: object) -> None:
            raise AssertionError("the parser was built although its tables are in the cache")

    monkeypatch.setattr(lark, "Lark", NotBuilt)
    assert parse_all(monkeypatch) == built  # warm: loaded, not built


def test_a_cache_file_lark_cannot_load_is_replaced(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = parse_all(monkeypatch)
    for path in cache.glob("templette-*.lark"):
        diskcache.write(path.name, b"sealed, but no parser tables")
    assert parse_all(monkeypatch) == built
    for path in cache.glob("templette-*.lark"):
        assert diskcache.read(path.name) != b"sealed, but no parser tables"


def test_the_parser_works_without_a_cache(no_cache: None, monkeypatch: pytest.MonkeyPatch) -> None:
    results = parse_all(monkeypatch)
    assert isinstance(results[0], tuple) and isinstance(results[-1], str)


# --- the punctuation class -------------------------------------------------------

PATTERN = normalize._punctuation_pattern.__wrapped__  # the builder behind lru_cache


def test_punctuation_from_the_cache_is_the_scanned_class(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HUB4EVAL_CACHE_DIR", unusable(tmp_path))
    scanned = PATTERN().pattern
    monkeypatch.setenv("HUB4EVAL_CACHE_DIR", str(cache))
    assert PATTERN().pattern == scanned  # scanned, then stored
    assert len(list(cache.glob("punctuation-*"))) == 1

    def no_scan(char: str) -> str:
        raise AssertionError("the code points were scanned although the class is in the cache")

    import unicodedata

    monkeypatch.setattr(
        normalize, "unicodedata", types.SimpleNamespace(category=no_scan, unidata_version=unicodedata.unidata_version)
    )
    assert PATTERN().pattern == scanned  # warm: read, not scanned


# --- a whole run -----------------------------------------------------------------

RUN = textwrap.dedent(
    """
    import json, os, sys
    import lark
    import hub4eval.cli.app
    import hub4eval.cli

    built = []
    build = lark.Lark.__init__
    def counting(self, *args, **kwargs):
        built.append(kwargs.get("start"))
        return build(self, *args, **kwargs)
    lark.Lark.__init__ = counting

    exit_ = os._exit
    def report(code):
        sys.stdout.flush()
        loaded = [name for name in ("numpy", "numba", "pydantic") if name in sys.modules]
        print(json.dumps({"loaded": loaded, "built": built}), file=sys.stderr)
        exit_(code)
    os._exit = report
    sys.argv = ["hub4eval", *sys.argv[1:]]
    hub4eval.cli.main()
    """
)


@pytest.mark.slow
@pytest.mark.parametrize("text", [[], ["--ref-text", str(SAMPLE / "text.sgml")]], ids=["no text", "same text"])
def test_scoring_the_sample_imports_no_numba_and_builds_nothing_when_warm(cache: Path, text: list[str]) -> None:
    command = [sys.executable, "-c", RUN, "score", str(SAMPLE / "ref.tpl"), str(SAMPLE / "hyp.tpl"), "-q", *text]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    runs = [subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT) for _ in range(2)]
    reports = []
    for done in runs:
        assert done.returncode == 0, done.stderr
        reports.append(json.loads(done.stderr.strip().splitlines()[-1]))
    # numba only when texts are aligned (numpy is the mapping engine's); pydantic never
    # (typer 0.29 and later import it on start-up: pyproject.toml keeps typer below 0.29)
    assert [[name for name in r["loaded"] if name != "numpy"] for r in reports] == [[], []]
    assert [r["built"] for r in reports] == [["start"], []]  # the second run loads the tables
    assert "F = " in runs[0].stdout
    assert runs[1].stdout == runs[0].stdout


READ = textwrap.dedent(
    """
    import sys
    import hub4eval.cli
    from hub4eval.errors import InputError
    from hub4eval.io.templettes import parse_templates

    parse_templates('<EVENT-D-1> :=\\n    NAME: "usual" ##0#5#\\n<EVENT-D-2> :=\\n    NAME: <EVENT-D-1>\\n', "t.tpl")
    usual = "lark" in sys.modules
    try:
        parse_templates('<EVENT-D-1> :=\\n    NAME: "broken ##0#5#\\n', "t.tpl")
    except InputError:
        pass
    print(usual, "lark" in sys.modules)
    """
)


def test_a_file_of_usual_lines_is_read_without_importing_lark() -> None:
    """Lark (and the regex module it brings) costs about 30 ms of every start: the CLI and the
    reading of a file that tools write need none of it; a file that is not read as usual lines is
    read by the grammar, which imports it then."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", READ], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    assert done.stdout.split() == ["False", "True"]


MODULES = textwrap.dedent(
    """
    import json, os, sys
    import hub4eval.cli

    exit_ = os._exit
    def report(code):
        sys.stdout.flush()
        print(json.dumps(sorted(name for name in sys.modules if name.startswith("hub4eval."))), file=sys.stderr)
        exit_(code)
    os._exit = report
    sys.argv = ["hub4eval", *sys.argv[1:]]
    hub4eval.cli.main()
    """
)


def _modules_of(*arguments: str) -> list[str]:
    """The hub4eval modules a run of the command line ``arguments`` imported, in a process of its own."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", MODULES, *arguments], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stderr.strip().splitlines()[-1])


@pytest.mark.slow
def test_a_score_imports_no_templette_writer() -> None:
    """A score reads its templette files and writes none: the writer is imported by what writes
    (``hub4eval project``), not with the reader (``hub4eval.io.templettes.__getattr__``)."""
    asr = ROOT / "examples" / "asr"
    texts = ["--ref-text", str(asr / "reference.sgml"), "--hyp-text", str(asr / "asr_unsegmented.sgml")]
    scored = _modules_of("score", str(asr / "ref.tpl"), str(asr / "hyp.tpl"), *texts, "--jobs", "1", "-q")
    assert "hub4eval.io.templettes.reader" in scored
    assert "hub4eval.io.templettes.writer" not in scored
    projected = _modules_of("project", str(asr / "ref.tpl"), *texts, "-o", os.devnull)
    assert "hub4eval.io.templettes.writer" in projected


def test_the_writer_is_still_a_name_of_the_templette_package() -> None:
    import hub4eval.io.templettes as templettes
    from hub4eval.io.templettes import write_templates
    from hub4eval.io.templettes.writer import write_templates as written

    assert write_templates is written and "write_templates" in templettes.__all__
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        templettes.nothing  # noqa: B018
