"""The library API: score template sets (and their texts) without the CLI.

>>> import hub4eval.api as api
>>> result = api.score_files("examples/sample/ref.tpl", "examples/sample/hyp.tpl")  # doctest: +SKIP
>>> result.total.as_dict()["F"]  # doctest: +SKIP
1.0
"""

from __future__ import annotations

import bisect
import dataclasses
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from hub4eval.config import ScoreConfig
from hub4eval.errors import InputError, UsageError
from hub4eval.model import Corpus, TemplateSet
from hub4eval.scoring.pipeline import (
    glm_digests,
    load_glm,
    score,
    texts_differ,
    unsegmented_reference_error,
)
from hub4eval.scoring.result import ScoreResult
from hub4eval.util.gcpause import paused_gc
from hub4eval.util.kept import keep_until_exit
from hub4eval.util.records import replace

if TYPE_CHECKING:
    from hub4eval.io.entities import EntityCorpus

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


@dataclasses.dataclass(frozen=True)
class ReadOptions:
    """How the input files are read: everything but which files they are.

    Attributes:
        encoding: the encoding of every input file (e.g. ``latin-1`` for old NIST data).
        doc_tag: the element of each document in an SGML corpus.
        docno_tag: the element of a document's identifier.
        text_format: the format of both texts: ``sgml``, ``ctm``, ``trn``,
            ``stm`` or ``txt`` (None: by the file's extension;
            :mod:`hub4eval.io.formats`).
        hyp_text_format: the format of the hypothesis text, when it is not
            ``text_format`` (None: as ``text_format``).
        force: score even when most text fills of a file do not fit their
            text (``--force``; :func:`hub4eval.scoring.pipeline.check_texts`),
            with a warning per fill.
    """

    encoding: str = "utf-8"
    doc_tag: str = "DOC"
    docno_tag: str = "DOCNO"
    text_format: str | None = None
    hyp_text_format: str | None = None
    force: bool = False

    def check(self) -> None:
        """The checks that come before any file is read.

        Raises:
            UsageError: a tag that is no SGML element name, the two tags the
                same, or an unknown text format.
        """
        _check_tag(self.doc_tag, "--doc-tag")
        _check_tag(self.docno_tag, "--docno-tag")
        if self.doc_tag.upper() == self.docno_tag.upper():
            raise UsageError(
                f"--doc-tag and --docno-tag are both {self.doc_tag!r}", hint="they name different elements"
            )
        from hub4eval.io.formats import check_text_format

        check_text_format(self.text_format)
        check_text_format(self.hyp_text_format, "--hyp-text-format")


@dataclasses.dataclass(frozen=True)
class OutputOptions:
    """What the result of :func:`score_files` holds, and how a result of counts is made.

    Attributes:
        ceiling: also score the reference projected onto the hypothesis text
            (``result.ceiling``, docs/attribution.md): None (default) when the
            texts differ, True always, False never.
        keep: ``"matches"`` (default) keeps everything (the mapping, every
            point), scored in one process. ``"counts"`` asks only for counts
            and the mapping's pairs: then, unless texts must be aligned (or
            ``ceiling`` is True), the files may be scored in groups of
            documents (:mod:`hub4eval.parallel`), and large files always are
            (the memory of a group, not of the whole files). The result is the
            same; it holds a ``tally`` instead of the mapping, and its points
            only as what the two writers below write. When the texts differ
            it holds the counts of the error points by cause too, and its
            ceiling only its counts, pairs and the kinds of its errors per
            slot; with either writer (the points' causes are not counted
            there), the result of texts that differ keeps every point.
        jobs: with ``keep="counts"``, the processes that score groups at once
            (None: every core, one for files under 4 MB); when the texts
            differ, the processes that align them at once, whatever ``keep``
            (None: every core, one for texts under 20,000 words together).
        group_documents: with ``keep="counts"``, the documents per group (None:
            from the input's size).
        point_writer: with ``keep="counts"``, writes each group's points as
            JSON entries, ``point_writer(result, path)``
            (:data:`hub4eval.report.export.write_point_file`); a writer with a
            ``runs(path)`` method (as that one has) is given instead the runs of
            documents as they are counted, without match records, and writes
            their entries from them (:mod:`hub4eval.scoring.counted_points`).
        column_writer: likewise the points' columns for the HTML report
            (:func:`hub4eval.report.page_data.write_point_columns`).
    """

    ceiling: bool | None = None
    keep: Literal["matches", "counts"] = "matches"
    jobs: int | None = 1
    group_documents: int | None = None
    point_writer: Callable[[ScoreResult, str], None] | None = None
    column_writer: Callable[[ScoreResult, str], None] | None = None

    def __post_init__(self) -> None:
        if self.keep not in ("matches", "counts"):
            raise ValueError(f"keep must be 'matches' or 'counts', not {self.keep!r}")
        if self.jobs is not None and self.jobs < 1:
            raise UsageError(
                f"--jobs must be 1 or more, got {self.jobs}", hint="e.g. --jobs 2; leave it out for every core"
            )
        # up to max_jobs' least, no need to ask how many cores there are (util.forked imports multiprocessing)
        if self.jobs is not None and self.jobs > _LEAST_MAX_JOBS and self.jobs > max_jobs():
            raise UsageError(
                f"--jobs {self.jobs:,} is more processes than this machine can run at once (at most {max_jobs()}: "
                "4 per available core, at least 32); more only wait for each other, each with its own memory",
                hint="leave --jobs out to use every core",
            )


_LEAST_MAX_JOBS = 32


def max_jobs() -> int:
    """The most worker processes ``OutputOptions.jobs`` may ask for: 4 per available core, at least 32."""
    from hub4eval.util.forked import available_cores

    return max(_LEAST_MAX_JOBS, 4 * available_cores())


@paused_gc()
def score_files(
    ref_path: str | Path,
    hyp_path: str | Path,
    *,
    ref_text: str | Path | None = None,
    hyp_text: str | Path | None = None,
    config: ScoreConfig | None = None,
    reading: ReadOptions | None = None,
    output: OutputOptions | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ScoreResult:
    """Read the files and :func:`score` them; the CLI's ``score`` command.

    Args:
        ref_path: the reference templette file (``-``: standard input).
        hyp_path: the hypothesis templette file.
        ref_text: the reference text corpus (optional: validates extents).
        hyp_text: the hypothesis text corpus (needs ``ref_text``); when it
            differs from the reference text, extents are compared through a
            word alignment and content is compared as noisy data by default.
        config: the options that change a score (default: the procedure's).
        reading: how the files are read (default: UTF-8, ``DOC``/``DOCNO``
            tags, text formats by extension).
        output: what the result holds (default: everything, scored in one
            process; the ceiling when the texts differ).
        progress: called as ``progress(done, total)`` while documents are
            mapped (e.g. to drive a progress bar).

    Raises:
        InputError: bad input (a broken file, an unknown DOCID, an extent
            outside its document, ...).
        UsageError: options that do not go together.
    """
    config = config or ScoreConfig()
    output = output or OutputOptions()
    texts = _Texts(ref_text, hyp_text, reading or ReadOptions())
    read_corpora = None
    if output.keep == "counts" and not output.ceiling:
        texts.check()
        corpora: list[Corpus | None] | None = None
        # two texts in files are read first: when they differ, nothing is scored in groups (and
        # the groups' machinery, hub4eval.parallel, is not imported)
        first = hyp_text is not None and "-" not in (str(ref_text), str(hyp_text))
        if first:
            corpora = read_corpora = _corpora_or_none(texts, config)
        if not first or (corpora is not None and _same_texts(corpora, config)):
            from hub4eval import parallel

            paths = (ref_path, hyp_path)
            workers = parallel.default_jobs(paths) if output.jobs is None else output.jobs
            grouped = output.group_documents is not None
            if workers > 1 or grouped or parallel.input_size(paths) >= parallel.SMALL_INPUT:
                if not first:
                    corpora = [None, None] if ref_text is None else _corpora_or_none(texts, config)
                if corpora is not None and _same_texts(corpora, config):
                    try:
                        return parallel.score_grouped(
                            ref_path,
                            hyp_path,
                            config=config,
                            encoding=texts.reading.encoding,
                            jobs=workers,
                            group_documents=output.group_documents,
                            progress=progress,
                            point_writer=output.point_writer,
                            column_writer=output.column_writer,
                            ref_corpus=corpora[0],
                            hyp_corpus=corpora[1],
                        )
                    except parallel.Ungroupable:
                        pass  # scored whole below: the same result, or the error at its place in the file
                read_corpora = corpora
    ref, hyp, corpora = _read_inputs(ref_path, hyp_path, texts, config, corpora=read_corpora)
    assert hyp is not None
    keep_until_exit(ref, hyp, corpora)  # freed with the process when it ends without freeing (util/kept)
    return score(
        ref,
        hyp,
        ref_corpus=corpora[0],
        hyp_corpus=corpora[1],
        config=config,
        progress=progress,
        ceiling=output.ceiling,
        force=texts.reading.force,
        jobs=_available_jobs(output.jobs),
        # texts aligned without a writer of points: no output reads a match record of the
        # system's mapping, which is counted (files scored whole without texts keep theirs)
        counts_only=output.keep == "counts"
        and output.point_writer is None
        and output.column_writer is None
        and not _same_texts(corpora, config),
        ceiling_counts=output.keep == "counts",
    )


def _available_jobs(jobs: int | None) -> int:
    """``OutputOptions.jobs`` for the texts' alignments: None is every core (they start
    processes only for long texts, :data:`hub4eval.text.aligned_texts.PARALLEL_WORDS`)."""
    if jobs is not None:
        return jobs
    from hub4eval.util.forked import available_cores

    return available_cores()


def project_files(
    ref_path: str | Path,
    *,
    ref_text: str | Path,
    hyp_text: str | Path,
    config: ScoreConfig | None = None,
    reading: ReadOptions | None = None,
    jobs: int | None = 1,
) -> TemplateSet:
    """The reference templates projected onto the hypothesis text (the ceiling), as a hypothesis set.

    Written with :func:`hub4eval.io.templettes.write_templates`, it is a valid
    hypothesis file that scores as the ceiling against ``ref_path`` with the
    same texts and options. ``config`` and ``reading``: as in :func:`score_files`;
    ``jobs``: the processes that align the texts at once, as ``OutputOptions.jobs``
    (None: every core). The result is the same for every ``jobs``.
    """
    jobs = OutputOptions(jobs=jobs).jobs  # out of bounds: refused before any file is read
    config = config or ScoreConfig()
    texts = _Texts(ref_text, hyp_text, reading or ReadOptions())
    ref, _, (ref_corpus, hyp_corpus) = _read_inputs(ref_path, None, texts, config)
    # scoring against no hypothesis checks the inputs, aligns the texts and projects
    # the reference exactly as `score` does for its ceiling, with the same options
    empty = TemplateSet((), role="hypothesis")
    result = score(
        ref,
        empty,
        ref_corpus=ref_corpus,
        hyp_corpus=hyp_corpus,
        config=config,
        ceiling=True,
        force=texts.reading.force,
        jobs=_available_jobs(jobs),
        count_wer=False,  # (a projection has no WER line)
    )
    assert result.ceiling is not None and result.ceiling.projection is not None
    return replace(result.ceiling.projection, warnings=result.warnings)


@dataclasses.dataclass(frozen=True)
class _Texts:
    """The two text corpora (None where not given) and how to read them."""

    ref_text: str | Path | None
    hyp_text: str | Path | None
    reading: ReadOptions

    def check(self) -> None:
        """The checks of the options that come before any file is read."""
        if self.hyp_text is not None and self.ref_text is None:
            raise UsageError("--hyp-text needs --ref-text", hint="give the reference text too")
        self.reading.check()

    def corpora(self, config: ScoreConfig) -> list[Corpus | None]:
        """The two corpora (None where not given); two given texts are read as a pair
        (:func:`hub4eval.io.formats.read_text_corpora`)."""
        reading = self.reading
        if self.ref_text is not None and self.hyp_text is not None:
            from hub4eval.io.formats import read_text_corpora

            try:
                pair = read_text_corpora(
                    str(self.ref_text),
                    str(self.hyp_text),
                    reading.text_format,
                    reading.hyp_text_format or reading.text_format,
                    doc_tag=reading.doc_tag,
                    docno_tag=reading.docno_tag,
                    non_extractable=config.non_extractable,
                    encoding=reading.encoding,
                    spoken_element=config.spoken_element,
                )
            except MemoryError:
                raise too_large_error(self.hyp_text) from None
            return [pair[0], pair[1]]
        corpora: list[Corpus | None] = []
        texts = (
            (self.ref_text, reading.text_format),
            (self.hyp_text, reading.hyp_text_format or reading.text_format),
        )
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
                        doc_tag=reading.doc_tag,
                        docno_tag=reading.docno_tag,
                        non_extractable=config.non_extractable,
                        encoding=reading.encoding,
                        spoken_element=config.spoken_element,
                    )
                )
            except MemoryError:
                raise too_large_error(path) from None
        return corpora


def _read_inputs(
    ref_path: str | Path,
    hyp_path: str | Path | None,
    texts: _Texts,
    config: ScoreConfig,
    corpora: list[Corpus | None] | None = None,
) -> tuple[TemplateSet, TemplateSet | None, list[Corpus | None]]:
    """The templette files and the two corpora (None where not given; ``corpora`` when read
    before), checked."""
    texts.check()
    encoding, doc_tag = texts.reading.encoding, texts.reading.doc_tag
    ref = read_templates_checked(ref_path, "reference", encoding, doc_tag)
    hyp = None if hyp_path is None else read_templates_checked(hyp_path, "hypothesis", encoding, doc_tag)
    if corpora is None:
        corpora = texts.corpora(config)
    return ref, hyp, corpora


def _corpora_or_none(texts: _Texts, config: ScoreConfig) -> list[Corpus | None] | None:
    """``texts.corpora(config)``, or None when they cannot be read: the error is reported
    where the files are read for the score, after the templette files' own errors, as always."""
    try:
        return texts.corpora(config)
    except InputError:
        return None


def _same_texts(corpora: Sequence[Corpus | None], config: ScoreConfig) -> bool:
    """Whether scoring with these corpora aligns no texts (then it can go by groups of documents)."""
    ref_corpus, hyp_corpus = corpora
    if ref_corpus is None:
        return hyp_corpus is None
    if config.unsegmented is True or not ref_corpus.segmented:
        return False
    return hyp_corpus is None or (hyp_corpus.segmented and not texts_differ(ref_corpus, hyp_corpus))


@dataclasses.dataclass(frozen=True)
class EntityScore:
    """What :func:`score_entity_files` scored: the result, and the inputs as read and converted."""

    result: ScoreResult
    ref: EntityCorpus
    hyp: EntityCorpus
    ref_templates: TemplateSet
    hyp_templates: TemplateSet


def score_entity_files(
    ref_path: str | Path,
    hyp_path: str | Path,
    *,
    config: ScoreConfig | None = None,
    reading: ReadOptions | None = None,
    ref_format: str | None = None,
    hyp_format: str | None = None,
    ceiling: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> EntityScore:
    """Score named-entity tagged texts (MUC inline markup or JSON Lines): the CLI's ``ne`` command.

    Each region becomes an instance of its element with the slots TYPE and
    TEXT (:func:`hub4eval.io.entities.entity_templates`), scored with the
    named-entity rules (:mod:`hub4eval.scoring.entities`; docs/named-entities.md).
    When the two texts are the same, TEXT gives one point, its extent, as in
    MUC (unless ``config.compare`` is ``content``).

    ``reading``: the encoding and the SGML tags (its text formats do not
    apply: the tagged files are the texts). ``config.premodifiers`` apply as
    given: give ``premodifiers=()`` to compare regions as tagged, as MUC does
    (the CLI does unless ``--premodifiers`` is given). ``ref_format`` /
    ``hyp_format``: ``jsonl`` or ``muc`` (None: by the file's extension).

    Raises:
        InputError: bad markup or JSON, bad texts (as for :func:`score`).
    """
    from hub4eval.io.corpus import as_unsegmented, with_spoken_element
    from hub4eval.io.entities import Entity, entity_templates, read_entity_corpus
    from hub4eval.model import Extent
    from hub4eval.scoring.entities import EntityMapper
    from hub4eval.scoring.pipeline import _check_corpus_pairing

    config = settings = config or ScoreConfig()
    reading = reading or ReadOptions()
    reading.check()
    for form, option in ((ref_format, "reference"), (hyp_format, "hypothesis")):
        if form not in (None, "jsonl", "muc"):
            raise UsageError(f"unknown {option} format {form!r}", hint="use jsonl or muc")

    def read(path: str | Path, form: str | None) -> EntityCorpus:
        try:
            return read_entity_corpus(
                str(path),
                form=form,
                encoding=reading.encoding,
                doc_tag=reading.doc_tag,
                docno_tag=reading.docno_tag,
                non_extractable=settings.non_extractable,
                spoken_element=settings.spoken_element,
            )
        except MemoryError:
            raise too_large_error(path) from None

    ref = read(ref_path, ref_format)
    hyp = read(hyp_path, hyp_format)
    if not ref.corpus.segmented:
        raise InputError(
            "the reference has no document tags",
            ref.path or None,
            1,
            1,
            hint="REF is the tagged reference transcript, in <DOC> documents with a <DOCNO>; "
            "is it the recognizer output? give that as HYP",
        )
    ref_ids = {doc.docid for doc in ref.corpus.documents}
    hyp_docs = [doc for doc in hyp.corpus.documents if doc.text.strip()]
    if hyp.corpus.segmented and not config.unsegmented and hyp_docs and not any(d.docid in ref_ids for d in hyp_docs):
        raise InputError(
            f"no document of the hypothesis is in the reference {ref.path} "
            f"(e.g. {hyp_docs[0].docid} vs {ref.corpus.documents[0].docid})",
            hyp.path or None,
            hyp_docs[0].line,
            1,
            hint="check that REF and HYP tag the same documents; give --unsegmented to align by words instead of DOCNO",
        )
    if config.unsegmented and hyp.corpus.segmented:  # offsets from the start of the file, as the text will be read
        offsets = {doc.docid: doc.offset for doc in hyp.corpus.documents}
        entities = tuple(
            dataclasses.replace(e, docid=None, start=e.start + offsets[e.docid], end=e.end + offsets[e.docid])
            for e in hyp.entities
        )
        hyp = dataclasses.replace(hyp, corpus=as_unsegmented(hyp.corpus), entities=entities)
    ref_corpus = with_spoken_element(ref.corpus, config.spoken_element)
    hyp_corpus = with_spoken_element(hyp.corpus, config.spoken_element)
    aligned = texts_differ(ref_corpus, hyp_corpus)
    if not aligned and config.compare == "both":
        config = dataclasses.replace(config, compare="extent")  # the same characters: the extent says it all
    alignment = None
    groups = None
    if aligned and not hyp_corpus.segmented:
        # an unsegmented hypothesis: its regions go to the reference document whose words they align with
        _check_corpus_pairing(ref_corpus, hyp_corpus, by_words=True)
        from hub4eval.text.columns import align_corpora

        alignment = align_corpora(
            ref_corpus,
            hyp_corpus,
            glm=load_glm(config.glm, keep_punctuation=config.keep_punctuation),
            keep_punctuation=config.keep_punctuation,
            case_sensitive=config.case_sensitive,
            unsegmented=config.unsegmented,
            spoken_forms=config.spoken_forms,
        )
        docids = [doc.docid or "" for doc in ref_corpus.documents]
        firsts = [(extent.start, docid) for docid in docids if (extent := alignment.document_extent(docid)) is not None]
        first_columns = [column for column, _ in firsts]
        by_doc: dict[str, list[Entity]] = {docid: [] for docid in docids}
        last = firsts[0][1] if firsts else docids[0]
        for entity in sorted(hyp.entities, key=lambda e: e.start):
            columns = alignment.hyp_extent(None, Extent(entity.start, entity.end))
            if columns is not None:  # the last document that starts at or before the region's first column
                index = bisect.bisect_right(first_columns, columns.start) - 1
                last = firsts[max(index, 0)][1]
            by_doc[last].append(entity)
        groups = [(docid, found) for docid, found in by_doc.items() if found]
    ref_templates = entity_templates(ref, "reference")
    hyp_templates = entity_templates(hyp, "hypothesis", groups)
    result = score(
        ref_templates,
        hyp_templates,
        ref_corpus=ref_corpus,
        hyp_corpus=hyp_corpus,
        config=config,
        progress=progress,
        ceiling=ceiling,
        alignment=alignment,
        mapper_class=EntityMapper,
    )
    result = dataclasses.replace(result, signature=result.signature + "|rules:named-entities")
    return EntityScore(result, ref, hyp, ref_templates, hyp_templates)


__all__: Sequence[str] = (
    "score",
    "score_files",
    "project_files",
    "ReadOptions",
    "OutputOptions",
    "texts_differ",
    "load_glm",
    "glm_digests",
    "unsegmented_reference_error",
    "score_entity_files",
)
