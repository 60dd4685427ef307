"""Scoring progress callbacks, the overlap search of §7.4, and the pointer reason."""

from __future__ import annotations

from hub4eval.api import score_files
from hub4eval.model import Extent
from hub4eval.scoring.mapping import _overlapping
from tests.support import EXAMPLES
from tests.support.scoring import run

CLEAN = EXAMPLES / "clean"


def test_progress_callback_counts_every_reference_set_and_bar_is_quiet_when_piped():
    seen = []
    score_files(CLEAN / "ref.tpl", CLEAN / "hyp.tpl", progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
    from hub4eval.cli.score import progress_bar

    with progress_bar("x", quiet=False) as advance:  # not a terminal under pytest
        assert advance is None


def test_overlapping_sets_found_by_bisection_match_all_pairs():
    refs = [Extent(0, 9), Extent(10, 19), None, Extent(20, 29)]
    hyps = [Extent(5, 12), None, Extent(19, 20), Extent(30, 40), Extent(29, 29)]
    brute = sorted((i, j) for i, r in enumerate(refs) for j, h in enumerate(hyps) if r and h and r.overlaps(h))
    assert _overlapping(refs, hyps) == brute == [(0, 0), (1, 0), (1, 2), (3, 2), (3, 4)]


def test_overlap_search_falls_back_when_reference_extents_overlap_each_other():
    refs = [Extent(0, 20), Extent(10, 30)]
    hyps = [Extent(15, 16), Extent(25, 26)]
    assert _overlapping(refs, hyps) == [(0, 0), (1, 0), (1, 1)]


def test_pointer_reason_names_both_instances():
    ref = '<T-D-1> :=\n  EVENT: <EV-D-1>\n<EV-D-1> :=\n  W: "a"\n<EV-D-2> :=\n  W: "b"\n'
    hyp = '<T-D-1> :=\n  EVENT: <EV-D-3>\n<EV-D-2> :=\n  W: "a"\n<EV-D-3> :=\n  W: "b"\n'
    [pointer] = [p for p in run(ref, hyp).points if p.kind == "pointer"]
    assert pointer.reason == "pointer: reference instance <EV-D-1> mapped to <EV-D-2>, hypothesis points to <EV-D-3>"
