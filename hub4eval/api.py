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
from pathlib import Path

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


__all__: Sequence[str] = (
    "score",
    "score_files",
    "project_files",
    "texts_differ",
    "load_glm",
    "glm_digests",
    "unsegmented_reference_error",
)
