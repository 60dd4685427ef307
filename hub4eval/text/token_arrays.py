"""Tokens kept as arrays: a text's words as integer ids, spans and flags.

A long text has millions of tokens; :class:`TokenArray` keeps them in numpy
arrays (about 20 bytes a token instead of 140 as objects) and makes a
:class:`~hub4eval.text.tokens.Token` only when one is read. Only the commands
that align texts import this module (and numpy).
"""

from __future__ import annotations

import string
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from itertools import repeat
from operator import attrgetter, is_not, itemgetter

import numpy as np

from hub4eval.text.tokens import _BLANKS, Token, raw_word_tokens, tokenize


class Vocabulary:
    """Words as integer ids, numbered in the order they are first seen; shared by :class:`TokenArray`\\ s."""

    __slots__ = ("ids", "words")

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.words: list[str] = []

    def code(self, word: str) -> int:
        """The id of ``word`` (a new one the first time)."""
        code = self.ids.get(word)
        if code is None:
            code = self.ids[word] = len(self.words)
            self.words.append(word)
        return code


_PARENTHESIZED, _OPTIONAL = 1, 2
_TEXT, _START, _END, _PAREN, _OPT, _FORM = map(
    attrgetter, ("text", "start", "end", "parenthesized", "optional", "form")
)


class TokenArray(Sequence[Token]):
    """Tokens kept as arrays (a word id, a span and two flags each); a :class:`Token` is made when one is read.

    A long text has millions of tokens: as objects they took about 140 bytes
    each, here about 20. Equal to any sequence of the same tokens.
    """

    __slots__ = ("words", "ids", "starts", "ends", "flags", "forms")

    def __init__(
        self,
        words: list[str],
        ids: np.ndarray,
        starts: np.ndarray,
        ends: np.ndarray,
        flags: np.ndarray,
        forms: dict[int, str],
    ) -> None:
        self.words = words  # the vocabulary's words: ``words[ids[i]]`` is token i's text
        self.ids = ids
        self.starts = starts
        self.ends = ends
        self.flags = flags  # 1: parenthesized, 2: optional
        self.forms = forms  # token index -> raw form, where it differs from the text

    @classmethod
    def of(cls, tokens: Sequence[Token], vocabulary: Vocabulary) -> TokenArray:
        """``tokens`` as arrays, their words coded by ``vocabulary`` (in token order)."""
        # attribute getters mapped over the tokens: no Python-level loop per
        # token, and no list of a text's length (of a 10-million-word text a
        # list of codes alone took 360 MB)
        n = len(tokens)
        try:
            codes = np.fromiter(map(vocabulary.ids.__getitem__, map(_TEXT, tokens)), np.int32, n)
        except KeyError:  # words not seen before: numbered in order
            codes = np.fromiter(map(vocabulary.code, map(_TEXT, tokens)), np.int32, n)
        offsets = np.int64 if n and max(map(_END, tokens)) >= 2**31 else np.int32
        flags = np.fromiter(map(_PAREN, tokens), np.uint8, n)
        optional = np.fromiter(map(_OPT, tokens), np.uint8, n)
        if optional.any():
            flags |= optional << 1
        forms: dict[int, str] = {}
        if any(map(is_not, map(_FORM, tokens), repeat(None))):
            forms = {i: f for i, f in enumerate(map(_FORM, tokens)) if f is not None}
        return cls(
            vocabulary.words,
            codes,
            np.fromiter(map(_START, tokens), offsets, n),
            np.fromiter(map(_END, tokens), offsets, n),
            flags,
            forms,
        )

    @classmethod
    def concatenate(cls, parts: Sequence[TokenArray], words: list[str]) -> TokenArray:
        """The tokens of ``parts`` one after the other (all coded with ``words``); one part is not copied."""
        if len(parts) == 1 and parts[0].words is words:
            return parts[0]
        forms: dict[int, str] = {}
        position = 0
        for part in parts:
            forms.update((position + i, form) for i, form in part.forms.items())
            position += len(part)
        big = any(p.starts.dtype == np.int64 for p in parts)
        offsets = np.int64 if big else np.int32
        return cls(
            words,
            np.concatenate([p.ids for p in parts]) if parts else np.empty(0, np.int32),
            np.concatenate([p.starts for p in parts]).astype(offsets, copy=False) if parts else np.empty(0, np.int32),
            np.concatenate([p.ends for p in parts]).astype(offsets, copy=False) if parts else np.empty(0, np.int32),
            np.concatenate([p.flags for p in parts]) if parts else np.empty(0, np.uint8),
            forms,
        )

    def parts(self, sizes: Sequence[int]) -> list[TokenArray]:
        """The inverse of :meth:`concatenate`: consecutive parts of ``sizes`` tokens (views, not copies)."""
        forms = sorted(self.forms.items())  # (by index: each part's forms are one slice of them)
        keys = [index for index, _ in forms]
        parts = []
        start = 0
        for size in sizes:
            stop = start + size
            first, last = bisect_left(keys, start), bisect_left(keys, stop)
            parts.append(self._view(start, stop, {index - start: form for index, form in forms[first:last]}))
            start = stop
        return parts

    def _view(self, start: int, stop: int, forms: dict[int, str]) -> TokenArray:
        """Tokens ``start`` to ``stop`` (views of the arrays), whose forms are ``forms``."""
        return TokenArray(
            self.words,
            self.ids[start:stop],
            self.starts[start:stop],
            self.ends[start:stop],
            self.flags[start:stop],
            forms,
        )

    def __len__(self) -> int:
        return len(self.ids)

    def text(self, index: int) -> str:
        """Token ``index``'s text (no :class:`Token` made)."""
        return self.words[self.ids[index]]

    def texts(self) -> list[str]:
        """Every token's text, in order."""
        words = self.words
        return [words[i] for i in self.ids.tolist()]

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return tuple(self)[index]
            return self._view(start, stop, {i - start: f for i, f in self.forms.items() if start <= i < stop})
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("token index out of range")
        flags = int(self.flags[index])
        return Token(
            self.words[self.ids[index]],
            int(self.starts[index]),
            int(self.ends[index]),
            bool(flags & _PARENTHESIZED),
            bool(flags & _OPTIONAL),
            self.forms.get(index),
        )

    def __iter__(self) -> Iterator[Token]:
        words, forms = self.words, self.forms
        for i, (code, start, end, flags) in enumerate(
            zip(self.ids.tolist(), self.starts.tolist(), self.ends.tolist(), self.flags.tolist(), strict=True)
        ):
            yield Token(words[code], start, end, bool(flags & _PARENTHESIZED), bool(flags & _OPTIONAL), forms.get(i))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"TokenArray({len(self)} tokens)"


def _byte_tables() -> tuple[np.ndarray, np.ndarray]:
    blank = np.zeros(256, dtype=bool)
    blank[[ord(c) for c in _BLANKS]] = True
    other = ~blank  # neither a blank nor an ASCII letter or digit
    other[[ord(c) for c in string.ascii_letters + string.digits]] = False
    return blank, other


_BLANK, _OTHER = _byte_tables()


_CHUNK_CHARS = 1 << 20
"""Spans of a long text are read this many characters at a time (a 40 MB text took 2 GB at once)."""


def tokenize_array(
    text: str,
    spans: Sequence[tuple[int, int]],
    vocabulary: Vocabulary,
    *,
    keep_punctuation: bool = False,
    case_sensitive: bool = False,
) -> TokenArray:
    """:func:`~hub4eval.text.tokens.tokenize` of ``text`` in ``spans``, as arrays coded by ``vocabulary``.

    When the spans hold only ASCII and no parenthesis (the usual ASR output),
    the raw words are found all at once and a word of letters and digits only
    is its lower-cased self, with its span and no flags; no :class:`Token` is
    made for it. The other words (``buni-``, ``U.S.``) are read one by one as
    the tokenizer reads them. Anything else takes the tokenizer.

    A long text (an unsegmented hypothesis) is read in runs of spans of about
    :data:`_CHUNK_CHARS` characters, so that the per-character arrays and the
    word lists of only one run are alive at a time; the result is the same.
    """
    pieces = " ".join(text[start:end] for start, end in spans)
    if not pieces.isascii() or "(" in pieces or ")" in pieces:
        words_of = tokenize(text, spans, keep_punctuation=keep_punctuation, case_sensitive=case_sensitive)
        return TokenArray.of(words_of, vocabulary)
    del pieces
    offsets = np.int64 if len(text) >= 2**31 else np.int32
    ids, starts, ends = [], [], []
    edits: list[tuple[int, int, Sequence[Token]]] = []
    count = 0
    for window, run in _runs(text, spans):
        run_ids, run_starts, run_ends, unusual = _plain_words(text, window, run, vocabulary, case_sensitive)
        ids.append(run_ids)
        starts.append(run_starts.astype(offsets))
        ends.append(run_ends.astype(offsets))
        for i, raw in unusual:  # no parenthesis: the depth stays 0
            new, _ = raw_word_tokens(raw, int(run_starts[i]), 0, keep_punctuation, case_sensitive)
            edits.append((count + i, count + i + 1, new))
        count += len(run_ids)
    tokens = TokenArray(
        vocabulary.words,
        np.concatenate(ids) if len(ids) > 1 else ids[0],
        np.concatenate(starts) if len(starts) > 1 else starts[0],
        np.concatenate(ends) if len(ends) > 1 else ends[0],
        np.zeros(count, np.uint8),
        {},
    )
    del ids, starts, ends
    return splice(tokens, edits, vocabulary)


def _runs(text: str, spans: Sequence[tuple[int, int]]) -> Iterator[tuple[tuple[int, int], Sequence[tuple[int, int]]]]:
    """([start, end) of the text, its spans) per run of about :data:`_CHUNK_CHARS` characters of spans.

    A text is cut only between two spans with a character between them (no
    word crosses the cut), and only when its spans are in order; otherwise,
    and when there is nothing to cut, it is one run over the whole text.
    """
    bounds = np.array(spans, dtype=np.int64).reshape(-1, 2)
    if len(bounds) < 2 or int(bounds[-1, 1] - bounds[0, 0]) <= _CHUNK_CHARS:
        yield (0, len(text)), spans
        return
    ordered = bool((bounds[:, 0] <= bounds[:, 1]).all() and (bounds[:-1, 1] < bounds[1:, 0]).all())
    if not ordered or bounds[0, 0] < 0 or bounds[-1, 1] > len(text):
        yield (0, len(text)), spans
        return
    first = 0
    for k in range(1, len(spans)):
        if spans[k][1] - spans[first][0] > _CHUNK_CHARS:
            yield (spans[first][0], spans[k - 1][1]), spans[first:k]
            first = k
    yield (spans[first][0], spans[-1][1]), spans[first:]


def _plain_words(
    text: str,
    window: tuple[int, int],
    spans: Sequence[tuple[int, int]],
    vocabulary: Vocabulary,
    case_sensitive: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[int, str]]]:
    """The words of ``spans`` (all inside ``window``): ids, text offsets, and (index, raw word) of the unusual ones.

    Words are coded by ``vocabulary`` in the order they first appear; an
    unusual word (not only letters and digits) is coded as it stands here and
    replaced by its tokens afterwards.
    """
    lo, hi = window
    size = hi - lo
    bounds = np.array(spans, dtype=np.int64).reshape(-1, 2) - lo
    inside = np.bincount(bounds[:, 0], minlength=size + 1) - np.bincount(bounds[:, 1], minlength=size + 1)
    outside = np.cumsum(inside[:size]) == 0
    del inside
    part = text[lo:hi]
    if part.isascii():
        codes = np.frombuffer(part.encode("ascii"), np.uint8)
    else:  # characters outside the spans are blanks here
        codes = np.full(size, 32, np.uint8)
        for start, end in bounds.tolist():
            codes[start:end] = np.frombuffer(part[start:end].encode("ascii"), np.uint8)
    del part
    blank = _BLANK[codes] | outside
    edges = np.flatnonzero(np.diff(np.concatenate(([True], blank, [True])).view(np.int8)))
    del blank
    starts, ends = edges[0::2], edges[1::2]
    pieces = " ".join(text[start:end] for start, end in spans)
    raw_words = pieces.split()
    words = raw_words if case_sensitive else pieces.lower().split()
    del pieces
    n = len(words)
    ids = vocabulary.ids
    try:
        word_ids = np.fromiter(map(ids.__getitem__, words), np.int32, n)
    except KeyError:  # words not seen before: numbered in the order they first appear
        for word in dict.fromkeys(words):
            if word not in ids:
                vocabulary.code(word)
        word_ids = np.fromiter(map(ids.__getitem__, words), np.int32, n)
    del words
    other = np.concatenate(([0], np.cumsum(_OTHER[codes] & ~outside)))
    unusual = [(i, raw_words[i]) for i in np.flatnonzero(other[ends] > other[starts]).tolist()]
    return word_ids, starts + lo, ends + lo, unusual


def splice(tokens: TokenArray, edits: Sequence[tuple[int, int, Sequence[Token]]], vocabulary: Vocabulary) -> TokenArray:
    """``tokens`` with ``tokens[start:end]`` replaced by the given tokens, for each (start, end, tokens) of ``edits``.

    ``edits`` are in order and do not overlap; the new tokens' words are
    coded by ``vocabulary`` (the one ``tokens`` is coded by), in the order of
    the edits. The new tokens of every edit are made arrays at once and each
    kept or new token is put in its place by index arithmetic: a text of
    half a million words has tens of thousands of edits (fragments, numbers,
    letter runs), and a slice and a small array per edit cost most of its
    tokenizing.
    """
    if not edits:
        return tokens
    count = len(edits)
    bounds = np.fromiter((b for start, end, _ in edits for b in (start, end)), np.int64, 2 * count).reshape(count, 2)
    lengths = np.fromiter(map(len, map(itemgetter(2), edits)), np.int64, count)
    return replace_runs(
        tokens, bounds, TokenArray.of([token for _, _, made in edits for token in made], vocabulary), lengths
    )


def replace_runs(tokens: TokenArray, bounds: np.ndarray, new: TokenArray, lengths: np.ndarray) -> TokenArray:
    """``tokens`` with each run ``tokens[start:end]`` (the rows of ``bounds``, in order, not overlapping)
    replaced by its ``lengths[k]`` tokens of ``new`` (``new`` holds those of every run, one after the other)."""
    # each run moves the tokens after it by its new tokens less the ones it replaces
    moved = np.concatenate(([0], np.cumsum(lengths - (bounds[:, 1] - bounds[:, 0]))))
    n = len(tokens)
    replaced = np.cumsum(
        np.bincount(bounds[:, 0], minlength=n + 1)[:n] - np.bincount(bounds[:, 1], minlength=n + 1)[:n]
    )
    kept = np.flatnonzero(replaced == 0)
    # a kept token follows every run that starts at or before it (one that starts at it inserts)
    kept_at = kept + moved[np.searchsorted(bounds[:, 0], kept, side="right")]
    firsts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    new_at = np.repeat(bounds[:, 0] + moved[:-1], lengths) + (np.arange(len(new)) - firsts)
    size = n + int(moved[-1])
    big = (len(kept) and tokens.starts.dtype == np.int64) or new.starts.dtype == np.int64
    offsets = np.int64 if big else np.int32

    def placed(old_values: np.ndarray, new_values: np.ndarray, dtype: type) -> np.ndarray:
        values: np.ndarray = np.empty(size, dtype)
        values[kept_at] = old_values[kept]
        values[new_at] = new_values
        return values

    ids = placed(tokens.ids, new.ids, np.int32)
    starts = placed(tokens.starts, new.starts, offsets)
    ends = placed(tokens.ends, new.ends, offsets)
    flags = placed(tokens.flags, new.flags, np.uint8)
    forms: dict[int, str] = {}
    if tokens.forms or new.forms:
        where = [(int(new_at[i]), form) for i, form in new.forms.items()]
        if tokens.forms:
            at = np.full(n, -1, np.int64)
            at[kept] = kept_at
            where += [(int(at[i]), form) for i, form in tokens.forms.items() if at[i] >= 0]
        forms = dict(sorted(where))
    return TokenArray(new.words, ids, starts, ends, flags, forms)
