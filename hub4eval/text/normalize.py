"""§3: pure string normalizers applied to fills (and, through tokens, to texts).

Whiteouts replace characters by spaces so that character offsets and extents
stay valid; only premodifier stripping changes a string's start, and it reports
how many characters it removed so the caller can move the extent.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from hub4eval.config import DEFAULT_NON_EXTRACTABLE, DEFAULT_PREMODIFIERS
from hub4eval.util import diskcache

APOSTROPHES = "'\u2019"
HYPHENS = "-\u2010\u2011"
_TAG = re.compile(r"<[^<>]*>")


@lru_cache(maxsize=16)
def _element_pattern(names: tuple[str, ...]) -> re.Pattern[str] | None:
    if not names:
        return None
    alternatives = "|".join(re.escape(n) for n in names)
    return re.compile(rf"<\s*({alternatives})(\s[^<>]*)?>.*?<\s*/\s*\1\s*>", re.IGNORECASE | re.DOTALL)


def _blank(match: re.Match[str]) -> str:
    found = match.group(0)
    return " " * len(found) if "\n" not in found else re.sub(r"[^\n]", " ", found)


def whiteout_tags(text: str, non_extractable: Iterable[str] = DEFAULT_NON_EXTRACTABLE) -> str:
    """White out non-extractable elements with their content, then any tag.

    >>> text = "a <ANNOTATION> (x) </ANNOTATION> b <TURN> c"
    >>> whiteout_tags(text).split(), len(whiteout_tags(text)) == len(text)
    (['a', 'b', 'c'], True)
    """
    pattern = _element_pattern(tuple(non_extractable))
    if pattern is not None:
        text = pattern.sub(_blank, text)
    return _TAG.sub(_blank, text)


_TAG_IN_LINE = re.compile(r"<[^<>\n]*>")  # a tag within a line


def whiteout_tags_by_line(text: str, non_extractable: Iterable[str] = DEFAULT_NON_EXTRACTABLE) -> str | None:
    r""":func:`whiteout_tags` of each line of ``text`` (a string a line, for many strings at once,
    none of which holds a line break), in one pass; None when a non-extractable element may be
    in it (then white out its lines one by one).

    >>> whiteout_tags_by_line("a <s> b\n<x\ny> c")
    'a     b\n<x\ny> c'
    >>> whiteout_tags_by_line("<ANNOTATION> x\n</ANNOTATION>") is None
    True
    """
    pattern = _element_pattern(tuple(non_extractable))
    if pattern is not None and pattern.search(text):
        return None
    return _TAG_IN_LINE.sub(_blank, text)


@lru_cache(maxsize=1)
def _punctuation_pattern() -> re.Pattern[str]:
    """Every Unicode punctuation character, except a word-internal apostrophe.

    A hyphen is whited out wherever it is: a hyphenated word is its parts
    (``34-year-old`` is ``34 year old``, ``Crans-Montana`` is ``crans montana``),
    as a recognizer writes them; a fragment's trailing hyphen is kept by the
    tokenizer, which reads it from the raw token.

    Built once per process and only when needed. The scan of every code point
    took 0.1 s of every run (a fifth of scoring the sample): its result is kept
    in the user's cache directory, per version of the Unicode database.
    """
    kept = APOSTROPHES
    name = f"punctuation-{diskcache.key('punctuation v1', unicodedata.unidata_version, kept)}.txt"
    punctuation = diskcache.cached(
        name,
        lambda: "".join(
            chr(code)
            for code in range(sys.maxunicode + 1)
            if unicodedata.category(chr(code)).startswith("P") and chr(code) not in kept
        ),
        dump=str.encode,
        load=bytes.decode,
    )
    others = "".join(re.escape(char) for char in punctuation)
    ah = re.escape(kept)
    # an apostrophe is whited out unless a letter or digit is on both sides
    return re.compile(rf"[{others}]|(?<![^\W_])[{ah}]|[{ah}](?![^\W_])")


def whiteout_punctuation(text: str) -> str:
    """White out Unicode punctuation, keeping word-internal apostrophes.

    >>> whiteout_punctuation("Anchorage,... isn't 2-0 (uh) 34-year-old").split()
    ['Anchorage', "isn't", '2', '0', 'uh', '34', 'year', 'old']
    >>> whiteout_punctuation("-x- 'y' a_b")
    ' x   y  a b'
    """
    if text.replace(" ", "").isalnum():  # letters and digits only: nothing to white out
        return text
    return _punctuation_pattern().sub(" ", text)


def collapse_whitespace(text: str) -> str:
    """Every whitespace run becomes one space; the ends are trimmed."""
    return " ".join(text.split())


@lru_cache(maxsize=16)
def _word_set(words: tuple[str, ...]) -> frozenset[str]:
    return frozenset(w.lower() for w in words)


def strip_premodifiers(text: str, premodifiers: Iterable[str] = DEFAULT_PREMODIFIERS) -> tuple[str, int]:
    """Remove leading premodifier words, repeatedly; return (rest, characters removed).

    The count covers any leading whitespace, each removed word and the
    whitespace after it, as written, so an extent's start moves right by it.
    A string made only of premodifiers is returned unchanged (count 0).

    >>> strip_premodifiers("The host of the tournament")
    ('host of the tournament', 4)
    >>> strip_premodifiers("the a")
    ('the a', 0)
    """
    words = _word_set(tuple(premodifiers))
    first = text.split(None, 1)
    if not first or first[0].lower() not in words:
        return text, 0
    if all(word.lower() in words for word in text.split()):
        return text, 0
    position = 0
    while True:
        match = re.match(r"\s*(\S+)\s*", text[position:])
        if match is None or match.group(1).lower() not in words:
            break
        position += match.end()
    return text[position:], position
