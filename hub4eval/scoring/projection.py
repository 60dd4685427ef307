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
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from hub4eval.io.templettes.checks import OFFSETS, whole_span
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
from hub4eval.scoring.metrics import Counts
from hub4eval.scoring.noisy import kept_correct
from hub4eval.scoring.verdicts import (
    TextComparison,
    clean_content_status,
    compare_text,
    exact_extent_status,
    extent_status,
    noisy_content_ok,
    unpaired_text,
)

_MAX_RUN_TOKENS = 12
"""A fill over more hypothesis tokens than this tries only its whole run and its minimal strings' runs."""

_LINE_BREAKS = str.maketrans(
    {"\r": " ", "\n": " ", "\x0b": " ", "\x0c": " ", "\x85": " ", "\u2028": " ", "\u2029": " "}
)


def _content_ok(ref: PreparedFill, hyp: PreparedFill, how: TextComparison) -> bool:
    """Whether the content point of the pair is COR (the category :func:`compare_text` gives)."""
    return noisy_content_ok(ref, hyp, how.fillers) if how.noisy else clean_content_status(ref, hyp) == "ok"


def _extent_ok(ref: PreparedFill, hyp: PreparedFill, how: TextComparison) -> bool:
    """Whether the extent point of the pair is COR (the category :func:`compare_text` gives)."""
    if how.exact_extent:
        return exact_extent_status(ref, hyp) == "exact"
    return extent_status(ref, hyp) == "ok"


def _hyp_fill(content: str, start: int, end: int) -> TextFill:
    """A hypothesis text fill as the templette reader builds one."""
    if 0 <= start <= end < len(OFFSETS):  # one int object per offset, one spans tuple per length
        start, end = OFFSETS[start], OFFSETS[end]
    extents = (Extent(start, end),)
    return TextFill(content, whole_span(len(content)), extents, extents, False, True)


def _rank(counts: Counts) -> tuple[int, int, int]:
    """Best first: most COR, fewest INC + MIS + SPU, fewest INC + SPU (ACT less COR)."""
    return (-counts.cor, counts.errors, counts.inc + counts.spu)


class Judge:
    """Scores projected fills and slots against the reference exactly as the scorer does.

    Args:
        mapper: a :class:`~hub4eval.scoring.mapping.Mapper` made with the
            scoring options and the preparers of these two texts.
        instance_keys: the keys of the reference instances (a projected
            pointer points to the instance of the same key, mapped to it).
    """

    def __init__(self, mapper: Any, instance_keys: Sequence[str]) -> None:
        self.mapper = mapper
        # its candidates are runs of the same hypothesis words: each word worked out once
        hyp_prep = mapper.hyp_prep
        hyp_prep.by_words()
        how = mapper.how
        # a candidate's content compared from the words its string keeps (noisy comparison)
        self._by_word = hyp_prep.by_word if how.noisy and hyp_prep.by_word is not None else None
        if self._by_word is not None and self._by_word.fillers != how.fillers:
            self._by_word = None
        self.identity = {key: key for key in instance_keys}
        self._last: tuple[TextFill, str, Any, Any] | None = None  # the reference fill prepared last
        # the points of a reference fill paired with a projected one, which has an extent
        self.points = int(mapper.how.content) + int(mapper.how.extent)

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
            # the content point reads the normalized strings only: the extent is not mapped yet;
            # a later candidate's string is not remembered (most are tried once and rejected),
            # and of it the noisy comparison reads only the words it keeps
            kept = None if ref_words is None or above < 0 else self._kept(content)
            if kept is not None:
                ok = kept_correct(ref_words[0], ref_words[1], kept)
            else:
                string = hyp_prep.content_string(content, above < 0)
                ok = _content_ok(ref, PreparedFill(_hyp_fill(content, start, end), string, (string,), True), how)
            cor += ok
            if cor + left <= above:
                return None
        if left and _extent_ok(ref, hyp_prep.prepare(_hyp_fill(content, start, end), docid), how):
            cor += 1
        return cor if cor > above else None

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

    def _prepared(self, ref_fill: TextFill, docid: str) -> tuple[Any, Any]:
        """The reference fill prepared, and (noisy comparison) its maximal and minimal strings'
        words (the fill judged last is kept: its candidates come one after another)."""
        last = self._last
        if last is not None and last[0] is ref_fill and last[1] == docid:
            return last[2], last[3]
        ref = self.mapper.ref_prep.prepare(ref_fill, docid)
        words = None
        if self._by_word is not None:
            fillers = self.mapper.how.fillers
            maximal = ref.maximal.noisy_words(fillers)
            words = (maximal, [m.noisy_words(fillers) for m in ref.minimals] or [maximal])
        self._last = (ref_fill, docid, ref, words)
        return ref, words

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


class _Projector:
    def __init__(self, alignment: Any, hyp_corpus: Corpus | None, judge: Judge | None = None) -> None:
        self.alignment = alignment
        self.texts: dict[int, str | None] = {}
        self.hyp_corpus = hyp_corpus
        self.judge = judge
        self.spaces: dict[int, tuple[Sequence[int], Sequence[int], Sequence[int], str | None]] = {}

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

    def _space(self, docid: str) -> tuple[Sequence[int], Sequence[int], Sequence[int], str | None] | None:
        """Of the column space of reference document ``docid``: the hypothesis token of each
        column (-1: none), each hypothesis token's start and end, and the hypothesis text."""
        space = self.alignment.column_space(docid, reference=True)
        if space is None:
            return None
        found = self.spaces.get(space)
        if found is None:
            from hub4eval.text.columns import int_view, token_bounds

            document = self.alignment.documents[space]
            starts, ends = token_bounds(document.hyp_tokens)
            found = self.spaces[space] = (int_view(document.alignment.hyp_index), starts, ends, self._text(space))
        return found

    def _run(self, docid: str, columns: Extent) -> tuple[list[tuple[int, int]], str | None]:
        """The (start, end) character spans of the hypothesis tokens in ``columns``, and their text."""
        space = self._space(docid)
        if space is None:
            return [], None
        hyp_index, starts, ends, text = space
        spans = [(starts[h], ends[h]) for h in hyp_index[columns.start : columns.end + 1] if h >= 0]
        return spans, text

    def spans(self, docid: str, fill: TextFill) -> tuple[str | None, Iterator[tuple[int, int]]]:
        """The hypothesis text and the (start, end) character spans of the projections of a fill
        with an extent, as :meth:`candidates` makes them (each span once, when asked for)."""
        columns = self.alignment.ref_extent(docid, fill.extent)
        if columns is None:
            return None, iter(())
        spans, text = self._run(docid, columns)
        if text is None:
            return None, iter(())
        return text, self._spans(docid, fill, columns, spans)

    def _spans(
        self, docid: str, fill: TextFill, columns: Extent, spans: list[tuple[int, int]]
    ) -> Iterator[tuple[int, int]]:
        made: set[tuple[int, int]] = set()
        if spans:
            first = (spans[0][0], spans[-1][1])
            made.add(first)
            yield first
        if self.judge is None:
            return
        widened = self.alignment.ref_enclosure(docid, columns)
        wide = self._run(docid, widened)[0] if widened != columns else spans
        if len(wide) <= _MAX_RUN_TOKENS:
            for i, (start, _) in enumerate(wide):
                for _, end in wide[i:]:
                    if (start, end) not in made:
                        made.add((start, end))
                        yield start, end
        else:  # a long fill: the runs of its minimal strings
            for extent in fill.minimal_extents:
                minimal = self.alignment.ref_extent(docid, extent)
                if minimal is not None:
                    run, _ = self._run(docid, minimal)
                    if run and (run[0][0], run[-1][1]) not in made:
                        made.add((run[0][0], run[-1][1]))
                        yield run[0][0], run[-1][1]

    def candidates(self, docid: str, fill: TextFill) -> Iterator[TextFill]:
        """The projections of a fill with an extent: the tokens of its columns first,
        then (with a judge) the runs of them and of the insertions at their edges,
        each made when it is asked for (a judge asks for more than the first only
        when that one is not all correct)."""
        text, spans = self.spans(docid, fill)
        for start, end in spans:
            yield _hyp_fill(text[start:end].translate(_LINE_BREAKS), start, end)  # type: ignore[index]

    def fill(self, docid: str, fill: Fill, optional: bool = False) -> Fill | None:
        if type(fill) is not TextFill or fill.extent is None:
            return fill if type(fill) is not TextFill else _plain(fill)
        if self.alignment is None:
            extent = fill.extent
            return _hyp_fill(fill.content.translate(_LINE_BREAKS), extent.start, extent.end)
        text, spans = self.spans(docid, fill)
        first = next(spans, None)
        if first is None or text is None:
            return None
        start, end = first
        content = text[start:end].translate(_LINE_BREAKS)
        judge = self.judge
        if judge is None:
            return _hyp_fill(content, start, end)
        # Every point of a candidate is COR or INC, and each candidate has as many points
        # (they all have an extent): its rank is its COR count, and a later candidate
        # replaces the best so far (the first of equals) only with more COR.
        points = judge.points
        best, best_cor = (content, start, end), judge.judge(docid, fill, content, start, end, points, -1) or 0
        if best_cor == points:  # the usual fill: all of it correct
            return _hyp_fill(content, start, end)
        for start, end in spans:
            content = text[start:end].translate(_LINE_BREAKS)
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
            for number, alternative in enumerate(slot.alternatives):
                projected = [self.fill(docid, f) for f in alternative.fills]
                kept = tuple(f for f in projected if f is not None)
                if len(kept) == len(projected):
                    chosen = kept
                    break
                if number == 0:
                    chosen = kept
        else:
            best: tuple[tuple[int, int, int], int] | None = None
            for number, alternative in enumerate(slot.alternatives):
                projected = [self.fill(docid, f, slot.optional) for f in alternative.fills]
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
        slots = tuple(s for s in (self.slot(inst, slot) for slot in inst.slots) if s is not None)
        return Instance(inst.type, inst.docid, inst.number, slots)


def _plain(fill: TextFill) -> TextFill:
    """A reference fill without extent as a hypothesis writes it (no minimal strings)."""
    content = fill.content.translate(_LINE_BREAKS)
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
    projector = _Projector(alignment, hyp_corpus, judge)
    keep_all = alignment is None or alignment.unsegmented or hyp_corpus is None
    sets = tuple(
        InstanceSet(iset.docid, tuple(projector.instance(inst) for inst in iset.instances))
        for iset in ref.instance_sets
        if keep_all or hyp_corpus.document(iset.docid) is not None  # type: ignore[union-attr]
    )
    return TemplateSet(sets, role="hypothesis", path=ref.path)


__all__ = ["Judge", "project"]
