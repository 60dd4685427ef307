"""Lexing of written forms: one raw whitespace-delimited word (``$12,500``,
``6-year-old``, ``1990's``) becomes items (words, written numbers, passthrough
tokens) with character spans, before the library and the glue see them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, lru_cache

from hub4eval.text.spoken.language import _DECADE, _HAS_DIGIT, _NONE, _NUMBER, _SECOND, _Words, _words
from hub4eval.text.tokens import Token, tokenize

_SIMPLE_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)*")
_WRITTEN = re.compile(
    r"(?P<cur>[$£€¥])?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?P<suf>%|¢|st|nd|rd|th|s|['\u2019]s)?",
    re.IGNORECASE,
)
_CLOCK = re.compile(r"([1-9])[:/]([0-9]{2})")  # a digit, then two: a time or a date in groups
_LEAD = "$£€¥"
_TRAIL = "%¢"
_SEPARATING = frozenset(',;:.!?()[]{}"')

# ---------------------------------------------------------------- items

# item kinds
_W = 0  # a word (maybe a number word): the library sees it
_N = 1  # a written number, already canonical (num, unit, ordinal)
_X = 2  # a non-number part of a hyphenated word (``year-old`` of ``6-year-old``)
_P = 3  # passthrough: the original tokens, opaque to the library
_DEC = 4  # a spoken decade plural (``nineties``), value in ``num``
_FIX = 5  # a written form with a new spelling (``1990's`` -> ``1990s``)
_G = 6  # a word of a hyphenated glue phrase (``per-cent``): a word item; the first emits the phrase


class _Item:
    __slots__ = ("kind", "word", "start", "end", "toks", "sep", "num", "unit", "ordinal", "par", "opt", "cls", "dot")

    def __init__(self, kind, word, start, end, toks, sep=False, num="", unit=None, ordinal=False, cls=_NONE):
        self.kind = kind
        self.cls = cls  # the word class of a word item (_NUMBER, _SECOND, ...)
        self.word = word  # lower-case word (W), canonical text (N, X, DEC), "" (P)
        self.start = start
        self.end = end
        self.toks = toks  # tokens emitted when the item is left as it is
        self.sep = sep  # punctuation between this raw word and the previous one
        self.num = num
        self.unit = unit
        self.ordinal = ordinal
        self.par = False
        self.opt = False
        self.dot = False  # the raw word ends with a period right after the item (`No.`)


# ---------------------------------------------------------------- lexing raw words


@lru_cache(maxsize=65536)
def _lex_core(core: str, code: str) -> tuple[tuple[int, str, int, int, str | None, bool], ...] | None:
    """Items of one raw word's core (outer punctuation stripped), spans relative to it.

    Returns (kind, text, start, end, unit, ordinal) tuples, or None when the
    word is left to the tokenizer as it is.
    """
    words = _words(code)
    lower = core.lower()
    if not _HAS_DIGIT.search(core):
        if "-" in core:
            return _lex_hyphenated(core, code)
        if _SIMPLE_WORD.fullmatch(core):
            return ((_W, lower, 0, len(core), None, False),)
        return None
    clock = _CLOCK.fullmatch(core)
    if clock is not None:
        # `7:45`, `9/11`: digits read in groups, as `seven forty five`, `nine eleven` are
        # (see glue: a digit and a number 10..99 after it are one group)
        return ((_N, clock.group(1) + clock.group(2), 0, len(core), None, False),)
    m = _WRITTEN.fullmatch(core)
    if m:
        num = m.group("num").replace(",", "")
        if num.startswith("."):
            num = "0" + num
        suffix = (m.group("suf") or "").lower().replace("\u2019", "'")
        unit = words.language.currency_symbols.get(m.group("cur") or "")
        if suffix in ("st", "nd", "rd", "th"):
            if "." in num or unit:
                return None
            return ((_N, num + suffix, 0, len(core), None, True),)
        if suffix in ("s", "'s"):
            if "." in num or unit:
                return None
            return ((_FIX, num + "s", 0, len(core), None, False),)
        if suffix == "%":
            if unit:
                return None
            unit = "percent"
        elif suffix == "¢":
            if unit:
                return None
            unit = "cents"
        return ((_N, num, 0, len(core), unit, False),)
    if "-" in core:
        return _lex_hyphenated(core, code)
    return None


def _lex_hyphenated(core: str, code: str) -> tuple[tuple[int, str, int, int, str | None, bool], ...] | None:
    """``7-5``, ``twenty-one``, ``6-year-old``, ``$5-million``: split at the hyphens
    when a part is a number; non-number parts stay joined (``year-old``)."""
    words = _words(code)
    parts: list[tuple[str, int, int]] = []
    position = 0
    for piece in core.split("-"):
        parts.append((piece, position, position + len(piece)))
        position += len(piece) + 1
    if any(not piece for piece, _, _ in parts):
        return None  # a leading, trailing or doubled hyphen: leave it to the tokenizer
    lexed: list[tuple[str, int, int, tuple | None]] = []
    numeric = False
    for piece, a, b in parts:
        sub = None
        if _HAS_DIGIT.search(piece):
            sub = _lex_core(piece, code)
            if sub is None:
                return None
            numeric = True
        elif words.word_class(piece.lower()) in (_NUMBER, _SECOND, _DECADE):
            sub = ((_W, piece.lower(), 0, len(piece), None, False),)
            numeric = True
        lexed.append((piece, a, b, sub))
    phrases = _glue_phrases(code)
    if not numeric:
        if tuple(piece.lower() for piece, _, _ in parts) in phrases:  # `five per-cent`
            return tuple((_G, piece.lower(), a, b, None, False) for piece, a, b in parts)
        return None
    out: list[tuple[int, str, int, int, str | None, bool]] = []
    run: list[tuple[str, int, int]] = []

    def flush() -> None:
        if run:
            a, b = run[0][1], run[-1][2]
            if tuple(piece.lower() for piece, _, _ in run) in phrases:  # `five-per-cent`, `-and-a-half-`
                out.extend((_G, piece.lower(), pa, pb, None, False) for piece, pa, pb in run)
            elif len(run) == 1 and _SIMPLE_WORD.fullmatch(run[0][0]):
                out.append((_W, run[0][0].lower(), a, b, None, False))  # `to` of `7-to-5`
            else:
                out.append((_X, core[a:b], a, b, None, False))
            run.clear()

    for piece, a, b, sub in lexed:
        if sub is None:
            run.append((piece, a, b))
            continue
        flush()
        out.extend((k, t, a + s, a + e, u, o) for k, t, s, e, u, o in sub)
    flush()
    return tuple(out)


@cache
def _glue_phrases(code: str) -> frozenset[tuple[str, ...]]:
    """Word sequences the glue reads as one unit (``per cent``, ``and a half``): in a
    hyphenated word they are split into words, so that ``five-per-cent`` reads as
    ``five per cent`` does."""
    language = _words(code).language
    return frozenset({language.and_a_half, *language.unit_pairs})


_RAW_WORD = re.compile(r"[^\s<>]+")


def _same_word(text: str, offset: int, left: Token, right: Token) -> bool:
    """Whether two neighbouring tokens come from one whitespace-delimited raw word."""
    gap = text[left.end - offset : right.start - offset]
    if not gap:
        return True
    if gap == " ":
        return False
    return _RAW_WORD.fullmatch(gap) is not None


def _items(
    group: Sequence[Token], raw: str, ws: int, offset: int, words: _Words, case_sensitive: bool
) -> tuple[list[_Item], bool, bool]:
    """The items of one raw word ``raw`` (at ``ws`` in the text) and its tokens ``group``.

    Returns (items, punctuation before the core, punctuation after it).
    """
    if len(group) == 1:  # the usual word: one token, no punctuation around it
        token = group[0]
        word = token.text.lower() if case_sensitive else token.text
        if len(raw) == token.end - token.start and word.isalpha():
            cls = words.cls(word)
            if cls == _DECADE:
                item = _Item(_DEC, word, token.start, token.end, group, num=words.decades[word])
            else:
                item = _Item(_W, word, token.start, token.end, group, cls=cls)
            item.par, item.opt = token.parenthesized, token.optional
            return [item], False, False
    lead = 0
    size = len(raw)
    while lead < size and not (
        raw[lead].isalnum() or raw[lead] in _LEAD or (raw[lead] == "." and lead + 1 < size and raw[lead + 1].isdigit())
    ):
        lead += 1
    trail = size
    while trail > lead and not (raw[trail - 1].isalnum() or raw[trail - 1] in _TRAIL):
        trail -= 1
    sep_before = any(c in _SEPARATING for c in raw[:lead])
    sep_after = any(c in _SEPARATING for c in raw[trail:])
    par = any(t.parenthesized for t in group)
    opt = all(t.optional for t in group)
    core = raw[lead:trail]
    lexed = None
    if core and not any(t.fragment for t in group):
        lexed = _lex_core(core, words.language.code)
    if lexed is None:
        item = _Item(_P, "", group[0].start, group[-1].end, tuple(group))
        return [item], sep_before, sep_after
    base = offset + ws + lead

    def part_tokens(part: str, start: int) -> tuple[Token, ...]:
        """The tokenizer's tokens of a part of the raw word, with the word's marks."""
        return tuple(
            Token(t.text, t.start, t.end, par, opt) for t in tokenize(part, offset=start, case_sensitive=case_sensitive)
        )

    items: list[_Item] = []
    whole = len(lexed) == 1
    for j, (kind, word, s, e, unit, ordinal) in enumerate(lexed):
        start, end = base + s, base + e
        toks: tuple[Token, ...]
        if kind == _G:
            # the phrase's tokens go with its first word, so that a phrase the
            # glue does not read comes back as the tokenizer cut it
            kind = _W
            if j == 0 or lexed[j - 1][0] != _G:
                last = j
                while last + 1 < len(lexed) and lexed[last + 1][0] == _G:
                    last += 1
                toks = part_tokens(raw[lead + s : lead + lexed[last][3]], start)
            else:
                toks = ()
        elif whole and kind == _W and len(group) == 1:
            toks = tuple(group)
        elif kind in (_W, _X):
            toks = part_tokens(raw[lead + s : lead + e], start)
        elif kind == _FIX:
            toks = (Token(word, start, end, par, opt),)
        else:
            toks = ()
        cls = words.cls(word) if kind == _W else _NONE
        if cls == _DECADE:
            item = _Item(_DEC, word, start, end, toks, num=words.decades[word])
        else:
            item = _Item(kind, word, start, end, toks, unit=unit, ordinal=ordinal, cls=cls)
        item.par, item.opt = par, opt
        items.append(item)
    if items and raw[trail : trail + 1] == ".":
        items[-1].dot = True
    return items, sep_before, sep_after
