"""Score two template sets, from checking the inputs to the result: the core the API runs.

:func:`score` checks the template sets against their texts, aligns the texts
when they differ (:mod:`hub4eval.text.columns`), prepares every fill, maps
the instance sets (:mod:`hub4eval.scoring.mapping`), counts the points and
scores the ceiling (:mod:`hub4eval.scoring.projection`). It reads no file:
:mod:`hub4eval.api` reads the files and calls it, and
:mod:`hub4eval.parallel` calls it on each group of documents.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from hub4eval.config import ScoreConfig
from hub4eval.errors import InputError, InputWarning, UsageError
from hub4eval.model import Corpus, Extent, InstanceSet, TemplateSet, TextFill
from hub4eval.scoring.fills import FillPreparer
from hub4eval.scoring.mapping import Mapper
from hub4eval.scoring.result import ScoreResult
from hub4eval.util.gcpause import paused_gc


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


def _hyp_set_extent(iset: InstanceSet, preparer: FillPreparer) -> Extent | None:
    """§7.4: smallest start and largest end of the set's normalized text-fill extents."""
    starts, ends = [], []
    for inst in iset.instances:
        for slot in inst.slots:
            for alternative in slot.alternatives:
                for fill in alternative.fills:
                    if isinstance(fill, TextFill) and fill.extent is not None:
                        extent = preparer.prepare(fill, inst.docid).maximal.extent
                        if extent is not None:
                            starts.append(extent.start)
                            ends.append(extent.end)
    if not starts:
        return None
    return Extent(min(starts), max(ends))


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
        from hub4eval.io.validate import check_against_corpus

        warnings += [*ref_corpus.warnings, *check_against_corpus(ref, ref_corpus)]
        if hyp_corpus is not None:
            warnings += hyp_corpus.warnings
        warnings += check_against_corpus(
            hyp,
            hyp_corpus if hyp_corpus is not None else ref_corpus,
            as_stream=hyp_corpus is not None and config.unsegmented is True,
        )
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
    glm_apply = None
    if glm is not None:
        from hub4eval.text.glm import apply_glm

        glm_apply = partial(apply_glm, glm=glm)
        warnings += getattr(glm, "warnings", ())
    given_alignment, alignment = alignment, None
    unsegmented = False
    if aligned and given_alignment is not None:
        alignment = given_alignment
        warnings += alignment.warnings
        unsegmented = alignment.unsegmented
    elif aligned:
        from hub4eval.text.columns import align_corpora

        alignment = align_corpora(
            ref_corpus,  # type: ignore[arg-type]
            hyp_corpus,  # type: ignore[arg-type]
            glm=glm,
            keep_punctuation=config.keep_punctuation,
            case_sensitive=config.case_sensitive,
            unsegmented=config.unsegmented,
            spoken_forms=config.spoken_forms,
        )
        warnings += alignment.warnings
        unsegmented = alignment.unsegmented
    if not unsegmented:
        warnings += _check_docids(ref, hyp)
    ref_prep = FillPreparer(
        config,
        map_extent=alignment.ref_extent if alignment is not None else None,
        glm_apply=glm_apply,
        reference=True,
        tokens=noisy,
        widen=alignment.ref_enclosure if alignment is not None else None,
    )
    hyp_prep = FillPreparer(
        config,
        map_extent=alignment.hyp_extent if alignment is not None else None,
        glm_apply=glm_apply,
        reference=False,
        unsegmented=unsegmented,
        tokens=noisy,
    )
    done = [0]
    total_sets = len(ref.instance_sets)

    def advance(step: int) -> None:
        done[0] += step
        if progress is not None:
            progress(done[0], total_sets)

    mapper = Mapper(config, ref_prep, hyp_prep, noisy=noisy, progress=advance if progress else None)
    if unsegmented:
        matches = mapper.match_template_sets(
            ref,
            hyp,
            ref_extent=lambda iset: alignment.document_extent(iset.docid),
            hyp_extent=lambda iset: _hyp_set_extent(iset, hyp_prep),
        )
    else:
        matches = mapper.match_template_sets(ref, hyp)
    wer = wer_summary
    if wer is None and alignment is not None and hasattr(alignment, "wer_summary"):
        from hub4eval.text.wer import corpus_wer

        wer = corpus_wer(alignment)["summary"]  # sclite's counts; the §7 ones beside them if they differ
    ceiling_result = None
    if ceiling or (ceiling is None and aligned):
        from hub4eval.scoring.projection import Judge, project

        # the projection's choices are scored as this score scores (a true upper bound, §11)
        judge = Judge(
            Mapper(config, ref_prep, hyp_prep, noisy=noisy),
            [inst.key for iset in ref.instance_sets for inst in iset.instances],
        )
        projected = project(ref, alignment, hyp_corpus, judge)
        ceiling_result = score(
            ref,
            projected,
            ref_corpus=ref_corpus,
            hyp_corpus=hyp_corpus,
            config=config,
            ceiling=False,
            alignment=alignment,
            wer_summary=wer,  # the same texts: the same WER, not counted again
        )
        ceiling_result = dataclasses.replace(ceiling_result, projection=projected)
    return ScoreResult(
        matches=matches,
        config=config,
        signature=config.signature(texts=texts, glm_digest=glm_digests(glm)),
        warnings=tuple(warnings),
        wer=wer,
        alignment=alignment,
        ceiling=ceiling_result,
    )


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
        raise unsegmented_reference_error(ref)
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
    "texts_differ",
    "load_glm",
    "glm_digests",
    "unsegmented_reference_error",
)
