"""The collector pause: off inside, restored after; the CLI freezes what it made, the library does not."""

from __future__ import annotations

import gc

import pytest
from typer.testing import CliRunner

from hub4eval.api import score_files
from hub4eval.cli import app
from hub4eval.util.gcpause import paused_gc
from tests.support import EXAMPLES

SAMPLE = EXAMPLES / "sample"


def _seen_by_collector(thing: object) -> bool:
    """Whether ``thing`` is in one of the collector's generations (not frozen)."""
    return any(other is thing for other in gc.get_objects())


@pytest.fixture(autouse=True)
def thawed():
    """Each test starts and ends with no frozen objects and the collector on."""
    gc.unfreeze()
    gc.enable()
    yield
    gc.unfreeze()
    gc.enable()


def test_collector_is_off_inside_and_back_on_after():
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():  # nested: the inner block must not turn it back on
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_already_off_stays_off():
    gc.disable()
    with paused_gc(freeze=True):
        pass
    assert not gc.isenabled()


def test_back_on_after_an_exception():
    with pytest.raises(ValueError), paused_gc():
        raise ValueError("boom")
    assert gc.isenabled()


def test_freeze_moves_what_was_made_out_of_the_collector_s_reach():
    with paused_gc(freeze=True):
        made = [[i] for i in range(10_000)]
    assert gc.get_freeze_count() >= len(made)
    assert not _seen_by_collector(made[-1])


def test_no_freeze_by_default():
    with paused_gc():
        made = [[i] for i in range(10_000)]
    assert gc.get_freeze_count() == 0
    assert _seen_by_collector(made[-1])  # collections still walk it


def test_library_scoring_does_not_freeze_the_callers_objects():
    result = score_files(SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl")
    assert result.total.cor == 13
    assert gc.get_freeze_count() == 0
    assert gc.isenabled()


def test_cli_command_freezes_its_objects_on_the_way_out():
    outcome = CliRunner().invoke(app, ["score", str(SAMPLE / "ref.tpl"), str(SAMPLE / "hyp.tpl"), "--quiet"])
    assert outcome.exit_code == 0, outcome.output
    assert gc.get_freeze_count() > 0
    assert gc.isenabled()


def test_the_readme_pattern_keeps_a_library_result_out_of_the_collectors_reach():
    gc.disable()
    result = score_files(SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl")
    assert not gc.isenabled()  # scoring leaves the collector as it found it
    gc.freeze()
    gc.enable()
    assert not _seen_by_collector(result.matches[0])
