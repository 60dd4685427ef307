"""Windows: the stretches of tokens around number words or digits that are
analyzed (whole raw words, two tokens either side), and their canonical tokens."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from hub4eval.text.spoken.glue import _glue, _library_numbers, _Num
from hub4eval.text.spoken.language import _BLOCKED, _NUMBER, _SECOND, _Words
from hub4eval.text.spoken.lexing import _DEC, _N, _RAW_WORD, _SEPARATING, _W, _Item, _items, _same_word
from hub4eval.text.tokens import Token

# A raw word with more digits than this is not read as a number: its window
# is kept as written. (Python's int() refuses 4,300 digits and more; a number
# times scale words, ``4,000 digits thousand million``, stays below that.)
MAX_DIGITS = 1000


def _percent_sign(raw: str) -> bool:
    """A raw word that is a percent sign of its own, maybe with closing punctuation: ``%``, ``%,``, ``%)``."""
    return raw.startswith("%") and all(c in _SEPARATING for c in raw[1:])


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
        cents_unit = words.language.cents_of.get(element.unit) if element.unit else None
        if cents_unit is not None and "." in element.text and not element.ordinal:
            out.extend(_with_cents(element, cents_unit, par, opt))
            continue
        out.append(Token(element.text, element.start, element.end, par, opt))
        if element.unit:
            out.append(Token(element.unit, element.start, element.end, par, opt))
    return out


def _with_cents(amount: _Num, cents_unit: str, par: bool, opt: bool) -> list[Token]:
    """An amount of money with cents, as it is said: `$38.25` is `38` `dollars` `25`
    `cents`, the two unit words optional (`thirty eight twenty five` says the same);
    `$0.25` is `25` `cents`; `$38.00` is `38` `dollars`. Every token spans the amount."""
    whole, _, fraction = amount.text.partition(".")
    start, end = amount.start, amount.end
    if len(fraction) != 2:  # not cents (`$3.5`): the decimal, then the unit
        return [Token(amount.text, start, end, par, opt), Token(amount.unit or "", start, end, par, opt)]
    cents = str(int(fraction))
    if cents == "0":
        return [Token(whole, start, end, par, opt), Token(amount.unit or "", start, end, par, opt)]
    if whole == "0":
        return [Token(cents, start, end, par, opt), Token(cents_unit, start, end, par, opt)]
    return [
        Token(whole, start, end, par, opt),
        Token(amount.unit or "", start, end, par, True),
        Token(cents, start, end, par, opt),
        Token(cents_unit, start, end, par, True),
    ]


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


def number_hits(words: _Words, tokens: Sequence[Token]) -> list[int]:
    """The indices of the tokens that get a window: :func:`number_start` of each, written out
    (asked of every token of every fill)."""
    classes, zero = words.classes, words.language.score_zero
    hits = []
    for i, token in enumerate(tokens):
        text = token.text
        cls = classes.get(text)
        if cls is None:
            words.trigger(text)
            cls = classes[text]
        if (cls >= _NUMBER and cls != _BLOCKED) or text in zero:
            hits.append(i)
    return hits


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
