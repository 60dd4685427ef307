"""The glue around ``text2num``: numbers found by the library in a window's
items (:func:`_library_numbers`), then the readings it leaves to the caller
(:func:`_glue`: years, scale words after digits or decimals, ``and a half``,
``a hundred``, days after a month, unit words, range words)."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from text_to_num import find_numbers

from hub4eval.text.spoken.language import _BLOCKED, _NUMBER, _SECOND, _Words
from hub4eval.text.spoken.lexing import _DEC, _N, _W, _Item


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

    # (b2) digits read in groups: a digit and a number 10..99 right after it are one
    # number (`seven thirty seven` is 737 as `Boeing 737`, `nine eleven` 911 as `9/11`,
    # `seven forty five` 745 as `7:45`); `seven oh five` is 705 as `7:05`; after a word
    # that names a number read in groups (`flight twelve thirty four` is `Flight 1234`),
    # a number 10..99 also starts a group
    out = []
    e = 0
    while e < len(elements):
        element = elements[e]
        if _one_digit(element, items) or (
            word_at(e - 1) in language.group_words and _two_digits(element, items) and not sep_before(e)
        ):
            nxt = num_at(e + 1)
            if (
                nxt is not None
                and nxt.lib
                and _plain_cardinal(nxt)
                and not nxt.text.startswith("0")
                and 10 <= int(nxt.text) <= 99
                and nxt.last - nxt.first < 2
                and not sep_before(e + 1)
            ):
                out.append(
                    _Num(element.text + nxt.text, element.first, nxt.last, False, True, None, element.start, nxt.end)
                )
                e += 2
                continue
            nxt = num_at(e + 2)
            if (
                word_at(e + 1) == language.year_zero
                and nxt is not None
                and _one_digit(nxt, items)
                and not sep_before(e + 1)
                and not sep_before(e + 2)
            ):
                out.append(
                    _Num(
                        element.text + "0" + nxt.text,
                        element.first,
                        nxt.last,
                        False,
                        True,
                        None,
                        element.start,
                        nxt.end,
                    )
                )
                e += 3
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
    elements = out

    # (i) money with cents: `thirty eight dollars and twenty five cents` (and `thirty
    # eight point two five dollars`) are one amount, as `$38.25` is (emitted by _window)
    out = []
    e = 0
    while e < len(elements):
        element = elements[e]
        unit = num_at(e + 1)
        if isinstance(element, _Num) and _plain_cardinal(element, decimal=True) and unit is not None:
            cents_unit = language.cents_of.get(unit.text) if _unit_word(unit, items) else None
            if cents_unit is not None and _CENTS.fullmatch(element.text):  # 38.25 dollars
                out.append(
                    _Num(element.text, element.first, unit.last, False, True, unit.text, element.start, unit.end)
                )
                e += 2
                continue
            if cents_unit is not None and element.text.isdigit():
                k = e + 2
                said_and = word_at(k) == language.and_word
                k += said_and
                cents = num_at(k)
                if cents is not None and _plain_cardinal(cents) and 1 <= int(cents.text) <= 99:
                    last = num_at(k + 1)
                    said_unit = last is not None and _unit_word(last, items) and last.text == cents_unit
                    if said_and or said_unit:
                        end = last if said_unit else cents
                        out.append(
                            _Num(
                                f"{element.text}.{int(cents.text):02d}",
                                element.first,
                                end.last,  # type: ignore[union-attr]
                                False,
                                True,
                                unit.text,
                                element.start,
                                end.end,  # type: ignore[union-attr]
                            )
                        )
                        e = k + 1 + said_unit
                        continue
        # (k) a word written with a period before a number: `No. 1` is `number one`
        if isinstance(element, int):
            item = items[element]
            said = language.abbreviations.get(item.word) if item.kind == _W and item.dot else None
            nxt = num_at(e + 1)
            if said is not None and nxt is not None and not nxt.unit and nxt.text[:1].isdigit():
                out.append(_Num(said, element, element, False, False, None, item.start, item.end))
                e += 1
                continue
        out.append(element)
        e += 1
    return out


_CENTS = re.compile(r"[0-9]+\.[0-9]{2}")


def _plain_cardinal(number: _Num, decimal: bool = False) -> bool:
    """A number without unit or ordinal suffix, digits only (or a decimal, if allowed)."""
    if number.ordinal or number.unit:
        return False
    return number.text.isdigit() or (decimal and _CENTS.fullmatch(number.text) is not None)


def _one_digit(element: object, items: list[_Item]) -> bool:
    """A one-word number 1..9 read by the library (`seven`)."""
    return (
        isinstance(element, _Num)
        and element.lib
        and element.first == element.last
        and _plain_cardinal(element)
        and len(element.text) == 1
        and element.text != "0"
        and items[element.first].kind == _W
    )


def _two_digits(element: object, items: list[_Item]) -> bool:
    """A number 10..99 of one or two words read by the library (`twelve`, `twenty one`)."""
    return (
        isinstance(element, _Num)
        and element.lib
        and element.last - element.first < 2
        and _plain_cardinal(element)
        and len(element.text) == 2
        and items[element.first].kind == _W
    )


def _unit_word(number: _Num, items: list[_Item]) -> bool:
    """A unit said after a number (`dollars`), made by the glue from a word."""
    return not number.lib and number.first == number.last and items[number.first].kind == _W
