"""Property tests of the named-entity rules against a small independent MUC scorer.

The oracle below is written from the MUC rules alone (docs/named-entities.md),
not from hub4eval's mapper: regions of the same element that share a
character may pair; a pair's points are TYPE (values equal) and TEXT (extents
equal); pairs are taken greedily, best first (more correct points, then the
earlier reference region, then the earlier hypothesis region, regions in text
order), each region once; unpaired regions are MIS or SPU for both points.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.api import score
from hub4eval.config import ScoreConfig
from hub4eval.io.entities import entity_templates, parse_entity_jsonl
from hub4eval.scoring.entities import EntityMapper
from tests.support.scoring import region_oracle

WORDS = [f"w{i}" for i in range(12)]
TEXT = " ".join(WORDS)
STARTS = [sum(len(w) + 1 for w in WORDS[:i]) for i in range(len(WORDS))]
ENDS = [start + len(word) for start, word in zip(STARTS, WORDS, strict=True)]
TYPES = {"ENAMEX": ("PERSON", "LOCATION"), "TIMEX": ("DATE",), "NUMEX": ("MONEY", "PERCENT")}

region = st.tuples(
    st.sampled_from(sorted(TYPES)), st.integers(0, 1), st.integers(0, len(WORDS) - 1), st.integers(1, 3)
).map(lambda r: (r[0], TYPES[r[0]][r[1] % len(TYPES[r[0]])], STARTS[r[2]], ENDS[min(r[2] + r[3], len(WORDS)) - 1]))
regions = st.lists(region, max_size=6)


def read(found):
    line = json.dumps({"id": "d", "text": TEXT, "entities": [[t, a, b, e] for e, t, a, b in found]})
    return parse_entity_jsonl(line + "\n", "x.jsonl")


def hub4eval_counts(ref, hyp):
    ref_source, hyp_source = read(ref), read(hyp)
    result = score(
        entity_templates(ref_source, "reference"),
        entity_templates(hyp_source, "hypothesis"),
        ref_corpus=ref_source.corpus,
        hyp_corpus=hyp_source.corpus,
        config=ScoreConfig(compare="extent", premodifiers=()),
        mapper_class=EntityMapper,
    )
    total = result.total
    return total.cor, total.inc, total.mis, total.spu


def oracle_counts(ref, hyp):
    def right(r, h):
        if r[2] < h[3] and h[2] < r[3]:  # a shared character
            return (r[1] == h[1]) + ((r[2], r[3]) == (h[2], h[3]))
        return None

    return region_oracle(ref, hyp, TYPES, 2, right)


@settings(max_examples=150, deadline=None)
@given(regions, regions)
def test_same_text_scores_as_the_muc_oracle(ref, hyp):
    assert hub4eval_counts(ref, hyp) == oracle_counts(ref, hyp)


@settings(max_examples=50, deadline=None)
@given(regions)
def test_a_tagging_against_itself_is_all_correct(ref):
    assert hub4eval_counts(ref, ref) == (2 * len(ref), 0, 0, 0)
