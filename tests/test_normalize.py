"""§3 punctuation whiteout, checked against a character-by-character statement of the rule.

The rule, in words: every Unicode punctuation character becomes a space,
except an apostrophe with a letter or digit on both sides (a hyphen is whited
out everywhere: a hyphenated word is its parts, spec v1.2). The
oracle below reads each character's Unicode category itself; it shares
nothing with the module's regular expression (an earlier version of this test
compared the function with that very expression, and so could not fail).
"""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.text import normalize

KEPT_INSIDE_WORDS = "'\u2019"  # apostrophes


def _oracle(text: str) -> str:
    out = []
    for k, ch in enumerate(text):
        if not unicodedata.category(ch).startswith("P"):
            out.append(ch)
            continue
        inside = 0 < k < len(text) - 1 and text[k - 1].isalnum() and text[k + 1].isalnum()
        out.append(ch if ch in KEPT_INSIDE_WORDS and inside else " ")
    return "".join(out)


def test_oracle_on_known_cases():
    # "_" is punctuation (connector, Pc) and is whited out like any other
    assert _oracle("isn't 2-0, 'x' -y- (uh) a_b") == "isn't 2 0   x   y   uh  a b"
    assert _oracle("Ä’s «ok»") == "Ä’s  ok "


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=12) | st.text(alphabet=st.sampled_from("ab1² _-'’.,Ä٣‐‑«»"), max_size=12))
def test_whiteout_follows_the_rule_character_by_character(text):
    result = normalize.whiteout_punctuation(text)
    assert len(result) == len(text)  # extents are unchanged by whiteout
    for k, (before, after) in enumerate(zip(text, result, strict=True)):
        assert after in (before, " "), (text, k)
    assert result == _oracle(text)
