"""Score two template sets, from checking the inputs to the result: the core the API runs.

:func:`score` checks the template sets against their texts, aligns the texts
when they differ (:mod:`hub4eval.text.columns`), prepares every fill, maps
the instance sets (:mod:`hub4eval.scoring.mapping`), counts the points and
scores the ceiling (:mod:`hub4eval.scoring.projection`). It reads no file:
:mod:`hub4eval.api` reads the files and calls it, and
:mod:`hub4eval.parallel` calls it on each group of documents.

Why one module: it is the order of the stages and what each hands the next
(which preparer remembers what, which run is forked when, what is freed
before the next mapping); every stage's work is a call into its own module.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Sequence
from functools import partial
from itertools import chain
from typing import TYPE_CHECKING, Any

from hub4eval.config import ScoreConfig
from hub4eval.errors import InputError, InputWarning, UsageError
from hub4eval.model import Corpus, Extent, Instance, InstanceSet, TemplateSet, TextFill
from hub4eval.scoring.ceiling_runs import ProjectionRuns, ceiling_part, contents
from hub4eval.scoring.fills import FillPreparer, PreparedFill
from hub4eval.scoring.mapping import CountedSet, Mapper, SetMatch
from hub4eval.scoring.result import ScoreResult, Tally
from hub4eval.scoring.set_extents import HypSetExtents, KnownExtents
from hub4eval.scoring.slot_errors import counted_slot_errors
from hub4eval.util.gcpause import paused_gc
from hub4eval.util.kept import keep_until_exit

if TYPE_CHECKING:
    from hub4eval.scoring.counted_points import CountedRun

_COUNTED_LATER: dict[str, Any] = {}
"""The WER given to the ceiling's score while the caller's is still being counted (replaced by it)."""


def load_glm(spec: str | Sequence[str], *, keep_punctuation: bool = False):  # -> Glm | GlmStack | None
    """``default`` (the shipped English file), ``none``, or a GLM file path;
    several (a sequence) are stacked and apply in the order given. With
    ``keep_punctuation`` the rules are cut into tokens as text is under
    ``--keep-punctuation`` (``%hesitation`` keeps its ``%``)."""
    specs = [spec] if isinstance(spec, str) else list(spec)
    specs = [s for s in specs if s != "none"]
    if not specs:
        return None
    from hub4eval.text.glm import default_glm, read_glm, stack_glms

    glm = stack_glms([default_glm() if s == "default" else read_glm(s) for s in specs])
    return glm.keeping_punctuation() if keep_punctuation and glm is not None else glm


def glm_digests(glm) -> tuple[str, ...] | None:  # glm: Glm | GlmStack | None
    """One digest per applied mapping file, for the signature."""
    if glm is None:
        return None
    return glm.digests if hasattr(glm, "digests") else (glm.digest,)


def texts_differ(ref: Corpus, hyp: Corpus) -> bool:
    """Whether the two texts differ, so that extents are compared through a word alignment.

    Only the segmentation and the sequence of (DOCID, document text from
    ``<DOC>`` through ``</DOC>``) count: where the documents lie in the file
    (blank lines between or before them) does not.
    """
    if ref.segmented != hyp.segmented:
        return True
    return [(d.docid, d.text) for d in ref.documents] != [(d.docid, d.text) for d in hyp.documents]


def _strings(tsets: Sequence[TemplateSet], config: ScoreConfig) -> list[str]:
    """The strings of the text fills of the scored slots of these sets that preparing them
    normalizes: each fill's content, and the minimal strings of a reference fill that has them
    (in file order, set after set; a minimal string that is the whole content is the content again)."""
    from hub4eval.io.templettes.checks import WHOLE_SPANS

    unscored = frozenset(config.unscored_slots)
    listed = [usual[0] for tset in tsets if (usual := tset.usual_fills()) is not None]
    if len(listed) == len(tsets) and unscored.isdisjoint(
        {slot.name for tset in tsets for iset in tset.instance_sets for inst in iset.instances for slot in inst.slots}
    ):
        # every text fill is one the reader made of a usual line (its content is its one minimal
        # string) and listed in file order (TemplateSet.usual_fills), and every slot is scored:
        # their contents in the order of that list (the walk below, without reading each fill's
        # spans, about a tenth of its time; a walk over the slots alone checks their names)
        return [fill.content for fills in listed for fill in fills]
    whole = WHOLE_SPANS.get
    # as tset.text_fills(unscored), written out and in one walk of the sets (a million-word score
    # has 80,000 fills): the content of a usual fill, the fill itself when it has minimal strings.
    # A fill the reader made without brackets shares its one whole span (WHOLE_SPANS, by length):
    # that is one look-up a fill, about 600 instructions against 870 for reading the span (which
    # is still read for any other fill, e.g. one made by hand)
    odd: TextFill | None = None  # (the last fill with minimal strings, if any: then they are put in below)
    found: list[str | TextFill] = [
        content
        if (spans := fill.minimal_spans) is whole(len(content := fill.content))
        or (len(spans) == 1 and not spans[0][0] and spans[0][1] == len(content))
        else (odd := fill)
        for tset in tsets
        for iset in tset.instance_sets
        for inst in iset.instances
        for slot in inst.slots
        if slot.name not in unscored
        for alternative in slot.alternatives
        for fill in alternative.fills
        if type(fill) is TextFill
    ]
    if odd is None:  # every fill usual (known without reading the list again: 80,000 items)
        return found  # type: ignore[return-value]
    strings: list[str] = []
    for item in found:
        if type(item) is str:
            strings.append(item)
        else:
            content = item.content  # type: ignore[union-attr]
            strings.extend((content, *[content[a:b] for a, b in item.minimal_spans]))  # type: ignore[union-attr]
    return strings


def _prepare_fills(tset: TemplateSet, preparer: FillPreparer, unscored: frozenset[str]) -> None:
    """Prepare the text fills of the scored slots of ``tset`` (a remembering preparer keeps them)."""
    prepare = preparer.prepare
    for docid, fill in tset.text_fills(unscored):
        prepare(fill, docid)


class _PreparedOnce(FillPreparer):
    """A preparer that, while it remembers, prepares each fill once however often it is asked.

    A prepared fill is an immutable record of its fill and the options, so the
    mappings of one score may share it; the fill is kept alive by its record,
    so its ``id()`` names it as long as it is remembered.
    """

    _prepared: dict[str, dict[int, PreparedFill]] | None = None
    """Per DOCID, the fills prepared, by ``id()`` (a dictionary per document instead of a
    (``id``, DOCID) tuple per fill: 64 bytes less a fill, 80,000 fills in a score)."""

    def prepare(self, fill: TextFill, docid: str) -> PreparedFill:
        prepared = self._prepared
        if prepared is None:
            return FillPreparer.prepare(self, fill, docid)
        by_fill = prepared.get(docid)
        if by_fill is None:
            by_fill = prepared[docid] = {}
        key = id(fill)
        found = by_fill.get(key)
        if found is None:
            found = by_fill[key] = FillPreparer.prepare(self, fill, docid)
        return found

    def prepare_mapped(self, fill: TextFill, docid: str, columns: Extent, widened: Extent) -> PreparedFill:
        prepared = self._prepared
        if prepared is None:
            return FillPreparer.prepare_mapped(self, fill, docid, columns, widened)
        # found when remembered, but not remembered when made here: the projection prepares every
        # reference fill this way, one after another, and the counts that follow read the fills
        # from their tables (hub4eval.scoring.fill_tables), not from these records (40,000 fills:
        # about 34 MB kept to the end of a score for nothing)
        by_fill = prepared.get(docid)
        found = None if by_fill is None else by_fill.get(id(fill))
        return FillPreparer.prepare_mapped(self, fill, docid, columns, widened) if found is None else found

    def remember(self) -> None:
        """Remember every fill prepared from now on (until :meth:`forget`)."""
        if self._prepared is None:
            self._prepared = {}

    def forget(self) -> None:
        self._prepared = None


def _columns_of(alignment: Any) -> Callable[[TextFill, str], Extent | None]:
    """A text fill of an unsegmented hypothesis -> the alignment columns of its maximal extent."""
    return lambda fill, docid: alignment.hyp_extent(None, fill.extents[0]) if fill.extents else None


def _many_hyp_extents(alignment: Any) -> Callable[[Sequence[Extent]], list[Extent | None]] | None:
    """``alignment.hyp_extent(None, extent)`` of many extents of an unsegmented hypothesis at
    once, found in numpy (:func:`hub4eval.text.column_extents.extents_of`); None for another
    alignment."""
    from hub4eval.text.columns import CorpusAlignment

    if not isinstance(alignment, CorpusAlignment) or not alignment.unsegmented:
        return None

    def many(extents: Sequence[Extent]) -> list[Extent | None]:
        import numpy as np

        from hub4eval.text.column_extents import extents_of

        starts = np.fromiter((extent.start for extent in extents), dtype=np.int64, count=len(extents))
        ends = np.fromiter((extent.end for extent in extents), dtype=np.int64, count=len(extents))
        first, last, found = extents_of(alignment, False, None, starts, ends)
        return [
            Extent(a, b) if touches else None
            for a, b, touches in zip(first.tolist(), last.tolist(), found.tolist(), strict=True)
        ]

    return many


@paused_gc()  # bulk work on many small objects: see gcpause
def score(
    ref: TemplateSet,
    hyp: TemplateSet,
    *,
    ref_corpus: Corpus | None = None,
    hyp_corpus: Corpus | None = None,
    config: ScoreConfig | None = None,
    progress: Callable[[int, int], None] | None = None,
    ceiling: bool | None = None,
    alignment: Any = None,
    wer_summary: dict[str, Any] | None = None,
    mapper_class: type[Mapper] = Mapper,
    force: bool = False,
    jobs: int = 1,
    counts_only: bool = False,
    ceiling_counts: bool = False,
    point_runs: Callable[[CountedRun], None] | None = None,
    order: Sequence[str] | None = None,
    count_wer: bool = True,
) -> ScoreResult:
    """Score ``hyp`` against ``ref`` (the rules: docs/scoring-rules.md).

    Args:
        ref: the reference template set.
        hyp: the hypothesis template set.
        ref_corpus: the reference text corpus (optional: validates extents).
        hyp_corpus: the hypothesis text corpus; when it differs from the
            reference corpus, extents are compared through a word alignment
            and content is compared as noisy data by default.
        config: scoring options.
        progress: called as ``progress(done, total)`` while instance sets
            are mapped (e.g. to drive a progress bar).
        ceiling: also score the reference projected onto the hypothesis
            text (``result.ceiling``, docs/attribution.md): None (default) when the texts
            differ, True always (the same texts give 100 %), False never.
        alignment: the :class:`~hub4eval.text.columns.CorpusAlignment` of
            these two corpora with these options, made before (reused
            instead of aligning again).
        wer_summary: the WER of ``alignment`` counted before (reused with it:
            counting sclite's alignment of a million words takes seconds).
        mapper_class: the mapping's rules (named entities:
            :class:`hub4eval.scoring.entities.EntityMapper`).
        force: score even when most text fills of a file do not fit their
            text (:func:`check_texts`), with a warning per fill.
        jobs: the processes that may align the texts at once, when they
            differ (:mod:`hub4eval.text.aligned_texts`); the result is the
            same for every number.
        counts_only: keep only the counts and the mapping's pairs: the result
            holds a :class:`~hub4eval.scoring.result.Tally`, no points (and most
            match records are never made), when the mapper is the usual one and
            the texts are not aligned, or are aligned and no ``point_runs`` is
            given (the tally then holds the error points by cause and the
            reference instance sets, for the causes and the entity WER);
            otherwise ignored.
        ceiling_counts: keep only the counts, the pairs and the kinds of the
            errors per slot of the ceiling (see :func:`_score_ceiling`), which
            is all the reports read of it.
        point_runs: with ``counts_only`` (when it applies), called with each run of
            instance sets as soon as it is counted, with what their points need
            (:mod:`hub4eval.scoring.counted_points`): the points of a result of counts
            (the JSON's entries) are written from it. Not called when ``counts_only``
            does not apply: the result then holds every point.
        order: the instance types in dependency order, as
            :func:`~hub4eval.scoring.mapping.type_order` gives them for ``ref`` and
            ``hyp``, when the caller has worked them out (None: worked out here).
        count_wer: count sclite's WER of texts that differ (``result.wer``); False
            when only the ceiling's projection is wanted (:func:`hub4eval.api.project_files`):
            the WER is then None, and the seconds of sclite's alignment of a long text
            are saved.

    Raises:
        InputError: bad input (unknown DOCID, extent outside its document,
            a cycle of pointer types, ...).
    """
    config = config or ScoreConfig()
    warnings: list[InputWarning] = [*ref.warnings, *hyp.warnings]
    if hyp_corpus is not None and ref_corpus is None:
        raise UsageError("a hypothesis text needs a reference text", hint="add --ref-text")
    if config.unsegmented and hyp_corpus is None:
        raise UsageError("--unsegmented needs the hypothesis text", hint="add --hyp-text")
    if ref_corpus is not None or hyp_corpus is not None:
        from hub4eval.io.corpus import with_spoken_element

        # the spoken element is a scoring option: corpora read with another one follow it (§1)
        if ref_corpus is not None:
            ref_corpus = with_spoken_element(ref_corpus, config.spoken_element)
        if hyp_corpus is not None:
            hyp_corpus = with_spoken_element(hyp_corpus, config.spoken_element)
    if config.unsegmented and hyp_corpus is not None:
        from hub4eval.io.corpus import as_unsegmented

        hyp_corpus = as_unsegmented(hyp_corpus)  # offsets from the start of the file (§7.4)
    aligned = ref_corpus is not None and hyp_corpus is not None and texts_differ(ref_corpus, hyp_corpus)
    texts = "none" if ref_corpus is None else ("aligned" if aligned else "same")
    noisy = config.content == "noisy" or (config.content == "auto" and aligned)
    # Before the templates are checked against the texts: swapped or unrelated
    # text files are the cause to report, not the DOCIDs they then lack.
    if ref_corpus is not None and hyp_corpus is not None:
        _check_corpus_pairing(ref_corpus, hyp_corpus, by_words=config.unsegmented is True)
    elif ref_corpus is not None and not ref_corpus.segmented:
        raise unsegmented_reference_error(ref_corpus)
    if ref_corpus is not None:
        warnings += ref_corpus.warnings
        if hyp_corpus is not None:
            warnings += hyp_corpus.warnings
        warnings += check_texts(ref, hyp, ref_corpus, hyp_corpus, as_stream=config.unsegmented is True, force=force)
    elif _has_extents(ref) or _has_extents(hyp):
        warnings.append(RAW_OFFSETS)
    uses_glm = aligned or noisy
    # A GLM file named by the user is read even when it will not be used, so
    # that a bad file is reported on every run, not only on the runs with texts.
    glm = (
        load_glm(config.glm, keep_punctuation=config.keep_punctuation)
        if uses_glm or config.glm not in (("default",), ("none",))
        else None
    )
    if glm is not None and not uses_glm:
        warnings.append(
            InputWarning(
                "--glm is not used: spelling normalization applies only when the texts differ "
                "(--hyp-text) or with --content noisy",
                next((g for g in config.glm if g != "default"), "default"),
            )
        )
        glm = None
    ref_glm_apply = hyp_glm_apply = None
    if glm is not None:
        from hub4eval.text.glm import apply_glm, for_side

        ref_glm_apply = hyp_glm_apply = partial(apply_glm, glm=glm)
        if glm.sections:  # one-sided rule sections: each side its own rules
            ref_glm_apply = partial(apply_glm, glm=for_side(glm, "ref"))
            hyp_glm_apply = partial(apply_glm, glm=for_side(glm, "hyp"))
        warnings += getattr(glm, "warnings", ())
    given_alignment, alignment = alignment, None
    normalized: FillPreparer | None = None
    unsegmented = False
    texts_aligned = None  # the alignment made here, with sclite's WER (perhaps counted in a child)
    if aligned and given_alignment is not None:
        alignment = given_alignment
        warnings += alignment.warnings
        unsegmented = alignment.unsegmented
    elif aligned:
        from hub4eval.text.aligned_texts import align_texts

        made: list[FillPreparer] = []

        def normalize_strings() -> None:
            # the templettes' strings normalized (no extent needed) while a child tokenizes
            # the hypothesis (a stream's) or children make the weighted alignments; sclite's
            # alignment, whose counts are asked for last, is counted once that is done
            prepared = FillPreparer(config, glm_apply=ref_glm_apply, tokens=noisy)
            prepared.normalize(_strings((hyp, ref) if hyp_glm_apply is ref_glm_apply else (ref,), config))
            made.append(prepared)

        texts_aligned = align_texts(
            ref_corpus,  # type: ignore[arg-type]
            hyp_corpus,  # type: ignore[arg-type]
            jobs=jobs,
            glm=glm,
            keep_punctuation=config.keep_punctuation,
            case_sensitive=config.case_sensitive,
            unsegmented=config.unsegmented,
            spoken_forms=config.spoken_forms,
            weighted_beside=True,
            count_wer=count_wer,
            meanwhile=normalize_strings,
        )
        normalized = made[0] if made else None
        texts_aligned.start_counting()  # (none counts it without count_wer: align_texts was told)
        alignment = texts_aligned.alignment
        warnings += alignment.warnings
        unsegmented = alignment.unsegmented
        if count_wer and not texts_aligned.forked:
            # No child counts sclite's alignment: it is counted now, before the templettes
            # are mapped, so that its working memory is freed before theirs is taken (its
            # overall counts only: the result keeps no row per document).
            texts_aligned.wer_summary()
    if not unsegmented:
        warnings += _check_docids(ref, hyp)
    scoring_ceiling = bool(ceiling or (ceiling is None and aligned))
    signature = config.signature(texts=texts, glm_digest=glm_digests(glm))

    def _hyp_preparer() -> _PreparedOnce:
        return _PreparedOnce(
            config,
            map_extent=alignment.hyp_extent if alignment is not None else None,
            glm_apply=hyp_glm_apply,
            reference=False,
            unsegmented=unsegmented,
            tokens=noisy,
        )

    ref_prep = _PreparedOnce(
        config,
        map_extent=alignment.ref_extent if alignment is not None else None,
        glm_apply=ref_glm_apply,
        reference=True,
        tokens=noisy,
        widen=alignment.ref_enclosure if alignment is not None else None,
    )
    if normalized is not None:
        ref_prep.share_texts(normalized)
    hyp_prep = _hyp_preparer()
    hyp_prep.share_texts(ref_prep)  # a hypothesis mostly repeats the reference's strings
    if noisy and normalized is None:
        # the templettes' strings normalized all at once (made of the same few thousand words),
        # as while a child aligns (above), instead of one by one as the mappings first ask
        if hyp_prep.normalizes_like(ref_prep):  # the two sets' strings at once, each normalized once
            ref_prep.normalize(_strings((hyp, ref), config))
        else:
            hyp_prep.normalize(_strings((hyp,), config))
            ref_prep.normalize(_strings((ref,), config))
    if scoring_ceiling:
        # the reference fills are prepared for three mappings (the system's, the
        # projection's judge and the ceiling's): once, their records shared
        ref_prep.remember()
    done = [0]
    total_sets = len(ref.instance_sets)

    def advance(step: int) -> None:
        done[0] += step
        if progress is not None:
            progress(done[0], total_sets)

    mapper = mapper_class(config, ref_prep, hyp_prep, noisy=noisy, progress=advance if progress else None)
    forked = texts_aligned is not None and texts_aligned.forked
    document_extents = None  # of an unsegmented hypothesis: the reference sets' extents (§7.4), made once
    if unsegmented:
        from hub4eval.scoring import split_sets as split

        document_extents = KnownExtents(ref, [alignment.document_extent(iset.docid) for iset in ref.instance_sets])
        spans = alignment.document_spans()
        columns_of = _columns_of(alignment)
        if config.split_sets:
            hyp = split.split_sets(hyp, spans, columns_of)
        # each hypothesis fill is prepared for its set's extent, then mapped: prepared once
        hyp_prep.remember()
    # With texts that differ, a score that keeps counts counts the mapping too (no match record
    # per chosen pair): the causes of its error points are counted from it (a writer of points
    # asks for the records)
    counting = counts_only and alignment is not None and point_runs is None and type(mapper) is Mapper
    if scoring_ceiling and forked and (unsegmented or not counting):
        # The projection's judge, forked below, prepares every reference fill: made here first
        # (this process needs them for its own mapping anyway), the children have them and do
        # not make them a second time. (The hypothesis fills, which they do not read, are
        # prepared for their sets' extents by the mapping, while the children project.) Not
        # when this process counts the sets of a segmented hypothesis: both of its counts read
        # the fills from fill tables, without a prepared fill, so that the records made here
        # (40,000 at a million words, 8 MB kept to the end) served the children only, and took
        # 14 MB of the peak; a child prepares what its judge reads, as a score in one process does.
        _prepare_fills(ref, ref_prep, mapper.unscored)
    projecting = None
    project_later: Callable[[int], ProjectionRuns] | None = None
    ceiling_order: tuple[str, ...] | None = None  # the ceiling's order of types, once made
    if scoring_ceiling:
        from hub4eval.scoring.projection import Judge

        # the projection's choices are scored as this score scores (a true upper bound, §11);
        # the strings of the candidates it tries are remembered apart, and only those of the
        # chosen ones kept (for the ceiling's mapping)
        judge_prep = _hyp_preparer()
        judge = Judge(
            mapper_class(config, ref_prep, judge_prep, noisy=noisy),
            (inst.key for iset in ref.instance_sets for inst in iset.instances),  # read if a pointer is judged
        )
        judge_prep.read_texts(hyp_prep)
        # It depends on the reference and the alignment only: when the texts were long enough
        # to align in processes, children (one for each core left free: _projecting_children)
        # project runs of it while this one maps the system's templettes (and this one the runs
        # left, once it has), each run's ceiling counted where
        # it was projected (of an unsegmented hypothesis, whose sets are paired by overlap: the
        # runs are put together by hub4eval.scoring.counted_parts)
        count = None
        if (
            forked
            and document_extents is not None  # (an unsegmented hypothesis)
            and ceiling_counts
            and mapper_class is Mapper
            and not config.split_sets
        ):
            ceiling_order = _ceiling_order(ref)
            count = partial(
                ceiling_part,
                config=config,
                ref_extent=document_extents,
                preparers=(ref_prep, hyp_prep, judge_prep),
                noisy=noisy,
                order=ceiling_order,
            )
        children = _projecting_children(jobs, texts_aligned)
        make_runs = partial(ProjectionRuns, ref, alignment, hyp_corpus, judge, count=count)
        if children:
            projecting = make_runs(children)
        else:  # made once the system's templettes are mapped, the children counted again then
            project_later = make_runs
    matches: tuple[SetMatch, ...] | tuple[CountedSet, ...]
    map_sets: Callable[..., Any] | None = None  # the mapper's, of an unsegmented hypothesis
    if unsegmented:
        map_sets = mapper.count_template_sets if counting else mapper.match_template_sets
        matches = map_sets(ref, hyp, ref_extent=document_extents, hyp_extent=HypSetExtents(hyp_prep))
        hyp_prep.forget()
        if not config.split_sets:
            extent_columns = partial(alignment.hyp_extent, None)  # what columns_of reads a fill's first extent with
            warnings += split.spanning_set_warnings(
                hyp, spans, columns_of, matches, extent_columns, _many_hyp_extents(alignment)
            )
    elif counts_only and alignment is None and not scoring_ceiling and type(mapper) is Mapper:
        mapper.point_runs = point_runs
        counted = mapper.count_template_sets(ref, hyp, order)
        return ScoreResult(
            matches=(),
            config=config,
            signature=signature,
            warnings=tuple(warnings),
            wer=wer_summary,
            tally=Tally.counted(counted, mapper.signatures, config.beta),
        )
    elif counting:
        matches = mapper.count_template_sets(ref, hyp, order)
    else:
        matches = mapper.match_template_sets(ref, hyp, order=order)
    tally = None
    if counting:
        from hub4eval.scoring.attribution import Attributor, counted_causes

        counted_sets: tuple[CountedSet, ...] = matches  # type: ignore[assignment]
        tally = dataclasses.replace(
            Tally.counted(counted_sets, mapper.signatures, config.beta),
            # the ceiling decides some causes: they are settled when the result's are read
            causes=counted_causes(counted_sets, mapper, Attributor(alignment)),
            reference_sets=tuple(m.ref for m in counted_sets if m.ref is not None),
            reference_table=_reference_table(mapper, alignment),
        )
        matches = ()
        keep_until_exit(counted_sets)  # as what the end of this function keeps
    del mapper  # its prepared instances, kept while it mapped, are freed before the ceiling's are made
    wer = wer_summary
    if (
        count_wer
        and wer is None
        and texts_aligned is None
        and alignment is not None
        and hasattr(alignment, "wer_summary")
    ):
        from hub4eval.text import wer as wer_module

        wer = wer_module.corpus_wer_summary(alignment)  # sclite's counts; the §7 ones beside them if they differ
    ceiling_result = None
    if project_later is not None:
        # no core was free when the system's mapping began (sclite's child counting, or one
        # core): if one is now, a child projects beside this process, else it projects alone
        projecting = project_later(_projecting_children(jobs, texts_aligned))
    if projecting is not None:
        projected = projecting.result()
        ceiling_parts = projecting.counted
        read = None
        if ceiling_parts is None and unsegmented and not config.split_sets:
            from hub4eval.scoring.ceiling_count import read_projection

            # the judge's normalizations of the projection's strings kept, its sets' extents (by
            # which they are paired with the reference's) and, for a count, its fills as the
            # count reads them, in one walk (split, its sets are others: their extents are read
            # when they are mapped)
            diagonal = ceiling_counts and mapper_class is Mapper
            read = read_projection(projected, frozenset(config.unscored_slots), hyp_prep, judge_prep, diagonal)
        elif ceiling_parts is None:
            judge_prep.keep_texts(hyp_prep, contents(projected))
        # the judge's mapper and the strings it tried (its words' normalizations, the usual words
        # of every content string): freed object by object, about 17 ms of CPU at a million words
        # for no more than 3 MB of the peak, unless the process ends without freeing (util/kept)
        keep_until_exit(projecting, judge, judge_prep)
        del projecting, judge, judge_prep
        ceiling_result = _score_ceiling(
            ref,
            projected,
            config=config,
            alignment=alignment,
            mapper_class=mapper_class,
            # the same texts, options and alignment: the same preparation, each string normalized once
            preparers=(ref_prep, hyp_prep),
            noisy=noisy,
            counts_only=ceiling_counts,
            signature=signature,
            warnings=tuple(warnings),
            # the same texts: the same WER, not counted again (set below when it is still being counted)
            wer=(_COUNTED_LATER if texts_aligned is not None and count_wer else None) if wer is None else wer,
            order=_ceiling_order(ref, tally.reference_table if tally is not None else None)
            if ceiling_order is None
            else ceiling_order,
            ref_extent=document_extents,
            counted=ceiling_parts,
            read=read,
        )
    if texts_aligned is not None and count_wer:
        # sclite's alignment, counted while the templettes were mapped when a child counts it
        wer = texts_aligned.wer_summary()  # sclite's counts; the §7 ones beside them if they differ
        if ceiling_result is not None:
            ceiling_result = dataclasses.replace(ceiling_result, wer=wer)
    if alignment is not None:
        # what the work on texts that differ made and the result does not hold (the preparers'
        # records, the mapper of an unsegmented hypothesis's sets, the tokens), freed object by
        # object when this returns, unless the process ends without freeing (util/kept)
        keep_until_exit(ref_prep, hyp_prep, texts_aligned, map_sets)
    return ScoreResult(
        matches=matches,  # type: ignore[arg-type]
        config=config,
        signature=signature,
        warnings=tuple(warnings),
        wer=wer,
        alignment=alignment,
        ceiling=ceiling_result,
        tally=tally,
    )


def _projecting_children(jobs: int, texts_aligned: Any) -> int:
    """The children that project runs of the reference for the ceiling while this process maps
    the system's templettes (:class:`~hub4eval.scoring.ceiling_runs.ProjectionRuns`): one for each
    of the ``jobs`` cores that neither this process nor a child still counting sclite's
    alignment takes (more would only share the same cores, each run then costing its own start and
    its result sent back: on two cores, the projection is made here, unless sclite's child is
    done once the system's templettes are mapped, when it is asked again); none when the texts
    were not aligned in processes."""
    if texts_aligned is None or not texts_aligned.forked:
        return 0
    return max(0, jobs - 1 - texts_aligned.counting())


def _reference_table(mapper: Mapper, alignment: Any) -> Any:
    """The fill table of the reference's instances that ``mapper``'s count read, its extents
    mapped to the columns of ``alignment`` (:mod:`hub4eval.scoring.fill_tables`), or None."""
    from hub4eval.scoring.fill_tables import kept

    return kept(mapper.ref_prep, unscored=mapper.unscored, alignment=alignment, reference=True)


def _score_ceiling(
    ref: TemplateSet,
    projected: TemplateSet,
    *,
    config: ScoreConfig,
    alignment: Any,
    mapper_class: type[Mapper],
    preparers: tuple[_PreparedOnce, _PreparedOnce],
    noisy: bool,
    counts_only: bool,
    signature: str,
    warnings: tuple[InputWarning, ...],
    wer: dict[str, Any] | None,
    order: Sequence[str],
    ref_extent: Callable[[InstanceSet], Extent | None] | None = None,
    counted: tuple[list[tuple[TemplateSet, TemplateSet]], list[Any]] | None = None,
    read: Any = None,
) -> ScoreResult:
    """The ceiling: ``ref`` scored against its projection onto the hypothesis text, as
    :func:`score` scores two template sets on the same texts and alignment.

    With ``counts_only`` (and the usual mapper), it keeps only what the reports read of
    it: the counts and pairs (a :class:`Tally`), the kinds of the INC and MIS points of
    each reference slot (:attr:`ScoreResult.slot_errors`, which decide the causes: :mod:`hub4eval.scoring.slot_errors`) and
    the projection; most match records are never made. ``warnings``, ``signature`` and
    ``wer`` are the system's score's: the projection is made of the hypothesis text's
    own words, so checking it against that text again tells nothing new. ``counted``: the
    runs of the projection and their counts, made by the children that projected them
    (:func:`~hub4eval.scoring.ceiling_runs.ceiling_part`), put together here (:func:`hub4eval.scoring.counted_parts.join_parts`):
    the same result. ``order``: the ceiling's order of the types (:func:`_ceiling_order`);
    ``ref_extent``: the reference sets' extents, given with an unsegmented hypothesis (those
    of the system's score). ``read``: what was read of the projection of an unsegmented hypothesis
    whose sets are not split (:func:`~hub4eval.scoring.ceiling_count.read_projection`): its sets' extents and, when read,
    its fills, whose pairs of sets are then counted, where each projected instance is provably
    mapped to its own reference instance, without mapping them
    (:class:`~hub4eval.scoring.ceiling_count.Diagonal`).
    """
    ref_prep, hyp_prep = preparers
    mapper = mapper_class(config, ref_prep, hyp_prep, noisy=noisy)
    counting = counts_only and type(mapper) is Mapper
    match = mapper.count_template_sets if counting else mapper.match_template_sets
    hyp = projected
    matched: tuple[CountedSet, ...] | tuple[SetMatch, ...]
    if alignment is not None and alignment.unsegmented:
        if config.split_sets:
            from hub4eval.scoring.split_sets import split_sets

            hyp = split_sets(hyp, alignment.document_spans(), _columns_of(alignment))
        # each projected fill is prepared for its set's extent, then mapped: prepared once
        hyp_prep.remember()
        hyp_extent: Callable[[InstanceSet], Extent | None]
        if read is not None and hyp is projected:  # read in the walk that kept the judge's strings
            hyp_extent = read.extents
        else:
            hyp_extent = HypSetExtents(hyp_prep)
        assert ref_extent is not None  # (the caller's, of an unsegmented hypothesis)
        extents: dict[str, Any] = {"ref_extent": ref_extent, "hyp_extent": hyp_extent}
        if counting and counted is not None and hyp is projected:
            from hub4eval.scoring.counted_parts import join_parts

            matched = join_parts(mapper, ref, hyp, *counted, order=order, **extents)
        elif counting and hyp is projected and read is not None and read.fills is not None:
            from hub4eval.scoring.ceiling_count import Diagonal

            # most pairs of sets are counted without being mapped: each projected instance is
            # provably mapped to its own reference instance
            diagonal = Diagonal(mapper, ref, hyp, order, read.fills)
            matched = mapper.count_template_sets(ref, hyp, order, counted=diagonal, **extents)
        else:
            matched = match(ref, hyp, order=order, **extents)
        hyp_prep.forget()
    else:
        matched = match(ref, hyp, order=order)
    # the ceiling's mapper dies with this call, after a score's last mapping: in a process that
    # ends without freeing, with the process (util/kept)
    keep_until_exit(mapper)
    result = partial(
        ScoreResult,
        config=config,
        signature=signature,
        warnings=warnings,
        wer=wer,
        alignment=alignment,
        projection=projected,
    )
    if not counting:
        return result(matches=matched)  # type: ignore[arg-type]
    return result(
        matches=(),
        tally=Tally.counted(matched, mapper.signatures, config.beta),  # type: ignore[arg-type]
        slot_errors=counted_slot_errors(matched, mapper.signatures, config.unscored_slots),  # type: ignore[arg-type]
    )


def _ceiling_order(ref: TemplateSet, table: Any = None) -> tuple[str, ...]:
    """The order of the types of the ceiling's mapping (:func:`~hub4eval.scoring.mapping.type_order`).
    The projection's instances have the reference's types and pointers (a projected instance
    keeps its reference instance's type and pointer fills, or fewer): the order of the
    reference alone is the order of the two, without walking the projection. ``table``: the
    reference's fill table of the system's count, or None; when it holds every instance of
    ``ref`` (in order) and each is complete (only usual text fills: no pointer), the order is
    its types in order of first sight, as ``type_order`` finds them, without a walk over
    every slot."""
    from hub4eval.scoring.mapping import type_order

    if table is not None and bool(table.complete.all()) and _holds_exactly(table.instances, ref):
        return tuple(table.types)
    return type_order(ref, TemplateSet((), role="hypothesis"))


def _holds_exactly(instances: Sequence[Instance], tset: TemplateSet) -> bool:
    """Whether ``instances`` are the instances of ``tset`` (the same objects, in order)."""
    if len(instances) != sum(len(iset.instances) for iset in tset.instance_sets):
        return False
    return all(map(operator.is_, instances, chain.from_iterable(iset.instances for iset in tset.instance_sets)))


RAW_OFFSETS = InputWarning(
    "no texts given: extents are compared as raw character offsets (give --ref-text, and --hyp-text for "
    "ASR output, to check them against the text and to align different texts)"
)


def _has_extents(tset: TemplateSet) -> bool:
    return any(
        isinstance(fill, TextFill) and fill.extents
        for inst in tset.instances
        for slot in inst.slots
        for alternative in slot.alternatives
        for fill in alternative.fills
    )


def check_texts(
    ref: TemplateSet,
    hyp: TemplateSet,
    ref_corpus: Corpus,
    hyp_corpus: Corpus | None,
    *,
    as_stream: bool = False,
    force: bool = False,
) -> list[InputWarning]:
    """Both templette files against their texts (:func:`hub4eval.io.validate.check_against_corpus`),
    with the fix named when they do not fit: texts swapped (each file fits the other text), or a
    hypothesis extracted from other text while no ``--hyp-text`` was given.

    Raises:
        InputError: a DOCID not in its text, an extent outside its document, or most text fills
            of a file not fitting its text (unless ``force``).
    """
    from hub4eval.io.validate import ExtentOutside, TextsDoNotFit, UnknownDocument, check_against_corpus

    mistakes = (ExtentOutside, TextsDoNotFit, UnknownDocument)
    try:
        warnings = list(check_against_corpus(ref, ref_corpus, force=force))
    except mistakes as error:
        if hyp_corpus is not None and _fits(ref, hyp_corpus):
            raise _swapped(error, "the reference file fits the hypothesis text") from None
        raise
    hyp_text = hyp_corpus if hyp_corpus is not None else ref_corpus
    try:
        warnings += check_against_corpus(hyp, hyp_text, as_stream=hyp_corpus is not None and as_stream, force=force)
    except mistakes as error:
        if hyp_corpus is not None:
            if _fits(hyp, ref_corpus):
                raise _swapped(error, "the hypothesis file fits the reference text") from None
            raise
        raise _without_hyp_text(error, hyp, ref_corpus) from None
    return warnings


def _fits(tset: TemplateSet, corpus: Corpus) -> bool:
    """Whether more than half of the text fills of ``tset`` fit ``corpus``."""
    from hub4eval.io.validate import misfit_count

    misfits, fills = misfit_count(tset, corpus)
    return fills > 0 and 2 * misfits < fills


SWAPPED_HINT = "give the human transcript with --ref-text and the ASR output with --hyp-text"


def _swapped(error: InputError, why: str) -> InputError:
    from hub4eval.io.validate import TextsDoNotFit

    cause = f"--ref-text and --hyp-text swapped? {why}"
    if isinstance(error, TextsDoNotFit):
        return error.with_cause(cause, SWAPPED_HINT)
    return type(error)(f"{error.message}: {cause}", error.path, error.line, error.column, hint=SWAPPED_HINT)


def _without_hyp_text(error: InputError, hyp: TemplateSet, ref_corpus: Corpus) -> InputError:
    """A hypothesis that does not fit the reference text while no --hyp-text was given: was it
    extracted from other text (ASR output)? Then that text is the fix."""
    from hub4eval.io.validate import FORCE_HINT, TextsDoNotFit, UnknownDocument

    longest = max((len(doc.text) for doc in ref_corpus.documents), default=0)
    ends = [
        extent.end
        for inst in hyp.instances
        for slot in inst.slots
        for alternative in slot.alternatives
        for fill in alternative.fills
        if isinstance(fill, TextFill)
        for extent in fill.extents
    ]
    past = bool(ends) and max(ends) > longest
    hint = "if the hypothesis was extracted from other text (ASR output), give that text with --hyp-text"
    if isinstance(error, TextsDoNotFit):
        if past:
            return error.with_cause(
                f"hypothesis offsets run past every document of the reference text (up to {max(ends)}, "
                f"the longest document has {longest} characters)",
                f"give the ASR text with --hyp-text; {FORCE_HINT}",
            )
        return InputError(error.message, error.path, error.line, error.column, hint=f"{hint}; {error.hint}")
    if isinstance(error, UnknownDocument) and (error.hint or "").startswith("did you mean"):
        return error  # a typo in a DOCID, most likely
    if past and not error.message.startswith("document "):
        hint = "give the ASR text with --hyp-text: hypothesis offsets run past every document of the reference text"
    return type(error)(error.message, error.path, error.line, error.column, hint=f"{hint}; {error.hint}")


def _check_docids(ref: TemplateSet, hyp: TemplateSet) -> list[InputWarning]:
    """Instance sets pair by DOCID: none in common scores 0 and is almost surely the wrong file."""
    ref_ids = [iset.docid for iset in ref.instance_sets]
    hyp_ids = [iset.docid for iset in hyp.instance_sets]
    if not ref_ids or not hyp_ids or set(ref_ids) & set(hyp_ids):
        return []
    return [
        InputWarning(
            f"no DOCID of the hypothesis is in the reference (e.g. {hyp_ids[0]} vs {ref_ids[0]}): "
            "every reference instance is missing and every hypothesis instance spurious",
            hyp.path or None,
            changes_score=True,
        )
    ]


def unsegmented_reference_error(corpus: Corpus) -> InputError:
    if not any(doc.text.strip() for doc in corpus.documents):
        return InputError(
            "the reference text is empty", corpus.path or None, 1, 1, hint="give the reference corpus with --ref-text"
        )
    return InputError(
        "the reference text has no document tags; reference offsets count from each document's opening tag",
        corpus.path or None,
        1,
        1,
        hint="is this the hypothesis (ASR) text? give it with --hyp-text; or set --doc-tag/--docno-tag",
    )


def _check_corpus_pairing(ref: Corpus, hyp: Corpus, by_words: bool) -> None:
    """Catch swapped or mismatched text files before they give a meaningless score.

    The reference text must be segmented (its offsets are per document).  Two
    segmented texts are paired by DOCID (§7.2) unless ``by_words``
    (``--unsegmented``): none in common means the wrong files were given.
    (Single unpaired documents, and an empty hypothesis text, are warnings of
    the alignment, :func:`hub4eval.text.columns.align_corpora`.)
    """
    if not ref.segmented:
        error = unsegmented_reference_error(ref)
        if hyp.segmented and any(doc.text.strip() for doc in ref.documents):
            # the hypothesis text has the documents the reference text lacks: the files were swapped
            error = InputError(
                error.message,
                error.path,
                error.line,
                error.column,
                hint=f"--ref-text and --hyp-text swapped? the hypothesis text has document tags; {SWAPPED_HINT}",
            )
        raise error
    if not hyp.segmented or by_words:
        return
    ref_ids = {doc.docid for doc in ref.documents}
    hyp_docs = [doc for doc in hyp.documents if doc.text.strip()]
    if ref_ids and hyp_docs and not any(doc.docid in ref_ids for doc in hyp_docs):
        raise InputError(
            f"no document of the hypothesis text is in the reference text {ref.path or ''}".rstrip()
            + f" (e.g. {hyp_docs[0].docid} vs {ref.documents[0].docid})",
            hyp.path or None,
            hyp_docs[0].line,
            hint="check that --ref-text and --hyp-text belong to the same documents; "
            "give --unsegmented to align by words instead of DOCNO",
        )


__all__: Sequence[str] = (
    "score",
    "check_texts",
    "RAW_OFFSETS",
    "texts_differ",
    "load_glm",
    "glm_digests",
    "unsegmented_reference_error",
)
