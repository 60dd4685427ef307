"""§6 "Content, noisy data": comparing a fill's tokens when the texts differ.

Pure functions over token tuples (:class:`hub4eval.text.tokens.Token`, after §3 and
the spelling mapping of §8). On the reference side a token is *optional* when
it is a filler (``uh``, ...), a word fragment (``buni-``), parenthesized
(``(uh)``) or marked optional by a GLM rule (``{ uh / @ }``). On the
hypothesis side fillers and GLM-optional tokens are dropped.

A hypothesis is correct iff

1. its tokens equal a contiguous run of the reference maximal tokens once zero
   or more optional tokens of that run are deleted, and
2. for some reference minimal string, its tokens with zero or more optional
   tokens deleted equal a contiguous run of the hypothesis tokens.

Both tests are one subsequence match in which only optional reference tokens
may be skipped: a dynamic program over (reference position, hypothesis
position), O(len(ref) * len(hyp)) time, never an enumeration of subsets.
Tokens are compared by their ``text`` without a trailing possessive
(``clinton's`` and ``clinton`` are no difference, §8.2); filler membership
ignores case.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from hub4eval.config import DEFAULT_FILLERS as _DEFAULT_FILLER_WORDS
from hub4eval.text.spoken import strip_possessive
from hub4eval.text.tokens import Token
from hub4eval.util.records import Record, compare_without

__all__ = [
    "DEFAULT_FILLERS",
    "NoisyWords",
    "filler_set",
    "is_optional_reference",
    "kept_correct",
    "kept_hypothesis_tokens",
    "noisy_content_correct",
    "noisy_correct",
]

DEFAULT_FILLERS: frozenset[str] = frozenset(_DEFAULT_FILLER_WORDS)


@cache
def filler_set(words: tuple[str, ...]) -> frozenset[str]:
    """The filler words as the comparison reads them (lower case): one set per option value,
    so that the sets made from the same option are the same object."""
    return frozenset(word.lower() for word in words)


def _is_filler(token: Token, fillers: frozenset[str]) -> bool:
    """Read from the raw token less its outer punctuation (§6): ``%hesitation``, ``uh,``;
    a filler word marked with ``%`` as transcripts mark hesitations (``%uh``) is one too."""
    form = token.raw_form
    if form in fillers or form.lower() in fillers:
        return True
    return form[:1] == "%" and form[1:].lower() in fillers


def is_optional_reference(token: Token, fillers: frozenset[str] = DEFAULT_FILLERS) -> bool:
    """Whether a reference token may be left out of a match.

    >>> is_optional_reference(Token("buni-", 5, 10)), is_optional_reference(Token("glen", 0, 4))
    (True, False)
    """
    return token.optional or token.parenthesized or token.fragment or _is_filler(token, fillers)


def kept_hypothesis_tokens(hyp: Sequence[Token], fillers: frozenset[str]) -> list[Token]:
    """The hypothesis tokens that must be matched: fillers and GLM-optional tokens dropped.

    ``fillers`` are lower case.
    """
    return [t for t in hyp if not t.optional and not _is_filler(t, fillers)]


def _is_slice(part: Sequence[str], whole: Sequence[str]) -> bool:
    """Whether ``part`` equals a run of ``whole`` (the empty one is a run of any)."""
    size, total = len(part), len(whole)
    if not size:
        return True
    part = tuple(part)
    first = part[0]
    for i in range(total - size + 1):
        if whole[i] == first and tuple(whole[i : i + size]) == part:
            return True
    return False


def _runs_into(pattern: Sequence[str], optional: Sequence[bool], target: Sequence[str]) -> bool:
    """Whether ``pattern``, with some optional tokens deleted, equals a run of ``target``.

    ``reach`` holds the target positions where a match of the pattern tokens
    read so far can end; a run may start anywhere, so it starts full.
    """
    if True not in optional:  # nothing to delete (the usual pattern): a run as it is
        return _is_slice(pattern, target)
    reach = set(range(len(target) + 1))
    for word, skippable in zip(pattern, optional, strict=True):
        advanced = {j + 1 for j in reach if j < len(target) and target[j] == word}
        reach = advanced | reach if skippable else advanced
        if not reach:
            return False
    return True


def _is_run_of(hyp: Sequence[str], ref: Sequence[str], optional: Sequence[bool]) -> bool:
    """Whether ``hyp`` equals a run of ``ref`` once optional tokens of the run are deleted.

    ``at[i]``: the hypothesis tokens read so far can be matched by a run that
    ends just before ``ref[i]`` (optional tokens after the last match skipped).
    A run may start anywhere, so before any token is read every position is
    reachable, so an empty ``hyp`` is a run of every ``ref`` (§6, v1.1).
    """
    if True not in optional:  # nothing to delete (the usual reference): a run as it is
        return _is_slice(hyp, ref)
    n = len(ref)
    at = [True] * (n + 1)
    for word in hyp:
        nxt = [False] * (n + 1)
        for i in range(n):
            if at[i] and ref[i] == word:
                nxt[i + 1] = True
        # Skip optional reference tokens after a match, left to right.
        for i in range(n):
            if nxt[i] and optional[i]:
                nxt[i + 1] = True
        if not any(nxt):
            return False
        at = nxt
    return True


_NOT_OPTIONAL: dict[int, tuple[bool, ...]] = {}
"""One tuple of ``False`` per length, shared by the :attr:`NoisyWords.optional` of every string
without an optional token."""


@compare_without("fillers")
class NoisyWords(Record, frozen=True):
    """What the noisy comparison reads of a string's tokens, worked out once per
    distinct string (see :meth:`of`): on the reference side its words and which
    of them are optional, on the hypothesis side the words that must match.

    A :class:`~hub4eval.util.records.Record` (made by the ten thousand, one per
    distinct string of each side: a Struct is made several times faster than a
    frozen dataclass); equal records read the same words, whatever fillers they
    were read with."""

    words: tuple[str, ...]  # every token's text, less a trailing possessive
    optional: tuple[bool, ...]  # as a reference: which tokens may be left out of a match
    kept: tuple[str, ...]  # as a hypothesis: the words of the tokens that are not dropped
    fillers: frozenset[str]  # the filler words these were read with

    @classmethod
    def of(cls, tokens: Sequence[Token], fillers: frozenset[str]) -> NoisyWords:
        # is_optional_reference and kept_hypothesis_tokens in one pass, each token's word and
        # filler status read once (a million fills' strings are read here); a plain token of
        # letters and digits (no raw form of its own, not parenthesized, not GLM-optional; most
        # tokens) is its own word, optional exactly when it is a filler, kept exactly when not
        words: list[str] = []
        optional: list[bool] = []
        kept: list[str] = []
        for token in tokens:
            text = token.text
            if token.form is None and not token.parenthesized and not token.optional and text.isalnum():
                filler = text in fillers or text.lower() in fillers
                words.append(text)
                optional.append(filler)
                if not filler:
                    kept.append(text)
                continue
            word = strip_possessive(text)
            words.append(word)
            if token.optional:
                optional.append(True)
                continue
            filler = _is_filler(token, fillers)
            optional.append(token.parenthesized or token.fragment or filler)
            if not filler:
                kept.append(word)
        return cls.made(words, optional, kept, fillers)

    @classmethod
    def made(cls, words: list[str], optional: list[bool], kept: list[str], fillers: frozenset[str]) -> NoisyWords:
        """The record of these lists, in as few tuples as it takes.

        Kept by the hundred thousand (one per distinct string of each side and of the
        projection): the usual string, without a filler or an optional token, keeps all its
        words and makes none optional, so its kept words are its words' tuple (all kept, they
        are the same words) and its flags one tuple per length.
        """
        as_words = tuple(words)
        flags = tuple(optional)
        if True not in flags:
            flags = _NOT_OPTIONAL.setdefault(len(flags), flags)
        return cls(as_words, flags, as_words if len(kept) == len(as_words) else tuple(kept), fillers)


def noisy_correct(ref_max: NoisyWords, ref_minimals: Sequence[NoisyWords], hyp: NoisyWords) -> bool:
    """:func:`noisy_content_correct`'s verdict alone, from words read beforehand
    with the same fillers (``ref_minimals`` not empty)."""
    return kept_correct(ref_max, ref_minimals, hyp.kept)


def kept_correct(ref_max: NoisyWords, ref_minimals: Sequence[NoisyWords], kept: Sequence[str]) -> bool:
    """:func:`noisy_correct` of a hypothesis whose kept words (:attr:`NoisyWords.kept`) are ``kept``:
    they are all it reads of the hypothesis."""
    if len(ref_minimals) == 1 and ref_minimals[0] is ref_max and True not in ref_max.optional:
        # the usual reference: the kept words are a run of its words that its words are a run of
        return tuple(kept) == ref_max.words
    if not _is_run_of(kept, ref_max.words, ref_max.optional):
        return False
    for minimal in ref_minimals:
        if _runs_into(minimal.words, minimal.optional, kept):
            return True
    return False


def _show(tokens: Sequence[Token]) -> str:
    return "`" + " ".join(t.text for t in tokens) + "`"


def noisy_content_correct(
    ref_max: Sequence[Token],
    ref_minimals: Sequence[Sequence[Token]],
    hyp: Sequence[Token],
    fillers: frozenset[str] = DEFAULT_FILLERS,
) -> tuple[bool, str]:
    """Compare a hypothesis fill with a reference fill as noisy data (§6).

    Args:
        ref_max: tokens of the reference maximal string.
        ref_minimals: tokens of each reference minimal string; empty means the
            maximal string is the only minimal string.
        hyp: tokens of the hypothesis string.
        fillers: filler words (lower case): optional in the reference,
            dropped from the hypothesis.

    Returns:
        (correct, the reason in words).

    >>> from hub4eval.text.tokens import tokenize
    >>> ref = tokenize("Glen Buni- Bunting")
    >>> noisy_content_correct(ref, [ref], tokenize("glen uh bunting"))[0]
    True
    >>> noisy_content_correct(ref, [ref], tokenize("glen"))
    (False, 'no minimal string `glen buni- bunting` (optional: `buni-`) inside the hypothesis `glen`')
    """
    fillers = frozenset(w.lower() for w in fillers)
    hyp_kept = kept_hypothesis_tokens(hyp, fillers)
    hyp_words = NoisyWords.of(hyp, fillers).kept
    # An empty hypothesis (fillers only) is a run of every reference (§6, v1.1):
    # it is correct exactly when some minimal string is made of optional tokens only.
    ref_words = NoisyWords.of(ref_max, fillers)
    if not _is_run_of(hyp_words, ref_words.words, ref_words.optional):
        skippable = [t for t, o in zip(ref_max, ref_words.optional, strict=True) if o]
        note = f" (optional: {_show(skippable)})" if skippable else ""
        return False, (f"hypothesis tokens {_show(hyp_kept)} are not a run of the reference {_show(ref_max)}{note}")

    minimals = [m for m in ref_minimals] or [ref_max]
    for minimal in minimals:
        minimal_words = NoisyWords.of(minimal, fillers)
        if _runs_into(minimal_words.words, minimal_words.optional, hyp_words):
            if not hyp_words:
                dropped = f" (dropped: {_show(hyp)})" if hyp else ""
                return True, (
                    f"the hypothesis has no words once fillers are dropped{dropped}, and the "
                    f"minimal string {_show(minimal)} is made of optional tokens only"
                )
            return True, (
                f"hypothesis tokens {_show(hyp_kept)} are a run of the reference "
                f"{_show(ref_max)} and contain the minimal string {_show(minimal)}"
            )
    described = []
    for minimal in minimals:
        skippable = [t for t in minimal if is_optional_reference(t, fillers)]
        note = f" (optional: {_show(skippable)})" if skippable else ""
        described.append(_show(minimal) + note)
    if not hyp_words:
        dropped = f" (dropped: {_show(hyp)})" if hyp else ""
        return False, (
            f"the hypothesis has no words once fillers are dropped{dropped}, and no minimal string "
            f"{' or '.join(described)} is made of optional tokens only"
        )
    return False, f"no minimal string {' or '.join(described)} inside the hypothesis {_show(hyp_kept)}"
