"""No output destroys an input, and an output is written whole or not at all.

Every command that writes a file checks it first (hub4eval.cli.outputs): an
output that is an input of the run (by name, symbolic or hard link, or the file
standard input reads) is refused before anything is read, with one line naming
both; an empty path names its option; a read-only file system is called so;
and a run that fails while writing leaves the file that was there before.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "examples" / "sample"
ASR = ROOT / "examples" / "asr"
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
ENV.pop("HUB4EVAL_DEBUG", None)


def hub4eval(*args: str, cwd: Path, stdin: Path | None = None) -> subprocess.CompletedProcess[str]:
    handle = open(stdin, "rb") if stdin is not None else subprocess.DEVNULL
    try:
        return subprocess.run(
            [sys.executable, "-m", "hub4eval", *args],
            cwd=cwd,
            env=ENV,
            stdin=handle,
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        if stdin is not None:
            handle.close()  # type: ignore[union-attr]


@pytest.fixture
def work(tmp_path: Path) -> Path:
    for name in ("ref.tpl", "hyp.tpl", "text.sgml"):
        shutil.copy(SAMPLE / name, tmp_path / name)
    shutil.copy(ASR / "reference.sgml", tmp_path / "reference.sgml")
    shutil.copy(ASR / "asr_unsegmented.sgml", tmp_path / "asr.sgml")
    shutil.copy(ROOT / "examples" / "asr_ne" / "reference.sgml", tmp_path / "ne_ref.sgml")
    shutil.copy(ROOT / "examples" / "asr_ne" / "asr_tagged.sgml", tmp_path / "ne_hyp.sgml")
    return tmp_path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir() if path.is_file()}


def refused(proc: subprocess.CompletedProcess[str]) -> str:
    """The one line of a refusal (exit 2, nothing on standard output)."""
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return lines[0]


# Each command, an output option aimed at one of its inputs, and that input's name in the message.
OVERWRITES = [
    (["score", "ref.tpl", "hyp.tpl", "--json", "ref.tpl"], "--json", "ref.tpl", "REF"),
    (["score", "ref.tpl", "hyp.tpl", "--csv", "hyp.tpl"], "--csv", "hyp.tpl", "HYP"),
    (["score", "ref.tpl", "hyp.tpl", "--ref-text", "text.sgml", "--html", "text.sgml"], "--html", "text.sgml", None),
    (["align", "reference.sgml", "asr.sgml", "--json", "reference.sgml"], "--json", "reference.sgml", "REF_TEXT"),
    (["align", "reference.sgml", "asr.sgml", "--json", "asr.sgml"], "--json", "asr.sgml", "HYP_TEXT"),
    (
        ["project", "ref.tpl", "--ref-text", "text.sgml", "--hyp-text", "asr.sgml", "-o", "asr.sgml"],
        "--output",
        "asr.sgml",
        "--hyp-text",
    ),
    (["compare", "ref.tpl", "hyp.tpl", "ref.tpl", "--bootstrap", "10", "--json", "hyp.tpl"], "--json", "hyp.tpl", "A"),
    (["ne", "ne_ref.sgml", "ne_hyp.sgml", "--json", "ne_ref.sgml"], "--json", "ne_ref.sgml", "REF"),
    (["ne", "ne_ref.sgml", "ne_hyp.sgml", "--html", "ne_hyp.sgml"], "--html", "ne_hyp.sgml", "HYP"),
]


@pytest.mark.parametrize(("args", "option", "target", "name"), OVERWRITES)
def test_an_output_aimed_at_an_input_is_refused_and_the_input_kept(work, args, option, target, name):
    before = snapshot(work)
    line = refused(hub4eval(*args, cwd=work))
    assert line.startswith(f"{target}: the {option} output is the input ")
    assert f"({target})" in line and "would destroy" in line
    if name is not None:
        assert f"the input {name} " in line
    assert snapshot(work) == before  # nothing written, nothing left behind


@pytest.mark.parametrize("link", ["symbolic", "hard"])
def test_a_link_to_an_input_is_the_input(work, link):
    if link == "symbolic":
        (work / "out.json").symlink_to(work / "ref.tpl")
    else:
        os.link(work / "ref.tpl", work / "out.json")
    before = (work / "ref.tpl").read_bytes()
    line = refused(hub4eval("score", "ref.tpl", "hyp.tpl", "--json", "out.json", cwd=work))
    assert line.startswith("out.json: the --json output is the input REF (ref.tpl)")
    assert (work / "ref.tpl").read_bytes() == before


def test_the_file_standard_input_reads_is_an_input(work):
    before = (work / "ref.tpl").read_bytes()
    line = refused(hub4eval("score", "-", "hyp.tpl", "--csv", "ref.tpl", cwd=work, stdin=work / "ref.tpl"))
    assert line.startswith("ref.tpl: the --csv output is the input REF (standard input)")
    assert (work / "ref.tpl").read_bytes() == before


def test_a_glm_file_is_an_input(work):
    (work / "mine.glm").write_text("colour => color / [ ] __ [ ]\n", encoding="utf-8")
    line = refused(hub4eval("align", "reference.sgml", "asr.sgml", "--glm", "mine.glm", "--json", "mine.glm", cwd=work))
    assert line.startswith("mine.glm: the --json output is the input --glm (mine.glm)")


def test_two_outputs_on_one_file_are_refused(work):
    line = refused(hub4eval("score", "ref.tpl", "hyp.tpl", "--json", "out", "--csv", "./out", cwd=work))
    assert line == "./out: --json and --csv both write to this file (hint: give each output its own file)"


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["score", "ref.tpl", "hyp.tpl", "--json", ""], "--json"),
        (["score", "ref.tpl", "hyp.tpl", "--csv", ""], "--csv"),
        (["score", "ref.tpl", "hyp.tpl", "--html", ""], "--html"),
        (["score", "ref.tpl", "hyp.tpl", "--glm", ""], "--glm"),
        (["explain", "ref.tpl", "hyp.tpl", "--glm", ""], "--glm"),
        (["align", "reference.sgml", "asr.sgml", "--json", ""], "--json"),
        (["compare", "ref.tpl", "hyp.tpl", "hyp.tpl", "--json", ""], "--json"),
        (["project", "ref.tpl", "--ref-text", "text.sgml", "--hyp-text", "asr.sgml", "-o", ""], "--output"),
    ],
)
def test_an_empty_path_names_its_option(work, args, option):
    line = refused(hub4eval(*args, cwd=work))
    assert line.startswith(f"the {option} path is empty"), line
    assert "directory" not in line


def test_outputs_replace_the_old_file_and_keep_links_and_permissions(work):
    old = work / "old.json"
    old.write_text("old", encoding="utf-8")
    old.chmod(0o640)
    (work / "link.json").symlink_to(old)
    proc = hub4eval("score", "ref.tpl", "hyp.tpl", "--json", "link.json", "--csv", "new.csv", cwd=work)
    assert proc.returncode == 0, proc.stderr
    assert (work / "link.json").is_symlink()  # the link stays, the file it points to is written
    assert old.read_text(encoding="utf-8").startswith("{")
    assert stat.S_IMODE(old.stat().st_mode) == 0o640
    assert (work / "new.csv").read_text(encoding="utf-8").startswith("level,name,POS,")
    assert not [p for p in work.iterdir() if p.name.endswith(".tmp")]


def test_a_device_is_written_in_place_not_replaced(work):
    """/dev/null is not a regular file: it is written, never renamed over (as root that would replace it)."""
    proc = hub4eval("score", "ref.tpl", "hyp.tpl", "--json", os.devnull, cwd=work)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


# ------------------------------------------------------- a full disk, a read-only file system


def _write_fails_midway(monkeypatch, code: int) -> None:
    """Writing gets 4 KiB into the file, then fails as a full disk does."""
    from hub4eval.report import export

    real = export._write_batched

    def failing(pieces, handle, size=4096):
        text = "".join(pieces)
        handle.write(text[:4096])
        handle.flush()
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(export, "_write_batched", failing)
    assert real is not failing


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EIO])
def test_a_failed_write_leaves_the_good_file_and_no_temporary(work, monkeypatch, code):
    from typer.testing import CliRunner

    from hub4eval.cli import app

    good = work / "result.json"
    good.write_text('{"good": true}\n', encoding="utf-8")
    files = sorted(p.name for p in work.iterdir())
    _write_fails_midway(monkeypatch, code)
    result = CliRunner().invoke(app, ["score", str(work / "ref.tpl"), str(work / "hyp.tpl"), "--json", str(good)])
    assert result.exit_code == 2, result.output
    *warnings, line = result.stderr.splitlines()  # warnings of the inputs come first, each a line of its own
    assert all("warning:" in w for w in warnings), warnings
    assert line == (
        f"{good}: cannot write the --json output: {os.strerror(code)} "
        "(hint: write to a disk with free space, or to another place)"
    )
    assert good.read_text(encoding="utf-8") == '{"good": true}\n'
    assert sorted(p.name for p in work.iterdir()) == files  # no temporary file left beside them


@pytest.fixture
def small_tmpfs(tmp_path: Path):
    """An 8 KiB tmpfs (root only; skipped where mounting is not allowed)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8k", "tmpfs", str(mount)], capture_output=True)
    if proc.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root); the monkeypatched full disk above covers it")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_a_full_disk_keeps_the_old_file(work, small_tmpfs):
    good = small_tmpfs / "result.json"
    good.write_text('{"good": true}\n', encoding="utf-8")
    line = refused(hub4eval("score", "ref.tpl", "hyp.tpl", "--json", str(good), "-q", cwd=work))
    assert line == (
        f"{good}: cannot write the --json output: No space left on device "
        "(hint: write to a disk with free space, or to another place)"
    )
    assert good.read_text(encoding="utf-8") == '{"good": true}\n'
    assert [p.name for p in small_tmpfs.iterdir()] == ["result.json"]


def test_a_read_only_file_system_is_called_so(work, small_tmpfs):
    subprocess.run(["mount", "-o", "remount,ro", str(small_tmpfs)], check=True)
    for target in ("new.json", "old.json"):
        line = refused(hub4eval("score", "ref.tpl", "hyp.tpl", "--json", str(small_tmpfs / target), cwd=work))
        assert line == (
            f"{small_tmpfs / target}: cannot write the --json output: read-only file system "
            "(hint: write the output to a writable file system)"
        )


def test_the_read_only_words_come_from_the_error_code():
    from hub4eval.cli.outputs import output_error

    assert "read-only file system" in str(output_error("--csv", "x.csv", errno.EROFS, "Permission denied"))


def test_dev_stdout_redirected_to_a_file_is_written_in_place(work):
    """/dev/stdout resolves to the file standard output is redirected to: it is written, not replaced
    (a replacement would lose the tables the process prints to the same file)."""
    target = work / "all.txt"
    with open(target, "ab") as out:
        proc = subprocess.run(
            [sys.executable, "-m", "hub4eval", "score", "ref.tpl", "hyp.tpl", "--json", "/dev/stdout"],
            cwd=work,
            env=ENV,
            stdout=out,
            stderr=subprocess.PIPE,
            timeout=300,
        )
    assert proc.returncode == 0, proc.stderr
    text = target.read_text(encoding="utf-8")
    assert '"signature"' in text and "Scores per slot" in text


def test_a_sclite_report_aimed_at_an_input_is_refused(work):
    """`sclite -n hyp -o sum` names its report hyp.sys: the hypothesis itself, when it is called hyp.sys."""
    (work / "ref.trn").write_text("in soccer (s1)\n", encoding="utf-8")
    (work / "hyp.sys").write_text("in soccer (s1)\n", encoding="utf-8")
    line = refused(
        hub4eval(
            "sclite", "-r", "ref.trn", "trn", "-h", "hyp.sys", "trn", "-i", "sp", "-o", "sum", "-n", "hyp", cwd=work
        )
    )
    assert line == (
        "hyp.sys: the -o sum output is the input -h (hyp.sys); writing it would destroy that input "
        "(hint: write the output to another file)"
    )
    assert (work / "hyp.sys").read_text(encoding="utf-8") == "in soccer (s1)\n"
