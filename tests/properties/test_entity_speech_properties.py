"""Property test of the speech rules (texts that differ) against a small independent oracle.

The hypothesis text is the reference's words with some replaced by words
the reference never has (all reference words distinct), so the word
alignment is the identity: word k of one side is word k of the other. The
oracle, written from docs/named-entities.md: regions of the same element
whose word spans share a word may pair; a pair has three points, TYPE (the
same value), TEXT extent (the same first and last word) and TEXT content
(the same words: the same span, no replaced word in it); pairs are taken
best first (more correct points, then the earlier reference region, then
the earlier hypothesis region), each region once; an unpaired region is
MIS or SPU for its three points.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hub4eval.api import score_entity_files
from hub4eval.config import ScoreConfig
from tests.support.scoring import region_oracle

WORDS = [f"word{chr(97 + i)}" for i in range(14)]  # distinct, not numbers, not in the GLM
TYPES = {"ENAMEX": ("PERSON", "LOCATION"), "NUMEX": ("MONEY",)}

region = st.tuples(
    st.sampled_from(sorted(TYPES)), st.integers(0, 1), st.integers(0, len(WORDS) - 1), st.integers(1, 3)
).map(lambda r: (r[0], TYPES[r[0]][r[1] % len(TYPES[r[0]])], r[2], min(r[2] + r[3], len(WORDS)) - 1))
regions = st.lists(region, max_size=5)
replaced = st.sets(st.integers(0, len(WORDS) - 1), min_size=1, max_size=4)  # the texts differ


def tagged(words: list[str], found: list[tuple[str, str, int, int]]) -> str:
    """The words with the regions marked up (they nest, they never cross)."""
    opens: dict[int, list[str]] = {}
    closes: dict[int, list[str]] = {}
    for element, kind, first, last in sorted(found, key=lambda r: (r[2], -r[3])):
        opens.setdefault(first, []).append(f'<{element} TYPE="{kind}">')
        closes.setdefault(last, []).insert(0, f"</{element}>")
    return " ".join("".join(opens.get(k, [])) + word + "".join(closes.get(k, [])) for k, word in enumerate(words))


def well_nested(found) -> bool:
    spans = [(first, last) for _, _, first, last in found]
    for a, b in spans:
        for c, d in spans:
            if a < c <= b < d:
                return False
    return len(set(spans)) == len(spans)


def oracle(ref, hyp, changed):
    def right(r, h):
        if r[2] <= h[3] and h[2] <= r[3]:
            same_span = (r[2], r[3]) == (h[2], h[3])
            words_right = same_span and not any(r[2] <= k <= r[3] for k in changed)
            return (r[1] == h[1]) + same_span + words_right
        return None

    return region_oracle(ref, hyp, TYPES, 3, right)


@settings(max_examples=60, deadline=None)
@given(regions, regions, replaced)
def test_speech_scores_as_the_mitre_oracle(ref, hyp, changed):
    assume(well_nested(ref) and well_nested(hyp))  # crossing regions cannot be written as markup
    heard = [f"other{k}" if k in changed else word for k, word in enumerate(WORDS)]
    doc = "<DOC>\n<DOCNO> d1 </DOCNO>\n<TEXT>\n{}\n</TEXT>\n</DOC>\n"
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "ref.sgml").write_text(doc.format(tagged(WORDS, ref)))
        (Path(folder) / "hyp.sgml").write_text(doc.format(tagged(heard, hyp)))
        result = score_entity_files(
            Path(folder) / "ref.sgml",
            Path(folder) / "hyp.sgml",
            config=ScoreConfig(premodifiers=()),
            ceiling=False,
        ).result
    total = result.total
    assert (total.cor, total.inc, total.mis, total.spu) == oracle(ref, hyp, changed)
