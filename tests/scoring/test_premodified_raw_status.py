"""Filler, fragment and parenthesized status is read from the raw token even
right after a stripped premodifier (`the (um) Red Wings`, `an %uh Olympic record`).

The premodifier stripper works on the string after the punctuation whiteout,
where `(um)` reads ` um ` and `%uh` reads ` uh`: the characters it removes end
after that punctuation. The tokens must still be cut from the raw word, or
`(um)` loses its parenthesis (`um)` is no filler and not parenthesized) and
`%hesitation` its percent sign (`hesitation` is a word). Broke in 8de9120,
which read the status from the raw token while the tokens were cut after the
premodifier count; found with `git bisect` on the `--glm none` case below.
"""

from __future__ import annotations

import pytest

from hub4eval.config import ScoreConfig  # noqa: E402
from hub4eval.scoring.fills import FillPreparer  # noqa: E402
from tests.support.scoring import cats, run  # noqa: E402


def _content(ref: str, hyp: str, **options) -> list[str]:
    return cats(run(f'<E-D-1> :=\n  A: "{ref}"\n', f'<E-D-1> :=\n  A: "{hyp}"\n', content="noisy", **options))


@pytest.mark.parametrize(
    ("ref", "hyp", "options"),
    [
        # the cases; without the mapping file `um` is optional only as
        # parenthesized or as a filler, both read from the raw `(um)`
        ("the (um) Red Wings", "red wings", {"glm": ()}),
        ("the (um) Red Wings", "red wings", {}),
        ("an %uh Olympic record", "olympic record", {"glm": ()}),
        # a parenthesized word that is no filler: optional only by its parentheses
        ("the (so) Red Wings", "red wings", {}),
        ("The (so) Red Wings", "red wings", {}),
        # `%hesitation` is a filler, `hesitation` is not
        ("an %hesitation Olympic record", "olympic record", {}),
        # two premodifiers, then a parenthesized word
        ("the a (so) Red Wings", "red wings", {}),
        # a fragment after a premodifier
        ('the "buni-" Bunting', "bunting", {}),
    ],
)
def test_status_survives_a_stripped_premodifier(ref: str, hyp: str, options: dict) -> None:
    assert _content(ref, hyp, **options) == ["COR"]


@pytest.mark.parametrize(
    ("ref", "hyp"),
    [
        # no raw mark: the word must be matched
        ("the so Red Wings", "red wings"),
        ("an hesitation Olympic record", "olympic record"),
    ],
)
def test_a_plain_word_after_a_premodifier_is_still_required(ref: str, hyp: str) -> None:
    assert _content(ref, hyp) == ["INC"]


def test_the_tokens_after_a_premodifier_keep_their_raw_form() -> None:
    preparer = FillPreparer(ScoreConfig(glm=()))
    _, removed, tokens, _, _ = preparer._normalize("the (um) Red Wings")
    assert removed == len("the  ")  # the extent still moves past `the` and the whited `(`
    assert [(t.text, t.raw_form, t.parenthesized) for t in tokens] == [
        ("um", "(um)", True),
        ("red", "red", False),
        ("wings", "wings", False),
    ]
    # a premodifier glued to its punctuation is not read back into the word
    _, _, tokens, _, _ = preparer._normalize("the(um) Red Wings")
    assert tokens[0].raw_form == "(um)"


@pytest.mark.parametrize(("ref", "expected"), [("%uh Olympic record", "COR"), ("%so Olympic record", "INC")])
def test_a_filler_marked_with_percent_is_a_filler(ref: str, expected: str) -> None:
    # transcripts mark hesitations `%uh`, `%um`; a marked word that is no filler stays a word
    assert _content(ref, "olympic record", glm=()) == [expected]
