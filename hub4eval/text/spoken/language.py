"""Language data of the spoken forms: the glue words of each language and the
per-language caches of word classes and cardinal values (number words themselves
are the ``text2num`` library's)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from text_to_num import alpha2digit, text2num

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
        cents_of: a money unit -> the unit of its hundredths (``dollars`` -> ``cents``).
        and_word: between an amount and its cents (``dollars and twenty five cents``).
        abbreviations: a word written with a period before a number -> the word said
            (``No. 1`` -> ``number``).
        group_words: words before a number read in groups of two digits
            (``flight twelve thirty four`` -> ``flight 1234``).
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
    cents_of: dict[str, str] = field(default_factory=dict)
    and_word: str = ""
    abbreviations: dict[str, str] = field(default_factory=dict)
    group_words: frozenset[str] = frozenset()

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
    cents_of={"dollars": "cents", "euros": "cents"},
    and_word="and",
    abbreviations={"no": "number", "nos": "numbers"},
    group_words=frozenset("flight flights boeing airbus route highway interstate channel".split()),
)

LANGUAGES: dict[str, Language] = {"en": _ENGLISH}


# ---------------------------------------------------------------- word classes

_NONE, _NUMBER, _BLOCKED, _SECOND, _DECADE, _DIGITS = range(6)
_HAS_DIGIT = re.compile(r"\d")
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
