"""`explain`, `project` and `compare` take `--jobs N` for aligning the texts, as `score` does.

They always keep every point, so `--jobs` applies only to the texts' alignment: with N
above 1 (or left out, on a machine of several cores) children align the texts; with 1,
none; the output is the same, byte for byte. A `--jobs` out of bounds is refused before any
file is read. The texts here are short, so the threshold under which texts are aligned in
one process (`PARALLEL_WORDS`) is set to 0 for the children to start.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import hub4eval.text.aligned_texts as aligned_texts
from hub4eval.api import max_jobs
from hub4eval.cli import app
from hub4eval.util import forked
from tests.support import EXAMPLES
from tests.support.children import started_children

ASR = EXAMPLES / "asr"
REF, HYP = str(ASR / "ref.tpl"), str(ASR / "hyp.tpl")
TEXTS = ["--ref-text", str(ASR / "reference.sgml"), "--hyp-text", str(ASR / "asr_unsegmented.sgml")]
COMMANDS = {
    "explain": ["explain", REF, HYP, *TEXTS],
    "project": ["project", REF, *TEXTS, "--output", "-"],
    "compare": ["compare", REF, HYP, str(ASR / "hyp_one_set.tpl"), *TEXTS, "--bootstrap", "200", "--json", "-"],
}
runner = CliRunner()


def _run(arguments: list[str]) -> str:
    result = runner.invoke(app, [*arguments, "--quiet"])
    assert result.exit_code == 0, result.output
    return result.stdout


SCORINGS = {"explain": 1, "project": 1, "compare": 2}  # the scorings of a command (compare: A's, then B's)


def _recording_alignments(monkeypatch) -> list[int]:
    """The ``jobs`` each alignment of the texts is given, in order."""
    given: list[int] = []
    align_texts = aligned_texts.align_texts

    def recording(*args, **kwargs):
        given.append(kwargs["jobs"])
        return align_texts(*args, **kwargs)

    monkeypatch.setattr(aligned_texts, "align_texts", recording)
    return given


@pytest.mark.parametrize("name", COMMANDS)
def test_the_texts_are_aligned_in_children_only_with_several_jobs(monkeypatch, name):
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", 0)
    started = started_children(monkeypatch, aligned_texts)
    given = _recording_alignments(monkeypatch)
    outputs = {}
    for jobs in ("1", "2"):
        started.clear()
        given.clear()
        outputs[jobs] = _run([*COMMANDS[name], "--jobs", jobs])
        assert given == [int(jobs)] * SCORINGS[name]  # every scoring's alignment, B's too
        assert bool(started) == (jobs == "2"), started
    assert outputs["1"] == outputs["2"]
    assert outputs["1"].strip()


@pytest.mark.parametrize("name", COMMANDS)
def test_left_out_jobs_is_every_core(monkeypatch, name):
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", 0)
    started = started_children(monkeypatch, aligned_texts)
    given = _recording_alignments(monkeypatch)
    for cores in (2, 3, 1):
        started.clear()
        given.clear()
        monkeypatch.setattr(forked, "available_cores", lambda cores=cores: cores)
        _run(COMMANDS[name])
        assert given == [cores] * SCORINGS[name]
        assert bool(started) == (cores > 1)


@pytest.mark.parametrize("name", COMMANDS)
def test_too_many_jobs_are_refused_before_any_file_is_read(tmp_path, name):
    missing = str(tmp_path / "missing.tpl")  # read first, it would give another error
    arguments = [missing if a == REF else a for a in COMMANDS[name]]
    result = runner.invoke(app, [*arguments, "--jobs", "100000"])
    assert result.exit_code == 2
    line = result.output.strip()
    assert "\n" not in line
    assert line.startswith(f"--jobs 100,000 is more processes than this machine can run at once (at most {max_jobs()}")
