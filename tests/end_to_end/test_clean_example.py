"""Golden: examples/clean, scored by hand.

Derivation (defaults: compare both, raw offsets, premodifiers a/an/the/and):

VOA19980111.2300.0414 (instance sets mapped by DOCID)
  SPORTS_EVENT candidates (r = reference, h = hypothesis):
    r1-h1: S_EVENT alt 1 "the Australian Open women's final" gives content INC (minimal =
           whole string) + extent COR; alt 2 "Australian Open" gives COR COR -> alt 2 chosen.
           WINNER "Martina [Hingis]" vs "Hingis": COR COR (minimal inside).
           LOSER "Conchita Martinez" vs "Martinez": content INC (minimal = whole string),
           extent 95..103 inside 86..103: COR.
           SCORE "6-3, 6-3" vs "6-3": content INC, extent 104..107 inside 104..112: COR.
           LOCATION COR COR.  DATE is optional (?) and missing: OPT OPT.
           -> COR 8, INC 2, OPT 2: F = 16/20 = 0.8
    r2-h2: WINNER COR COR; DATE "the next day" -> "next day" 204..212 vs hyp "next day"
           204..212: COR COR; S_EVENT missing: MIS MIS -> COR 4, MIS 2: F = 8/10 = 0.8
    r1-h2 and r2-h1 have F = 0.  Tie at F = 0.8 broken by COR: r1-h1 first, then r2-h2.
  TEMPLATE: ref EVENT <SE-1> <SE-2>, hyp EVENT <SE-1>: <SE-1> pair COR; <SE-2> left
           over; SE-2 is optional but mapped (to h2), so MIS, not REM.
CNN19980112.1600.0100 (no hypothesis instance set)
  TEMPLATE EVENT: <SE-1> MIS; <SE-2> points to an optional instance nobody matched: REM.
  SE-1: 6 slots x 2 points MIS = 12 MIS.  SE-2 (optional, unmapped): nothing.
ABC19980113.1830.0200
  TEMPLATE pair: hyp EVENT pointer, no reference slot: SPU.
  hyp SE-1 unmapped: S_EVENT SPU SPU, WINNER SPU SPU.

Per slot (COR INC MIS SPU OPT REM):
  TEMPLATE.EVENT          1 0 2 1 0 1
  SPORTS_EVENT.S_EVENT    2 0 4 2 0 0
  SPORTS_EVENT.WINNER     4 0 2 2 0 0
  SPORTS_EVENT.LOSER      1 1 2 0 0 0
  SPORTS_EVENT.SCORE      1 1 2 0 0 0
  SPORTS_EVENT.LOCATION   2 0 2 0 0 0
  SPORTS_EVENT.DATE       2 0 2 0 2 0
  total                  13 2 16 5 2 1   POS 31  ACT 20  F = 26/51
"""

from __future__ import annotations

import pytest

from hub4eval.api import score_files
from tests.support import EXAMPLES

CLEAN = EXAMPLES / "clean"

EXPECTED = {
    "TEMPLATE.EVENT": (1, 0, 2, 1, 0, 1),
    "SPORTS_EVENT.S_EVENT": (2, 0, 4, 2, 0, 0),
    "SPORTS_EVENT.WINNER": (4, 0, 2, 2, 0, 0),
    "SPORTS_EVENT.LOSER": (1, 1, 2, 0, 0, 0),
    "SPORTS_EVENT.SCORE": (1, 1, 2, 0, 0, 0),
    "SPORTS_EVENT.LOCATION": (2, 0, 2, 0, 0, 0),
    "SPORTS_EVENT.DATE": (2, 0, 2, 0, 2, 0),
}


@pytest.fixture(scope="module", params=["no-text", "with-text"])
def result(request):
    text = CLEAN / "text.sgml" if request.param == "with-text" else None
    return score_files(CLEAN / "ref.tpl", CLEAN / "hyp.tpl", ref_text=text, hyp_text=text)


def test_per_slot_counts(result):
    got = {slot: (c.cor, c.inc, c.mis, c.spu, c.opt, c.rem) for slot, c in result.by("slot").items()}
    assert got == EXPECTED


def test_totals(result):
    total = result.total
    assert (total.cor, total.inc, total.mis, total.spu, total.opt, total.rem) == (13, 2, 16, 5, 2, 1)
    assert (total.pos, total.act) == (31, 20)
    assert total.metrics()["F"] == pytest.approx(26 / 51)


def test_mapping(result):
    pairs = [(r, h) for r, h, _ in result.instance_pairs()]
    v = "VOA19980111.2300.0414"
    assert (f"<SPORTS_EVENT-{v}-1>", f"<SPORTS_EVENT-{v}-1>") in pairs
    assert (f"<SPORTS_EVENT-{v}-2>", f"<SPORTS_EVENT-{v}-2>") in pairs
    assert ("CNN19980112.1600.0100", None) in result.instance_set_pairs()


def test_by_document(result):
    docs = result.by("document")
    assert docs["CNN19980112.1600.0100"].mis == 13
    assert docs["CNN19980112.1600.0100"].rem == 1
    assert docs["ABC19980113.1830.0200"].spu == 5
