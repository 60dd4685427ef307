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


def test_align_and_sclite_give_one_wer_on_plain_words(tmp_path, monkeypatch):
    """On plain lower-case words (no notation, no punctuation) with --glm none --spoken-forms none,
    align's WER (sclite alignment) is hub4eval sclite's Sum row."""
    from hub4eval.cli.sclite import run

    ref = "the cat sat on the mat (a-1)\ni want to go home now (a-2)\nhello there my friend (b-1)\n"
    hyp = "the cat sat on a hat (a-1)\ni wanna go home (a-2)\nhello hello there friend (b-1)\n"
    (tmp_path / "ref.trn").write_text(ref, encoding="utf-8")
    (tmp_path / "hyp.trn").write_text(hyp, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "hub4eval", "align", "ref.trn", "hyp.trn", "--glm", "none", "--spoken-forms", "none"]
        + ["--json", "-"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
    )
    summary = json.loads(proc.stdout)["summary"]
    monkeypatch.chdir(tmp_path)
    run(["-r", "ref.trn", "-h", "hyp.trn", "-i", "spu_id", "-o", "rsum", "-n", "out", "-f", "0"])
    row = next(line for line in (tmp_path / "out.raw").read_text().splitlines() if "| Sum" in line)
    numbers = [int(x) for x in row.replace("|", " ").split()[1:]]
    _, words, correct, sub, dele, ins, _, _ = numbers
    assert (summary["ref_words"], summary["matches"]) == (words, correct)
    assert (summary["substitutions"], summary["deletions"], summary["insertions"]) == (sub, dele, ins)
