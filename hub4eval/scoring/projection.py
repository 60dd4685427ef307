"""§11 the ceiling: reference templates projected onto the hypothesis text.

Each reference text fill with an extent becomes hypothesis tokens of its
alignment columns: content = the hypothesis characters from the first of
those tokens to the last (line breaks turned into spaces, so the fill can be
written on one line), extent = their character span in the hypothesis text
(per document, or from the start of the file when the hypothesis is
unsegmented). Fills without an extent (set fills) are kept as they are, and
pointers follow their instances, which keep their keys. A hypothesis slot has
one alternative.

The ceiling is a true upper bound (v1.2): with a :class:`Judge` (the scorer's
own comparison, given by :func:`hub4eval.api.score`), each choice is the one
that scores best against the reference (most COR, then fewest INC + MIS +
SPU, then fewest INC + SPU, which F also prefers, then the first):

* per fill, the tokens of its columns, or a run of them (when the whole run
  is not correct in content and extent: ``the [Red Wings] beam`` projected as
  ``red wings`` when ``beam`` was misheard), the hypothesis tokens inserted
  right at its edges included (§7.3), or no fill at all (a fill that can
  score no COR only adds INC points: left out it is MIS, or OPT in an
  optional slot);
* per slot, the alternative whose projected fills score best (not simply the
  first: its words may be misrecognized where another mention was heard
  perfectly).

Without a judge a fill is the tokens of its columns, dropped when they hold
no hypothesis token, and a slot keeps the first alternative whose fills all
survive, else the first one's surviving fills. A slot left with no fill is
dropped. The result is a hypothesis template set; scored against the
reference with the same texts and options, it is the best any extractor can
score on this recognizer's output.

Without an alignment (the texts are the same), fills keep their content and
offsets: the projection is the reference itself, and scores 100 %.

Most fills are decided from their first candidates, found for all of them at
once (:class:`~hub4eval.scoring.first_candidates.FirstCandidates`), in
:meth:`_Projector._decide_all`: a fill whose first candidate is all correct keeps
it, and so does one whose first candidate has one COR point of two when no later
candidate's content can be correct: read from the letters of the region's raw
words where each reads the same wherever it stands, or starts a longer spelling
rule that the next raw word does not go on with
(:class:`~hub4eval.scoring.run_spellings.RunSpellings`), else from the runs of
its words (:meth:`_Projector._only_first`: a run holding a word the reference
fill does not have, or too few words, or not beginning or ending with its first
or last word, as the judge reads them; or a word of the reference fill that is
none of the region's words nor made of its letters, when every word there is
kept as it is: :func:`_missing_word`). A fill whose first candidate's string is
not normalized yet is decided in its turn (:meth:`_Projector._decided_one`);
every other fill tries its candidates one by one (:meth:`_Projector.fill`),
which is also the route the tests compare the quick ones with.

Why one module: the judge (how a candidate scores) and the projector (which
candidates, in which order) are the two halves of one choice; the projector's
quick route reads a candidate exactly as the judge would, from the judge's
records, and the two change together.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from hub4eval.io.templettes.checks import OFFSETS, WHOLE_SPANS, whole_span
from hub4eval.model import (
    Corpus,
    Extent,
    Fill,
    FillAlternative,
    Instance,
    InstanceSet,
    Slot,
    TemplateSet,
    TextFill,
)
from hub4eval.scoring.fills import PreparedFill
from hub4eval.scoring.first_candidates import FirstCandidates
from hub4eval.scoring.metrics import Counts
from hub4eval.scoring.noisy import NoisyWords, kept_correct
from hub4eval.scoring.run_spellings import RunSpellings
from hub4eval.scoring.verdicts import (
    TextComparison,
    clean_content_status,
    compare_text,
    exact_extent_status,
    extent_status,
    noisy_content_ok,
    unpaired_text,
)

if TYPE_CHECKING:
    from hub4eval.scoring.word_by_word import WordByWord

_WORD = re.compile(r"\S+")  # a raw word, as str.split finds it

_ONE_TAG = re.compile(r"<[^<>]*>")  # as hub4eval.text.normalize.whiteout_tags whites out a tag
_TAGS = re.compile(r"(?:<[^<>]*>)+")
_TAG_NAME = re.compile(r"<\s*/?\s*([^\s/<>]*)")

_MAX_RUN_TOKENS = 12
"""A fill over more hypothesis tokens than this tries only its whole run and its minimal strings' runs."""

_LINE_BREAKS = str.maketrans(
    {"\r": " ", "\n": " ", "\x0b": " ", "\x0c": " ", "\x85": " ", "\u2028": " ", "\u2029": " "}
)


def _one_line(text: str) -> str:
    """``text`` with its line breaks turned into spaces (a projected fill is written on one line);
    most strings have none (a printable string has no line break: it is kept as it is)."""
    return text if text.isprintable() else text.translate(_LINE_BREAKS)


def _content_ok(ref: PreparedFill, hyp: PreparedFill, how: TextComparison) -> bool:
    """Whether the content point of the pair is COR (the category :func:`compare_text` gives)."""
    return noisy_content_ok(ref, hyp, how.fillers) if how.noisy else clean_content_status(ref, hyp) == "ok"


def _extent_ok(ref: PreparedFill, hyp: PreparedFill, how: TextComparison) -> bool:
    """Whether the extent point of the pair is COR (the category :func:`compare_text` gives)."""
    if how.exact_extent:
        return exact_extent_status(ref, hyp) == "exact"
    return extent_status(ref, hyp) == "ok"


def _overlaps(a: Any, b: Any, first: Any, last: Any) -> Any:
    """Whether columns [a, b] and [first, last] overlap, as :meth:`Extent.overlaps` reads it (any of
    a <= first <= b, a <= last <= b, first <= a <= last, first <= b <= last), of ints or, each
    pair of values in turn, of numpy arrays."""
    return (
        ((a <= first) & (first <= b))
        | ((a <= last) & (last <= b))
        | ((first <= a) & (a <= last))
        | ((first <= b) & (b <= last))
    )


def _extent_in(a: Any, b: Any, low: Any, high: Any, first: Any, last: Any, exact: bool) -> Any:
    """:func:`_extent_ok` of a hypothesis fill whose extent maps to columns ``first`` to ``last``
    against a reference fill whose one minimal string is its maximal one, at columns ``a`` to
    ``b``, enclosed by columns ``low`` to ``high`` (``exact``: the extent must be the reference's):
    of ints or, each fill in turn, of numpy arrays. The one formula of the projection's extent
    verdicts (:func:`_extent_between` reads it for each minimal string)."""
    if exact:
        return (a == first) & (b == last)
    return (low <= first) & (first <= high) & (low <= last) & (last <= high) & _overlaps(a, b, first, last)


def _extent_between(ref: PreparedFill, first: int, last: int, exact: bool) -> bool:
    """:func:`_extent_ok` of a hypothesis fill whose extent maps to columns ``first`` to ``last``,
    without an :class:`Extent` made for it: :func:`_extent_in` of its maximal extent and, but
    with ``exact``, of any of its minimal ones."""
    ref_extent = ref.maximal.extent if ref.has_extent else None
    if ref_extent is None:
        return False
    a, b = ref_extent.start, ref_extent.end
    if exact:
        return bool(_extent_in(a, b, a, b, first, last, True))
    enclosure = ref_extent if ref.enclosure is None else ref.enclosure
    low, high = enclosure.start, enclosure.end
    return any(
        _extent_in(minimal.extent.start, minimal.extent.end, low, high, first, last, False)
        for minimal in ref.minimals
        if minimal.extent is not None
    )


def _extent_at(ref: PreparedFill, extent: Extent | None, exact: bool) -> bool:
    """:func:`_extent_ok` of a hypothesis fill with an extent part whose mapped extent is ``extent``."""
    return extent is not None and _extent_between(ref, extent.start, extent.end, exact)


def _hyp_fill(content: str, start: int, end: int) -> TextFill:
    """A hypothesis text fill as the templette reader builds one."""
    if 0 <= start <= end < _OFFSET_COUNT:  # one int object per offset, one spans tuple per length
        start, end = OFFSETS[start], OFFSETS[end]
    extents = (Extent(start, end),)
    return TextFill(content, _whole_span(len(content)) or whole_span(len(content)), extents, extents, False, True)


_OFFSET_COUNT = len(OFFSETS)
_whole_span = WHOLE_SPANS.get  # (whole_span's memo read inline: it is called for tens of thousands of fills)


def _rank(counts: Counts) -> tuple[int, int, int]:
    """Best first: most COR, fewest INC + MIS + SPU, fewest INC + SPU (ACT less COR)."""
    return (-counts.cor, counts.errors, counts.inc + counts.spu)


class Judge:
    """Scores projected fills and slots against the reference exactly as the scorer does.

    Args:
        mapper: a :class:`~hub4eval.scoring.mapping.Mapper` made with the
            scoring options and the preparers of these two texts.
        instance_keys: the keys of the reference instances (a projected
            pointer points to the instance of the same key, mapped to it), read
            when a pointer slot is first judged (a reference without pointers
            never makes them).
    """

    def __init__(self, mapper: Any, instance_keys: Iterable[str]) -> None:
        self.mapper = mapper
        # its candidates are runs of the same hypothesis words: each word worked out once
        hyp_prep = mapper.hyp_prep
        hyp_prep.by_words()
        how = mapper.how
        # a candidate's content compared from the words its string keeps (noisy comparison)
        self._by_word = hyp_prep.by_word if how.noisy and hyp_prep.by_word is not None else None
        if self._by_word is not None and self._by_word.fillers != how.fillers:
            self._by_word = None
        self._keys: Iterable[str] | None = instance_keys
        self._identity: dict[str, str] | None = None
        # whether a candidate's content point can be read from its words (see _Runs)
        self.reads_words = self._by_word is not None and how.content
        self._blanks: dict[str, bool] = {}
        self._lookups: tuple[Any, Any] | None = None
        self._maps_reference = False  # whether the reference fills' columns are the batch's (see begin)
        self._space_texts: dict[int, str | None] = {}  # the hypothesis text of each column space of the batch
        self._exact = False  # whether an extent is correct only when it is the reference's
        self._last: tuple[TextFill, str, Any, Any] | None = None  # the reference fill prepared last
        self._usual: dict[str, Any] = {}  # usual_words of each content string
        # the points of a reference fill paired with a projected one, which has an extent
        self.points = int(mapper.how.content) + int(mapper.how.extent)

    @property
    def identity(self) -> dict[str, str]:
        """Each reference instance key mapped to itself (the mapping of a projected pointer)."""
        if self._identity is None:
            self._identity = {key: key for key in self._keys or ()}
            self._keys = None
        return self._identity

    def begin(self) -> None:
        """Called when a projection begins: the hypothesis preparer's memo is read afresh
        (:meth:`~hub4eval.scoring.fills.FillPreparer.read_texts` replaces it after this judge is made)."""
        self._lookups = None

    def fill(self, docid: str, ref_fill: TextFill, hyp_fill: TextFill | None, optional: bool) -> Counts:
        """The counts of one reference fill against one projected fill (None: left out)."""
        mapper = self.mapper
        ref, _ = self._prepared(ref_fill, docid)
        if hyp_fill is None:
            verdicts = unpaired_text(ref, mapper.config, reference=True, optional_slot=optional)
        else:
            verdicts = compare_text(ref, mapper.hyp_prep.prepare(hyp_fill, docid), mapper.how)
        return Counts.tally(v.category for v in verdicts)

    def correct(self, docid: str, ref_fill: TextFill, hyp_fill: TextFill, points: int, above: int) -> int | None:
        """The COR points of a projected fill against a reference fill when they are more than
        ``above``, else None (as :meth:`fill` counts them; ``points``: how many a pair has).

        Every point of a pair of text fills is COR or INC, so a candidate beats another only
        with more COR: the content is compared first and the extent (whose columns take a
        lookup in the alignment) only when it can still lift the count above ``above``.
        """
        extent = hyp_fill.extent
        assert extent is not None and hyp_fill == _hyp_fill(hyp_fill.content, extent.start, extent.end)
        return self.judge(docid, ref_fill, hyp_fill.content, extent.start, extent.end, points, above)

    def judge(
        self, docid: str, ref_fill: TextFill, content: str, start: int, end: int, points: int, above: int
    ) -> int | None:
        """:meth:`correct` of the projected fill of ``content`` at [start, end) of the hypothesis
        text, made only when it is prepared (to map its extent)."""
        mapper = self.mapper
        ref, ref_words = self._prepared(ref_fill, docid)
        how = mapper.how
        hyp_prep = mapper.hyp_prep
        left = points - how.content
        if above < 0 and left:
            # the first candidate (its string remembered): prepared once for both points
            hyp = hyp_prep.prepare(_hyp_fill(content, start, end), docid)
            cor = 0
            if how.content:
                if ref_words is not None:
                    cor = kept_correct(ref_words[0], ref_words[1], hyp.maximal.noisy.kept)
                else:
                    cor = _content_ok(ref, hyp, how)
            return cor + _extent_ok(ref, hyp, how)
        cor = 0
        if how.content:
            # the content point reads the normalized strings only: the extent is not mapped yet
            if above >= 0:
                ok = self.later_content_ok(docid, ref_fill, content, start, end)
            else:
                string = hyp_prep.content_string(content)
                ok = _content_ok(ref, PreparedFill(_hyp_fill(content, start, end), string, (string,), True), how)
            cor += ok
            if cor + left <= above:
                return None
        if left and _extent_ok(ref, hyp_prep.prepare(_hyp_fill(content, start, end), docid), how):
            cor += 1
        return cor if cor > above else None

    def later_content_ok(self, docid: str, ref_fill: TextFill, content: str, start: int, end: int) -> bool:
        """Whether the content point of a later candidate (not the first: :meth:`judge` with a
        bar) of ``content`` at [start, end) is COR. Its string is not remembered (most are
        tried once and rejected), and of it the noisy comparison reads only the words it keeps."""
        ref_words = self.usual_words(ref_fill)  # (the usual fill's, without preparing it)
        if ref_words is None:
            ref_words = self._prepared(ref_fill, docid)[1]
        kept = None if ref_words is None else self._kept(content)
        if kept is not None:
            return kept_correct(ref_words[0], ref_words[1], kept)
        ref = self._prepared(ref_fill, docid)[0]
        string = self.mapper.hyp_prep.content_string(content, False)
        return _content_ok(ref, PreparedFill(_hyp_fill(content, start, end), string, (string,), True), self.mapper.how)

    def blank(self, word: str) -> bool:
        """Whether a raw word is tags only, none of a non-extractable element (the words of a
        string are those of the string with its tags whited out: a tag reads no word around)."""
        found = self._blanks.get(word)
        if found is None:
            config = self.mapper.config
            names = {name.lower() for name in config.non_extractable}
            tags = _TAGS.fullmatch(word)
            found = self._blanks[word] = tags is not None and not any(
                _TAG_NAME.match(tag).group(1).lower() in names  # type: ignore[union-attr]
                for tag in _ONE_TAG.findall(word)
            )
        return found

    def first(self, docid: str, ref_fill: TextFill, content: str, start: int, end: int, points: int) -> int:
        """``judge(docid, ref_fill, content, start, end, points, -1) or 0``, the COR points of the first
        candidate, read (noisy comparison of content and extent) from its string's normalization
        and its mapped extent, without a prepared fill."""
        ref, ref_words = self._prepared(ref_fill, docid)
        how = self.mapper.how
        if ref_words is None or not how.content or points != 2:
            return self.judge(docid, ref_fill, content, start, end, points, -1) or 0
        hyp_prep = self.mapper.hyp_prep
        lookups = self._lookups
        if lookups is None:
            # as FillPreparer.prepare reads and remembers the string (its memo, read once a
            # projection begins: it is replaced after this judge is made, see begin)
            lookups = self._lookups = hyp_prep.lookups()
        normalized = lookups[0](content) or lookups[1](content)
        kept = normalized[3].kept
        cor = kept == ref_words[2] if ref_words[2] is not None else kept_correct(ref_words[0], ref_words[1], kept)
        removed = normalized[1]
        extent = Extent(min(start + removed, end), end) if removed else Extent(start, end)
        if hyp_prep.map_extent is not None:
            extent = hyp_prep.map_extent(None if hyp_prep.unsegmented else docid, extent)
        return cor + _extent_at(ref, extent, how.exact_extent)

    def _kept(self, raw: str) -> tuple[str, ...] | None:
        """The words a candidate string keeps for the noisy comparison, without normalizing it in
        full when its words normalize one by one or the judge's strings hold it; None: neither."""
        by_word = self._by_word
        kept = None if by_word is None else by_word.kept(raw)  # the words its normalization keeps
        if kept is None:
            found = self.mapper.hyp_prep.lookups()[0](raw)  # (its memo may be replaced after this judge is made)
            if found is not None:
                return found[3].kept
        return kept

    def _prepared(self, ref_fill: TextFill, docid: str, mapped: tuple[Extent, Extent] | None = None) -> tuple[Any, Any]:
        """The reference fill prepared, and (noisy comparison) its maximal and minimal strings'
        words (the fill judged last is kept: its candidates come one after another).
        ``mapped``: its first extent's columns and their widening, when known (see
        :meth:`~hub4eval.scoring.fills.FillPreparer.prepare_mapped`)."""
        last = self._last
        if last is not None and last[0] is ref_fill and last[1] == docid:
            return last[2], last[3]
        ref_prep = self.mapper.ref_prep
        ref = ref_prep.prepare(ref_fill, docid) if mapped is None else ref_prep.prepare_mapped(ref_fill, docid, *mapped)
        words = None
        if self._by_word is not None:
            fillers = self.mapper.how.fillers
            maximal = ref.maximal.noisy_words(fillers)
            if len(ref.minimals) == 1 and ref.minimals[0] is ref.maximal:
                minimals = [maximal]  # the usual fill (as below, without reading the string twice)
            else:
                minimals = [m.noisy_words(fillers) for m in ref.minimals] or [maximal]
            # the usual fill, its minimal string the maximal one and no word optional: a content
            # is correct when its kept words are the fill's words (each a run of the other)
            usual = len(minimals) == 1 and (minimals[0] is maximal or minimals[0] == maximal)
            plain = maximal.words if usual and True not in maximal.optional else None
            words = (maximal, minimals, plain)
        self._last = (ref_fill, docid, ref, words)
        return ref, words

    def usual_words(self, ref_fill: TextFill) -> Any:
        """The words of :meth:`_prepared` of a reference fill whose one minimal string is its
        maximal one (at its first extent) and loses no premodifier, read from its content string's
        normalization alone (once per string, without preparing the fill); None for any other fill
        or comparison (then ask :meth:`_prepared`)."""
        found = self._usual.get(ref_fill.content)
        if found is None:
            found = self.usual_of(ref_fill.content)
        return found if found is not False and ref_fill.minimal_is_maximal else None

    def usual_known(self, ref_fills: Sequence[TextFill]) -> list[Any]:
        """:meth:`usual_words` of each of ``ref_fills`` whose content string is normalized already
        (else None, as for a fill that is not usual: it is not normalized here, out of turn), all
        at once: each content string read once (:meth:`_usual_all`)."""
        get = self._usual.get
        contents = [fill.content for fill in ref_fills]
        found = list(map(get, contents))
        if None in found:
            self._usual_all(
                list(dict.fromkeys(c for c, words in zip(contents, found, strict=True) if words is None)), False
            )
            found = list(map(get, contents))
        return [
            None if words is None or words is False or not fill.minimal_is_maximal else words
            for fill, words in zip(ref_fills, found, strict=True)
        ]

    def usual_of(self, content: str) -> Any:
        """:meth:`usual_words` of a usual fill of this content string (remembered in :attr:`_usual`);
        False when its words are not read so (a premodifier removed, no noisy comparison)."""
        return self._usual_all([content], True)[0]

    def _usual_all(self, contents: list[str], normalize: bool) -> list[Any]:
        """:meth:`usual_of` of each of ``contents``, remembered; without ``normalize``, None for
        a string not normalized yet (nothing remembered: the texts are numbered in the order
        they are normalized, which this must not change)."""
        memo = self._usual
        if self._by_word is None or not self.mapper.ref_prep.reference:
            for content in contents:
                memo[content] = False
            return [False] * len(contents)
        get, normalizing = self.mapper.ref_prep.lookups()
        fillers = self.mapper.how.fillers
        out: list[Any] = []
        for content in contents:
            normalized = get(content)
            if normalized is None:
                if not normalize:
                    out.append(None)
                    continue
                normalized = normalizing(content)
            found = memo[content] = _usual_reading(normalized, fillers)
            out.append(found)
        return out

    def slot(self, inst: Instance, name: str, fills: tuple[Fill, ...]) -> Counts | None:
        """The counts of a reference slot against projected fills; None for an unscored slot."""
        mapper = self.mapper
        ref_view = mapper._view(inst, True).get(name)
        if ref_view is None:
            return None
        hyp_view = None
        if fills:
            items = tuple(mapper.hyp_prep.prepare(f, inst.docid) if type(f) is TextFill else f for f in fills)
            hyp_view = (Slot(name, (FillAlternative(fills),)), (items,), None)
        match = mapper.match_slot(name, ref_view, hyp_view, self.identity, lambda _fill: False)
        return match.counts


def _usual_reading(normalized: Any, fillers: frozenset[str]) -> Any:
    """:meth:`Judge.usual_of` of a reference content string normalized (by its preparer: text,
    characters of premodifiers removed, tokens, noisy words, number): its noisy words as
    :meth:`~hub4eval.scoring.fills.FillPreparer.noisy_words` reads them, as the maximal string and
    the one minimal string, and its words when none is optional; False when a premodifier is removed."""
    if normalized[1]:
        return False
    noisy = normalized[3]
    if noisy is None or not (noisy.fillers is fillers or noisy.fillers == fillers):
        noisy = NoisyWords.of(normalized[2], fillers)
    return (noisy, [noisy], noisy.words if True not in noisy.optional else None)


def _region_words(
    text: str, begin: int, stop: int, blank: Callable[[str], bool]
) -> tuple[list[str], dict[int, int], dict[int, int]]:
    """The raw words of ``text[begin:stop]`` (words of tags only left out: whited out, the words
    on either side side by side), and the number of the word starting at each offset and of the
    one ending at each offset; a run's first word starts after a blank (or the text's start)
    and its last ends before one, so a word cut by the region's edge starts or ends no run."""
    words: list[str] = []
    starts: dict[int, int] = {}
    ends: dict[int, int] = {}
    for match in _WORD.finditer(text, begin, stop):
        word = match.group()
        if "<" in word and blank(word):
            continue
        starts[match.start()] = ends[match.end()] = len(words)
        words.append(word)
    if begin > 0 and not text[begin - 1].isspace():
        starts.pop(begin, None)
    if stop < len(text) and not text[stop].isspace():
        ends.pop(stop, None)
    return words, starts, ends


def _missing_word(plain: Sequence[str], region: str) -> bool:
    """Whether a word of ``plain`` (the usual reference fill's words) is, in lower case, neither a
    raw word of ``region`` nor made of its one-letter words (joined): then no run of the region's
    words keeps it, when they are :func:`_literal`."""
    if not region.isascii() or "<" in region or "'" in region:
        return False  # (a tag, a possessive: read as usual)
    present = set(region.lower().split())
    letters = None
    for word in plain:
        word = word.lower()
        if word in present:
            continue
        if len(word) < 2:
            return True
        if letters is None:
            letters = {raw for raw in present if len(raw) == 1 and raw.isalpha()}
        if not letters.issuperset(word):
            return True
    return False


def _literal(
    by_word: WordByWord, text: str, region: str, starts: Sequence[int], ends: Sequence[int], first: int, last: int
) -> bool:
    """Whether every candidate of the tokens ``first`` to ``last`` (``region`` of ``text``) keeps only
    words that are, in lower case, raw words of the region or runs of its one-letter words joined:
    each token starts and ends at a blank (or the text's edge), so that every candidate is a run of
    whole raw words, and each of those is one token that is the word itself (as
    :meth:`~hub4eval.scoring.word_by_word.WordByWord.literal` reads it): no spelling rule, number
    or parenthesis reads across them, and the letters joined, the fillers and premodifiers left
    out keep the other words as they are."""
    size = len(text)
    for token in range(first, last + 1):
        start, end = starts[token], ends[token]
        if (start and not text[start - 1].isspace()) or (end < size and not text[end].isspace()):
            return False
    literal = by_word.literal
    return all(map(literal, region.split()))


class _Runs:
    """The candidates of one reference fill that are runs of whole words of the hypothesis text in
    ``region`` (the span of the tokens of its widened columns), their noisy content point read
    from their words (:meth:`~hub4eval.scoring.word_by_word.WordByWord.runs`) without making
    their strings: most are runs of the recognized words around a misrecognized one, and hold
    a word the reference fill does not have (:meth:`WordByWord.foreign`), or too few words."""

    __slots__ = ("by_word", "ends", "foreign", "found", "reach", "ref_words", "region", "starts")

    def __init__(self, judge: Judge, docid: str, ref_fill: TextFill, text: str, region: tuple[int, int]) -> None:
        by_word = judge._by_word
        assert by_word is not None
        self.by_word = by_word
        self.region = region
        words, self.starts, self.ends = _region_words(text, *region, judge.blank)
        self.ref_words = ref_words = judge._prepared(ref_fill, docid)[1]
        self.found, self.reach, self.foreign = by_word.runs(words, frozenset(ref_words[0].words))

    def correct(self, start: int, end: int) -> bool | None:
        """Whether the content point of the candidate [start, end) is COR (as :meth:`Judge.judge`
        reads it); None: not known from its words (not a run of whole words, or one that
        :meth:`~hub4eval.scoring.word_by_word.WordByWord.kept_words` does not read)."""
        a = self.starts.get(start)
        b = self.ends.get(end)
        if a is None or b is None or not a <= b <= self.reach[a]:
            return None
        if True in self.foreign[a : b + 1]:
            return False  # a kept word that is none of the reference's: not a run of them
        kept = self.by_word.kept_of(self.found[a : b + 1])
        if kept is None:
            return None
        ref_words = self.ref_words
        return kept == ref_words[2] if ref_words[2] is not None else kept_correct(ref_words[0], ref_words[1], kept)


_Space = tuple[Sequence[int], Sequence[int], Sequence[int], "str | None"]
"""Of a column space: each column's hypothesis token (-1: none), each hypothesis token's start
and end, and the hypothesis text."""


_UNDECIDED = TextFill("", ())
"""What :meth:`_Projector._decide_all` and :meth:`_Projector._decided_one` give when the batch cannot say
(the fill goes through :meth:`_Projector.fill`)."""

_PENDING = TextFill("", ((0, 0),))
"""What :meth:`_Projector._decide_all` leaves to :meth:`_Projector._decided_one`."""


class _Projector:
    batched = True
    """Whether :func:`project` finds the first candidates of all fills at once (:class:`FirstCandidates`) and
    decides most fills from them; else each fill goes through :meth:`fill` (the route the batch
    must agree with, which the tests compare it with)."""

    def __init__(self, alignment: Any, hyp_corpus: Corpus | None, judge: Judge | None = None) -> None:
        self.alignment = alignment
        self.texts: dict[int, str | None] = {}
        self.hyp_corpus = hyp_corpus
        self.judge = judge
        self.spaces: dict[int, _Space] = {}
        self._batch: FirstCandidates | None = None
        self._at = 0  # the batch's next fill
        self._lean = False  # whether the batch judges a first candidate itself (see begin)
        self._lookups: tuple[Any, Any] | None = None
        self._widens = False  # whether the reference preparer widens a fill's columns to its enclosure
        self._spaces_read: dict[int, Any] = {}  # each column space's token arrays, read once for the batches
        self._made: list[Any] = []  # what _decide_all makes of each fill of the batch
        self._alike = False  # whether the reference's and the hypothesis's preparers normalize alike
        self._spellings: RunSpellings | None = None  # (made when first needed)
        # the COR points of the first candidate of each fill of the batch left to fill() that the
        # batch has judged (:meth:`_decide_all`, :meth:`_decided_one`): its later ones are tried
        # from its row (:meth:`_later_of`)
        self._first_cor: dict[int, int] = {}

    def begin(self, sets: Sequence[InstanceSet]) -> None:
        """Find the first candidates of the text fills of ``sets`` at once (:class:`FirstCandidates`), when
        there is an alignment and a hypothesis text, for :meth:`instance` to project ``sets``."""
        if not self.batched or self.alignment is None or self.hyp_corpus is None:
            return
        found = [
            (inst.docid, fill)
            for iset in sets
            for inst in iset.instances
            for slot in inst.slots
            for alternative in slot.alternatives
            for fill in alternative.fills
            if type(fill) is TextFill and fill.extents
        ]
        if not found:
            return
        docids: list[str] = [docid for docid, _ in found]
        fills: list[TextFill] = [fill for _, fill in found]
        self._batch = batch = FirstCandidates(self.alignment, docids, fills, self._spaces_read)
        self._at = 0
        self._space_texts = {space: self._text(space) for space in set(batch.spaces) if space >= 0}
        self._space_texts[-1] = None
        judge = self.judge
        if judge is not None:
            hyp_prep = judge.mapper.hyp_prep
            # Judge.first's reading of a first candidate, whose extent the batch has mapped
            self._lean = (
                judge.reads_words
                and judge.points == 2
                and hyp_prep.map_extent == self.alignment.hyp_extent
                and bool(hyp_prep.unsegmented) == bool(self.alignment.unsegmented)
            )
            self._lookups = hyp_prep.lookups()
            self._exact = judge.mapper.how.exact_extent
            ref_prep = judge.mapper.ref_prep
            self._maps_reference = (
                ref_prep.map_extent == self.alignment.ref_extent
                and not ref_prep.unsegmented
                and ref_prep.widen in (None, self.alignment.ref_enclosure)
            )
            self._widens = ref_prep.widen is not None
            # whether a string normalizes to the same words as a reference's and a hypothesis's (see _decide_all)
            self._alike = ref_prep.reference and ref_prep.normalizes_like(hyp_prep)
        self._made = self._decide_all(docids, fills)

    def _take(self, docid: str, fill: Fill, optional: bool) -> Fill | None:
        """:meth:`fill`, decided from the batch when there is one (see :meth:`begin`): the fills
        of the batch are taken in order, each the next number."""
        if self._batch is None or type(fill) is not TextFill or not fill.extents:
            return self.fill(docid, fill, optional)
        number = self._at
        self._at = number + 1
        made = self._made[number]
        return self._settled(number, docid, fill, optional) if made is _PENDING or made is _UNDECIDED else made

    def _settled(self, number: int, docid: str, fill: TextFill, optional: bool) -> Fill | None:
        """What :meth:`fill` makes of fill ``number`` of the batch, which :meth:`_decide_all` left
        :data:`_PENDING` (decided here, in order, by :meth:`_decided_one`) or
        :data:`_UNDECIDED` (or :meth:`_decided_one` leaves so): then its later candidates tried
        from its row (:meth:`_later_of`) when the batch judged its first candidate, else
        :meth:`fill` itself."""
        made = self._made[number]
        if made is _PENDING:
            made = self._decided_one(number, docid, fill)
        if made is not _UNDECIDED:
            return made
        first_cor = self._first_cor.get(number)
        return (
            self.fill(docid, fill, optional)
            if first_cor is None
            else self._later_of(number, docid, fill, optional, first_cor)
        )

    def _later_of(self, number: int, docid: str, fill: TextFill, optional: bool, first_cor: int) -> Fill | None:
        """:meth:`fill` of fill ``number`` of the batch, whose first candidate the batch has judged
        (``first_cor`` COR points, fewer than all): its span and widened tokens read from its
        row instead of looked up again, its later candidates tried as :meth:`fill` tries them."""
        assert self.judge is not None and self._batch is not None
        _, space_number, _, _, start, end, *_, wide_from, wide_to = self._batch.row(number)
        space = self._space_at(space_number)
        text: str = space[3]  # type: ignore[assignment]
        best = (_one_line(text[start:end]), start, end)
        wide = range(wide_from, wide_to + 1)
        spans = self._later(docid, fill, space, wide, {(start, end)})
        return self._best_of(docid, fill, optional, text, spans, best, first_cor)

    def _decide_all(self, docids: list[str], fills: list[TextFill]) -> list[Any]:
        """What :meth:`fill` makes of each fill of the batch, where the batch's arrays say it at
        once: None (no reference token, no column space or no hypothesis text), the first
        candidate (the projected fill), :data:`_UNDECIDED` (decided one by one, by :meth:`_later_of`
        from its row when the batch judged its first candidate, else by :meth:`fill`: no
        hypothesis token in its columns, a first candidate with no COR point, a long fill, a
        later candidate whose content may be correct, or every fill with a first candidate when
        the judge does not read one as the batch does: words compared, two points, the extents
        mapped and the text's form the alignment's), or :data:`_PENDING` (decided in its turn
        by :meth:`_decided_one`: its first candidate's string not normalized yet, so that the
        texts are numbered in the order they always were, a reference fill that is not usual,
        or a premodifier removed).

        The first candidates' strings are cut in one pass and their normalizations read from the
        memo; a string that is its usual reference fill's, normalized alike, keeps its words;
        the other usual reference fills' words are the judge's
        (:meth:`Judge.usual_known`); the contents are compared in one pass and the extents in
        numpy (:func:`_extent_in`). A first candidate with both points is kept, and so is one
        with one point of two whose widened tokens are one; one with one point of two and a few
        widened tokens is kept when no later candidate's content can be correct: read from the
        letters of the words (:class:`RunSpellings`), else from the words' runs
        (:meth:`_only_first`, which normalizes nothing it remembers)."""
        batch = self._batch
        assert batch is not None
        found, space_numbers, token_first, token_last, span_starts, span_ends, *rest = batch.arrays
        column_first, column_last, wide_first, wide_last, hyp_found, hyp_first, hyp_last, from_token, to_token = rest
        count = len(fills)
        texts = self._space_texts
        made: list[Any] = [None] * count  # no reference token, no column space or no hypothesis text
        first_cor = self._first_cor = {}  # (read by _settled: see there)
        live = found & np.isin(space_numbers, [space for space, text in texts.items() if text is not None])
        for k in np.flatnonzero(live & (token_first > token_last)).tolist():
            made[k] = _UNDECIDED  # no hypothesis token in its columns (fill() tries the later ones)
        at = np.flatnonzero(live & (token_first <= token_last))
        if not len(at):
            return made
        numbers = at.tolist()
        starts, ends = span_starts[at].tolist(), span_ends[at].tolist()
        space_list = space_numbers[at].tolist()
        if len(texts) == 2:  # one column space (and -1): one text
            text = next(value for value in texts.values() if value is not None)
            contents = [
                piece if (piece := text[a:b]).isprintable() else piece.translate(_LINE_BREAKS)  # as _one_line
                for a, b in zip(starts, ends, strict=True)
            ]
        else:
            contents = [
                _one_line(texts[space][a:b])  # type: ignore[index]
                for space, a, b in zip(space_list, starts, ends, strict=True)
            ]
        judge = self.judge
        if judge is None:
            for k, content, a, b in zip(numbers, contents, starts, ends, strict=True):
                made[k] = _hyp_fill(content, a, b)
            return made
        if not self._lean:
            for k in numbers:
                made[k] = _UNDECIDED
            return made
        normalized = judge.mapper.hyp_prep.known(contents)  # (the memo self._lookups reads)
        # the extent verdicts of the usual reference fills, whose extent is their columns and whose
        # enclosure is their widening (see FillPreparer.prepare_mapped), as _extent_in reads them
        a, b = column_first[at], column_last[at]
        low, high = (wide_first[at], wide_last[at]) if self._widens else (a, b)
        first, last = hyp_first[at], hyp_last[at]
        extent_ok = _extent_in(a, b, low, high, first, last, self._exact)
        extent_ok &= hyp_found[at]
        wide_from, wide_to = from_token[at], to_token[at]
        one = (wide_from == wide_to).tolist()  # one token widened: the first candidate is the only one
        many = (wide_to - wide_from >= _MAX_RUN_TOKENS).tolist()  # a long fill: its candidates are not runs
        extents = extent_ok.tolist()
        if not self._maps_reference:
            for k in numbers:
                made[k] = _PENDING  # the reference fills' extents are not read as their columns here
            return made
        # One pass: a first candidate that is not normalized yet, or has a premodifier removed, is
        # left pending; one whose string is its usual reference fill's, normalized alike, with no
        # optional word, keeps its words: its content is correct (the fill is usual: its extent is
        # read as the other usual fills' are), and with a correct extent it is kept here. Only the
        # others, and those whose extent is not correct, need their reference's words.
        alike = self._alike
        fillers = judge.mapper.how.fillers
        hyp_fill = _hyp_fill
        others: list[int] = []  # (positions whose reference fill's words are read below)
        for position, (k, content, normal, extent) in enumerate(
            zip(numbers, contents, normalized, extents, strict=True)
        ):
            if normal is None or normal[1]:
                made[k] = _PENDING  # not normalized yet, or a premodifier removed
                continue
            if alike and extent:
                fill = fills[k]
                noisy = normal[3]
                if (
                    content == fill.content
                    and (noisy.fillers is fillers or noisy.fillers == fillers)
                    and True not in noisy.optional
                    and fill.minimal_is_maximal
                ):
                    made[k] = hyp_fill(content, starts[position], ends[position])
                    continue
            others.append(position)
        # (fill, position, reference words) of those that ask whether a later candidate can beat the first
        asked: list[tuple[int, int, Any]] = []
        for position, ref_words in zip(others, judge.usual_known([fills[numbers[p]] for p in others]), strict=True):
            k = numbers[position]
            if ref_words is None:
                made[k] = _PENDING  # not a usual reference fill
                continue
            kept = normalized[position][3].kept
            plain = ref_words[2]
            cor = kept == plain if plain is not None else kept_correct(ref_words[0], ref_words[1], kept)
            extent = extents[position]
            if cor and extent or ((cor or extent) and one[position]):
                made[k] = hyp_fill(contents[position], starts[position], ends[position])
            elif (cor or extent) and not many[position]:
                asked.append((k, position, ref_words))
            else:
                made[k] = _UNDECIDED
                first_cor[k] = int(cor) + int(extent)  # (fewer than both points)
        if not asked:
            return made
        firsts, lasts, froms, tos = (
            token_first[at].tolist(),
            token_last[at].tolist(),
            wide_from.tolist(),
            wide_to.tolist(),
        )
        # Those of the usual reference fill, whose later candidates cannot keep its words as their
        # letters show (RunSpellings), keep the first candidate; the others ask _only_first.
        spellings = self._spellings
        if spellings is None:
            spellings = self._spellings = RunSpellings(judge._by_word, judge.blank)
        ruled_out: dict[int, bool] = {}
        by_space: dict[int, list[tuple[int, int, Any]]] = {}
        for k, position, ref_words in asked:
            if ref_words[2]:
                by_space.setdefault(space_list[position], []).append((k, position, ref_words[2]))
        # all the spaces asked at once (one batch's steps cost the same for a few items as for
        # many: a segmented text asks a few items in each of many documents)
        spaces = list(by_space.items())
        asked_of: list[tuple[str, Any, Any, list[tuple[int, int, int, int, Any]]]] = []
        for space, part in spaces:
            token_starts, token_ends = self._space_at(space)[1:3]
            items = [(firsts[p], lasts[p], froms[p], tos[p], plain) for _, p, plain in part]
            hyp_text = texts[space]
            assert hyp_text is not None  # its fills' widened tokens are tokens of its text
            asked_of.append((hyp_text, token_starts, token_ends, items))
        for (_, part), verdicts in zip(spaces, spellings.first_only_spaces(asked_of), strict=True):
            ruled_out.update(zip((k for k, _, _ in part), verdicts, strict=True))
        for k, position, ref_words in asked:
            space = space_list[position]
            chosen = ruled_out.get(k) or self._only_first(
                docids[k],
                space,
                fills[k],
                texts[space],  # type: ignore[arg-type]
                firsts[position],
                lasts[position],
                froms[position],
                tos[position],
                ref_words,
            )
            if chosen:
                made[k] = hyp_fill(contents[position], starts[position], ends[position])
            else:
                made[k] = _UNDECIDED
                first_cor[k] = 1  # (one point of two)
        return made

    def _decided_one(self, number: int, docid: str, fill: TextFill) -> TextFill | None:
        """What :meth:`fill` makes of fill ``number`` of the batch that :meth:`_decide_all` left
        :data:`_PENDING`, read from its row of the batch (:data:`_UNDECIDED`: :meth:`fill` decides)."""
        batch = self._batch
        assert batch is not None
        found, space, first, last, start, end, *rest = batch.row(number)
        if not found:
            return None  # no reference token, or no column space: fill() finds no columns
        text = self._space_texts[space]
        if text is None:
            return None
        if first > last:
            return _UNDECIDED  # no hypothesis token in its columns: the first candidate is a later one's
        content = _one_line(text[start:end])
        judge = self.judge
        if judge is None:
            return _hyp_fill(content, start, end)
        if not self._lean:
            return _UNDECIDED
        # Judge.first, its extent mapped in the batch (and the reference fill's, when prepared here)
        column_first, column_last, wide_first, wide_last, hyp_found, hyp_first, hyp_last, from_token, to_token = rest
        get, normalize = self._lookups  # type: ignore[misc]
        normalized = get(content) or normalize(content)
        kept = normalized[3].kept
        removed = normalized[1]
        mapped = None
        if removed:  # the hypothesis's extent past its premodifiers
            hyp_prep = judge.mapper.hyp_prep
            mapped = hyp_prep.map_extent(
                None if hyp_prep.unsegmented else docid, Extent(min(start + removed, end), end)
            )
        words = judge.usual_words(fill) if self._maps_reference else None
        if words is not None:
            # the usual reference fill (its one minimal string the maximal one, no premodifier
            # removed): prepared, its extent is its columns and its enclosure their widening (see
            # FillPreparer.prepare_mapped), read here as numbers without the records
            if not self._widens:
                wide_first, wide_last = column_first, column_last
            if removed:
                hyp_found = mapped is not None
                if mapped is not None:
                    hyp_first, hyp_last = mapped.start, mapped.end
            extent_ok = hyp_found and _extent_in(
                column_first, column_last, wide_first, wide_last, hyp_first, hyp_last, self._exact
            )
        else:
            if self._maps_reference:
                extent = Extent(column_first, column_last)
                widened = (
                    extent if wide_first == column_first and wide_last == column_last else Extent(wide_first, wide_last)
                )
                ref, words = judge._prepared(fill, docid, (extent, widened))
            else:
                ref, words = judge._prepared(fill, docid)
            if removed:
                extent_ok = _extent_at(ref, mapped, self._exact)
            else:
                extent_ok = hyp_found and _extent_between(ref, hyp_first, hyp_last, self._exact)
        cor = kept == words[2] if words[2] is not None else kept_correct(words[0], words[1], kept)
        if cor and extent_ok:
            return _hyp_fill(content, start, end)  # the usual fill: all of it correct
        if (cor or extent_ok) and self._only_first(docid, space, fill, text, first, last, from_token, to_token, words):
            return _hyp_fill(content, start, end)
        self._first_cor[number] = int(cor) + int(extent_ok)  # (fewer than both points)
        return _UNDECIDED

    def _only_first(
        self,
        docid: str,
        space_number: int,
        fill: TextFill,
        text: str,
        first: int,
        last: int,
        wide_first: int,
        wide_last: int,
        ref_words: Any,
    ) -> bool:
        """Whether :meth:`fill` keeps the first candidate of a fill (tokens ``first`` to ``last``;
        ``wide_first`` to ``wide_last`` once its columns are widened), which has one COR point
        of two: it does when the content of no later candidate is COR (a later one must have
        both points to beat it), seen from its words as :meth:`_Runs.correct` reads them, or
        else as :meth:`Judge.later_content_ok` does, as :meth:`fill` tries them. False when
        some is COR (then :meth:`fill` judges them) or the fill's candidates are not the runs
        of its widened tokens (a long fill)."""
        judge = self.judge
        assert judge is not None
        if wide_first == wide_last:
            return True  # its one token is the first candidate
        if wide_last - wide_first >= _MAX_RUN_TOKENS:
            return False
        starts, ends = self._space_at(space_number)[1:3]
        begin, stop = starts[wide_first], ends[wide_last]
        count = wide_last - wide_first + 1
        # the raw words of the region, as _Runs reads them
        region = text[begin:stop]
        by_word = judge._by_word
        assert by_word is not None
        plain = ref_words[2]
        if (
            plain
            and _missing_word(plain, region)
            and _literal(by_word, text, region, starts, ends, wide_first, wide_last)
        ):
            return True  # a word of the reference fill that no run of these words keeps
        words = region.split()
        firsts: Sequence[int | None]
        lasts: Sequence[int | None]
        if (
            len(words) == count
            and "<" not in region
            and (begin == 0 or text[begin - 1].isspace())
            and (stop == len(text) or text[stop].isspace())
            and all(
                text[starts[t] : ends[t]] == word
                for t, word in zip(range(wide_first, wide_last + 1), words, strict=True)
            )
        ):
            # each token a raw word (the usual region): as many of them, no tag, none cut by the
            # region's edges, each token the word's text (so the tokens, side by side and none
            # holding a blank, cover the words' characters one word each, in order)
            firsts = lasts = range(count)
        else:
            words, word_starts, word_ends = _region_words(text, begin, stop, judge.blank)
            firsts = [word_starts.get(starts[token]) for token in range(wide_first, wide_last + 1)]
            lasts = [word_ends.get(ends[token]) for token in range(wide_first, wide_last + 1)]
        found, reach, foreign = by_word.runs(words, frozenset(ref_words[0].words))
        kept_of = by_word.kept_of
        # Each token of a run keeps at most one word (its runs of letters join into one): a run of
        # fewer tokens than the usual reference fill's words keeps too few words to be its words.
        wanted = 0 if plain is None else len(plain)
        cells = [0]  # tokens of the words before each word
        outside = [0]  # foreign words before each word
        # A run's kept words begin with its first word's first token's when that one is kept and not
        # one letter (a letter may be joined to the next), and end with its last word's last one's
        # likewise: the usual reference fill's first and last word (None: no such token).
        heads: list[str | None] = []
        tails: list[str | None] = []
        for entry, is_foreign in zip(found, foreign, strict=True):
            word_cells = entry[8] if entry else ()
            cells.append(cells[-1] + len(word_cells))
            outside.append(outside[-1] + is_foreign)
            if word_cells:
                head, tail = word_cells[0], word_cells[-1]
                heads.append(None if head[1] else head[2])
                tails.append(None if tail[1] else tail[2])
            else:
                heads.append(None)
                tails.append(None)
        head_word = tail_word = None
        if wanted:
            head_word, tail_word = plain[0], plain[-1]
        # every candidate a run of whole words, read to the end: once a run holds a foreign word, so do the longer ones
        stops = None not in firsts and None not in lasts
        whole = len(words) - 1
        skip_i, skip_j = first - wide_first, last - wide_first  # the first candidate
        for i in range(count):
            a = firsts[i]
            limit = -1 if a is None else reach[a]
            for j in range(i, count):
                if i == skip_i and j == skip_j:
                    continue
                b = lasts[j]
                if a is not None and b is not None and a <= b <= limit:
                    if outside[b + 1] != outside[a]:
                        if stops and limit == whole:
                            break  # a kept word that is none of the reference's, in this run and the longer ones
                        continue
                    if cells[b + 1] - cells[a] < wanted:
                        continue
                    if wanted:
                        head, tail = heads[a], tails[b]
                        if (head is not None and head != head_word) or (tail is not None and tail != tail_word):
                            continue  # its kept words do not begin or end as the reference fill's
                    kept = kept_of(found[a : b + 1])
                    if kept is not None:
                        if kept == plain if plain is not None else kept_correct(ref_words[0], ref_words[1], kept):
                            return False
                        continue
                # not known from its words
                start, end = starts[wide_first + i], ends[wide_first + j]
                if judge.later_content_ok(docid, fill, _one_line(text[start:end]), start, end):
                    return False
        return True

    def _text(self, space: int) -> str | None:
        """The hypothesis text whose offsets the tokens of column space ``space`` carry."""
        if space not in self.texts:
            text = None
            if self.hyp_corpus is not None:
                if self.alignment.unsegmented:
                    from hub4eval.io.corpus import as_unsegmented

                    text = as_unsegmented(self.hyp_corpus).documents[0].text
                else:
                    document = self.hyp_corpus.document(self.alignment.documents[space].hyp_docid)
                    text = None if document is None else document.text
            self.texts[space] = text
        return self.texts[space]

    def _space(self, docid: str) -> _Space | None:
        """The column space of reference document ``docid`` (see :data:`_Space`)."""
        space = self.alignment.column_space(docid, reference=True)
        return None if space is None else self._space_at(space)

    def _space_at(self, space: int) -> _Space:
        """Column space number ``space`` (see :data:`_Space`)."""
        found = self.spaces.get(space)
        if found is None:
            from hub4eval.text.columns import int_view, token_bounds

            document = self.alignment.documents[space]
            starts, ends = token_bounds(document.hyp_tokens)
            found = self.spaces[space] = (int_view(document.alignment.hyp_index), starts, ends, self._text(space))
        return found

    @staticmethod
    def _tokens(space: _Space, columns: Extent) -> Sequence[int]:
        """The hypothesis tokens in ``columns``, in order."""
        hyp_index = space[0]
        first, last = hyp_index[columns.start], hyp_index[columns.end]
        if first >= 0 and last >= 0:
            # the usual columns, a token at each end: an alignment holds each token in one
            # column, in order, so the tokens between are those numbered between
            return range(first, last + 1)
        return [h for h in hyp_index[columns.start : columns.end + 1] if h >= 0]

    def spans(self, docid: str, fill: TextFill) -> tuple[str | None, Iterator[tuple[int, int]]]:
        """The hypothesis text and the (start, end) character spans of the projections of a fill
        with an extent, as :meth:`candidates` makes them (each span once, when asked for)."""
        columns = self.alignment.ref_extent(docid, fill.extent)
        space = None if columns is None else self._space(docid)
        if space is None or space[3] is None:
            return None, iter(())
        return space[3], ((start, end) for start, end, _ in self._spans(docid, fill, columns, space))

    def _spans(
        self, docid: str, fill: TextFill, columns: Extent, space: _Space
    ) -> Iterator[tuple[int, int, tuple[int, int] | None]]:
        """The (start, end) spans of :meth:`spans`, each with the span of the run of tokens it is
        a run of (its first and its last token's), when it is one of the runs of the tokens of
        the columns widened over the insertions at their edges (else None)."""
        tokens = self._tokens(space, columns)
        made: set[tuple[int, int]] = set()
        if tokens:
            first = (space[1][tokens[0]], space[2][tokens[-1]])
            made.add(first)
            yield first[0], first[1], None
        if self.judge is not None:
            yield from self._later(docid, fill, space, self._widened(docid, columns, space, tokens), made)

    def _widened(self, docid: str, columns: Extent, space: _Space, tokens: Sequence[int]) -> Sequence[int]:
        """The tokens of ``columns`` (``tokens``) widened over the insertions at their edges (the
        batch reads them from its row instead: :meth:`_later_of`)."""
        widened = self.alignment.ref_enclosure(docid, columns)
        return self._tokens(space, widened) if widened != columns else tokens

    def _later(
        self, docid: str, fill: TextFill, space: _Space, wide: Sequence[int], made: set[tuple[int, int]]
    ) -> Iterator[tuple[int, int, tuple[int, int] | None]]:
        """The spans of :meth:`_spans` after the tokens of the columns, which a judge tries: the
        runs of ``wide`` (the columns' tokens widened, :meth:`_widened`), or of a long fill's
        minimal strings, not ``made`` already."""
        starts, ends = space[1], space[2]
        if len(wide) <= _MAX_RUN_TOKENS:
            region = (starts[wide[0]], ends[wide[-1]]) if wide else None
            for i, a in enumerate(wide):
                start = starts[a]
                for b in wide[i:]:
                    end = ends[b]
                    if (start, end) not in made:
                        made.add((start, end))
                        yield start, end, region
        else:  # a long fill: the runs of its minimal strings
            for extent in fill.minimal_extents:
                minimal = self.alignment.ref_extent(docid, extent)
                if minimal is not None:
                    run = self._tokens(space, minimal)
                    if run and (starts[run[0]], ends[run[-1]]) not in made:
                        made.add((starts[run[0]], ends[run[-1]]))
                        yield starts[run[0]], ends[run[-1]], None

    def candidates(self, docid: str, fill: TextFill) -> Iterator[TextFill]:
        """The projections of a fill with an extent: the tokens of its columns first,
        then (with a judge) the runs of them and of the insertions at their edges,
        each made when it is asked for (a judge asks for more than the first only
        when that one is not all correct)."""
        text, spans = self.spans(docid, fill)
        for start, end in spans:
            yield _hyp_fill(_one_line(text[start:end]), start, end)  # type: ignore[index]

    def fill(self, docid: str, fill: Fill, optional: bool = False) -> Fill | None:
        if type(fill) is not TextFill or fill.extent is None:
            return fill if type(fill) is not TextFill else _plain(fill)
        if self.alignment is None:
            extent = fill.extent
            return _hyp_fill(_one_line(fill.content), extent.start, extent.end)
        columns = self.alignment.ref_extent(docid, fill.extent)
        space = None if columns is None else self._space(docid)
        if space is None or space[3] is None:
            return None
        text = space[3]
        tokens = self._tokens(space, columns)
        if tokens:  # the first candidate (see _spans)
            start, end = space[1][tokens[0]], space[2][tokens[-1]]
            spans = None
        else:
            spans = self._spans(docid, fill, columns, space)
            first = next(spans, None)
            if first is None:
                return None
            start, end, _ = first
        content = _one_line(text[start:end])
        judge = self.judge
        if judge is None:
            return _hyp_fill(content, start, end)
        # Every point of a candidate is COR or INC, and each candidate has as many points
        # (they all have an extent): its rank is its COR count, and a later candidate
        # replaces the best so far (the first of equals) only with more COR.
        points = judge.points
        best, best_cor = (content, start, end), judge.first(docid, fill, content, start, end, points)
        if best_cor == points:  # the usual fill: all of it correct
            return _hyp_fill(content, start, end)
        if spans is None:
            spans = self._later(docid, fill, space, self._widened(docid, columns, space, tokens), {(start, end)})
        return self._best_of(docid, fill, optional, text, spans, best, best_cor)

    def _best_of(
        self,
        docid: str,
        fill: TextFill,
        optional: bool,
        text: str,
        spans: Iterator[tuple[int, int, tuple[int, int] | None]],
        best: tuple[str, int, int],
        best_cor: int,
    ) -> Fill | None:
        """What :meth:`fill` makes of a fill whose first candidate ``best`` has ``best_cor`` COR
        points, fewer than all: the later candidates ``spans`` tried in turn, each replacing the
        best so far only with more COR, then the fill left out if that scores better."""
        judge = self.judge
        assert judge is not None
        points = judge.points
        runs: _Runs | None = None
        for start, end, region in spans:
            if region is not None and judge.reads_words and points - 1 <= best_cor:
                # it needs a correct content to beat the best: most candidates are runs of whole
                # words whose content is not, seen from their words (see _Runs)
                if runs is None or runs.region != region:
                    runs = _Runs(judge, docid, fill, text, region)
                if runs.correct(start, end) is False:
                    continue
            content = _one_line(text[start:end])
            cor = judge.judge(docid, fill, content, start, end, points, best_cor)
            if cor is not None:
                best, best_cor = (content, start, end), cor
                if best_cor == points:
                    break  # no candidate can do better
        # left out, the fill has no COR: it can only beat a best without COR (all INC)
        if not best_cor and _rank(judge.fill(docid, fill, None, optional)) < (0, points, points):
            return None
        return _hyp_fill(*best)

    def slot(self, inst: Instance, slot: Slot) -> Slot | None:
        docid = inst.docid
        judge = self.judge
        chosen: tuple[Fill, ...] | None = None
        if judge is None:
            # every alternative projected (the batch's fills are taken in order), the first that survives kept
            alternatives = [
                [self._take(docid, f, False) for f in alternative.fills] for alternative in slot.alternatives
            ]
            for number, projected in enumerate(alternatives):
                kept = tuple(f for f in projected if f is not None)
                if len(kept) == len(projected):
                    chosen = kept
                    break
                if number == 0:
                    chosen = kept
        else:
            best: tuple[tuple[int, int, int], int] | None = None
            for number, alternative in enumerate(slot.alternatives):
                projected = [self._take(docid, f, slot.optional) for f in alternative.fills]
                kept = tuple(f for f in projected if f is not None)
                if len(slot.alternatives) == 1:
                    chosen = kept
                    break
                counts = judge.slot(inst, slot.name, kept)
                key = (_rank(counts) if counts is not None else (0, 0, 0), number)
                if best is None or key < best:
                    best, chosen = key, kept
        if not chosen:
            return None
        return Slot(slot.name, (FillAlternative(chosen),))

    def instance(self, inst: Instance) -> Instance:
        if self._batch is not None:
            return self._batched_instance(inst)
        slots = tuple(s for s in (self.slot(inst, slot) for slot in inst.slots) if s is not None)
        return Instance(inst.type, inst.docid, inst.number, slots)

    def _batched_instance(self, inst: Instance) -> Instance:
        """:meth:`instance` with a batch: a slot of one alternative (most) projected here, in
        one loop (the same as :meth:`slot` makes it), the others by :meth:`slot`."""
        docid = inst.docid
        slots: list[Slot] = []
        settled, made_all = self._settled, self._made
        number = self._at  # (the batch's next fill, kept here and written back around the other slots)
        for slot in inst.slots:
            alternatives = slot.alternatives
            if len(alternatives) == 1:
                fills = alternatives[0].fills
                if len(fills) == 1 and type(fill := fills[0]) is TextFill and fill.extents:
                    # one text fill with an extent (most slots): _take, its decision read here
                    made = made_all[number]
                    if made is _PENDING or made is _UNDECIDED:
                        made = settled(number, docid, fill, slot.optional)
                    number += 1
                    if made is not None:
                        slots.append(Slot(slot.name, (FillAlternative((made,)),)))
                    continue
            self._at = number
            if len(alternatives) != 1:
                made_slot = self.slot(inst, slot)
                if made_slot is not None:
                    slots.append(made_slot)
            else:
                take = self._take
                chosen = [
                    made for fill in alternatives[0].fills if (made := take(docid, fill, slot.optional)) is not None
                ]
                if chosen:
                    slots.append(Slot(slot.name, (FillAlternative(tuple(chosen)),)))
            number = self._at
        self._at = number
        return Instance(inst.type, docid, inst.number, tuple(slots))


def _plain(fill: TextFill) -> TextFill:
    """A reference fill without extent as a hypothesis writes it (no minimal strings)."""
    content = _one_line(fill.content)
    return TextFill(content, ((0, len(content)),), (), (), False, fill.quoted)


def project(
    ref: TemplateSet,
    alignment: Any = None,
    hyp_corpus: Corpus | None = None,
    judge: Judge | Callable[[], Judge] | None = None,
) -> TemplateSet:
    """The reference templates projected onto the hypothesis text (see the module docstring).

    Args:
        ref: the reference template set.
        alignment: the :class:`~hub4eval.text.columns.CorpusAlignment` of the
            two texts, or None when they are the same.
        hyp_corpus: the hypothesis corpus the alignment was made from (its
            characters become the projected content).
        judge: scores the choices as the scorer would (the ceiling as a true
            upper bound), or a function that makes one; None: the tokens of
            each fill's columns and the first alternative that survives.

    Returns:
        A hypothesis template set. With a segmented hypothesis text, the
        instance sets of documents the hypothesis text lacks are left out.
    """
    if callable(judge) and not isinstance(judge, Judge):
        judge = judge()
    if judge is not None:
        judge.begin()
    projector = _Projector(alignment, hyp_corpus, judge)
    keep_all = alignment is None or alignment.unsegmented or hyp_corpus is None
    kept = [
        iset
        for iset in ref.instance_sets
        if keep_all or hyp_corpus.document(iset.docid) is not None  # type: ignore[union-attr]
    ]
    sets: list[InstanceSet] = []
    # the first candidates found for a part of the sets at a time: all at once, their rows and
    # numpy's arrays for 40,000 fills raised a million-word score's peak of memory by ~50 MB
    instance = projector.instance
    for at in range(0, len(kept), _SETS_AT_ONCE):
        part = kept[at : at + _SETS_AT_ONCE]
        projector.begin(part)
        sets += [InstanceSet(iset.docid, tuple(map(instance, iset.instances))) for iset in part]
    return TemplateSet(tuple(sets), role="hypothesis", path=ref.path)


_SETS_AT_ONCE = 250
"""The instance sets whose fills' first candidates :func:`project` finds at once."""


__all__ = ["Judge", "project"]
