"""Pairing the documents of two texts (hub4eval.text.columns): DOCIDs that differ only in case are one
document, as sclite pairs trn utterance ids and ctm/stm channels; an exact DOCID wins."""

from __future__ import annotations

from hub4eval.io.formats import parse_ctm, parse_stm, parse_trn
from hub4eval.text.columns import align_corpora


def test_trn_ids_are_paired_case_insensitively():
    ref = parse_trn("the cat sat (4t0c0204)\nhello (4t0c0205)\n")
    hyp = parse_trn("the cat sat (4T0C0204)\nhello (4T0C0205)\n")
    alignment = align_corpora(ref, hyp)
    assert not alignment.warnings
    assert [(d.ref_docid, d.hyp_docid) for d in alignment.documents] == [
        ("4t0c0204", "4T0C0204"),
        ("4t0c0205", "4T0C0205"),
    ]
    assert alignment.wer_summary()["errors"] == 0


def test_an_exact_docid_wins_over_one_that_differs_in_case():
    ref = parse_trn("a (u1)\nb (U1x)\n")
    hyp = parse_trn("b (u1x)\na (u1)\nc (U1X)\n")
    alignment = align_corpora(ref, hyp)
    pairs = [(d.ref_docid, d.hyp_docid) for d in alignment.documents]
    assert ("u1", "u1") in pairs
    # two hypothesis ids differ from U1x only in case: ambiguous, neither is taken
    assert ("U1x", None) in pairs


def test_stm_and_ctm_channels_pair_whatever_their_case():
    ref = parse_stm("rec a spk1 0 1 the cat\nrec b spk2 0 1 a dog\n")
    hyp = parse_ctm("rec A 0.1 0.1 the\nrec A 0.3 0.1 cat\nrec B 0.1 0.1 a\nrec B 0.2 0.1 dog\n")
    alignment = align_corpora(ref, hyp)
    assert [(d.ref_docid, d.hyp_docid) for d in alignment.documents] == [("rec-a", "rec-A"), ("rec-b", "rec-B")]
    assert alignment.wer_summary()["errors"] == 0
