"""sclite's alignment of transcripts written in sclite's notation: alternations, NULL words, optional words, fragments.

NIST sclite does not align two word lists: it aligns two *networks*. A
transcript such as ``a { b c / d / @ } (uh) e-`` is a graph whose paths are
the word sequences the transcript allows; sclite's dynamic programme runs over
pairs of arcs of the two graphs and keeps, at every cell, the cheapest way in.
This module reproduces that programme, its costs and its tie-breaking, so that
the counts (and the alignment) are sclite's also where the notation matters:

* ``{ a / b c / @ }``: an alternation; each alternative is a sequence of
  words (alternations may nest); ``@`` is the NULL word: inserting or deleting
  it costs 0.001 and it never appears in the alignment;
* ``(w)`` with optional deletion on (sclite ``-D``): deleting or inserting it
  costs 2 and counts as *correct*; matched, it is compared without its
  parentheses;
* a fragment (a word beginning or ending with ``-``) with fragment correction
  on (sclite ``-F``): it matches any word it is a prefix (``th-``) or suffix
  (``-ing``) of;
* ``word;tag1;tag2``: tags after unescaped ``;`` are kept apart (``\\;`` is a
  literal ``;``); a trailing ``*`` is dropped.

Costs: correct 0, substitution 4, insertion and deletion 3, ``@`` against
``@`` 1. Ties (the order sclite's ``net_dp.c`` compares them): the diagonal
when it is no dearer than both, else a deletion when strictly cheaper than the
insertion, else the insertion; among several predecessor arcs (the arcs into
an alternation's end) the first in sclite's order that is strictly cheapest.
The sums are kept in single precision, as sclite's ``float`` cells are.

A pair of plain word lists (no alternation, no ``@``, no optional word or
fragment that the options interpret) goes to the linear-memory aligner of
:mod:`hub4eval.text.align.sclite`, which gives the same alignment; the
network programme here is quadratic and meant for utterances.

Why one module of about 830 lines: the networks (built from the notation),
the programme over their arcs and the short-utterance band that stands in for
it on plain words are one alignment with one cost model and one tie order;
split, the tie rule would be written in two places that must never differ.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from hub4eval.util.records import quick_init

__all__ = [
    "CharAlignment",
    "Item",
    "NetWord",
    "PathEntry",
    "PlainPath",
    "WordSegmentation",
    "align_networks",
    "align_plain_words",
    "parse_items",
    "plain_ops",
    "word_of",
]

_PACK = struct.Struct("f")


def _F32(value: float) -> float:
    """``value`` rounded to single precision (sclite keeps its costs in C ``float``)."""
    return _PACK.unpack(_PACK.pack(value))[0]


# Plain utterances up to _SMALL_CELLS DP cells are aligned here in Python (on a band
# of the matrix, plain_ops) while the Python work stays under _PYTHON_BUDGET band
# cells in the process: loading the compiled kernels costs about half a second of
# CPU, which many short utterances never repay; past the budget (about as long as
# that load) the kernels are loaded and used.
_SMALL_CELLS = 65536
_PYTHON_BUDGET = 3_000_000
_python_cells = 0


@quick_init
@dataclass(frozen=True, slots=True)
class NetWord:
    """One word of a transcript as sclite holds it."""

    value: str  # as written (case folded by the caller), tags and a trailing * removed
    opt_del: bool = False  # (w) under -D
    frag: bool = False  # a fragment under -F
    t1: float = 0.0
    t2: float = 0.0
    conf: float | None = None
    tag1: str | None = None
    tag2: str | None = None

    @property
    def intern(self) -> str:
        """The value compared: without the parentheses of an optionally deletable word."""
        return self.value[1:-1] if self.opt_del else self.value

    @property
    def is_null(self) -> bool:
        return self.value == "@"


# An item of a transcript: a word, or an alternation (a tuple of alternatives, each a tuple of items).
Item = NetWord | tuple


@quick_init
@dataclass(frozen=True, slots=True)
class PathEntry:
    """One aligned position: ``op`` is C, S, D or I; an absent side is None.

    An optionally deletable word that was deleted (or inserted) is correct
    against an empty word (``NetWord("")``), as sclite writes it.
    """

    op: str
    ref: NetWord | None
    hyp: NetWord | None


def _split_tags(token: str) -> list[str]:
    """``text;tag1;tag2`` split at unescaped ``;``, escapes removed."""
    parts: list[str] = []
    current: list[str] = []
    k = 0
    while k < len(token):
        char = token[k]
        if char == "\\" and k + 1 < len(token) and token[k + 1] == ";":
            current.append(";")
            k += 2
            continue
        if char == ";" and len(parts) < 2:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
        k += 1
    parts.append("".join(current))
    return parts


def word_of(
    token: str,
    *,
    opt_del: bool = False,
    frag_corr: bool = False,
    t1: float = 0.0,
    t2: float = 0.0,
    conf: float | None = None,
) -> NetWord:
    """A word token as sclite reads it (tags, trailing ``*``, ``(w)`` under -D, fragments under -F)."""
    if ";" not in token and not token.endswith("*") and not opt_del and not frag_corr:
        return NetWord(token, False, False, t1, t2, conf)
    parts = _split_tags(token)
    value = parts[0]
    if len(value) > 1 and value.endswith("*"):
        value = value[:-1]
    is_opt = opt_del and len(value) >= 2 and value[0] == "(" and value[-1] == ")"
    is_frag = frag_corr and bool(value) and (value[-1] == "-" or value[0] == "-" or (is_opt and value[-2] == "-"))
    return NetWord(
        value,
        is_opt,
        is_frag,
        t1,
        t2,
        conf,
        parts[1] if len(parts) > 1 else None,
        parts[2] if len(parts) > 2 else None,
    )


def _tokens(text: str) -> list[str]:
    """sclite's tokens of a transcript: blank-separated words, and ``{...}`` alternations (balanced) whole."""
    if "{" not in text:
        return text.split()
    out: list[str] = []
    k, n = 0, len(text)
    while k < n:
        while k < n and text[k].isspace():
            k += 1
        if k >= n:
            break
        start = k
        if text[k] == "{":
            depth = 0
            while True:
                if text[k] == "{":
                    depth += 1
                elif text[k] == "}":
                    depth -= 1
                k += 1
                if k >= n or depth <= 0:
                    break
            if depth > 0:
                break  # an alternation never closed: sclite stops reading the transcript there
        else:
            while k < n and not text[k].isspace():
                k += 1
        out.append(text[start:k])
    return out


def _alternatives(token: str) -> list[str]:
    """The alternatives of ``{ a / b c / ... }`` (sclite's find_next_TEXT_alternation)."""
    body = token[1:]
    close = body.rfind("}")
    if close >= 0:
        body = body[:close]
    out: list[str] = []
    k, n = 0, len(body)
    while True:
        while k < n and (body[k].isspace() or body[k] == "/"):
            k += 1
        if k >= n:
            break
        start, depth = k, 0
        while k < n:
            char = body[k]
            if depth == 0 and char in "/}":
                break
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
            k += 1
        out.append(body[start:k])
        if k < n and body[k] == "}":
            break
    return out


def parse_items(text: str, make: Callable[[str], NetWord]) -> tuple[Item, ...]:
    """The items of a transcript in sclite's notation; ``make`` reads one word token."""
    items: list[Item] = []
    for token in _tokens(text):
        if token.startswith("{"):
            alternatives = tuple(parse_items(alternative, make) for alternative in _alternatives(token))
            alternatives = tuple(a for a in alternatives if a)
            if alternatives:
                items.append(alternatives)
        else:
            items.append(make(token))
    return tuple(items)


# ------------------------------------------------------------------ networks


class _Network:
    """Arcs in sclite's in-order (topological, breadth-first) numbering, each with its predecessor arcs.

    Arc 0 is the NULL arc sclite adds at the head; ``final`` are the arcs into
    the stop node, in sclite's order.
    """

    def __init__(
        self, items: Sequence[Item], chars: CharAlignment | None = None, joined: WordSegmentation | None = None
    ) -> None:
        self.node_in: list[list[int]] = [[]]
        self.node_out: list[list[int]] = [[]]
        self.arc_word: list[NetWord | None] = []
        self.arc_from: list[int] = []
        self.arc_to: list[int] = []
        head = self._node()
        self._arc(None, 0, head)
        stop = self._chain(items, head, None)
        self.stop = stop
        if chars is not None:
            self._expand_chars(chars)
        if joined is not None:
            self._connect(joined)
        self._number()

    def _connect(self, joined: WordSegmentation) -> None:
        """sclite's Network_fully_connect_cond: from every arc (taken breadth first), every path of up to
        ``joined.longest`` arcs whose words, joined, are in the lexicon gets an arc of its own."""
        order: list[int] = []
        visited = {0}
        fringe = [0]
        while fringe:
            node = fringe.pop(0)
            for arc in self.node_out[node]:
                target = self.arc_to[arc]
                if target not in visited:
                    visited.add(target)
                    fringe.append(target)
            order.extend(self.node_out[node])
        for base in order:
            word = self.arc_word[base]
            if word is not None:
                self._join(joined.longest - 1, base, base, word, joined.lexicon)

    def _join(self, depth: int, base: int, current: int, value: NetWord, lexicon: frozenset[str]) -> None:
        if depth == 0:
            return
        out = self.node_out[self.arc_to[current]]
        k = 0
        while k < len(out):  # arcs added to this list meanwhile are visited too, as in sclite
            arc = out[k]
            k += 1
            following = self.arc_word[arc]
            assert following is not None
            joined = _joined(value, following)
            if joined.intern in lexicon:
                self._arc(joined, self.arc_from[base], self.arc_to[arc])
            self._join(depth - 1, base, arc, joined, lexicon)

    def _expand_chars(self, chars: CharAlignment) -> None:
        """Every word replaced by the chain of its characters, visiting the arcs in the order of sclite's
        depth-first traversal: a replaced arc's first character goes to the end of its node's out-arcs,
        its last character to the end of the next node's in-arcs (the order ties are broken in)."""
        visited = {0}
        fringe = [0]
        while fringe:
            node = fringe.pop(0)
            for arc in self.node_out[node]:
                target = self.arc_to[arc]
                if target not in visited:
                    visited.add(target)
                    fringe.insert(0, target)
            for arc in list(self.node_out[node]):
                self._expand_arc(arc, chars)

    def _expand_arc(self, arc: int, chars: CharAlignment) -> None:
        word = self.arc_word[arc]
        if word is None or chars.length(word.value) <= 1:
            return
        pieces = chars.split(word.intern)
        if " ".join(pieces) == word.value or not pieces:
            return
        u, v = self.arc_from[arc], self.arc_to[arc]
        self.node_out[u].remove(arc)
        self.node_in[v].remove(arc)
        for k, piece in enumerate(pieces):
            value = piece[:-1] if len(piece) > 1 and piece.endswith("*") else piece
            if word.opt_del:
                value = f"({value})"
            target = v if k == len(pieces) - 1 else self._node()
            self._arc(NetWord(value, opt_del=word.opt_del, conf=word.conf), u, target)
            u = target

    def _node(self) -> int:
        self.node_in.append([])
        self.node_out.append([])
        return len(self.node_in) - 1

    def _arc(self, word: NetWord | None, u: int, v: int) -> None:
        index = len(self.arc_word)
        self.arc_word.append(word)
        self.arc_from.append(u)
        self.arc_to.append(v)
        self.node_out[u].append(index)
        self.node_in[v].append(index)

    def _chain(self, items: Sequence[Item], u: int, end: int | None) -> int:
        for k, item in enumerate(items):
            target = end if (end is not None and k == len(items) - 1) else self._node()
            if isinstance(item, NetWord):
                self._arc(item, u, target)
            else:
                for alternative in item:
                    self._chain(alternative, u, target)
            u = target
        return u

    def _number(self) -> None:
        """sclite's in-order traversal: a node is visited once all its in-arcs' nodes were; arcs as their from-node's out list."""
        remaining = [len(arcs) for arcs in self.node_in]
        order: list[int] = []
        queue = [0]
        seen = {0}
        position = 0
        while position < len(queue):
            node = queue[position]
            position += 1
            for arc in self.node_out[node]:
                target = self.arc_to[arc]
                remaining[target] -= 1
                if remaining[target] > 0 or target in seen:
                    continue
                seen.add(target)
                queue.append(target)
            order.extend(self.node_out[node])
        index = {arc: k for k, arc in enumerate(order)}
        self.words: list[NetWord | None] = [self.arc_word[arc] for arc in order]
        self.preds: list[list[int]] = [[index[p] for p in self.node_in[self.arc_from[arc]]] for arc in order]
        self.final: list[int] = [index[arc] for arc in self.node_in[self.stop]]


def _equal(w1: NetWord, w2: NetWord) -> bool:
    """sclite's equal_WORD2: optional words without parentheses, fragments as prefixes or suffixes."""
    it1, it2 = w1.intern, w2.intern
    l1, l2 = len(it1), len(it2)
    if w1.frag or w2.frag:
        if l1 > 1 and it1[0] == "-":
            return l2 >= l1 - 1 and it1[1:] == it2[l2 - (l1 - 1) :]
        if l1 > 1 and it1[-1] == "-":
            return it1[: l1 - 1] == it2[: l1 - 1]
        if l2 > 1 and it2[0] == "-":
            return l1 >= l2 - 1 and it1[l1 - (l2 - 1) :] == it2[1:]
        if l2 > 1 and it2[-1] == "-":
            return it1[: l2 - 1] == it2[: l2 - 1]
    return it1 == it2


_NULL_COST = _F32(0.001)


def _word_cost(w1: NetWord | None, w2: NetWord | None) -> float:
    """sclite's wwd_WORD."""
    if w2 is None:
        assert w1 is not None
        if w1.value == "@":
            return _NULL_COST
        return _F32(2.0) if w1.opt_del else _F32(3.0)
    if w1 is None:
        if w2.value == "@":
            return _NULL_COST
        return _F32(2.0) if w2.opt_del else _F32(3.0)
    if w1.value == "@" and w2.value == "@":
        return _F32(1.0)
    return _F32(0.0) if _equal(w1, w2) else _F32(4.0)


def _time_cost(w1: NetWord | None, w2: NetWord | None) -> float:
    """sclite's wwd_time_WORD (``-T``): a word's duration to insert or delete it, the distance of the
    begin and end times to align two (plus 0.001 when they differ)."""
    if w2 is None:
        assert w1 is not None
        return _NULL_COST if w1.value == "@" else _F32(w1.t2 - w1.t1)
    if w1 is None:
        return _NULL_COST if w2.value == "@" else _F32(w2.t2 - w2.t1)
    return _F32(abs(w1.t1 - w2.t1) + abs(w1.t2 - w2.t2) + (0.0 if _equal(w1, w2) else 0.001))


def _plain(items: Sequence[Item]) -> bool:
    return all(isinstance(item, NetWord) and not (item.opt_del or item.frag or item.value == "@") for item in items)


def _joined(w1: NetWord, w2: NetWord) -> NetWord:
    """Two words written as one (sclite's append_WORD_no_NULL): ``@`` vanishes, two optional words
    make an optional word."""
    if w1.opt_del and w2.opt_del:
        return NetWord(f"({w1.intern}{w2.intern})", True, w1.frag and w2.frag, w1.t1, w2.t2, w1.conf)
    if w1.value == "@":
        value = w2.intern
    elif w2.value == "@":
        value = w1.intern
    else:
        value = w1.intern + w2.intern
    return NetWord(value, False, w1.frag and w2.frag, w1.t1, w2.t2, w1.conf)


@dataclass(frozen=True)
class WordSegmentation:
    """sclite's ``-S``: words of a language written without spaces are inferred from a lexicon.

    One side is split into characters (ASCII words stay whole unless
    ``ascii_too``) and every run of up to ``longest`` characters that spells a
    lexicon word becomes an alternative path: ``algorithm`` 1 does this to the
    hypothesis, 2 to the reference.
    """

    algorithm: int
    lexicon: frozenset[str]
    longest: int
    ascii_too: bool = False
    encoding: str = "ascii"

    def chars(self) -> CharAlignment:
        return CharAlignment(noascii=not self.ascii_too, delete_hyphens=False, encoding=self.encoding)


@dataclass(frozen=True)
class CharAlignment:
    """sclite's ``-c``: words are aligned character by character.

    ``noascii`` (``-c NOASCII``) keeps runs of ASCII characters together;
    ``delete_hyphens`` (``-c DH``) drops hyphens. ``encoding`` says what a
    character is: a byte for ``ascii``/``ext_ascii`` (and every byte counts as
    ASCII), a byte or a two-byte pair for ``gb`` (texts decoded byte for byte),
    a code point for ``utf-8``.
    """

    noascii: bool = False
    delete_hyphens: bool = False
    encoding: str = "ascii"

    def length(self, text: str) -> int:
        """The word's length in bytes (sclite's strlen)."""
        return len(text.encode("utf-8")) if self.encoding == "utf-8" else len(text)

    def _characters(self, text: str) -> list[str]:
        if self.encoding != "gb":
            return list(text)
        out, k = [], 0
        while k < len(text):
            width = 2 if ord(text[k]) >= 0x80 and k + 1 < len(text) else 1
            out.append(text[k : k + width])
            k += width
        return out

    def _is_ascii(self, char: str) -> bool:
        return self.encoding in ("ascii", "ext_ascii") or ord(char[0]) < 0x80

    def split(self, text: str) -> list[str]:
        """The pieces a word is aligned as (sclite's TEXT_separate_chars, then split at the spaces)."""
        out = ""
        last_ascii, last_space = False, True
        for char in self._characters(text):
            is_ascii, is_space = self._is_ascii(char), char == " "
            if self.delete_hyphens and char == "-":
                continue
            if out and not last_space and not is_space and not (self.noascii and is_ascii and last_ascii):
                out += " "
            out += char
            last_ascii, last_space = is_ascii, is_space
        return out.split()


def align_networks(
    ref: Sequence[Item],
    hyp: Sequence[Item],
    chars: CharAlignment | None = None,
    *,
    timed: bool = False,
    segmentation: WordSegmentation | None = None,
) -> list[PathEntry]:
    """sclite's alignment of two transcripts (items from :func:`parse_items`); ``chars``: by character
    (``-c``); ``timed``: time-mediated (``-T``, words carry their times); ``segmentation``: words inferred
    from a lexicon (``-S``)."""
    if timed:
        return _align_graph(_Network(ref, chars), _Network(hyp, chars), _time_cost)
    if segmentation is not None:
        split = segmentation.chars()
        if segmentation.algorithm == 1:
            return _align_graph(_Network(ref), _Network(hyp, split, segmentation))
        return _align_graph(_Network(ref, split, segmentation), _Network(hyp))
    if chars is not None and all(isinstance(item, NetWord) for item in (*ref, *hyp)):
        ref = tuple(_plain_chars(ref, chars))  # type: ignore[arg-type]
        hyp = tuple(_plain_chars(hyp, chars))  # type: ignore[arg-type]
        chars = None
    if chars is None and _plain(ref) and _plain(hyp):
        return _align_plain(ref, hyp)  # type: ignore[arg-type]
    return _align_graph(_Network(ref, chars), _Network(hyp, chars))


def _plain_chars(words: Sequence[NetWord], chars: CharAlignment) -> list[NetWord]:
    """A sequence of words by character (no alternation: the network stays a chain)."""
    out: list[NetWord] = []
    for word in words:
        pieces = chars.split(word.intern) if chars.length(word.value) > 1 else []
        if not pieces or " ".join(pieces) == word.value:
            out.append(word)
            continue
        for piece in pieces:
            value = piece[:-1] if len(piece) > 1 and piece.endswith("*") else piece
            out.append(NetWord(f"({value})" if word.opt_del else value, opt_del=word.opt_del, conf=word.conf))
    return out


_FAR = 1 << 30  # a cell outside the band


def _band_rows(a: Sequence[str], b: Sequence[str], bound: int) -> list[list[int]]:
    """The cost rows of sclite's rule (substitution 4, insertion and deletion 3) over the cells that an
    alignment of cost at most ``bound`` can pass: a cell ``k = i - j`` diagonals off costs at least
    ``3 |k|`` to reach and ``3 |(n - m) - k|`` to leave. Cells outside hold ``_FAR``."""
    n, m = len(a), len(b)
    d = n - m
    reach = bound // 3
    k_low = -((reach - d) // 2)  # ceil((d - reach) / 2)
    k_high = (d + reach) // 2
    first = min(m, -k_low)
    previous = [3 * j for j in range(first + 1)] + [_FAR] * (m - first)
    rows = [previous]
    for i in range(1, n + 1):
        low, high = i - k_high, min(m, i - k_low)
        row = [_FAR] * (m + 1)
        word = a[i - 1]
        if low <= 0:
            row[0] = left = 3 * i
            low = 1
        else:
            left = _FAR
        for j in range(low, high + 1):
            cost = previous[j - 1]
            if word != b[j - 1]:
                cost += 4
            other = previous[j] + 3
            if other < cost:
                cost = other
            other = left + 3
            if other < cost:
                cost = other
            row[j] = left = cost
        rows.append(row)
        previous = row
    return rows


def plain_ops(a: Sequence[str], b: Sequence[str]) -> str:
    """sclite's alignment of two plain word lists as a string of operations (``C``, ``S``, ``D``, ``I``),
    in Python: the rule of :mod:`hub4eval.text.align.sclite` on a band of the matrix.

    The band holds every cell an alignment of cost at most a bound can pass
    (Ukkonen's cut-off); the bound starts near the expected cost and doubles
    until the best cost found is within it, which proves the band held every
    optimal path. The way back compares the three ways into each cell as the
    full matrix does (diagonal when no dearer than both, else a deletion when
    strictly cheaper than the insertion, else the insertion); a way from
    outside the band is dearer than the cheapest way in, so every choice,
    and therefore the alignment, is the full matrix's.
    """
    n, m = len(a), len(b)
    if n == 0 or m == 0:
        return "D" * n + "I" * m
    if a == b:
        return "C" * n
    bound = 3 * abs(n - m) + max(9, (n + m) // 3)
    rows = _band_rows(a, b, bound)
    while rows[n][m] > bound:
        bound *= 2
        rows = _band_rows(a, b, bound)
    ops: list[str] = []
    i, j = n, m
    while i > 0 and j > 0:
        above = rows[i - 1]
        same = a[i - 1] == b[j - 1]
        diagonal = above[j - 1] + (0 if same else 4)
        deletion = above[j] + 3
        insertion = rows[i][j - 1] + 3
        if diagonal <= deletion and diagonal <= insertion:
            ops.append("C" if same else "S")
            i, j = i - 1, j - 1
        elif deletion < insertion:
            ops.append("D")
            i -= 1
        else:
            ops.append("I")
            j -= 1
    ops.append("D" * i + "I" * j)  # the first column is deletions, the first row insertions
    ops.reverse()
    return "".join(ops)


class PlainPath(Sequence[PathEntry]):
    """The alignment of two plain word lists, kept as its operations and the two lists; the
    :class:`PathEntry` records (and their words) are made when the path is first read, so that
    counting errors (``ops.count``) makes none."""

    __slots__ = ("_entries", "hyp", "ops", "ref")

    def __init__(self, ops: str, ref: Sequence[str], hyp: Sequence[str]) -> None:
        self.ops = ops
        self.ref = ref
        self.hyp = hyp
        self._entries: tuple[PathEntry, ...] | None = None

    def entries(self) -> tuple[PathEntry, ...]:
        if self._entries is None:
            self._entries = tuple(_entries(self.ops, [NetWord(w) for w in self.ref], [NetWord(w) for w in self.hyp]))
        return self._entries

    def __len__(self) -> int:
        return len(self.ops)

    @overload
    def __getitem__(self, index: int) -> PathEntry: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[PathEntry, ...]: ...
    def __getitem__(self, index: int | slice) -> PathEntry | tuple[PathEntry, ...]:
        return self.entries()[index]

    def __iter__(self) -> Iterator[PathEntry]:
        return iter(self.entries())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PlainPath):
            return self.ops == other.ops and list(self.ref) == list(other.ref) and list(self.hyp) == list(other.hyp)
        if isinstance(other, Sequence):
            return self.entries() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.entries())

    def __repr__(self) -> str:
        return f"PlainPath({self.ops!r}, {list(self.ref)!r}, {list(self.hyp)!r})"


def _entries(ops: str, ref: Sequence[NetWord], hyp: Sequence[NetWord]) -> list[PathEntry]:
    """The path that ``ops`` (``C``, ``S``, ``D``, ``I``) spells over these words."""
    out = []
    i = j = 0
    for op in ops:
        if op == "D":
            out.append(PathEntry(op, ref[i], None))
            i += 1
        elif op == "I":
            out.append(PathEntry(op, None, hyp[j]))
            j += 1
        else:
            out.append(PathEntry(op, ref[i], hyp[j]))
            i, j = i + 1, j + 1
    return out


def _align_small(ref: Sequence[NetWord], hyp: Sequence[NetWord]) -> list[PathEntry]:
    """The rule of :mod:`hub4eval.text.align.sclite`, in Python (:func:`plain_ops`)."""
    return _entries(plain_ops([w.value for w in ref], [w.value for w in hyp]), ref, hyp)


def _python_alignment(n: int, m: int) -> bool:
    """Whether a plain pair of ``n`` and ``m`` words is aligned in Python (:func:`plain_ops`), counting it
    against the budget; else the compiled kernels align it."""
    global _python_cells
    cells = (n + 1) * (m + 1)
    if cells > _SMALL_CELLS or _python_cells >= _PYTHON_BUDGET:
        return False
    _python_cells += min(cells, (n + 1) * (abs(n - m) + max(3, (n + m) // 9) + 1))  # about the band's cells
    return True


def _align_plain(ref: Sequence[NetWord], hyp: Sequence[NetWord]) -> list[PathEntry]:
    if _python_alignment(len(ref), len(hyp)):
        return _align_small(ref, hyp)
    from hub4eval.text.align.sclite import sclite_align

    alignment = sclite_align([w.value for w in ref], [w.value for w in hyp])
    return [
        PathEntry(
            op.op,
            None if op.ref_index is None else ref[op.ref_index],
            None if op.hyp_index is None else hyp[op.hyp_index],
        )
        for op in alignment.ops
    ]


def align_plain_words(ref: Sequence[str], hyp: Sequence[str]) -> PlainPath:
    """sclite's alignment of two plain word lists (no notation), as a :class:`PlainPath`."""
    if _python_alignment(len(ref), len(hyp)):
        return PlainPath(plain_ops(ref, hyp), ref, hyp)
    from hub4eval.text.align.sclite import sclite_align

    return PlainPath("".join(op.op for op in sclite_align(list(ref), list(hyp)).ops), ref, hyp)


_BIG = _F32(999999999.9)


def _align_graph(
    a_net: _Network, b_net: _Network, cost: Callable[[NetWord | None, NetWord | None], float] | None = None
) -> list[PathEntry]:
    _cost = cost or _word_cost
    wa, wb = a_net.words, b_net.words
    pa, pb = a_net.preds, b_net.preds
    na, nb = len(wa), len(wb)
    dist = [[_F32(0.0)] * nb for _ in range(na)]
    back_a = [[-1] * nb for _ in range(na)]
    back_b = [[-1] * nb for _ in range(na)]
    for b in range(1, nb):
        best, best_b = _BIG, -1
        for p in pb[b]:
            if dist[0][p] < best:
                best, best_b = dist[0][p], p
        dist[0][b] = _F32(best + _cost(None, wb[b]))
        back_a[0][b], back_b[0][b] = 0, best_b
    for a in range(1, na):
        best, best_a = _BIG, -1
        for p in pa[a]:
            if dist[p][0] < best:
                best, best_a = dist[p][0], p
        dist[a][0] = _F32(best + _cost(wa[a], None))
        back_a[a][0], back_b[a][0] = best_a, 0
    for a in range(1, na):
        row, word_a, preds_a = dist[a], wa[a], pa[a]
        delete_cost = _cost(word_a, None)
        for b in range(1, nb):
            ins_d, ins_b = _BIG, -1
            for p in pb[b]:
                if row[p] < ins_d:
                    ins_d, ins_b = row[p], p
            del_d, del_a = _BIG, -1
            for p in preds_a:
                if dist[p][b] < del_d:
                    del_d, del_a = dist[p][b], p
            sub_d, sub_a, sub_b = _BIG, -1, -1
            for p in preds_a:
                prow = dist[p]
                for q in pb[b]:
                    if prow[q] < sub_d:
                        sub_d, sub_a, sub_b = prow[q], p, q
            sub_d = _F32(sub_d + _cost(word_a, wb[b]))
            del_d = _F32(del_d + delete_cost)
            ins_d = _F32(ins_d + _cost(None, wb[b]))
            if sub_d <= del_d and sub_d <= ins_d:
                row[b], back_a[a][b], back_b[a][b] = sub_d, sub_a, sub_b
            elif del_d < ins_d:
                row[b], back_a[a][b], back_b[a][b] = del_d, del_a, b
            else:
                row[b], back_a[a][b], back_b[a][b] = ins_d, a, ins_b
    best, end_a, end_b = _F32(999999.9), -1, -1
    for a in a_net.final:
        for b in b_net.final:
            if best > dist[a][b]:
                best, end_a, end_b = dist[a][b], a, b
    path: list[PathEntry] = []
    a, b = end_a, end_b
    empty = NetWord("")
    while a > 0 or b > 0:
        la, lb = back_a[a][b], back_b[a][b]
        if a == la:  # insertion
            word = wb[b]
            assert word is not None
            if not word.is_null:
                path.append(PathEntry("C", empty, word) if word.opt_del else PathEntry("I", None, word))
        elif b == lb:  # deletion
            word = wa[a]
            assert word is not None
            if not word.is_null:
                path.append(PathEntry("C", word, empty) if word.opt_del else PathEntry("D", word, None))
        else:
            ra, hb = wa[a], wb[b]
            assert ra is not None and hb is not None
            if not (ra.is_null and hb.is_null):
                path.append(PathEntry("C" if _equal(ra, hb) else "S", ra, hb))
        a, b = la, lb
    path.reverse()
    return path
