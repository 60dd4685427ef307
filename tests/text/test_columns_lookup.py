"""An extent's columns are looked up in the token arrays themselves, not in copies of them as tuples.

Tuples of a million-word text's starts, ends and columns took about 200 MB
of a score; the arrays, seen as memoryviews, are bisected alike.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.io.corpus import parse_corpus
from hub4eval.model import Extent
from hub4eval.text.columns import align_corpora


def _brute(tokens, columns, extent: Extent) -> Extent | None:
    touched = [k for k, t in enumerate(tokens) if t.end > extent.start and t.start < extent.end]
    return None if not touched else Extent(int(columns[touched[0]]), int(columns[touched[-1]]))


@settings(max_examples=40, deadline=None)
@given(
    words=st.lists(st.sampled_from(["a", "bb", "ccc", "(d)", "e-", "ff,"]), min_size=0, max_size=30),
    start=st.integers(0, 120),
    width=st.integers(0, 30),
    unsegmented=st.booleans(),
)
def test_the_columns_of_an_extent_are_those_of_the_tokens_it_touches(words, start, width, unsegmented):
    text = f"<DOC>\n<DOCNO> D </DOCNO>\n<TEXT>\n{' '.join(words)}\n</TEXT>\n</DOC>\n"
    hyp = " ".join(reversed(words))
    alignment = align_corpora(parse_corpus(text, "r"), parse_corpus(hyp if unsegmented else text, "h"))
    side = alignment._ref["D"]
    starts, ends, columns = side._lookup
    if len(side.tokens):
        assert all(isinstance(v, memoryview) for v in (starts, ends, columns))  # no copy of the arrays
    extent = Extent(start, start + width)
    assert alignment.ref_extent("D", extent) == _brute(list(side.tokens), side.columns, extent)
