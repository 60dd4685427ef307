"""`ne` on the same text agrees with nervaluate, an independent NER evaluator.

tests/data/ne_nervaluate holds 40 documents of random ENAMEX regions, each
overlapping at most one region of the other side, and the counts nervaluate
1.2.1 gives for them (make_fixture.py there says how they were made). Where
no region overlaps two, MUC's TYPE point is nervaluate's ``ent_type``
scheme (regions overlap, type right or wrong) and MUC's TEXT point its
``exact`` scheme (the same boundaries, whatever the type).
"""

from __future__ import annotations

import json
from pathlib import Path

from hub4eval.api import score_entity_files
from hub4eval.config import ScoreConfig

DATA = Path(__file__).resolve().parents[1] / "data" / "ne_nervaluate"


def test_type_and_text_counts_are_nervaluates():
    expected = json.loads((DATA / "nervaluate.json").read_text())
    result = score_entity_files(DATA / "ref.jsonl", DATA / "hyp.jsonl", config=ScoreConfig(premodifiers=())).result
    by_slot = result.by("slot")
    for slot, scheme in (("ENAMEX.TYPE", "ent_type"), ("ENAMEX.TEXT", "exact")):
        counts = by_slot[slot]
        found = {"correct": counts.cor, "incorrect": counts.inc, "missed": counts.mis, "spurious": counts.spu}
        assert found == expected[scheme], slot
