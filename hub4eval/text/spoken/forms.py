"""The public calls: :func:`spoken_forms` over tokens, :func:`canonical_words`
over a string, and :func:`strip_possessive` for noisy content."""

from __future__ import annotations

from collections.abc import Sequence

from hub4eval.text.spoken.language import _words
from hub4eval.text.spoken.window import number_hits, number_windows
from hub4eval.text.tokens import Token, tokenize


def spoken_forms(
    tokens: Sequence[Token],
    text: str,
    *,
    offset: int = 0,
    lang: str | None = "en",
    case_sensitive: bool = False,
) -> tuple[Token, ...]:
    """Bring the numbers among ``tokens`` to their canonical form (§8.2).

    Args:
        tokens: tokens from :func:`hub4eval.text.tokens.tokenize` over ``text``
            (before the GLM), in text order.
        text: the raw string the tokens were cut from; token spans minus
            ``offset`` index it.
        offset: the ``offset`` given to the tokenizer.
        lang: the ``--spoken-forms`` value: a language code (``en``), or
            ``none``/None for no change.
        case_sensitive: the tokenizer's ``case_sensitive`` (words split out of
            a hyphenated number keep their case).

    Returns:
        The tokens, number phrases replaced by canonical tokens that span the
        raw words they replace; every other token is returned as it was.

    Raises:
        ValueError: an unknown language code.

    >>> text = "Yeltsin paid $12,500 in 1994, fifty eight point five percent"
    >>> [(t.text, t.start, t.end) for t in spoken_forms(tokenize(text), text)][2:]
    [('12500', 13, 20), ('dollars', 13, 20), ('in', 21, 23), ('1994', 24, 28), ('58.5', 30, 52), ('percent', 53, 60)]
    """
    if lang is None or lang == "none":
        return tuple(tokens)
    words = _words(lang)
    hits = number_hits(words, tokens)
    if not hits:
        return tokens if type(tokens) is tuple else tuple(tokens)
    out: list[Token] = []
    done = 0
    for a, b, replacement in number_windows(tokens, text, offset, words, case_sensitive, hits):
        out.extend(tokens[done:a])
        out.extend(replacement)
        done = b
    out.extend(tokens[done:])
    return tuple(out)


def canonical_words(text: str, lang: str | None = "en") -> list[tuple[str, int, int]]:
    """(canonical word, start, end) of every word of ``text``: tokenize, then :func:`spoken_forms`.

    >>> canonical_words("July second, seven to five")
    [('july', 0, 4), ('2nd', 5, 11), ('7', 13, 18), ('5', 22, 26)]
    """
    return [(t.text, t.start, t.end) for t in spoken_forms(tokenize(text), text, lang=lang)]


_CONTRACTIONS = frozenset("it's he's she's that's what's there's here's who's where's how's let's when's why's".split())


def strip_possessive(word: str) -> str:
    """``word`` without a trailing possessive (``'s``, or ``'`` after an ``s``), for noisy content (§8.2).

    Contractions of ``is``/``us`` (``it's``, ``let's``) are left alone; so is a
    word that would be left empty.

    >>> strip_possessive("yeltsin's"), strip_possessive("Jones'"), strip_possessive("it's"), strip_possessive("'s")
    ('yeltsin', 'Jones', "it's", "'s")
    """
    if len(word) < 2:
        return word
    normal = word.replace("\u2019", "'")
    if normal.lower() in _CONTRACTIONS:
        return word
    if normal.endswith("'s") and len(word) > 2 and word[-3].isalnum():
        return word[:-2]
    if normal.endswith("'") and word[-2] in "sS":
        return word[:-1]
    return word
