"""``hub4eval align`` on sclite's inputs (tests/data/sclite_cli/): the readers' fixes reach it. Ids and
channels pair whatever their case, a one-channel ctm of a two-channel recording pairs with its channel,
the hypothesis words in an ignored segment's time are not insertions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hub4eval.io.formats import read_text_corpora

DATA = Path(__file__).resolve().parents[1] / "data" / "sclite_cli"
ROOT = Path(__file__).resolve().parents[2]


def align_json(*args: str) -> dict:
    proc = subprocess.run(
        [sys.executable, "-m", "hub4eval", "align", *args, "--glm", "none", "--spoken-forms", "none", "--json", "-"],
        capture_output=True,
        text=True,
        cwd=DATA,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_trn_ids_in_another_case_pair_and_nothing_is_left_unpaired():
    out = json.dumps(align_json("ref.trn", "hyp.trn"))
    assert "not in the hypothesis text" not in out and "not in the reference text" not in out


def test_stm_against_ctm_pairs_channels_and_drops_the_ignored_segments_words():
    ref, hyp = read_text_corpora(str(DATA / "ref.stm"), str(DATA / "hyp.ctm"))
    # rec2 has two channels in the stm and one in the ctm: both name it by channel
    assert [d.docid for d in ref.documents] == ["rec1-A", "rec1-B", "rec2-A", "rec2-B"]
    assert [d.docid for d in hyp.documents] == ["rec1-a", "rec1-b", "rec2-a"]
    # "noise words" lie in the IGNORE_TIME_SEGMENT_IN_SCORING segment of rec1 A
    assert hyp.document("rec1-a").text == "the cat sat on a mat"
    summary = align_json("ref.stm", "hyp.ctm")["summary"]
    # by hand: rec1-A the cat sat / on {the} mat vs the cat sat on a mat: 1 S; rec1-B hello there (uh)
    # friend / how are you vs hello there friend / how is you today: (uh) D, are/is S, today I;
    # rec2-A one channel only vs one channel: only D; rec2-B: 3 D
    assert (summary["substitutions"], summary["deletions"], summary["insertions"]) == (2, 5, 1)
