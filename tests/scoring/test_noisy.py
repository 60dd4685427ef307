"""§6 "Content, noisy data": the token comparison of hub4eval.scoring.noisy."""

from __future__ import annotations

import time
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.scoring.noisy import (
    DEFAULT_FILLERS,
    NoisyWords,
    filler_set,
    is_optional_reference,
    kept_correct,
    kept_hypothesis_tokens,
    noisy_content_correct,
    noisy_correct,
)
from hub4eval.text.spoken import strip_possessive
from hub4eval.text.tokens import Token, tokenize
from tests.support.scoring import cats, run


def check(ref: str, hyp: str, minimals: list[str] | None = None) -> tuple[bool, str]:
    ref_tokens = tokenize(ref)
    minimal_tokens = [tokenize(m) for m in minimals] if minimals is not None else [ref_tokens]
    return noisy_content_correct(ref_tokens, minimal_tokens, tokenize(hyp), DEFAULT_FILLERS)


def test_default_fillers() -> None:
    assert DEFAULT_FILLERS == frozenset("uh um er ah eh hm hmm mm uhm %hesitation".split())


@pytest.mark.parametrize(
    ("token", "optional"),
    [
        (Token("uh", 0, 2), True),
        (Token("UHM", 0, 3), True),
        (Token("buni-", 0, 5), True),
        (Token("bunting", 0, 7, parenthesized=True), True),
        (Token("yes", 0, 3, optional=True), True),
        (Token("-", 0, 1), False),
        (Token("glen", 0, 4), False),
    ],
)
def test_optional_reference_tokens(token: Token, optional: bool) -> None:
    assert is_optional_reference(token, DEFAULT_FILLERS) is optional


# ---------------------------------------------------------------- the spec's examples


def test_fragment_in_reference_is_optional() -> None:
    assert check("Glen Buni- Bunting", "glen bunting")[0]


def test_whole_minimal_string_must_be_in_hypothesis() -> None:
    correct, reason = check("Glen Bunting", "glen")
    assert not correct
    assert reason == "no minimal string `glen bunting` inside the hypothesis `glen`"


def test_bracketed_minimal_string() -> None:
    assert check("Glen Bunting", "glen", minimals=["Glen"])[0]
    assert check("Glen Bunting", "glen bunting", minimals=["Glen"])[0]
    assert not check("Glen Bunting", "bunting", minimals=["Glen"])[0]


def test_empty_hypothesis_is_correct_only_against_an_optional_minimal_string() -> None:
    # The empty sequence is a run of every sequence: condition 1 holds; condition 2
    # needs a minimal string that is empty once its optional tokens are deleted.
    correct, reason = check("Glen Bunting", "uh um")
    assert not correct
    assert reason == (
        "the hypothesis has no words once fillers are dropped (dropped: `uh um`), "
        "and no minimal string `glen bunting` is made of optional tokens only"
    )
    assert not check("Glen Bunting", "")[0]
    assert check("Glen uh Bunting", "um", minimals=["uh"])[0]  # minimal `uh`: a filler only
    assert check("Glen Buni- Bunting", "", minimals=["Buni-"])[0]  # a fragment only


# ---------------------------------------------------------------- condition 1


def test_hypothesis_fillers_are_dropped() -> None:
    assert check("south africa", "uh south um africa")[0]


def test_reference_fillers_and_parenthesized_tokens_are_optional() -> None:
    assert check("south uh (er) africa", "south africa", minimals=["south africa"])[0]
    assert check("south (new) africa", "south africa", minimals=["south"])[0]
    assert check("south (new) africa", "south new africa", minimals=["south"])[0]


def test_glm_optional_tokens() -> None:
    ref = (Token("south", 0, 5), Token("yeah", 6, 10, optional=True), Token("africa", 11, 17))
    hyp = (Token("south", 0, 5), Token("africa", 6, 12), Token("well", 13, 17, optional=True))
    assert noisy_content_correct(ref, [ref], hyp, DEFAULT_FILLERS)[0]


def test_hypothesis_must_be_a_contiguous_run() -> None:
    correct, reason = check("the host of the south africa tournament", "host tournament", ["host"])
    assert not correct
    assert reason == (
        "hypothesis tokens `host tournament` are not a run of the reference `the host of the south africa tournament`"
    )


def test_run_reason_lists_optional_tokens() -> None:
    correct, reason = check("south uh africa", "africa south", ["africa"])
    assert not correct
    assert reason == (
        "hypothesis tokens `africa south` are not a run of the reference `south uh africa` (optional: `uh`)"
    )


def test_hypothesis_words_out_of_order_or_extra_are_incorrect() -> None:
    assert not check("glen bunting", "bunting glen")[0]
    assert not check("glen bunting", "glen bunting jr")[0]
    assert not check("glen bunting", "glen x bunting")[0]


def test_a_run_inside_the_maximal_string() -> None:
    assert check("the winner south africa", "south africa", ["south africa"])[0]


def test_non_optional_reference_tokens_inside_the_run_cannot_be_skipped() -> None:
    assert not check("south new africa", "south africa", ["south"])[0]


def test_optional_token_matching_a_hypothesis_token() -> None:
    # The fragment may be matched or skipped: either way is fine.
    assert check("buni- buni- bunting", "buni- bunting")[0]
    assert check("glen buni- bunting", "glen buni- bunting")[0]


# ---------------------------------------------------------------- condition 2


def test_minimal_string_with_optional_tokens() -> None:
    assert check("south uh africa", "south africa", ["south uh africa"])[0]


def test_any_of_several_minimal_strings() -> None:
    assert check("glen bunting of denver", "denver", ["glen bunting", "denver"])[0]
    correct, reason = check("glen bunting of denver", "of", ["glen bunting", "denver"])
    assert not correct
    assert reason == "no minimal string `glen bunting` or `denver` inside the hypothesis `of`"


def test_minimal_reason_lists_optional_tokens() -> None:
    correct, reason = check("south africa", "south", ["south (new) africa"])
    assert not correct
    assert reason == "no minimal string `south new africa` (optional: `new`) inside the hypothesis `south`"


def test_no_minimal_strings_means_the_maximal_string() -> None:
    ref = tokenize("south africa")
    assert noisy_content_correct(ref, [], tokenize("south africa"))[0]
    assert not noisy_content_correct(ref, [], tokenize("south"))[0]


def test_correct_reason() -> None:
    correct, reason = check("Glen Buni- Bunting", "glen bunting")
    assert correct
    assert reason == (
        "hypothesis tokens `glen bunting` are a run of the reference `glen buni- bunting` "
        "and contain the minimal string `glen buni- bunting`"
    )


def test_custom_fillers_are_case_insensitive() -> None:
    ref, hyp = tokenize("south you know africa"), tokenize("south africa")
    assert not noisy_content_correct(ref, [ref], hyp, frozenset())[0]
    assert noisy_content_correct(ref, [ref], hyp, frozenset({"You", "KNOW"}))[0]


@pytest.mark.slow
def test_long_fill_is_fast() -> None:
    """2,000 fillers to skip in a 4,000-token reference: the dynamic program is
    O(len(ref) * len(hyp)), about 1 s here for both calls on a shared 2-core machine;
    an enumeration of the subsets of skipped tokens would never finish. The bound
    is twenty times that in CPU time of this process, which other processes on a
    loaded machine do not add to (wall-clock time did: 29 s under a load of 10)."""
    ref = tokenize(" ".join(["uh word"] * 2000))
    hyp = tokenize(" ".join(["word"] * 2000))
    wrong_last = tokenize(" ".join(["word"] * 1999 + ["x"]))
    began = time.process_time()  # CPU seconds: steady on a loaded machine
    assert noisy_content_correct(ref, [ref], hyp)[0]
    assert not noisy_content_correct(ref, [ref], wrong_last)[0]
    assert time.process_time() - began < 20.0


# ---------------------------------------------------------------- properties

WORDS = ("glen", "bunting", "south", "africa", "cup")
OPTIONAL_KINDS = ("filler", "fragment", "paren", "glm")


@st.composite
def reference_tokens(draw: st.DrawFn) -> tuple[Token, ...]:
    """Reference tokens with at least one non-optional word, some optional ones."""
    items = draw(
        st.lists(
            st.one_of(
                st.tuples(st.just("word"), st.sampled_from(WORDS)),
                st.tuples(st.sampled_from(OPTIONAL_KINDS), st.sampled_from(WORDS)),
            ),
            min_size=1,
            max_size=8,
        ).filter(lambda xs: any(kind == "word" for kind, _ in xs))
    )
    tokens = []
    for k, (kind, word) in enumerate(items):
        text = {"filler": "uh", "fragment": word[:3] + "-"}.get(kind, word)
        tokens.append(Token(text, 10 * k, 10 * k + len(text), parenthesized=kind == "paren", optional=kind == "glm"))
    return tuple(tokens)


def _plain(tokens: tuple[Token, ...] | list[Token]) -> tuple[Token, ...]:
    return tuple(Token(t.text, 10 * k, 10 * k + len(t.text)) for k, t in enumerate(tokens))


@pytest.mark.slow
@given(reference_tokens(), st.data())
def test_reference_without_some_optional_tokens_is_correct(ref: tuple[Token, ...], data: st.DataObject) -> None:
    keep = [not is_optional_reference(t) or data.draw(st.booleans(), label=f"keep {t.text}") for t in ref]
    hyp = _plain([t for t, k in zip(ref, keep, strict=False) if k])
    correct, reason = noisy_content_correct(ref, [ref], hyp)
    assert correct, reason


@pytest.mark.slow
@given(reference_tokens(), st.data())
def test_an_extra_word_makes_it_incorrect(ref: tuple[Token, ...], data: st.DataObject) -> None:
    hyp = [t for t in ref if not is_optional_reference(t)]
    position = data.draw(st.integers(0, len(hyp)), label="position")
    hyp.insert(position, Token("zebra", 0, 5))
    correct, _ = noisy_content_correct(ref, [ref], _plain(hyp))
    assert not correct


def _brute_force(ref: tuple[Token, ...], minimals: list[tuple[Token, ...]], hyp: tuple[Token, ...]) -> bool:
    """The definition, by enumerating every set of deleted optional tokens."""
    kept_hyp = [t.text for t in hyp if not t.optional and t.text not in DEFAULT_FILLERS]

    def variants(tokens: tuple[Token, ...]) -> set[tuple[str, ...]]:
        optional = [k for k, t in enumerate(tokens) if is_optional_reference(t)]
        out = set()
        for r in range(len(optional) + 1):
            for gone in combinations(optional, r):
                out.add(tuple(t.text for k, t in enumerate(tokens) if k not in gone))
        return out

    def runs(words: list[str] | tuple[str, ...]) -> set[tuple[str, ...]]:
        return {tuple(words[a:b]) for a in range(len(words) + 1) for b in range(a, len(words) + 1)}

    ref_runs = {v for a in range(len(ref)) for b in range(a + 1, len(ref) + 1) for v in variants(ref[a:b])}
    ref_runs.add(())  # the empty sequence is a contiguous run of every sequence
    if tuple(kept_hyp) not in ref_runs:
        return False
    hyp_runs = runs(kept_hyp)
    return any(v in hyp_runs for m in (minimals or [ref]) for v in variants(m))


@pytest.mark.slow
@settings(max_examples=300)
@given(reference_tokens(), st.lists(st.sampled_from((*WORDS, "uh", "glen-", "sou-")), max_size=6), st.data())
def test_agrees_with_brute_force(ref: tuple[Token, ...], hyp_words: list[str], data: st.DataObject) -> None:
    a = data.draw(st.integers(0, len(ref) - 1), label="minimal start")
    b = data.draw(st.integers(a + 1, len(ref)), label="minimal end")
    minimals = [ref[a:b]]
    hyp = tuple(Token(w, 0, len(w)) for w in hyp_words)
    assert noisy_content_correct(ref, minimals, hyp)[0] == _brute_force(ref, minimals, hyp)


@pytest.mark.slow
@settings(max_examples=300)
@given(
    reference_tokens(),
    st.lists(st.sampled_from((*WORDS, "uh", "UM", "glen-", "sou-", "glen's", "africa'")), max_size=6),
    st.sets(st.sampled_from(("uh", "um", "cup")), max_size=3),
    st.data(),
)
def test_the_verdict_from_words_read_once_is_the_verdict(
    ref: tuple[Token, ...], hyp_words: list[str], fillers: set[str], data: st.DataObject
) -> None:
    """Scoring reads each string's words once (NoisyWords) and decides from
    them (noisy_correct); the verdict must be noisy_content_correct's, fillers,
    possessives, optional hypothesis tokens and several minimal strings included."""
    minimals = []
    for _ in range(data.draw(st.integers(1, 2), label="minimal strings")):
        a = data.draw(st.integers(0, len(ref) - 1), label="minimal start")
        minimals.append(ref[a : data.draw(st.integers(a + 1, len(ref)), label="minimal end")])
    hyp = tuple(Token(w, 0, len(w), optional=data.draw(st.booleans(), label=f"optional {w}")) for w in hyp_words)
    words = filler_set(tuple(sorted(fillers)))
    decided = noisy_correct(
        NoisyWords.of(ref, words), [NoisyWords.of(m, words) for m in minimals], NoisyWords.of(hyp, words)
    )
    assert decided == noisy_content_correct(ref, minimals, hyp, fillers)[0]


@settings(max_examples=300)
@given(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=5),
    reference_tokens(),
    st.booleans(),
    st.lists(st.sampled_from((*WORDS, "uh", "glen-")), max_size=6),
)
def test_the_usual_reference_s_verdict_from_its_words_is_the_verdict(
    plain_words: list[str], tokens: tuple[Token, ...], plain: bool, hyp_words: list[str]
) -> None:
    """A usual reference (its one minimal string its maximal one, read once: the same words)
    is decided by kept_correct at once when none of its words is optional (the hypothesis's
    kept words are its words), else by the runs: both as noisy_content_correct decides."""
    ref = _plain([Token(w, 0, len(w)) for w in plain_words]) if plain else tokens
    words = NoisyWords.of(ref, DEFAULT_FILLERS)
    hyp = tuple(Token(w, 0, len(w)) for w in hyp_words)
    kept = NoisyWords.of(hyp, DEFAULT_FILLERS).kept
    assert kept_correct(words, (words,), kept) == noisy_content_correct(ref, [ref], hyp)[0]
    assert kept_correct(words, (words,), list(kept)) == noisy_content_correct(ref, [ref], hyp)[0]


def test_a_noisy_verdict_gives_the_reason_in_words_when_read():
    """The content verdict of a noisy comparison is decided from the words read
    once; its reason is noisy_content_correct's, made when it is read."""
    from hub4eval.config import ScoreConfig
    from hub4eval.model import TextFill
    from hub4eval.scoring.fills import FillPreparer
    from hub4eval.scoring.verdicts import TextComparison, compare_text

    config = ScoreConfig()
    ref_prep = FillPreparer(config, reference=True, tokens=True)
    hyp_prep = FillPreparer(config, reference=False, tokens=True)
    how = TextComparison.of(config, noisy=True)
    ref = ref_prep.prepare(TextFill("Glen Buni- Bunting", ((0, 18),)), "D")
    for text, category in (("glen uh bunting", "COR"), ("glen", "INC")):
        hyp = hyp_prep.prepare(TextFill(text, ((0, len(text)),)), "D")
        assert ref.maximal.noisy is not None and hyp.maximal.noisy is not None
        [content] = compare_text(ref, hyp, how)
        expected = noisy_content_correct(ref.maximal.tokens, [ref.maximal.tokens], hyp.maximal.tokens)
        assert (content.category == "COR", content.reason) == expected
        assert content.category == category


# ----------------------------------------------------------------------------
# Tests that kill mutants of hub4eval/scoring/noisy.py (mutation runs, tools/mutate.py; issue #21)
# Noisy content comparison (hub4eval/scoring/noisy.py): tests that kill its mutants
# (issue #21). The reason a user reads for an empty hypothesis names what was dropped.
# ----------------------------------------------------------------------------


def test_the_reason_for_a_hypothesis_of_fillers_names_the_dropped_fillers() -> None:
    ref = tokenize("uh")  # a filler: optional, so the minimal string is optional tokens only
    assert noisy_content_correct(ref, [ref], tokenize("um")) == (
        True,
        "the hypothesis has no words once fillers are dropped (dropped: `um`), "
        "and the minimal string `uh` is made of optional tokens only",
    )


def test_the_reason_for_an_empty_hypothesis_names_nothing_dropped() -> None:
    ref = tokenize("uh")
    assert noisy_content_correct(ref, [ref], []) == (
        True,
        "the hypothesis has no words once fillers are dropped, "
        "and the minimal string `uh` is made of optional tokens only",
    )


# ----------------------------------------------------------------------------
# Rules the scoring specification v1.1 pinned down (issue #15): fillers, fragments and the empty run
# ----------------------------------------------------------------------------


# Filler, fragment and parenthesized status from the raw token; the empty run ---


def test_percent_hesitation_is_a_filler_in_the_reference():
    # `%hesitation` is a filler (read before the whiteout turns it into `hesitation`), so it is
    # optional: the minimal string `%hesitation brazil` less it is `brazil`, inside the hypothesis.
    ref = '<E-D-1> :=\n  A: "%hesitation Brazil"\n'
    hyp = '<E-D-1> :=\n  A: "brazil"\n'
    assert cats(run(ref, hyp, content="noisy")) == ["COR"]


def test_percent_hesitation_is_dropped_from_the_hypothesis():
    ref = '<E-D-1> :=\n  A: "Brazil"\n'
    hyp = '<E-D-1> :=\n  A: "%hesitation brazil"\n'
    assert cats(run(ref, hyp, content="noisy")) == ["COR"]


def test_a_word_spelled_like_a_filler_after_whiteout_is_not_one():
    # `hesitation` (no %) is a word: not optional, so the hypothesis `brazil` misses it.
    ref = '<E-D-1> :=\n  A: "hesitation Brazil"\n'
    hyp = '<E-D-1> :=\n  A: "brazil"\n'
    assert cats(run(ref, hyp, content="noisy")) == ["INC"]


def test_raw_token_status_examples():
    tokens = tokenize('uh, "(so)" (uh). buni-, -- glen')
    # (text, raw form less outer punctuation, parenthesized, fragment); `--` gives no token
    assert [(t.text, t.raw_form, t.parenthesized, t.fragment) for t in tokens] == [
        ("uh", "uh", False, False),  # `uh,`: the comma is outer punctuation, so a filler
        ("so", "(so)", True, False),  # leading `"` stripped, `(` kept: parenthesized
        ("uh", "(uh)", True, False),  # `(uh).`: trailing `.` stripped, `)` kept
        ("buni-", "buni-", False, True),  # `buni-,`: trailing `,` stripped, `-` kept: a fragment
        ("glen", "glen", False, False),
    ]


def test_hypothesis_of_fillers_only_is_correct_against_an_optional_minimal_string():
    # The empty run: hyp `um` keeps no word; the minimal string `uh` (a filler) less its
    # optional tokens is empty, a run of the empty hypothesis: COR.
    ref = '<E-D-1> :=\n  A: "Glen [uh] Bunting"\n'
    assert cats(run(ref, '<E-D-1> :=\n  A: "um"\n', content="noisy")) == ["COR"]
    # against a minimal string with a word in it the same hypothesis is wrong
    ref_word = '<E-D-1> :=\n  A: "Glen [Bunting]"\n'
    assert cats(run(ref_word, '<E-D-1> :=\n  A: "um"\n', content="noisy")) == ["INC"]


def test_empty_run_counts_when_many_instances_are_mapped():
    # 5 x 5 instances of one type: only pairs sharing a key are counted before the F = 0 pairs.
    # R3 (minimal string `uh`) with H1 (`uh` only) is the one COR pair, F = 1: it must be chosen
    # first, so H1 maps to R3 and there is exactly one COR.
    refs = "".join(f'<E-D-{i}> :=\n  A: "{"Glen [uh] Bunting" if i == 3 else f"x{i}"}"\n' for i in range(1, 6))
    hyps = "".join(f'<E-D-{i}> :=\n  A: "{"uh" if i == 1 else f"y{i}"}"\n' for i in range(1, 6))
    result = run(refs, hyps, content="noisy")
    assert ("<E-D-3>", "<E-D-1>") in [(r, h) for r, h, _ in result.instance_pairs()]
    assert cats(result).count("COR") == 1


@settings(max_examples=300)
@given(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=6),
    st.lists(st.sampled_from((*WORDS, "uh")), max_size=6),
    st.data(),
)
def test_a_reference_without_optional_tokens_agrees_with_brute_force(
    ref_words: list[str], hyp_words: list[str], data: st.DataObject
) -> None:
    """With nothing to delete, a run is compared as it is (the usual case, without the
    dynamic program); the verdict must still be the definition's."""
    ref = tuple(Token(w, 10 * k, 10 * k + len(w)) for k, w in enumerate(ref_words))
    a = data.draw(st.integers(0, len(ref) - 1), label="minimal start")
    minimals = [ref[a : data.draw(st.integers(a + 1, len(ref)), label="minimal end")]]
    hyp = tuple(Token(w, 0, len(w)) for w in hyp_words)
    assert noisy_content_correct(ref, minimals, hyp)[0] == _brute_force(ref, minimals, hyp)
    words = filler_set(tuple(sorted(DEFAULT_FILLERS)))
    read = NoisyWords.of(hyp, words)
    minimal_words = [NoisyWords.of(m, words) for m in minimals]
    assert kept_correct(NoisyWords.of(ref, words), minimal_words, read.kept) == _brute_force(ref, minimals, hyp)


@st.composite
def any_tokens(draw: st.DrawFn) -> tuple[Token, ...]:
    """Tokens of every kind the noisy comparison tells apart: words (possessive or not),
    fillers in any case or marked with ``%``, fragments, parenthesized and GLM-optional tokens,
    a raw form of their own."""
    texts = st.sampled_from(["glen", "glen's", "jones'", "it's", "'s", "uh", "UM", "%uh", "buni-", "-", "cup"])
    items = draw(st.lists(st.tuples(texts, st.booleans(), st.booleans(), st.none() | texts), max_size=6))
    return tuple(
        Token(text, 10 * k, 10 * k + len(text), parenthesized=paren, optional=glm, form=form)
        for k, (text, paren, glm, form) in enumerate(items)
    )


@given(any_tokens(), st.sampled_from([DEFAULT_FILLERS, frozenset({"glen"}), frozenset()]))
def test_the_words_read_once_are_those_of_the_definitions(tokens: tuple[Token, ...], fillers: frozenset[str]) -> None:
    """NoisyWords.of reads each token once: its words, optional flags and kept words are those
    of strip_possessive, is_optional_reference and kept_hypothesis_tokens token by token."""
    words = NoisyWords.of(tokens, fillers)
    assert words.words == tuple(strip_possessive(t.text) for t in tokens)
    assert words.optional == tuple(bool(is_optional_reference(t, fillers)) for t in tokens)
    assert words.kept == tuple(strip_possessive(t.text) for t in kept_hypothesis_tokens(tokens, fillers))


_READ_TOKEN = st.builds(
    Token,
    st.sampled_from(("glen", "Glen", "uh", "UH", "buni-", "clinton's", "jones'", "it's", "%hesitation", "x")),
    st.just(0),
    st.just(1),
    st.booleans(),
    st.booleans(),
    st.sampled_from((None, None, None, "%uh", "(uh)", "glen")),
)


@settings(max_examples=200)
@given(
    st.lists(st.lists(_READ_TOKEN, max_size=6), min_size=1, max_size=6),
    st.lists(st.sets(st.sampled_from(("uh", "um", "glen", "%hesitation"))), min_size=1, max_size=3),
)
def test_words_read_directly_are_the_words_of_each_token(strings: list[list[Token]], options: list[set]) -> None:
    """NoisyWords.of reads a plain token of letters and digits (no raw form, not parenthesized, not
    GLM-optional) directly, every other token through the functions: the same words as reading every
    token through them, whatever the case, the forms and the filler sets."""
    for fillers in options:
        words = frozenset(fillers)
        for tokens in strings:
            read = NoisyWords.of(tokens, words)
            assert read.words == tuple(strip_possessive(t.text) for t in tokens)
            assert read.optional == tuple(is_optional_reference(t, words) for t in tokens)
            assert read.kept == tuple(strip_possessive(t.text) for t in kept_hypothesis_tokens(tokens, words))
            assert read.fillers is words


def test_noisy_words_of_a_usual_string_share_their_tuples() -> None:
    # Kept for every distinct string of a score: a string without fillers or optional tokens
    # keeps all its words (its kept words are its words' tuple), and every such string of one
    # length has the same tuple of False flags.
    fillers = filler_set(DEFAULT_FILLERS)
    one, two = NoisyWords.of(tokenize("the big show"), fillers), NoisyWords.of(tokenize("a new plan"), fillers)
    assert one.kept is one.words == ("the", "big", "show")
    assert one.optional is two.optional == (False, False, False)
    # with a filler: its own tuples, the same values as the lists
    with_filler = NoisyWords.of(tokenize("uh the show"), fillers)
    assert with_filler == NoisyWords(("uh", "the", "show"), (True, False, False), ("the", "show"), fillers)
    assert with_filler.kept is not with_filler.words
