"""§8.2: spoken and written forms of numbers, brought to one canonical form.

Reference transcripts are written (``63``, ``$12,500``, ``13th``, ``6-3``,
``0.45``); recognizer output is spoken (``sixty three``, ``twelve thousand five
hundred dollars``, ``thirteenth``, ``six to three``, ``point four five``). When
the texts differ, both sides go through :func:`spoken_forms` so that the aligner
(§7) and the noisy content comparison (§6) see identical tokens whenever the
recognizer got the words right, and different tokens when it did not
(``fifty eight`` and ``58`` are both ``58``; ``fifty nine`` stays ``59``).

Where it runs
-------------
A post-pass over the tokenizer's output, like :func:`hub4eval.text.glm.apply_glm`,
with the raw text the tokens were cut from::

    tokens = tokenize(text, spans)                 # §3 whiteout, spans kept
    tokens = spoken_forms(tokens, text)            # §8.2 (this module)
    tokens = apply_glm(tokens, glm)                # §8

It needs the raw text because the whiteout has already destroyed what tells a
written number apart (``$12,500`` is the tokens ``12`` ``500``, ``0.45`` is
``0`` ``45``): every token's span points into ``text`` (minus ``offset``), so
the raw whitespace-delimited word around a token is one slice away. The
tokenizer is not changed, the §6 marks it reads from raw tokens (fragment,
parenthesized) are kept, and the same call serves a document
(``spoken_forms(tokens, document.text)``) and a fill content string
(``spoken_forms(tokens, content)``). It must run before the GLM: GLM rules
match words (``two => 2``) and would split number phrases the library has to
see whole. :func:`canonical_words` is the one-call form for a plain string.

Number words are parsed by ``text2num`` (``find_numbers``, Rust, MIT), which
reports the token range of every number it finds; nothing here parses number
words itself. The glue around it handles what the library leaves to the
caller: written digits (currency symbols, thousands separators, leading-point
decimals, ``%``, score hyphens), year readings (``nineteen ninety four`` is two
numbers to the library), scale words after a decimal or a digit string
(``three point five million``, ``$3.5 million``), ``a hundred``, ``point four
five`` without a leading ``zero``, ``second`` only where it is a date, and the
range word ``to`` between two numbers.

Speed: a stretch with no digit and no number word costs one dict look-up per
token; only windows of two tokens around a number are analyzed.

Canonical forms (English)
-------------------------
==========================  =====================================================
cardinals                   digits, no separators: ``48``, ``4250``, ``1000000``
                            (``4,250`` / ``four thousand two hundred fifty`` /
                            ``forty two hundred fifty``; ``a hundred`` -> ``100``)
years                       ``1994`` (``nineteen ninety four``), ``1905``
                            (``nineteen oh five``), ``2005`` (``two thousand
                            five``), ``1990s`` (``nineteen nineties``, ``1990's``)
ordinals                    digits + suffix: ``21st``, ``4th``; ``second`` only
                            after a month (``july second`` -> ``july 2nd``), before
                            ``of <month>``, or as the end of a number after a month
                            (``july twenty second``); a cardinal 1-31 right after a
                            month becomes ordinal (``July 4`` -> ``july 4th``)
scaled amounts              multiplied out: ``3.5 million`` / ``three point five
                            million`` / ``3,500,000`` / ``three-and-a-half-million``
                            -> ``3500000``; digits before scale words:
                            ``4 thousand two hundred`` -> ``4200`` (see
                            :func:`_scaled`)
money                       number then unit, both tokens spanning the written
                            amount: ``$12,500`` -> ``12500`` ``dollars``;
                            ``$3.5 million`` -> ``3500000`` ``dollars``; after a
                            number ``dollar(s)``/``cent(s)``/``pound(s)``/
                            ``euro(s)`` -> plural; ``£`` ``€`` ``¥`` ``¢`` likewise
percent                     ``5%`` / ``5 %`` / ``five per cent`` / ``five-per-cent``
                            -> ``5`` ``percent``
decimals                    ``0.45`` (``.45``, ``point four five``, ``zero point
                            four five``); digits after the point kept as written
scores and ranges           two tokens: ``7-5`` / ``7 to 5`` / ``seven to five`` /
                            ``seven five`` -> ``7`` ``5``; ``two to nothing``,
                            ``two to nil`` and ``two nil`` ->
                            ``2`` ``0``
everything else             untouched (durations keep their words: ``3 hours 2
                            minutes``; ``one`` after ``the``/``this``/``no``/...
                            stays a word; plural scales and ordinals stay words:
                            ``hundreds``, ``three hundredths`` -> ``3``
                            ``hundredths``)
==========================  =====================================================

Spans: a produced token spans the raw words it replaces, first start to last
end (``$12,500`` from ``$`` through the last ``0``; ``twenty one`` both words);
a unit token added for a symbol (``dollars`` for ``$``) spans the same
characters as its number. Flags follow :func:`hub4eval.text.glm._produce`:
``parenthesized`` if any replaced token is, ``optional`` if all are.

``--spoken-forms en|none``
--------------------------
The option value is a language code; ``none`` (or ``None``) returns the tokens
unchanged. The code is passed to ``text2num`` (which parses da, de, en, es,
fr, it, nl, pt) and selects a :class:`Language` record holding the glue words
(months, decimal word, range word, article, currency words, year heads, the
words that keep ``one`` a pronoun). Only ``en`` is defined here. Adding Spanish
or French is adding a record to ``LANGUAGES``: months (``julio``/``juillet``),
decimal word (``coma``/``punto``, ``virgule``), range word (``a``; ``à``),
article before a scale (``un``/``mil`` needs none: ``mil`` alone is 1000),
currency words (``dólares``, ``euros``), ``year_heads`` empty (Spanish and
French read years as cardinals, ``mil novecientos noventa y cuatro``, which
the library parses whole), the written decimal comma (``3,5``) and thousands
point (``12.500``) in the digit pattern, and the ordinal suffix the library
writes (``5ème``, ``3º``) against the written ones (``5e``, ``3.º``), plus
tests with the §8.2 classes in that language.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cache, lru_cache

from text_to_num import alpha2digit, find_numbers, text2num

from hub4eval.text.tokens import Token, tokenize

__all__ = [
    "LANGUAGES",
    "Language",
    "canonical_words",
    "spoken_forms",
    "strip_possessive",
]


# ---------------------------------------------------------------- languages


@dataclass(frozen=True)
class Language:
    """The glue words of one language; number words themselves come from text2num.

    Attributes:
        code: the text2num language code.
        months: month names and abbreviations (lower case).
        month_abbreviations: months whose trailing period is no sentence end (``Jan. 5``).
        decimal_word: the spoken decimal point (``point``).
        zero_word: a zero the library knows, put before a bare decimal word.
        range_words: dropped between two cardinals (``to``).
        score_zero: a word read as 0 after a cardinal and a range word (``nothing``).
        score_nil: a word read as 0 right after a cardinal (``two nil``).
        articles: absorbed before a number that starts with a scale word (``a hundred``).
        and_a_half: between a cardinal and a scale word, adds one half
            (``two and a half million`` -> 2500000).
        year_heads: a one-word cardinal that, followed by 10..99 or by
            ``year_zero`` and 1..9, reads as a year (19 94 -> 1994).
        year_zero: the ``oh`` of ``nineteen oh five``.
        ordinal_second: the ordinal that is also a unit of time (``second``);
            an ordinal only in a date.
        of_word: ``of`` in ``the second of july``.
        one_word: the cardinal that is also a pronoun.
        one_guard_before: ``one`` after one of these stays a word (``the one who``).
        one_guard_after: ``one`` before one of these stays a word (``one another``).
        point_guard: no zero is put before the decimal word after these (``at
            that point two ...``).
        currency_symbols: written symbol -> canonical unit word.
        unit_words: spoken unit word after a number -> canonical unit word.
        unit_pairs: two spoken words after a number -> canonical unit word.
    """

    code: str
    months: frozenset[str]
    month_abbreviations: frozenset[str]
    decimal_word: str
    zero_word: str
    range_words: frozenset[str]
    score_zero: frozenset[str]
    articles: frozenset[str]
    and_a_half: tuple[str, ...]
    year_heads: frozenset[int]
    year_zero: str
    ordinal_second: str
    of_word: str
    one_word: str
    one_guard_before: frozenset[str]
    one_guard_after: frozenset[str]
    point_guard: frozenset[str]
    currency_symbols: dict[str, str] = field(default_factory=dict)
    unit_words: dict[str, str] = field(default_factory=dict)
    unit_pairs: dict[tuple[str, str], str] = field(default_factory=dict)
    score_nil: frozenset[str] = frozenset()

    def ordinal(self, digits: str) -> str:
        """The written ordinal of a digit string (English suffixes)."""
        n = int(digits)
        if n % 100 in (11, 12, 13):
            return digits + "th"
        return digits + {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


_ENGLISH = Language(
    code="en",
    months=frozenset(
        "january february march april may june july august september october november december "
        "jan feb mar apr jun jul aug sep sept oct nov dec".split()
    ),
    month_abbreviations=frozenset("jan feb mar apr jun jul aug sep sept oct nov dec".split()),
    decimal_word="point",
    zero_word="zero",
    range_words=frozenset({"to"}),
    score_zero=frozenset({"nothing", "nil"}),
    score_nil=frozenset({"nil"}),
    articles=frozenset({"a"}),
    and_a_half=("and", "a", "half"),
    year_heads=frozenset(range(13, 21)),
    year_zero="oh",
    ordinal_second="second",
    of_word="of",
    one_word="one",
    one_guard_before=frozenset(
        "the this that which no any every each another only little last next other same right "
        "wrong big new old good bad someone anyone everyone".split()
    ),
    one_guard_after=frozenset({"another"}),
    point_guard=frozenset("the a this that at one some what which no any each every".split()),
    currency_symbols={"$": "dollars", "£": "pounds", "€": "euros", "¥": "yen", "¢": "cents"},
    unit_words={
        "dollar": "dollars",
        "dollars": "dollars",
        "cent": "cents",
        "cents": "cents",
        "pound": "pounds",
        "pounds": "pounds",
        "euro": "euros",
        "euros": "euros",
        "percent": "percent",
    },
    unit_pairs={("per", "cent"): "percent"},
)

LANGUAGES: dict[str, Language] = {"en": _ENGLISH}


# ---------------------------------------------------------------- word classes

_NONE, _NUMBER, _BLOCKED, _SECOND, _DECADE, _DIGITS = range(6)
_HAS_DIGIT = re.compile(r"\d")
_SIMPLE_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)*")
_WRITTEN = re.compile(
    r"(?P<cur>[$£€¥])?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?P<suf>%|¢|st|nd|rd|th|s|['\u2019]s)?",
    re.IGNORECASE,
)
_LEAD = "$£€¥"
_TRAIL = "%¢"
_SEPARATING = frozenset(',;:.!?()[]{}"')
_DECADES = {"20", "30", "40", "50", "60", "70", "80", "90"}


class _Words:
    """Per-language caches: class of a token text, value of a cardinal word."""

    def __init__(self, language: Language) -> None:
        self.language = language
        self.classes: dict[str, int] = {}
        self.values: dict[str, int | None] = {}
        self.decades: dict[str, str] = {}

    def word_class(self, word: str) -> int:
        """The class of a lower-case word without digits (library-decided)."""
        code = self.language.code
        if "-" in word:
            parts = [p for p in word.split("-") if p]
            return _NUMBER if any(self.word_class(p) in (_NUMBER, _SECOND, _DECADE) for p in parts) else _NONE
        converted = alpha2digit(word, code, threshold=0)
        if converted != word:
            if word == self.language.ordinal_second:
                return _SECOND
            if word.endswith("s"):
                # hundreds, thousands, tens; and plural ordinals, fractions
                # (three hundredths is 3/100, never 300ths): left as words
                return _BLOCKED
            return _NUMBER
        if word.endswith("ies"):
            stem = alpha2digit(word[:-3] + "y", code, threshold=0)
            if stem in _DECADES:
                self.decades[word] = stem + "s"
                return _DECADE
        return _NONE

    def trigger(self, text: str) -> bool:
        """Whether a token text can start a number (a digit or a number word); cached."""
        cls = self.classes.get(text)
        if cls is None:
            if _HAS_DIGIT.search(text):
                cls = _DIGITS
            else:
                cls = self.word_class(text.lower())
            self.classes[text] = cls
        return cls in (_NUMBER, _SECOND, _DECADE, _DIGITS)

    def cls(self, word: str) -> int:
        c = self.classes.get(word)
        if c is None:
            self.trigger(word)
            c = self.classes[word]
        return c

    def value(self, word: str) -> int | None:
        """The cardinal value of one number word (``million`` -> 1000000), else None."""
        if word not in self.values:
            try:
                self.values[word] = int(text2num(word, self.language.code))
            except (ValueError, TypeError):
                self.values[word] = None
        return self.values[word]


@cache
def _words(code: str) -> _Words:
    try:
        language = LANGUAGES[code]
    except KeyError:
        raise ValueError(
            f"unknown spoken-forms language {code!r} (known: {', '.join(sorted(LANGUAGES))}, none)"
        ) from None
    return _Words(language)


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
    __slots__ = ("kind", "word", "start", "end", "toks", "sep", "num", "unit", "ordinal", "par", "opt", "cls")

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


class _Num:
    """A number found in a window: its canonical text, items covered, unit."""

    __slots__ = ("text", "first", "last", "ordinal", "lib", "unit", "start", "end")

    def __init__(self, text, first, last, ordinal, lib, unit, start, end):
        self.text = text
        self.first = first  # item indices, inclusive
        self.last = last
        self.ordinal = ordinal
        self.lib = lib  # found by the library (number words)
        self.unit = unit
        self.start = start
        self.end = end


_OPAQUE = "_"  # the library's text of an item it must not read (written digits, fragments, ...)


class _Stream:
    """A library token (text2num's Token protocol)."""

    __slots__ = ("_text", "_sep", "_block")

    def __init__(self, text: str, sep: bool, block: bool) -> None:
        self._text = text
        self._sep = sep
        self._block = block

    def text(self) -> str:
        return self._text

    def nt_separated(self, previous: object) -> bool:
        return self._sep

    def not_a_number_part(self) -> bool:
        return self._block


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
    return items, sep_before, sep_after


# ---------------------------------------------------------------- the window


def _times(number: str, scale: int) -> str | None:
    try:
        product = Decimal(number) * scale
    except InvalidOperation:
        return None
    if product == product.to_integral_value():
        return str(int(product))
    return format(product.normalize(), "f")


def _scaled(number: str, scaled: _Num, items: list[_Item], words: _Words) -> str | None:
    """``number`` (written digits, or a decimal) times the library number
    ``scaled`` that starts with scale words, or None when that is no reading.

    The library reads ``4 thousand two hundred`` as ``4`` and ``thousand two
    hundred`` (1200): the leading scale words (``thousand``; ``hundred
    thousand``, ``thousand million``: rising, multiplied) are what the digits
    multiply, and the rest (200) is added when it is below the last of them.
    A decimal takes scale words alone (``3.5 thousand million``), and a
    scale below a thousand only after an integer (``3 hundred``; ``point five
    hundred`` is left as the library reads it).
    """
    multiplier = last = 1
    for k in range(scaled.first, scaled.last + 1):
        item = items[k]
        value = words.value(item.word) if item.kind == _W else None
        if value is None or value <= last or str(value).strip("0") != "1":
            break
        multiplier *= value
        last = value
    if not scaled.text.isdigit():
        return None
    rest = int(scaled.text) - multiplier
    if not 0 <= rest < last:
        return None
    if not number.isdigit():  # a decimal
        if rest or last < 1000:
            return None
        return _times(number, multiplier)
    return str(int(number) * multiplier + rest)


def _is_number_word(item: _Item, words: _Words) -> bool:
    return item.cls == _NUMBER or item.cls == _SECOND


def _second_allowed(items: list[_Item], k: int, words: _Words) -> bool:
    """``second`` is an ordinal after a month (maybe through number words:
    ``july twenty second``) or before ``of <month>``."""
    months = words.language.months
    j = k - 1
    while j >= 0 and _is_number_word(items[j], words):
        j -= 1
    if j >= 0 and items[j].kind == _W and items[j].word in months:
        return True
    return (
        k + 2 < len(items)
        and items[k + 1].word == words.language.of_word
        and items[k + 2].kind == _W
        and items[k + 2].word in months
    )


def _percent_sign(raw: str) -> bool:
    """A raw word that is a percent sign of its own, maybe with closing punctuation: ``%``, ``%,``, ``%)``."""
    return raw.startswith("%") and all(c in _SEPARATING for c in raw[1:])


# A raw word with more digits than this is not read as a number: its window
# is kept as written. (Python's int() refuses 4,300 digits and more; a number
# times scale words, ``4,000 digits thousand million``, stays below that.)
MAX_DIGITS = 1000


def _window(tokens: Sequence[Token], text: str, offset: int, words: _Words, case_sensitive: bool) -> list[Token]:
    """The canonical tokens of one window: whole raw words around number words or digits."""
    # 1. raw words -> items; a raw word without a token (``--``) only separates
    items: list[_Item] = []
    start = tokens[0].start - offset
    end = tokens[-1].end - offset
    while start > 0 and not text[start - 1].isspace() and text[start - 1] not in "<>":
        start -= 1
    size = len(text)
    while end < size and not text[end].isspace() and text[end] not in "<>":
        end += 1
    after = end
    while after < size and text[after].isspace():  # any whitespace, as between the raw words below
        after += 1
    if after > end and text.startswith("%", after):  # `5 %` at the end of the window (maybe `5 %),`)
        sign_end = _RAW_WORD.match(text, after).end()  # type: ignore[union-attr]
        if _percent_sign(text[after:sign_end]):
            end = sign_end
    pending_sep = False
    k = 0
    count = len(tokens)
    for match in _RAW_WORD.finditer(text, start, end):
        ws, we = match.span()
        if we - ws > MAX_DIGITS and sum(char.isdigit() for char in match.group()) > MAX_DIGITS:
            return list(tokens)  # no number anyone says: the window as written (docs/spoken-forms.md)
        g = k
        while g < count and tokens[g].start - offset < we:
            g += 1
        if g == k:
            if items and _percent_sign(match.group()):  # `5 %`: a percent sign of its own
                percent = _Item(_W, "percent", offset + ws, offset + ws + 1, ())
                percent.sep = pending_sep
                items.append(percent)
            else:  # a mark of its own (`--`, `&`, `/`): the words on its two sides are apart
                pending_sep = True
            continue
        group_items, sep_before, sep_after = _items(tokens[k:g], match.group(), ws, offset, words, case_sensitive)
        group_items[0].sep = sep_before or pending_sep
        pending_sep = sep_after
        items.extend(group_items)
        k = g
    if any(it.cls == _NUMBER or it.cls == _SECOND for it in items):
        numbers = _library_numbers(items, words)
    elif any(it.kind == _N or it.kind == _DEC for it in items):
        numbers = []
    else:  # no number after all (``hundreds``, ``one's``): the tokens as they were
        return [t for it in items for t in it.toks] if any(it.kind != _W for it in items) else list(tokens)
    # 2. written numbers join the list
    covered: dict[int, _Num] = {}
    number: _Num | None
    for number in numbers:
        covered[number.first] = number
    for k, item in enumerate(items):
        if item.kind == _N and k not in covered:
            covered[k] = _Num(item.word, k, k, item.ordinal, False, item.unit, item.start, item.end)
    # elements: _Num or item index
    elements: list[_Num | int] = []
    k = 0
    while k < len(items):
        number = covered.get(k)
        if number is not None:
            elements.append(number)
            k = number.last + 1
        else:
            elements.append(k)
            k += 1
    elements = _glue(elements, items, words)
    # 3. emit
    out: list[Token] = []
    for element in elements:
        if isinstance(element, int):
            out.extend(items[element].toks)
            continue
        covered_items = items[element.first : element.last + 1]
        par = any(it.par for it in covered_items)
        opt = all(it.opt for it in covered_items)
        out.append(Token(element.text, element.start, element.end, par, opt))
        if element.unit:
            out.append(Token(element.unit, element.start, element.end, par, opt))
    return out


def _library_numbers(items: list[_Item], words: _Words) -> list[_Num]:
    """Numbers in the word items, found by text2num (spans mapped back to items)."""
    language = words.language
    stream: list[_Stream] = []
    owner: list[int] = []
    for k, item in enumerate(items):
        if item.kind != _W:
            # never empty: the library skips an empty token and would join
            # the numbers on its two sides (`twenty 1990s three` -> 23)
            stream.append(_Stream(_OPAQUE, item.sep, True))
            owner.append(k)
            continue
        cls = item.cls
        if (
            item.word == language.decimal_word
            and k + 1 < len(items)
            and _is_number_word(items[k + 1], words)
            and (k == 0 or not (_is_number_word(items[k - 1], words) or items[k - 1].kind == _N))
            and (k == 0 or items[k - 1].word not in language.point_guard)
        ):
            stream.append(_Stream(language.zero_word, item.sep, False))  # virtual zero
            owner.append(k)
            stream.append(_Stream(item.word, False, False))
            owner.append(k)
            continue
        block = cls == _BLOCKED or (cls == _SECOND and not _second_allowed(items, k, words))
        stream.append(_Stream(item.word, item.sep, block))
        owner.append(k)
    numbers = []
    for occurrence in find_numbers(stream, language.code, threshold=0):
        first, last = owner[occurrence.start], owner[occurrence.end - 1]
        numbers.append(
            _Num(
                occurrence.text,
                first,
                last,
                # an ordinal is written with its suffix (`1st`); the library also
                # calls `first point one` (`1.1`) ordinal, which is then read as a
                # cardinal, as its written form is
                bool(occurrence.is_ordinal) and not occurrence.text[-1:].isdigit(),
                True,
                None,
                items[first].start,
                items[last].end,
            )
        )
    return numbers


def _glue(elements: list, items: list[_Item], words: _Words) -> list:
    """Readings the library leaves to the caller (module docstring), in order."""
    language = words.language

    def word_at(e: int) -> str | None:
        if 0 <= e < len(elements) and isinstance(elements[e], int):
            item = items[elements[e]]
            return item.word if item.kind == _W else None
        return None

    def num_at(e: int) -> _Num | None:
        if 0 <= e < len(elements) and not isinstance(elements[e], int):
            return elements[e]
        return None

    def sep_before(e: int) -> bool:
        element = elements[e]
        index = element if isinstance(element, int) else element.first
        return items[index].sep

    # (a) `one` as a pronoun: the one who, one another
    for e, element in enumerate(elements):
        if (
            isinstance(element, _Num)
            and element.lib
            and element.first == element.last
            and items[element.first].word == language.one_word
            and (word_at(e - 1) in language.one_guard_before or word_at(e + 1) in language.one_guard_after)
        ):
            elements[e : e + 1] = [element.first]

    out: list = []
    e = 0
    while e < len(elements):
        element = elements[e]
        # (b) years: 19 94, 19 oh 5, 19 nineties
        if isinstance(element, _Num) and element.lib and element.first == element.last and not element.ordinal:
            head = words.value(items[element.first].word)
            if head in language.year_heads:
                nxt = num_at(e + 1)
                if (
                    nxt is not None
                    and nxt.lib
                    and not nxt.ordinal
                    and not sep_before(e + 1)
                    and nxt.text.isdigit()
                    and not nxt.text.startswith("0")
                    and 10 <= int(nxt.text) <= 99
                    and nxt.last - nxt.first < 2
                ):
                    out.append(
                        _Num(f"{head}{nxt.text}", element.first, nxt.last, False, True, None, element.start, nxt.end)
                    )
                    e += 2
                    continue
                nxt = num_at(e + 2)
                if (
                    word_at(e + 1) == language.year_zero
                    and nxt is not None
                    and nxt.lib
                    and not nxt.ordinal
                    and not sep_before(e + 1)
                    and not sep_before(e + 2)
                    and nxt.text.isdigit()
                    and 1 <= int(nxt.text) <= 9
                    and nxt.first == nxt.last
                ):
                    out.append(
                        _Num(f"{head}0{nxt.text}", element.first, nxt.last, False, True, None, element.start, nxt.end)
                    )
                    e += 3
                    continue
                if e + 1 < len(elements) and isinstance(elements[e + 1], int) and not sep_before(e + 1):
                    decade = items[elements[e + 1]]
                    if decade.kind == _DEC:
                        out.append(
                            _Num(
                                f"{head}{decade.num}",
                                element.first,
                                elements[e + 1],
                                False,
                                True,
                                None,
                                element.start,
                                decade.end,
                            )
                        )
                        e += 2
                        continue
        if isinstance(element, int) and items[element].kind == _DEC:
            item = items[element]
            out.append(_Num(item.num, element, element, False, True, None, item.start, item.end))
            e += 1
            continue
        out.append(element)
        e += 1
    elements = out

    # (c) a scale word after a decimal or written digits (3.5 million), (d) after
    # `X and a half` (two and a half million), (e) after an article (a hundred)
    out = []
    for element in elements:
        if isinstance(element, _Num) and element.lib and not element.ordinal and items[element.first].kind == _W:
            value = words.value(items[element.first].word)
            if value is not None and value >= 100 and str(value).strip("0") == "1":
                single = element.first == element.last and not items[element.first].sep
                prev = out[-1] if out else None
                if (
                    isinstance(prev, _Num)
                    and not prev.ordinal
                    and (not prev.lib or "." in prev.text)
                    and not items[element.first].sep
                ):
                    product = _scaled(prev.text, element, items, words)
                    if product is not None:
                        out[-1] = _Num(
                            product, prev.first, element.last, False, prev.lib, prev.unit, prev.start, element.end
                        )
                        continue
                if (
                    single
                    and value >= 1000
                    and len(out) >= 4
                    and all(isinstance(x, int) for x in out[-3:])
                    and tuple(items[x].word for x in out[-3:]) == language.and_a_half
                    and isinstance(out[-4], _Num)
                    and out[-4].lib
                    and not out[-4].ordinal
                    and out[-4].text.isdigit()
                ):
                    whole = out[-4]
                    product = _times(str(Decimal(whole.text) + Decimal("0.5")), value)
                    if product is not None:
                        out[-4:] = [
                            _Num(product, whole.first, element.last, False, True, whole.unit, whole.start, element.end)
                        ]
                        continue
                if (
                    isinstance(prev, int)
                    and items[prev].kind == _W
                    and items[prev].word in language.articles
                    and not items[element.first].sep
                ):
                    out.pop()
                    element = _Num(
                        element.text, prev, element.last, False, True, element.unit, items[prev].start, element.end
                    )
        out.append(element)
    elements = out

    # (f) a cardinal 1..31 after a month is a day: July 4 -> july 4th
    for e, element in enumerate(elements):
        if (
            isinstance(element, _Num)
            and not element.ordinal
            and not element.unit
            and element.text.isdigit()
            and not element.text.startswith("0")
            and 1 <= int(element.text) <= 31
            and word_at(e - 1) in language.months
            and (not sep_before(e) or word_at(e - 1) in language.month_abbreviations)
            and word_at(e + 1) not in language.unit_words
            and (word_at(e + 1), word_at(e + 2)) not in language.unit_pairs
        ):
            element.text = language.ordinal(element.text)
            element.ordinal = True

    # (g) unit words after a number; (h) range words between two cardinals
    out = []
    e = 0
    while e < len(elements):
        element = elements[e]
        prev = out[-1] if out else None
        if isinstance(element, int) and isinstance(prev, _Num) and not prev.ordinal and items[element].kind == _W:
            word = items[element].word
            pair = (word, word_at(e + 1))
            if pair in language.unit_pairs:
                item, nxt = items[element], items[elements[e + 1]]
                out.append(
                    _Num(language.unit_pairs[pair], element, elements[e + 1], False, False, None, item.start, nxt.end)
                )
                e += 2
                continue
            if word in language.score_nil and not prev.unit and prev.text.isdigit():
                item = items[element]  # two nil -> 2 0 (a score, like two to nothing)
                out.append(_Num("0", element, element, False, False, None, item.start, item.end))
                e += 1
                continue
            if word in language.unit_words:
                item = items[element]
                out.append(_Num(language.unit_words[word], element, element, False, False, None, item.start, item.end))
                e += 1
                continue
            if word in language.range_words and not prev.unit and prev.text.replace(".", "", 1).isdigit():
                nxt = num_at(e + 1)
                if nxt is not None and not nxt.ordinal and nxt.text.replace(".", "", 1).isdigit():
                    e += 1  # the range word is dropped
                    continue
                if word_at(e + 1) in language.score_zero:
                    zero_item = items[elements[e + 1]]
                    out.append(
                        _Num("0", elements[e + 1], elements[e + 1], False, False, None, zero_item.start, zero_item.end)
                    )
                    e += 2
                    continue
        out.append(element)
        e += 1
    return out


# ---------------------------------------------------------------- public API


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
    hits = [i for i, token in enumerate(tokens) if number_start(words, token.text)]
    if not hits:
        return tuple(tokens)
    out: list[Token] = []
    done = 0
    for a, b, replacement in number_windows(tokens, text, offset, words, case_sensitive, hits):
        out.extend(tokens[done:a])
        out.extend(replacement)
        done = b
    out.extend(tokens[done:])
    return tuple(out)


def number_start(words: _Words, text: str) -> bool:
    """Whether a token of ``text`` gets a window (a number word, digits, or a score word read as 0)."""
    cls = words.classes.get(text)
    if cls is None:
        words.trigger(text)
        cls = words.classes[text]
    # A score word read as 0 (`two nil`, `two to nothing`) becomes a number too,
    # so its window must reach as far as a number's: `one nil to nothing` is
    # then read as `1 0 to nothing` reads, and `one to nothing cent` as
    # `1 0 cent` (normalizing twice changes nothing).
    return (cls >= _NUMBER and cls != _BLOCKED) or text in words.language.score_zero


def number_windows(
    tokens: Sequence[Token], text: str, offset: int, words: _Words, case_sensitive: bool, hits: Sequence[int]
) -> Iterator[tuple[int, int, list[Token]]]:
    """(start, end, canonical tokens) of each window of ``tokens`` around the ``hits`` (in order)."""
    n = len(tokens)
    pairs = words.language.unit_pairs

    def reach(hit: int) -> int:
        # the number and two tokens after it (`5 percent dollar`); one more when
        # the first is a unit of two words (`five per cent dollar`), which is
        # then read as its written form is
        end = hit + 3
        if tuple(token.text.lower() for token in tokens[hit + 1 : hit + 3]) in pairs:
            end += 1
        return min(end, n)

    done = 0
    h = 0
    while h < len(hits):
        a = max(hits[h] - 2, done)
        b = reach(hits[h])
        h += 1
        while a > done and _same_word(text, offset, tokens[a - 1], tokens[a]):
            a -= 1
        while True:  # merge overlapping windows, end on a raw-word boundary
            while h < len(hits) and hits[h] - 2 <= b:
                b = max(b, reach(hits[h]))
                h += 1
            while b < n and _same_word(text, offset, tokens[b - 1], tokens[b]):
                b += 1
            if not (h < len(hits) and hits[h] - 2 <= b):
                break
        yield a, b, _window(tuple(tokens[a:b]), text, offset, words, case_sensitive)
        done = b


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
