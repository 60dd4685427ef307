"""The library API: score template sets (and their texts) without the CLI.

>>> import hub4eval.api as api
>>> result = api.score_files("examples/sample/ref.tpl", "examples/sample/hyp.tpl")  # doctest: +SKIP
>>> result.total.as_dict()["F"]  # doctest: +SKIP
1.0
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from hub4eval.config import ScoreConfig
from hub4eval.errors import InputError, InputWarning, UsageError
from hub4eval.model import Corpus, Extent, InstanceSet, TemplateSet, TextFill
from hub4eval.scoring.fills import FillPreparer
from hub4eval.scoring.mapping import Mapper
from hub4eval.scoring.result import ScoreResult
from hub4eval.util.gcpause import paused_gc


def load_glm(spec: str | Sequence[str]):  # -> Glm | GlmStack | None
    """``default`` (the shipped English file), ``none``, or a GLM file path;
    several (a sequence) are stacked and apply in the order given."""
    specs = [spec] if isinstance(spec, str) else list(spec)
    specs = [s for s in specs if s != "none"]
    if not specs:
        return None
    from hub4eval.text.glm import default_glm, read_glm, stack_glms

    return stack_glms([default_glm() if s == "default" else read_glm(s) for s in specs])


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
    glm = load_glm(config.glm) if uses_glm or config.glm not in (("default",), ("none",)) else None
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
        from hub4eval.scoring.projection import project

        ceiling_result = score(
            ref,
            project(ref, alignment, hyp_corpus),
            ref_corpus=ref_corpus,
            hyp_corpus=hyp_corpus,
            config=config,
            ceiling=False,
            alignment=alignment,
            wer_summary=wer,  # the same texts: the same WER, not counted again
        )
    return ScoreResult(
        matches=matches,
        config=config,
        signature=config.signature(texts=texts, glm_digest=glm_digests(glm)),
        warnings=tuple(warnings),
        wer=wer,
        alignment=alignment,
        ceiling=ceiling_result,
    )


def project_files(
    ref_path: str | Path,
    *,
    ref_text: str | Path,
    hyp_text: str | Path,
    config: ScoreConfig | None = None,
    encoding: str = "utf-8",
    doc_tag: str = "DOC",
    docno_tag: str = "DOCNO",
    text_format: str | None = None,
    hyp_text_format: str | None = None,
) -> TemplateSet:
    """The reference templates projected onto the hypothesis text (the ceiling), as a hypothesis set.

    Written with :func:`hub4eval.io.templettes.write_templates`, it is a valid
    hypothesis file that scores as the ceiling against ``ref_path`` with the
    same texts and options. ``text_format`` and ``hyp_text_format``: as in
    :func:`score_files`.
    """
    from hub4eval.scoring.projection import project

    config = config or ScoreConfig()
    reading = _Reading(ref_text, hyp_text, encoding, doc_tag, docno_tag, text_format, hyp_text_format)
    ref, _, (ref_corpus, hyp_corpus) = _read_inputs(ref_path, None, reading, config)
    # scoring against no hypothesis checks the inputs and aligns the texts as `score` would
    empty = TemplateSet((), role="hypothesis")
    result = score(ref, empty, ref_corpus=ref_corpus, hyp_corpus=hyp_corpus, config=config, ceiling=False)
    projected = project(ref, result.alignment, hyp_corpus)
    return dataclasses.replace(projected, warnings=result.warnings)


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


_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9._:-]*")


def _check_tag(value: str, option: str) -> None:
    if not _TAG_NAME.fullmatch(value):
        raise UsageError(
            f"{option} {value!r} is not an SGML element name",
            hint=f"give the name without brackets, e.g. {option} {'DOC' if option == '--doc-tag' else 'DOCNO'}",
        )


def too_large_error(path: str | Path) -> InputError:
    """The error for a file that does not fit in memory (a wrong file, most likely)."""
    try:
        size = f"{os.path.getsize(path):,} bytes" if str(path) != "-" else "size unknown"
    except OSError:
        size = "size unknown"
    return InputError(
        f"the file is too large to read into memory ({size})",
        str(path),
        hint="check that this is the right file; score a large corpus in parts",
    )


def read_templates_checked(path: str | Path, role: str, encoding: str, doc_tag: str = "DOC") -> TemplateSet:
    """:func:`hub4eval.io.templettes.read_templates`, with two mistakes made plain.

    A file too large for memory is one positioned error, and a text corpus
    given in place of a templette file (the files swapped on the command
    line) keeps the parser's message but gets a hint that says so.
    """
    from hub4eval.io.templettes import read_templates

    try:
        return read_templates(str(path), role=role, encoding=encoding)  # type: ignore[arg-type]
    except MemoryError:
        raise too_large_error(path) from None
    except InputError as error:
        if error.line is not None and _looks_like_corpus(path, doc_tag):
            hint = "this looks like a text corpus (SGML), not a templette file; give it with --ref-text or --hyp-text"
            raise InputError(error.message, error.path, error.line, error.column, hint=hint) from None
        raise


def _looks_like_corpus(path: str | Path, doc_tag: str) -> bool:
    if str(path) == "-":  # standard input is read once, already consumed
        return False
    try:
        with open(path, "rb") as handle:
            head = handle.read(200).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return False
    return head.upper().startswith(b"<" + doc_tag.upper().encode("ascii", "replace"))


@paused_gc()
def max_jobs() -> int:
    """The most worker processes ``jobs`` may ask for: 4 per available core, at least 32."""
    from hub4eval.parallel import available_cores

    return max(32, 4 * available_cores())


def score_files(
    ref_path: str | Path,
    hyp_path: str | Path,
    *,
    ref_text: str | Path | None = None,
    hyp_text: str | Path | None = None,
    config: ScoreConfig | None = None,
    encoding: str = "utf-8",
    doc_tag: str = "DOC",
    docno_tag: str = "DOCNO",
    progress: Callable[[int, int], None] | None = None,
    ceiling: bool | None = None,
    text_format: str | None = None,
    hyp_text_format: str | None = None,
    jobs: int | None = 1,
    keep: str = "matches",
    point_writer: Callable[[ScoreResult, str], None] | None = None,
    group_documents: int | None = None,
    column_writer: Callable[[ScoreResult, str], None] | None = None,
) -> ScoreResult:
    """Read the files and :func:`score` them; the CLI's ``score`` command.

    ``ceiling``: see :func:`score`. ``text_format`` is the format of both texts
    (``sgml``, ``ctm``, ``trn``, ``stm``, ``txt``; None: by extension),
    ``hyp_text_format`` overrides it for the hypothesis text
    (:mod:`hub4eval.io.formats`).

    ``keep="counts"`` asks only for counts and the mapping's pairs: then,
    unless texts must be aligned (or ``ceiling`` is True), the files may be
    scored in groups of documents
    (:mod:`hub4eval.parallel`), ``jobs`` processes at a time (None: every
    core, one for files under 4 MB), and large files always are (a group at a
    time with ``jobs=1``: the memory of a group, not of the whole files). The
    result is the same; it holds a ``tally`` instead of the mapping, and its
    points only as JSON entries written by ``point_writer(result, path)`` per
    group (:func:`hub4eval.report.export.write_point_file`), if given, and the
    points' columns for the HTML report written by ``column_writer``
    (:func:`hub4eval.report.html.write_point_columns`), if given.
    ``group_documents`` sets the documents per group (None: from the input's
    size). ``keep="matches"`` (the default) keeps everything, in one process.
    """
    config = config or ScoreConfig()
    if keep not in ("matches", "counts"):
        raise ValueError(f"keep must be 'matches' or 'counts', not {keep!r}")
    if jobs is not None and jobs < 1:
        raise UsageError(f"--jobs must be 1 or more, got {jobs}", hint="e.g. --jobs 2; leave it out for every core")
    if jobs is not None and jobs > max_jobs():
        raise UsageError(
            f"--jobs {jobs:,} is more processes than this machine can run at once (at most {max_jobs()}: "
            "4 per available core, at least 32); more only wait for each other, each with its own memory",
            hint="leave --jobs out to use every core",
        )
    reading = _Reading(ref_text, hyp_text, encoding, doc_tag, docno_tag, text_format, hyp_text_format)
    read_corpora = None
    if keep == "counts" and not ceiling:
        from hub4eval import parallel

        reading.check()
        paths = (ref_path, hyp_path)
        workers = parallel.default_jobs(paths) if jobs is None else jobs
        if workers > 1 or group_documents is not None or parallel.input_size(paths) >= parallel.SMALL_INPUT:
            corpora: list[Corpus | None] | None = [None, None]
            if ref_text is not None:
                try:
                    corpora = reading.corpora(config)
                except InputError:
                    corpora = None  # reported below, after the templette files' own errors, as always
            if corpora is not None and _same_texts(corpora, config):
                try:
                    return parallel.score_grouped(
                        ref_path,
                        hyp_path,
                        config=config,
                        encoding=encoding,
                        jobs=workers,
                        group_documents=group_documents,
                        progress=progress,
                        point_writer=point_writer,
                        column_writer=column_writer,
                        ref_corpus=corpora[0],
                        hyp_corpus=corpora[1],
                    )
                except parallel.Ungroupable:
                    pass  # scored whole below: the same result, or the error at its place in the file
            read_corpora = corpora
    ref, hyp, corpora = _read_inputs(ref_path, hyp_path, reading, config, corpora=read_corpora)
    assert hyp is not None
    return score(
        ref, hyp, ref_corpus=corpora[0], hyp_corpus=corpora[1], config=config, progress=progress, ceiling=ceiling
    )


@dataclasses.dataclass(frozen=True)
class _Reading:
    """How the input files are read: the texts (None where not given) and their formats
    (None: by the file's extension; ``hyp_text_format`` overrides ``text_format`` for the
    hypothesis text), the encoding and the SGML tags."""

    ref_text: str | Path | None
    hyp_text: str | Path | None
    encoding: str
    doc_tag: str
    docno_tag: str
    text_format: str | None = None
    hyp_text_format: str | None = None

    def check(self) -> None:
        """The checks of the options that come before any file is read."""
        if self.hyp_text is not None and self.ref_text is None:
            raise UsageError("--hyp-text needs --ref-text", hint="give the reference text too")
        _check_tag(self.doc_tag, "--doc-tag")
        _check_tag(self.docno_tag, "--docno-tag")
        if self.doc_tag.upper() == self.docno_tag.upper():
            raise UsageError(
                f"--doc-tag and --docno-tag are both {self.doc_tag!r}", hint="they name different elements"
            )
        from hub4eval.io.formats import check_text_format

        check_text_format(self.text_format)
        check_text_format(self.hyp_text_format, "--hyp-text-format")

    def corpora(self, config: ScoreConfig) -> list[Corpus | None]:
        """The two corpora (None where not given)."""
        corpora: list[Corpus | None] = []
        texts = ((self.ref_text, self.text_format), (self.hyp_text, self.hyp_text_format or self.text_format))
        for path, form in texts:
            if path is None:
                corpora.append(None)
                continue
            from hub4eval.io.formats import read_text_corpus

            try:
                corpora.append(
                    read_text_corpus(
                        str(path),
                        form,
                        doc_tag=self.doc_tag,
                        docno_tag=self.docno_tag,
                        non_extractable=config.non_extractable,
                        encoding=self.encoding,
                        spoken_element=config.spoken_element,
                    )
                )
            except MemoryError:
                raise too_large_error(path) from None
        return corpora


def _read_inputs(
    ref_path: str | Path,
    hyp_path: str | Path | None,
    reading: _Reading,
    config: ScoreConfig,
    corpora: list[Corpus | None] | None = None,
) -> tuple[TemplateSet, TemplateSet | None, list[Corpus | None]]:
    """The templette files and the two corpora (None where not given; ``corpora`` when read
    before), checked."""
    reading.check()
    ref = read_templates_checked(ref_path, "reference", reading.encoding, reading.doc_tag)
    hyp = (
        None if hyp_path is None else read_templates_checked(hyp_path, "hypothesis", reading.encoding, reading.doc_tag)
    )
    if corpora is None:
        corpora = reading.corpora(config)
    return ref, hyp, corpora


def _same_texts(corpora: Sequence[Corpus | None], config: ScoreConfig) -> bool:
    """Whether scoring with these corpora aligns no texts (then it can go by groups of documents)."""
    ref_corpus, hyp_corpus = corpora
    if ref_corpus is None:
        return hyp_corpus is None
    if config.unsegmented is True or not ref_corpus.segmented:
        return False
    return hyp_corpus is None or (hyp_corpus.segmented and not texts_differ(ref_corpus, hyp_corpus))


__all__: Sequence[str] = ("score", "score_files", "project_files", "texts_differ", "load_glm")
