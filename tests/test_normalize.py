"""§3 punctuation whiteout: the letters-and-digits short cut changes nothing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.text import normalize


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=12) | st.text(alphabet=st.sampled_from("ab1² _-'’.,Ä٣"), max_size=12))
def test_whiteout_equals_the_full_expression(text):
    expected = normalize._punctuation_pattern().sub(" ", text)
    assert normalize.whiteout_punctuation(text) == expected
    assert len(expected) == len(text)  # extents are unchanged by whiteout
