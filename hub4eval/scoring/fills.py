"""§3 and §7.3 applied to fills: what a text fill looks like when compared.

For every text fill this computes, once, the normalized content strings
(clean comparison), their tokens (noisy comparison, after the GLM) with the
words the noisy comparison reads of them (:class:`~hub4eval.scoring.noisy.NoisyWords`,
once per distinct string), and the extents after premodifier stripping and, when the texts differ, after
mapping characters to alignment columns.

A score with noisy content normalizes the strings of both templette files all
at once first (:meth:`FillPreparer.normalize`, word by word over arrays of all
their words where that is the same: :mod:`hub4eval.scoring.word_by_word`),
and works out their word keys with them, as numpy columns that the fill tables read by
row (:class:`WordColumns`, :meth:`FillPreparer.word_columns`); the others, one by one, in full.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import chain, repeat
from operator import itemgetter
from typing import Any, Protocol, TypeVar, overload

from hub4eval.config import ScoreConfig
from hub4eval.model import Extent, TextFill
from hub4eval.scoring.noisy import NoisyWords, filler_set
from hub4eval.scoring.word_by_word import WordByWord, numbers_of, run_tuples
from hub4eval.text.normalize import (
    collapse_whitespace,
    strip_premodifiers,
    whiteout_punctuation,
    whiteout_tags,
)
from hub4eval.text.spoken import join_letters, spoken_forms
from hub4eval.text.tokens import Token, tokenize
from hub4eval.util.records import Record, compare_without


class ExtentMapper(Protocol):
    """Maps a character extent of a document to alignment columns (§7.3)."""

    def __call__(self, docid: str | None, extent: Extent) -> Extent | None: ...


@compare_without("noisy", "number")  # equal strings are equal however far their noisy reading was made
class PreparedString(Record, frozen=True):
    """One content string (maximal or minimal) ready for comparison."""

    text: str  # §3-normalized, whitespace folded
    tokens: tuple[Token, ...]  # the same after tokenization and the GLM (noisy comparison only)
    extent: Extent | None  # after premodifier shift and §7 mapping; None: matches nothing
    # the tokens as the noisy comparison reads them (made with the tokens; None without)
    noisy: NoisyWords | None = None
    # the number of ``text`` among the strings of the preparer (FillPreparer.numbers), which
    # the mapping compares instead of the text; -1: not numbered (made outside a preparer)
    number: int = -1

    def noisy_words(self, fillers: frozenset[str]) -> NoisyWords:
        """The tokens as the noisy comparison reads them with ``fillers``: those
        read once with the string when they were read with the same fillers."""
        noisy = self.noisy
        if noisy is not None and (noisy.fillers is fillers or noisy.fillers == fillers):
            return noisy
        return NoisyWords.of(self.tokens, fillers)


class PreparedFill(Record, frozen=True):
    """A text fill as the comparison sees it."""

    fill: TextFill
    maximal: PreparedString
    minimals: tuple[PreparedString, ...]
    has_extent: bool  # the fill has an extent part (§6: extent point exists)
    # a reference fill's maximal extent for the enclosure test, widened over the
    # insertion columns at its edges when the texts differ (§7.3); None: the maximal extent
    enclosure: Extent | None = None

    @property
    def enclosing(self) -> Extent | None:
        """The extent a hypothesis extent must lie in (the maximal one, or its widening)."""
        return self.maximal.extent if self.enclosure is None else self.enclosure


def _shifted(extent: Extent, removed: int) -> Extent:
    start = min(extent.start + removed, extent.end)
    return Extent(start, extent.end)


_T = TypeVar("_T")

_STRETCH = 8192  # the most strings FillPreparer.normalize normalizes all at once
_Normalized = tuple[str, int, tuple[Token, ...], "NoisyWords | None", int]
"""A content string normalized: see :meth:`FillPreparer._normalize`."""


def _merged(made: list[_T], left: list[int], others: list[_T]) -> list[_T]:
    """``made`` with ``others`` put in, in order, at the places ``left`` (increasing) of the whole."""
    out: list[_T] = []
    k = position = 0  # out[:position] is made[:k] and others before it
    for gap, other in zip(left, others, strict=True):
        j = k + gap - position
        out.extend(made[k:j])
        out.append(other)
        k, position = j, gap + 1
    out.extend(made[k:])
    return out


def _without(items: Sequence[_T], left: list[int]) -> list[_T]:
    """``items`` less those at the places ``left`` (increasing): what :func:`_merged` puts them into."""
    out: list[_T] = []
    start = 0
    for gap in left:
        out.extend(items[start:gap])
        start = gap + 1
    out.extend(items[start:])
    return out


class _ReadThrough(dict[str, _Normalized]):
    """A memo of normalized strings that reads another one where it has no entry (and never writes it)."""

    __slots__ = ("under",)

    def __init__(self, under: dict[str, _Normalized]) -> None:
        super().__init__()
        self.under = under

    @overload
    def get(self, key: str, default: None = None, /) -> _Normalized | None: ...

    @overload
    def get(self, key: str, default: _Normalized, /) -> _Normalized: ...

    @overload
    def get(self, key: str, default: _T, /) -> _Normalized | _T: ...

    def get(self, key: str, default: Any = None, /) -> Any:
        found = dict.get(self, key)
        return self.under.get(key, default) if found is None else found

    def get_all(self, keys: Iterable[str]) -> list[_Normalized | None]:
        """:meth:`get` of each of ``keys``, without a Python call a key (a normalization is a
        non-empty tuple: found here, it is never false)."""
        own, under = dict.get.__get__(self), self.under.get
        return [own(key) or under(key) for key in keys]


class WordColumns:
    """The word keys of the strings a preparer normalized many at once (:meth:`FillPreparer.normalize`),
    as numpy arrays, a row per string (:attr:`rows`: its row; a string with no word or an optional
    one has none: its keys are a record, as one by one): ``keys[offsets[r] : offsets[r + 1]]`` the
    numbers of row ``r``'s distinct words in order, ``hyp_words[r]`` its hypothesis word and
    ``phrases[r]`` the phrase of its words, which are also its kept words (see
    :meth:`FillPreparer.word_keys_of`). The fill tables read them as arrays
    (:meth:`FillPreparer.word_columns`), without a record per string."""

    __slots__ = ("rows", "offsets", "keys", "hyp_words", "phrases", "_entries")

    def __init__(self) -> None:
        self.rows: dict[str, int] = {}
        self.offsets: Any = None  # (numpy arrays, made with the first rows)
        self.keys: Any = None
        self.hyp_words: Any = None
        self.phrases: Any = None
        self._entries: list[tuple[tuple[int, ...], int, int, int]] | None = None  # see entries

    def add(self, strings: list[str], odd: list[int], offsets: Any, keys: Any, hyp_words: Any, phrases: Any) -> None:
        """Rows for ``strings`` (those at the places ``odd`` left out), ``offsets`` (from 0) into ``keys``."""
        import numpy as np

        base = 0 if self.hyp_words is None else len(self.hyp_words)
        if self.hyp_words is None:
            self.offsets, self.keys, self.hyp_words, self.phrases = offsets, keys, hyp_words, phrases
        else:
            self.offsets = np.concatenate((self.offsets, offsets[1:] + self.offsets[-1]))
            self.keys = np.concatenate((self.keys, keys))
            self.hyp_words = np.concatenate((self.hyp_words, hyp_words))
            self.phrases = np.concatenate((self.phrases, phrases))
        self._entries = None
        rows = range(base, base + len(strings))
        if odd:  # (slices of the strings and their rows, without a Python step per row)
            strings, rows = _without(strings, odd), _without(rows, odd)  # type: ignore[assignment]
        self.rows.update(zip(strings, rows, strict=True))

    def entry(self, row: int) -> tuple[tuple[int, ...], int, int, int]:
        """The record of a row, as :meth:`FillPreparer.word_keys_of` gives it."""
        keys = tuple(self.keys[self.offsets[row] : self.offsets[row + 1]].tolist())
        phrase = int(self.phrases[row])
        return keys, int(self.hyp_words[row]), phrase, phrase

    def entries(self) -> list[tuple[tuple[int, ...], int, int, int]]:
        """The record of every row, made once (for a caller that reads records)."""
        if self._entries is None:
            import numpy as np

            sizes = np.diff(self.offsets)
            phrases = self.phrases.tolist()
            self._entries = list(
                zip(
                    run_tuples(np, self.keys, self.offsets[:-1], sizes),
                    self.hyp_words.tolist(),
                    phrases,
                    phrases,
                    strict=True,
                )
            )
        return self._entries


def row_places(starts: Any, lengths: Any) -> tuple[Any, Any]:
    """Where rows of ``lengths`` items starting at ``starts`` (numpy arrays) of a flat array
    go when they are taken side by side: (where each row begins among them, with the end of
    the last; each taken item's place in the flat array)."""
    import numpy as np

    bounds = np.zeros(len(lengths) + 1, np.int64)
    np.cumsum(lengths, out=bounds[1:])
    return bounds, np.repeat(starts - bounds[:-1], lengths) + np.arange(int(bounds[-1]), dtype=np.int64)


def entry_columns(entries: Sequence[tuple[tuple[int, ...], int, int, int]], which: int) -> Any:
    """Of the entries of :meth:`FillPreparer.word_keys_of` (of each string: its word keys, its
    hypothesis word, its words' phrase as a reference's, its kept words' phrase), as arrays:
    ``which`` 0, (where each string's keys begin in the next array, those keys); 2, 3, 4: the
    hypothesis words, the phrases, the kept phrases."""
    import numpy as np

    n = len(entries)
    if which:
        return np.fromiter(map(itemgetter(which - 1), entries), dtype=np.int64, count=n)
    keys = list(map(itemgetter(0), entries))
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, keys), dtype=np.int64, count=n), out=offsets[1:])
    return offsets, np.fromiter(chain.from_iterable(keys), dtype=np.int64, count=int(offsets[-1]))


class FillPreparer:
    """Prepares text fills of one side (reference or hypothesis).

    Each distinct content string is normalized once (they recur across
    documents); a fill itself is prepared each time :meth:`prepare` is
    called (the mapping asks once per fill).

    Args:
        config: the scoring options.
        map_extent: character extents -> column extents when texts differ;
            None when raw offsets are compared.
        glm_apply: token sequence -> token sequence (the §8 mapping), or None.
        reference: reference fills have minimal strings; hypothesis fills
            use only their first extent.
        unsegmented: hypothesis offsets count from the start of the file, so
            the mapper gets ``None`` as the document.
        tokens: compute tokens (needed by noisy content comparison only).
        widen: a reference fill's column extent -> the extent used for the
            enclosure test (boundary insertions, §7.3); None: the extent itself.
    """

    def __init__(
        self,
        config: ScoreConfig,
        *,
        map_extent: ExtentMapper | None = None,
        glm_apply: Callable[[Sequence[Token]], Sequence[Token]] | None = None,
        reference: bool = True,
        unsegmented: bool = False,
        tokens: bool = True,
        widen: ExtentMapper | None = None,
    ) -> None:
        self.config = config
        self.widen = widen
        self.map_extent = map_extent
        self.glm_apply = glm_apply
        self.reference = reference
        self.unsegmented = unsegmented
        self.tokens = tokens
        self._texts: dict[str, _Normalized] = {}
        self.numbers: dict[str, int] = {}  # a number for each normalized text, in order of first sight
        # normalizes most strings from their words worked out once each (set by :meth:`by_words`)
        self.by_word: WordByWord | None = None
        self._batch: WordByWord | None = None  # normalizes many strings at once, and by_word's (None: cannot)
        self._word_by_word_made = False
        self.words: dict[str, int] = {}  # a number for each word of a noisy key (in no particular order: only compared)
        self.phrases: dict[tuple[str, ...], int] = {}  # a number for each sequence of words: see word_keys
        self._word_keys: dict[str, tuple[tuple[int, ...], int, int, int]] = {}  # see word_keys_of
        self._word_columns = WordColumns()  # those of strings normalized all at once: see word_columns
        self._key_fillers = filler_set(config.fillers)  # those the remembered word keys are read with

    def share_texts(self, other: FillPreparer) -> None:
        """Remember normalized strings in ``other``'s memo when both normalize alike.

        Normalizing depends only on the options, the GLM and whether tokens are
        made, not on the side or the extents; a hypothesis mostly repeats the
        reference's strings, so one memo normalizes each of them once. The
        numbers of the normalized texts are always shared: equal texts, one number.
        """
        self.numbers = other.numbers
        self.words = other.words
        self.phrases = other.phrases
        if self.normalizes_like(other):
            self._texts = other._texts
            self._word_keys = other._word_keys
            self._word_columns = other._word_columns

    def read_texts(self, other: FillPreparer) -> None:
        """Read ``other``'s normalized strings too when both normalize alike, but remember
        new ones here only (until :meth:`keep_texts` gives some of them to ``other``): the
        projection's judge normalizes many candidate strings, of which few are kept. The
        numbers of the normalized texts are shared, as by :meth:`share_texts`."""
        self.numbers = other.numbers
        self.words = other.words
        self.phrases = other.phrases
        if self.normalizes_like(other):
            self._texts = _ReadThrough(other._texts)

    def keep_texts(self, other: FillPreparer, strings: Iterable[str]) -> None:
        """Give ``other``'s memo the normalizations of ``strings`` that were made here."""
        mine, theirs = self._texts, other._texts
        if not mine:  # nothing normalized here (e.g. the judge ran in a child): nothing to read
            return
        for raw in strings:
            found = dict.get(mine, raw)
            if found is not None:
                theirs.setdefault(raw, found)

    def kept_by(self, other: FillPreparer) -> tuple[dict[str, _Normalized], Callable[[str, _Normalized], _Normalized]]:
        """:meth:`keep_texts` a string at a time, for a caller that walks the strings for more:
        (the normalizations made here, ``other``'s memo's ``setdefault``). A string ``raw``
        normalized here is ``dict.get(mine, raw)`` (not None), given ``other``'s memo by
        ``setdefault(raw, found)``, which returns the one ``other`` then holds."""
        return self._texts, other._texts.setdefault

    def keeper(self, other: FillPreparer) -> Callable[[str], _Normalized | None]:
        """:meth:`kept_by` as one call a string: ``keep(raw)`` gives ``other``'s memo the
        normalization of ``raw`` made here and returns the one ``other`` then holds (None:
        ``raw`` was not normalized here)."""
        mine, setdefault = self.kept_by(other)
        get = dict.get

        def keep(raw: str) -> _Normalized | None:
            found = get(mine, raw)
            return None if found is None else setdefault(raw, found)

        return keep

    def normalize(self, strings: Iterable[str]) -> None:
        """Normalize these content strings now, each once (remembered: :meth:`prepare` finds them
        made), e.g. while the texts are still being aligned elsewhere, or before the mappings.

        With tokens (noisy content), many at once (:meth:`WordByWord.normalize_many`, a stretch
        of :data:`_STRETCH` strings at a time) where that is the same, the others one by one, in
        order: the texts are numbered as one by one. Their word keys (:meth:`word_keys_of`) are worked out with
        them (their words and phrases numbered in no particular order: numbers that are only
        ever compared with each other)."""
        texts = self._texts
        if not self.tokens:
            normalize = self._normalize
            for raw in strings:
                if texts.get(raw) is None:
                    normalize(raw)
            return
        unique = dict.fromkeys(strings)
        # (a memo that reads another one through is empty only in appearance)
        fresh = list(unique) if type(texts) is dict and not texts else [raw for raw in unique if texts.get(raw) is None]
        batch = self._word_by_word()
        if batch is None or not fresh:
            for raw in fresh:
                self._normalize(raw)
            return
        # A stretch at a time: the arrays and lists normalize_many works with take about as much
        # memory again as what it makes, and all the templettes' strings at once (a million words:
        # 40,000) made them the peak of a score's memory. Made in order, stretch after stretch,
        # the texts are numbered as all at once.
        for at in range(0, len(fresh), _STRETCH):
            self._normalize_many(batch, fresh[at : at + _STRETCH])

    def _normalize_many(self, batch: WordByWord, fresh: list[str]) -> None:
        """:meth:`normalize` of ``fresh``, strings not normalized yet, with ``batch``."""
        texts = self._texts
        left, (folded, removed, tokens, noisy, odd, numbered) = batch.normalize_many(fresh, self.words)
        made, made_noisy = fresh, noisy
        if left:  # not plain words: word by word when that is the same, else in full (numbered below)
            others: list[tuple[str, int, tuple[Token, ...], NoisyWords]] = []
            for raw in map(fresh.__getitem__, left):
                found = batch.normalize(raw)
                if found is None:
                    normal = self._normalize(raw, False)
                    assert normal[3] is not None  # (with tokens)
                    found = (normal[0], normal[1], normal[2], normal[3])
                others.append(found)
            made = _without(fresh, left)  # the strings made all at once
            folded = _merged(folded, left, [other[0] for other in others])
            removed = _merged(removed, left, [other[1] for other in others])
            tokens = _merged(tokens, left, [other[2] for other in others])
            noisy = _merged(noisy, left, [other[3] for other in others])
        # the texts numbered in order of first sight, as one by one
        text_numbers = numbers_of(self.numbers, folded)
        texts.update(zip(fresh, zip(folded, removed, tokens, noisy, text_numbers, strict=True), strict=True))
        # their word keys too, now that their words are at hand (those made all at once, from arrays)
        assert numbered is not None  # (asked for with the words)
        self._word_entries(made, made_noisy, odd, numbered)
        fillers = self._key_fillers
        for raw in map(fresh.__getitem__, left):
            self._word_entry(raw, fillers)

    def _word_by_word(self) -> WordByWord | None:
        """The preparer's one :class:`WordByWord` (made when first asked; None: its GLM cannot be read)."""
        if not self._word_by_word_made:
            self._word_by_word_made, self._batch = True, WordByWord.of(self.config, self.glm_apply)
        return self._batch

    def by_words(self) -> None:
        """Normalize from now on the strings that normalize word by word from their words
        worked out once each (:mod:`hub4eval.scoring.word_by_word`): the same result, for a
        preparer that normalizes many strings made of the same words (the projection's judge)."""
        if self.tokens and self.by_word is None:
            self.by_word = self._word_by_word()

    def normalizes_like(self, other: FillPreparer) -> bool:
        """Whether a content string normalizes to the same text here as in ``other``."""
        return other.config == self.config and other.glm_apply is self.glm_apply and other.tokens == self.tokens

    @property
    def maps_extents(self) -> bool:
        """Whether an extent is changed by more than the premodifiers removed before it
        (mapped to alignment columns, or a reference's enclosure widened): when not, the
        compared extents of a fill can be worked out without preparing it (see
        :func:`hub4eval.scoring.pairs._fills_by_slot`)."""
        return self.map_extent is not None or (self.reference and self.widen is not None)

    def lookups(self) -> tuple[Callable[[str], _Normalized | None], Callable[[str], _Normalized]]:
        """The memo's ``get`` and :meth:`_normalize`: ``get(raw) or normalize(raw)`` is a
        content string normalized (text, characters of premodifiers removed, tokens, noisy
        words, number of the text), as :meth:`prepare` reads it, for a caller that reads only
        a fill's text number and extents in a loop over a million fills."""
        return self._texts.get, self._normalize

    def known(self, raws: Iterable[str]) -> list[_Normalized | None]:
        """:meth:`lookups`' ``get`` of each of ``raws`` (None: not normalized yet), all at once:
        the projection's judge reads its tens of thousands of first candidates so, through a
        memo that reads another (:meth:`read_texts`)."""
        texts = self._texts
        return texts.get_all(raws) if type(texts) is _ReadThrough else list(map(texts.get, raws))

    def normalized(self, raw: str, remember: bool = True) -> _Normalized:
        """A content string normalized (text, characters of premodifiers removed, tokens, noisy
        words, number of the text): the memo's, else made (and, when ``remember``, remembered:
        see :meth:`_normalize`). :meth:`prepare` writes it out (a million fills are prepared)."""
        return self._texts.get(raw) or self._normalize(raw, remember)

    def noisy_words(self, raw: str, fillers: frozenset[str]) -> NoisyWords:
        """The words the noisy comparison reads of a content string with ``fillers``
        (:meth:`PreparedString.noisy_words` of the string prepared here), without preparing a fill."""
        normalized = self.normalized(raw)
        noisy = normalized[3]
        if noisy is not None and (noisy.fillers is fillers or noisy.fillers == fillers):
            return noisy
        return NoisyWords.of(normalized[2], fillers)

    def word_keys(self, raw: str, fillers: frozenset[str]) -> tuple[tuple[int, ...], int]:
        """The noisy content keys of a content string as numbers of :attr:`words`: those of a
        reference fill whose one minimal string is this string, and that of a hypothesis fill
        (:func:`~hub4eval.scoring.candidates.reference_content_keys` and
        :func:`~hub4eval.scoring.candidates.hypothesis_content_key` less the slot), worked out
        once per distinct string (the words of a million fills are a few thousand)."""
        keys, hyp_word, _, _ = self._word_entry(raw, fillers)
        return keys, hyp_word

    def word_keys_of(
        self, strings: Iterable[str], fillers: frozenset[str]
    ) -> list[tuple[tuple[int, ...], int, int, int]]:
        """Of each string, what is worked out with its word keys: (its :meth:`word_keys`, then
        the number in :attr:`phrases` of its words when it is a usual reference fill's string
        none of whose words is optional (-1: some are), then that of the words a hypothesis
        fill of it keeps). A usual reference fill of one string and a hypothesis fill of
        another are noisy COR exactly when those two numbers are equal
        (:func:`~hub4eval.scoring.noisy.kept_correct`). The remembered ones are read at once
        (as records: :meth:`word_columns` reads them as arrays)."""
        entry = self._word_entry
        if fillers is not self._key_fillers:
            return [entry(raw, fillers) for raw in strings]
        if not isinstance(strings, list):
            strings = list(strings)
        known = self._word_keys
        try:
            return list(map(known.__getitem__, strings))
        except KeyError:
            pass
        columns = self._word_columns
        if columns.rows:  # (strings normalized together have theirs as columns: see normalize)
            rows, entries = columns.rows, columns.entries()
            return [entries[row] if (row := rows.get(raw)) is not None else entry(raw, fillers) for raw in strings]
        return [entry(raw, fillers) for raw in strings]

    def word_columns(self, strings: Sequence[str], fillers: frozenset[str], which: int, rows: Any = None) -> Any:
        """Column ``which`` of :meth:`word_keys_of` ``(strings, fillers)`` as numpy arrays: 0, (where
        each string's word keys begin in the next array, with the end of the last; those keys);
        2, 3, 4: the hypothesis words, the phrases as a reference's, the kept phrases. Read from
        the columns of the strings normalized all at once, without a record per string; ``rows``:
        :meth:`word_rows` of the strings, for a caller that reads several columns of them."""
        import numpy as np

        if rows is None:
            rows = self.word_rows(strings, fillers)
        if rows is False:
            return entry_columns(self.word_keys_of(strings, fillers), which)
        columns, at, missing, entries = rows
        if which:
            found = (columns.hyp_words if which == 2 else columns.phrases)[at]
            if entries:
                found[missing] = [entry[which - 1] for entry in entries]
            return found
        offsets = columns.offsets
        starts = offsets[at]
        lengths = offsets[at + 1] - starts
        if entries:
            lengths[missing] = [len(entry[0]) for entry in entries]
        bounds, places = row_places(starts, lengths)  # (of a missing string: none)
        total = int(bounds[-1])
        if not entries:
            return bounds, columns.keys[places]
        found = np.repeat(at >= 0, lengths)
        keys = np.zeros(total, np.int64)
        keys[found] = columns.keys[places[found]]
        keys[~found] = np.fromiter(
            chain.from_iterable(entry[0] for entry in entries), np.int64, total - int(found.sum())
        )
        return bounds, keys

    def word_rows(self, strings: Sequence[str], fillers: frozenset[str]) -> Any:
        """Where :meth:`word_columns` reads each of ``strings``: (the columns themselves, so that
        rows kept by a caller always index the columns they were found in; its row in them, -1:
        none; the places of those with none; their records, :meth:`word_keys_of`), or False when
        it reads none of them from the columns."""
        import numpy as np

        columns = self._word_columns
        if fillers is not self._key_fillers or not columns.rows:
            return False
        at = np.fromiter(map(columns.rows.get, strings, repeat(-1)), np.int64, len(strings))
        missing = np.flatnonzero(at < 0)
        entries = list(map(self._word_entry, map(strings.__getitem__, missing.tolist()), repeat(fillers)))
        return columns, at, missing, entries

    def _word_entries(self, fresh: list[str], readings: list[NoisyWords], odd: list[int], numbered: Any) -> None:
        """:meth:`_word_entry` of each of these strings, none remembered yet, normalized all at once
        (:meth:`WordByWord.normalize_many`, which gave their noisy words ``readings``, the places
        ``odd`` of those with no word or an optional one, and ``numbered``: the number in
        :attr:`words` of each of their words, side by side, its length and where each string's
        begin), worked out for all at once into :class:`WordColumns` (the odd ones one by one,
        as records). Most strings have no optional word: all their words are kept, they are the
        keys (less repeats) and the hypothesis word is among them; their words' phrase is their
        kept words' too."""
        import numpy as np

        numbers, lengths, bounds = numbered
        count = len(fresh)
        sizes = np.diff(bounds)
        starts = bounds[:-1]
        owner = np.repeat(np.arange(count), sizes)
        # the hypothesis word: the longest, the first of them
        hyp_words = np.zeros(count, np.int64)
        if len(numbers):
            nonempty = sizes > 0
            longest = np.zeros(count, np.int64)
            longest[nonempty] = np.maximum.reduceat(lengths, starts[nonempty])
            firsts = np.flatnonzero(lengths == longest[owner])
            firsts = firsts[np.concatenate(([True], owner[firsts][1:] != owner[firsts][:-1]))]
            hyp_words[owner[firsts]] = numbers[firsts]
        # the keys: the distinct words of each string, in order (most strings repeat none)
        keys, offsets = numbers, bounds
        if len(numbers):
            width = len(self.words)  # (every number is below it)
            pairs = np.sort(owner * width + numbers)  # (a string's words side by side)
            again = pairs[1:] == pairs[:-1]
            if again.any():
                keep = np.ones(len(numbers), bool)
                listed = numbers.tolist()
                for k in np.unique(pairs[1:][again] // width).tolist():
                    seen: set[int] = set()
                    for at in range(int(bounds[k]), int(bounds[k + 1])):
                        if listed[at] in seen:
                            keep[at] = False
                        seen.add(listed[at])
                keys = numbers[keep]
                offsets = np.zeros(count + 1, np.int64)
                np.cumsum(np.bincount(owner[keep], minlength=count), out=offsets[1:])
        # the phrases: of a string's words (those of a string with an optional word: see below)
        said_phrases = np.fromiter(numbers_of(self.phrases, [noisy.words for noisy in readings]), np.int64, count)
        self._word_columns.add(fresh, odd, offsets, keys, hyp_words, said_phrases)
        remembered = self._word_keys
        entry = self._entry
        for k in odd:  # some words optional or none at all: as one by one
            remembered[fresh[k]] = entry(readings[k])

    def _word_entry(self, raw: str, fillers: frozenset[str]) -> tuple[tuple[int, ...], int, int, int]:
        """:meth:`word_keys_of` of one string, remembered (with the usual fillers)."""
        found = self._word_keys.get(raw)
        if found is not None and fillers is self._key_fillers:
            return found
        if fillers is self._key_fillers:
            row = self._word_columns.rows.get(raw)
            if row is not None:
                return self._word_columns.entry(row)
        noisy = self.noisy_words(raw, fillers)
        found = self._entry(noisy)
        if fillers is self._key_fillers:
            self._word_keys[raw] = found
        return found

    def _entry(self, noisy: NoisyWords) -> tuple[tuple[int, ...], int, int, int]:
        """:meth:`word_keys_of`'s entry of a string whose noisy words are ``noisy`` (new words and
        phrases numbered)."""
        words = self.words
        keys = dict.fromkeys(noisy.words)
        if all(noisy.optional):  # an empty hypothesis can be correct (§6)
            keys.setdefault("")
        kept = noisy.kept
        hyp_word = (kept[0] if len(kept) == 1 else max(kept, key=len)) if kept else ""
        phrases = self.phrases
        return (
            tuple([words.setdefault(word, len(words)) for word in keys]),
            words.setdefault(hyp_word, len(words)),
            -1 if True in noisy.optional else phrases.setdefault(noisy.words, len(phrases)),
            phrases.setdefault(kept, len(phrases)),
        )

    def _normalize(self, raw: str, remember: bool = True) -> _Normalized:
        """(§3-normalized text, characters of premodifiers removed, tokens, the tokens
        as the noisy comparison reads them, the text's number) of a content string,
        remembered: they depend on the string only, so :meth:`_string` asks once per
        distinct string. Not ``remember``-ed, the string is not numbered (-1) unless
        its text was before."""
        cfg = self.config
        by_word = self.by_word
        made = None if by_word is None else by_word.normalize(raw)
        if made is not None:  # the same, from its words worked out once each
            return self._numbered(raw, *made, remember)
        whited = whiteout_tags(raw, cfg.non_extractable) if "<" in raw else raw
        text = whited if cfg.keep_punctuation else whiteout_punctuation(whited)
        stripped, removed = strip_premodifiers(text, cfg.premodifiers)
        # Tokens come from the tag-whited, premodifier-stripped string as written:
        # the tokenizer keeps fragment hyphens and parentheses that whiteout drops.
        # The premodifier count ends where the next word starts after the whiteout,
        # which is past its leading punctuation (`the (um)`, `an %uh`): the raw word
        # starts back at that punctuation, so that its status is read from all of it.
        tokens: tuple[Token, ...] = ()
        noisy = None
        if self.tokens:
            begin = removed
            while begin > 0 and text[begin - 1].isspace() and not whited[begin - 1].isspace():
                begin -= 1
            piece = whited[begin:]
            tokens = tokenize(piece, keep_punctuation=cfg.keep_punctuation, case_sensitive=cfg.case_sensitive)
            if cfg.spoken_forms != "none":  # §8.2, before the GLM as for documents
                tokens = spoken_forms(tokens, piece, lang=cfg.spoken_forms, case_sensitive=cfg.case_sensitive)
            if self.glm_apply is not None:
                tokens = tuple(self.glm_apply(tokens))
            if cfg.spoken_forms != "none":  # letters spelled out, after the GLM as for documents
                tokens = join_letters(tokens, piece)
            noisy = NoisyWords.of(tokens, filler_set(cfg.fillers))
        folded = collapse_whitespace(stripped)
        if not cfg.case_sensitive:
            folded = folded.lower()
        return self._numbered(raw, folded, removed, tokens, noisy, remember)

    def _numbered(
        self, raw: str, folded: str, removed: int, tokens: tuple[Token, ...], noisy: NoisyWords | None, remember: bool
    ) -> _Normalized:
        """:meth:`_normalize`'s result, its text numbered and remembered (when ``remember``)."""
        numbers = self.numbers
        number = numbers.get(folded)
        if not remember:
            return (folded, removed, tokens, noisy, -1 if number is None else number)
        if number is None:
            number = numbers[folded] = len(numbers)
        cached = self._texts[raw] = (folded, removed, tokens, noisy, number)
        return cached

    def _string(self, raw: str, extent: Extent | None, docid: str) -> PreparedString:
        folded, removed, tokens, noisy, number = self.normalized(raw)
        if extent is not None:
            if removed:
                extent = _shifted(extent, removed)
            if self.map_extent is not None:
                extent = self.map_extent(None if self.unsegmented else docid, extent)
        return PreparedString(folded, tokens, extent, noisy, number)

    def content_string(self, raw: str, remember: bool = True) -> PreparedString:
        """A content string normalized, without an extent (for a content comparison alone);
        not ``remember``-ed, its normalization is not kept (see :meth:`_normalize`)."""
        folded, _, tokens, noisy, number = self.normalized(raw, remember)
        return PreparedString(folded, tokens, None, noisy, number)

    def prepare_mapped(self, fill: TextFill, docid: str, columns: Extent, widened: Extent) -> PreparedFill:
        """:meth:`prepare` of a reference fill with an extent whose first extent maps to
        ``columns`` (``map_extent(docid, fill.extents[0])``), which widen to ``widened``
        (``widen(docid, columns)``), both found for many fills at once: used as they are
        when no premodifier is removed and the fill has no minimal string of its own."""
        folded, removed, tokens, noisy, number = self.normalized(fill.content)
        if removed or not self.reference or not fill.minimal_is_maximal:
            return self.prepare(fill, docid)
        maximal = PreparedString(folded, tokens, columns, noisy, number)
        enclosure = widened if self.widen is not None and widened != columns else None
        return PreparedFill(fill, maximal, (maximal,), True, enclosure)

    def prepare(self, fill: TextFill, docid: str) -> PreparedFill:
        """The fill as the comparison sees it; ``docid`` is its instance's document."""
        content, extents = fill.content, fill.extents
        # self._string(content, extent, docid), written out: a million fills are prepared
        folded, removed, tokens, noisy, number = self._texts.get(content) or self._normalize(content)
        if extents:
            extent: Extent | None = extents[0]
            if removed:
                extent = _shifted(extent, removed)  # type: ignore[arg-type]
            if self.map_extent is not None:
                extent = self.map_extent(None if self.unsegmented else docid, extent)  # type: ignore[arg-type]
            has_extent = True
        else:
            extent = None
            has_extent = False
        maximal = PreparedString(folded, tokens, extent, noisy, number)
        if not self.reference:
            return PreparedFill(fill, maximal, (maximal,), has_extent)
        enclosure = None
        if self.widen is not None and extent is not None:
            widened = self.widen(docid, extent)
            if widened != extent:
                enclosure = widened
        if fill.minimal_is_maximal:
            minimals: tuple[PreparedString, ...] = (maximal,)  # no brackets: the minimal string is the maximal one
        else:
            spans = fill.minimal_spans
            minimal_extents: Sequence[Extent | None] = fill.minimal_extents or (None,) * len(spans)
            minimals = tuple(
                self._string(content[a:b], ext, docid) for (a, b), ext in zip(spans, minimal_extents, strict=False)
            )
        return PreparedFill(fill, maximal, minimals, has_extent, enclosure)
