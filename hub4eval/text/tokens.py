"""§7.1 / §6: the one tokenizer for texts and content strings.

Text is first whited out (§3: punctuation, length-preserving) and then split
on whitespace, so every token keeps the exact character span it came from and
word-internal punctuation (``U.S.``) splits like a space would. Two marks of
spoken text survive the whiteout because noisy comparison (§6) and the aligner
(§7) need them: a word fragment keeps its trailing hyphen (``buni-``), and a
token inside parentheses (``(uh)``) is marked ``parenthesized``.

Filler, fragment and parenthesized status is read from the *raw* token (§6,
v1.1): the whitespace-split token as written, less its outer punctuation
(leading punctuation other than ``%`` and ``(``, trailing punctuation other
than ``-`` and ``)``), before the punctuation whiteout. So ``%hesitation``
and ``uh,`` are fillers, ``(uh).`` is parenthesized, ``buni-,`` is a fragment
and ``--`` is nothing. A token keeps that raw form in ``form`` when it differs
from its text (``%hesitation`` -> text ``hesitation``).
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterable
from functools import cache
from itertools import repeat
from typing import Any

from hub4eval.text.normalize import HYPHENS, whiteout_punctuation
from hub4eval.util.records import Record

_WORD = re.compile(r"\S+")
_intern = sys.intern
_NOT_PLAIN = re.compile(r"[^\sA-Za-z0-9]")
_PLAIN_SPAN = 200
"""Shortest span whose words are found with arrays when it holds only ASCII letters, digits and blanks."""
_SPLIT_PLAIN = True
"""Whether a shorter such span (a fill's content) has its words found with ``str.split``
(else one by one, as any other span: the tests compare the routes)."""
_BLANKS = " \t\n\v\f\r\x1c\x1d\x1e\x1f"  # what str.split() and \s split on, in ASCII


@cache
def _blank_table(np: Any) -> Any:
    """Which of the 256 byte values are ASCII blanks, as a numpy table."""
    table = np.zeros(256, dtype=bool)
    table[[ord(c) for c in _BLANKS]] = True
    return table


def _plain_words(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` holds only ASCII letters, digits and blanks."""
    return _NOT_PLAIN.search(text, start, end) is None and text[start:end].isascii()


class Token(Record, frozen=True):
    """A normalized word and the character span [start, end) it came from.

    A ``msgspec.Struct`` (:class:`~hub4eval.util.records.Record`): every fill's
    content is cut into tokens, and its GLM, spoken forms and joined letters
    make more; a Struct is made several times faster than a slotted frozen
    dataclass (with the same fields, equality, hash, repr and pickling)."""

    text: str
    start: int
    end: int
    parenthesized: bool = False
    optional: bool = False  # set by a GLM rule such as `{ uh / @ }` (§8)
    form: str | None = None  # the raw token less outer punctuation, when not ``text`` (§6)

    @property
    def raw_form(self) -> str:
        """The raw token less its outer punctuation, which filler status is read from (§6)."""
        return self.text if self.form is None else self.form

    @property
    def fragment(self) -> bool:
        """A word fragment such as ``buni-`` (trailing hyphen)."""
        return len(self.text) > 1 and self.text.endswith("-")


def _is_punctuation(char: str) -> bool:
    return unicodedata.category(char).startswith("P")


def outer_stripped(raw: str) -> str:
    """``raw`` less leading punctuation other than ``%`` and ``(`` and trailing
    punctuation other than hyphens and ``)`` (§6).

    >>> [outer_stripped(w) for w in ("%hesitation", "uh,", "(uh).", "buni-,", "--", '"(uh)"')]
    ['%hesitation', 'uh', '(uh)', 'buni-', '', '(uh)']
    """
    start, end = 0, len(raw)
    while start < end and raw[start] not in "%(" and _is_punctuation(raw[start]):
        start += 1
    while end > start and raw[end - 1] not in _KEPT_AT_END and _is_punctuation(raw[end - 1]):
        end -= 1
    return raw[start:end]


_KEPT_AT_END = HYPHENS + ")"


def tokenize(
    text: str,
    spans: Iterable[tuple[int, int]] | None = None,
    *,
    offset: int = 0,
    keep_punctuation: bool = False,
    case_sensitive: bool = False,
) -> tuple[Token, ...]:
    """Split ``text`` (only inside ``spans`` if given) into normalized tokens.

    Args:
        text: the text, e.g. a document's ``text`` or a fill's content.
        spans: (start, end) pieces of ``text`` to read (extractable text);
            all of ``text`` when None.
        offset: added to every token's span (e.g. the document's file offset).
        keep_punctuation: skip the punctuation whiteout (``--keep-punctuation``).
        case_sensitive: keep case (``--case-sensitive``).

    >>> [t.text for t in tokenize("The h- heart of (uh) General Motors.")]
    ['the', 'h-', 'heart', 'of', 'uh', 'general', 'motors']
    >>> [(t.text, t.start, t.end) for t in tokenize("Anchorage,... U.S.")]
    [('anchorage', 0, 9), ('u', 14, 15), ('s', 16, 17)]
    """
    if spans is None:
        spans = ((0, len(text)),)
    tokens: list[Token] = []
    append = tokens.append
    depth = 0
    for span_start, span_end in spans:
        if _SPLIT_PLAIN and span_end - span_start < _PLAIN_SPAN and _plain_words(text, span_start, span_end):
            # letters, digits and blanks only, and short (a fill's content): every word
            # takes the path below for letters and digits, found with str.split
            piece = text[span_start:span_end]
            if not case_sensitive:
                piece = piece.lower()  # ASCII: the same length, the same spans
            find = piece.find
            end = 0
            base = offset + span_start
            for word in piece.split():
                start = find(word, end)  # blanks only before it: the word itself
                end = start + len(word)
                append(Token(_intern(word), base + start, base + end, depth > 0, False, None))
            continue
        if span_end - span_start >= _PLAIN_SPAN and _plain_words(text, span_start, span_end):
            # letters, digits and blanks only: every word takes the path below
            # for letters and digits; the words are found all at once
            # (numpy imported here: a score without texts never loads it)
            import numpy as np

            piece = text[span_start:span_end]
            blank = _blank_table(np)[np.frombuffer(piece.encode("ascii"), np.uint8)]
            edges = np.flatnonzero(np.diff(np.concatenate(([True], blank, [True])).view(np.int8)))
            edges += offset + span_start
            tokens.extend(
                map(
                    Token,
                    map(_intern, (piece if case_sensitive else piece.lower()).split()),
                    edges[0::2].tolist(),
                    edges[1::2].tolist(),
                    repeat(depth > 0),
                    repeat(False),
                    repeat(None),
                )
            )
            continue
        for raw_match in _WORD.finditer(text, span_start, span_end):
            raw = raw_match.group(0)
            base = raw_match.start()
            if raw.isalnum():
                # The common case, letters and digits only (no character of a
                # letter or digit category is punctuation): the raw token is
                # its own outer-stripped form and its own whiteout, one word,
                # no parenthesis, no fragment. Words are interned: a long text
                # repeats a small vocabulary.
                word = _intern(raw if case_sensitive else raw.lower())
                append(Token(word, offset + base, offset + raw_match.end(), depth > 0, False, None))
                continue
            new, depth = raw_word_tokens(raw, offset + base, depth, keep_punctuation, case_sensitive)
            tokens.extend(new)
    return tuple(tokens)


def raw_word_tokens(
    raw: str, start: int, depth: int, keep_punctuation: bool, case_sensitive: bool
) -> tuple[list[Token], int]:
    """The tokens of one raw (whitespace-delimited) word at ``start`` that is not all letters and digits.

    ``depth``: parentheses open before it; returned updated.
    """
    opens = raw.count("(")
    closes = raw.count(")")
    form = outer_stripped(raw)
    parenthesized = depth > 0 or form.startswith("(")
    depth = max(0, depth + opens - closes)
    fragment = len(form) > 1 and form[-1] in HYPHENS
    if not case_sensitive:
        form = form.lower()
    cleaned = raw if keep_punctuation else whiteout_punctuation(raw)
    pieces = list(_WORD.finditer(cleaned))
    tokens = []
    for k, word_match in enumerate(pieces):
        word = word_match.group(0)
        if not case_sensitive:
            word = word.lower()
        if k == len(pieces) - 1 and not keep_punctuation and fragment:
            word += "-"
        tokens.append(
            Token(
                word,
                start + word_match.start(),
                start + word_match.end(),
                parenthesized,
                False,
                None if form == word else form,
            )
        )
    return tokens, depth
