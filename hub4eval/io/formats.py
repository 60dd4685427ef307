"""Text corpora in the formats speech tools use: SGML, ctm, trn, stm and plain text.

Every format becomes the same :class:`hub4eval.model.Corpus` as an SGML file
(:mod:`hub4eval.io.corpus`): documents with a DOCID, a ``text`` that templette
offsets index, and the extractable spans of that text. The SGML reader keeps
the file's own characters; the line formats have no running text, so one is
built from their words, and that built text is what offsets count in
(``hub4eval text FILE`` prints it):

* a document's text is its words joined by single spaces, one line per
  utterance or segment (lines joined by ``\\n``, no newline at the end);
  offsets count from 0 at the document's first character;
* the corpus text is every document's text followed by ``\\n``, in the order
  the documents first appear in the file; an unsegmented reading
  (``--unsegmented``) counts offsets from its start.

Documents per format:

* ``ctm`` (``FILE CHANNEL BEGIN DURATION WORD [CONFIDENCE]``): one document
  per recording: the FILE field, or ``FILE-CHANNEL`` when the file has more
  than one channel (channels compared case-insensitively); words in file
  order; an alternation (``<ALT_BEGIN>`` ... ``<ALT>`` ... ``<ALT_END>``
  lines) is read as its first alternative.
* ``stm`` (``FILE CHANNEL SPEAKER BEGIN END [<LABELS>] TRANSCRIPT``): one
  document per recording as for ctm; one line per segment, in file order; a
  segment whose transcript is ``IGNORE_TIME_SEGMENT_IN_SCORING`` is left out.
* ``trn`` (``TRANSCRIPT (ID)``): one document per utterance id (the text in
  the last parentheses); consecutive lines with the same id are one document
  of several lines, and an id that comes back after another one is an error.
* ``txt``: the whole file is one unsegmented document (no DOCID), every
  character is text, offsets count from the start of the file.

Lines that are blank or start with ``;;`` are comments in ctm, stm and trn
(in ctm, any line starting with ``;``). In trn and stm transcripts an
alternation ``{ a / b c / @ }`` is read as its first alternative and the NULL
word ``@`` is left out (the text must be one sequence of words); ``(word)``
and fragments are kept as written.

The line records (:func:`trn_utterances`, :func:`ctm_records`,
:func:`stm_segments`) keep everything sclite's notation says (alternations,
times, speakers, labels, ignored segments): ``hub4eval sclite`` scores from
them, and the corpora above are built from the same records.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from hub4eval.config import DEFAULT_NON_EXTRACTABLE, DEFAULT_SPOKEN_ELEMENT
from hub4eval.errors import InputError, UsageError
from hub4eval.model import Corpus, Document
from hub4eval.util.records import quick_init

__all__ = [
    "TEXT_FORMATS",
    "CtmRecord",
    "StmSegment",
    "TrnUtterance",
    "corpus_text",
    "ctm_first_alternatives",
    "ctm_records",
    "first_alternative_words",
    "parse_text_corpus",
    "read_text_corpora",
    "read_text_corpus",
    "stm_segments",
    "text_format_for",
    "trn_utterances",
]

TEXT_FORMATS = ("sgml", "ctm", "trn", "stm", "txt")
EXTENSIONS = {
    ".sgml": "sgml",
    ".sgm": "sgml",
    ".xml": "sgml",
    ".ctm": "ctm",
    ".trn": "trn",
    ".stm": "stm",
    ".txt": "txt",
}
_FIELD = re.compile(r"\S+")


def check_text_format(value: str | None, option: str = "--text-format") -> str | None:
    """``value`` lower-cased if it is a known format (None stays None), else a UsageError.

    An Enum member (the CLI's choice) counts as its value.
    """
    if value is None:
        return None
    value = str(getattr(value, "value", value))
    if value.lower() not in TEXT_FORMATS:
        raise UsageError(
            f"unknown {option} value {value!r}",
            hint="use " + ", ".join(TEXT_FORMATS[:-1]) + " or " + TEXT_FORMATS[-1],
        )
    return value.lower()


def text_format_for(path: str, text_format: str | None = None) -> str:
    """The format of ``path``: ``text_format`` when given, else by extension (default sgml)."""
    checked = check_text_format(text_format)
    if checked is not None:
        return checked
    return EXTENSIONS.get(os.path.splitext(str(path))[1].lower(), "sgml")


class _Builder:
    """Collects documents (DOCID -> lines of words) in order of first appearance."""

    def __init__(self) -> None:
        self.lines: dict[str, list[str]] = {}
        self.first_line: dict[str, int] = {}

    def add(self, docid: str, words: list[str], line: int, *, new_line: bool = True) -> None:
        lines = self.lines.setdefault(docid, [])
        self.first_line.setdefault(docid, line)
        if new_line or not lines:
            lines.append(" ".join(words))
        elif words:
            lines[-1] = f"{lines[-1]} {' '.join(words)}" if lines[-1] else " ".join(words)

    def corpus(self, path: str, rename: dict[str, str] | None = None) -> Corpus:
        documents = []
        offset = 0
        named: dict[str, str] = {}  # DOCID -> the key that has it
        for key, lines in self.lines.items():
            text = "\n".join(lines)
            docid = (rename or {}).get(key, key)
            if docid in named:
                raise _clash(docid, named[docid], key, path, self.first_line)
            named[docid] = key
            documents.append(Document(docid, text, offset, self.first_line[key], ((0, len(text)),)))
            offset += len(text) + 1
        return Corpus(tuple(documents), segmented=True, path=path, warnings=())


def _clash(docid: str, first: str, second: str, path: str, lines: dict[str, int]) -> InputError:
    """Two recordings that would be one document: FILE ``a`` on channels 1 and 2
    is named ``a-1`` and ``a-2``, and FILE ``a-1`` on one channel is ``a-1`` too."""

    def recording(key: str) -> str:
        file, _, channel = key.partition("\0")
        return f"FILE {file} CHANNEL {channel} (line {lines[key]})" if channel else f"{key} (line {lines[key]})"

    return InputError(
        f"two recordings would both be document {docid}: {recording(first)} and {recording(second)}",
        path,
        lines[second],
        1,
        hint="a recording on several channels is named FILE-CHANNEL; rename one of the two recordings",
    )


def _fields(line: str) -> list[tuple[str, int]]:
    """Whitespace-separated fields of ``line`` with their 1-based columns."""
    return [(m.group(0), m.start() + 1) for m in _FIELD.finditer(line)]


def _is_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith(";;")


def _number(field: str, column: int, what: str, path: str, line: int, layout: str) -> float:
    try:
        value = float(field)
    except ValueError:
        value = float("nan")
    if value != value or value in (float("inf"), float("-inf")):
        raise InputError(
            f"{what} {field!r} is not a number",
            path,
            line,
            column,
            hint=f"a line reads {layout}",
        )
    return value


_CTM = "FILE CHANNEL BEGIN DURATION WORD [CONFIDENCE]"
_STM = "FILE CHANNEL SPEAKER BEGIN END [<LABELS>] TRANSCRIPT"


def _recordings(
    builder: _Builder, channels: dict[str, dict[str, str]], multi_channel: frozenset[str] = frozenset()
) -> dict[str, str]:
    """DOCID of each (file, channel) key: the file, or FILE-CHANNEL when a file has several (here or,
    ``multi_channel``, in the other text of the pair)."""
    rename = {}
    for key in builder.lines:
        file, channel = key.split("\0")
        rename[key] = file if len(channels[file]) == 1 and file not in multi_channel else f"{file}-{channel}"
    return rename


ALT_MARKERS = ("<ALT_BEGIN>", "<ALT>", "<ALT_END>")


@quick_init
@dataclass(frozen=True, slots=True)
class CtmRecord:
    """One line of a ctm file. An alternation marker (``<ALT_BEGIN>``, ``<ALT>``,
    ``<ALT_END>``, any case) has no times (``*`` in the file)."""

    file: str
    channel: str
    begin: float | None
    duration: float | None
    word: str
    confidence: float | None
    line: int

    @property
    def marker(self) -> str | None:
        """``<ALT_BEGIN>``, ``<ALT>`` or ``<ALT_END>`` (upper case) when the line is one, else None."""
        if self.word[:1] != "<":
            return None
        upper = self.word.upper()
        return upper if upper in ALT_MARKERS else None


@dataclass(frozen=True)
class StmSegment:
    """One segment of an stm file; ``text`` is the transcript as written (sclite's notation kept)."""

    file: str
    channel: str
    speaker: str
    begin: float
    end: float
    labels: str | None
    text: str
    line: int

    @property
    def ignored(self) -> bool:
        """A segment whose time is not scored: its hypothesis words are dropped, not counted as insertions."""
        upper = self.text.upper()
        return "IGNORE_TIME_SEGMENT_IN_SCORING" in upper or "IGNORETIMESEGMENTINSCORING" in upper


@dataclass(frozen=True)
class TrnUtterance:
    """One line of a trn file: the transcript as written and the id inside the last parentheses."""

    id: str
    text: str
    line: int


def ctm_records(text: str, path: str = "<string>") -> list[CtmRecord]:
    """The lines of a ctm file (comments left out), alternation markers included, checked."""
    _refuse_nul(text, path, "ctm")
    records: list[CtmRecord] = []
    append = records.append
    for number, line in enumerate(text.split("\n"), 1):
        fields = line.split()
        if not fields or fields[0][0] == ";":  # blank, or a comment (any line starting with ';')
            continue
        if (len(fields) == 5 or len(fields) == 6) and fields[4][0] != "<":
            # the common line, read without columns; anything unusual is read (and reported) below
            try:
                begin = float(fields[2].removeprefix("&&"))
                duration = float(fields[3])
                confidence = None if len(fields) == 5 or fields[5].upper() == "NA" else float(fields[5])
            except ValueError:
                pass
            else:
                if (
                    begin - begin == 0.0
                    and duration - duration == 0.0
                    and (confidence is None or confidence - confidence == 0.0)
                ):  # finite (inf - inf and NaN are NaN)
                    append(CtmRecord(fields[0], fields[1], begin, duration, fields[4], confidence, number))
                    continue
        append(_ctm_record(line, number, path))
    return records


def _ctm_record(line: str, number: int, path: str) -> CtmRecord:
    """One ctm line that is not a comment, checked field by field (errors name the column)."""
    fields = _fields(line)
    if len(fields) < 5 or len(fields) > 7:
        raise InputError(
            f"a ctm line has 5 or 6 fields, found {len(fields)}",
            path,
            number,
            fields[6][1] if len(fields) > 6 else len(line.rstrip()) + 1,
            hint=f"a line reads {_CTM}, separated by blanks",
        )
    word = fields[4][0]
    confidence = None
    if len(fields) >= 6 and fields[5][0].upper() != "NA":
        confidence = _number(fields[5][0], fields[5][1], "CONFIDENCE", path, number, _CTM)
    if word.upper() in ALT_MARKERS and fields[2][0] == "*" and fields[3][0] == "*":
        return CtmRecord(fields[0][0], fields[1][0], None, None, word, confidence, number)
    if len(fields) == 7:
        raise InputError(
            f"a ctm line has 5 or 6 fields, found {len(fields)}",
            path,
            number,
            fields[6][1],
            hint=f"a line reads {_CTM}, separated by blanks",
        )
    begin = _number(fields[2][0].removeprefix("&&"), fields[2][1], "BEGIN time", path, number, _CTM)
    duration = _number(fields[3][0], fields[3][1], "DURATION", path, number, _CTM)
    return CtmRecord(fields[0][0], fields[1][0], begin, duration, word, confidence, number)


def ctm_first_alternatives(records: Iterable[CtmRecord]) -> list[CtmRecord]:
    """The words of ctm records with every alternation read as its first alternative (markers dropped)."""
    out = []
    state = 0  # 0 outside, 1 in the first alternative, 2 in a later one
    for record in records:
        marker = record.marker
        if marker == "<ALT_BEGIN>":
            state = 1
        elif marker == "<ALT>":
            state = 2 if state else 0
        elif marker == "<ALT_END>":
            state = 0
        elif state < 2 and record.word != "@":
            out.append(record)
    return out


def stm_segments(text: str, path: str = "<string>") -> list[StmSegment]:
    """The segments of an stm file (comments left out), checked."""
    _refuse_nul(text, path, "stm")
    segments = []
    for number, line in enumerate(text.split("\n"), 1):
        if _is_comment(line):
            continue
        fields = _fields(line)
        if len(fields) < 5:
            raise InputError(
                f"an stm line has at least 5 fields, found {len(fields)}",
                path,
                number,
                1,
                hint=f"a line reads {_STM}, separated by blanks",
            )
        begin = _number(fields[3][0], fields[3][1], "BEGIN time", path, number, _STM)
        end = _number(fields[4][0], fields[4][1], "END time", path, number, _STM)
        if end < begin:
            raise InputError(
                f"segment ends ({fields[4][0]}) before it begins ({fields[3][0]})",
                path,
                number,
                fields[4][1],
                hint="END is the time the segment ends, not its duration",
            )
        rest = fields[5:]
        labels = None
        if rest and rest[0][0].startswith("<"):  # <o,f0,male> labels
            label_end = next((k for k, (w, _) in enumerate(rest) if w.endswith(">")), None)
            if label_end is None:
                raise InputError(
                    "'<' opens a label that is never closed with '>'",
                    path,
                    number,
                    fields[5][1],
                    hint="labels are written <o,f0,male> before the transcript",
                )
            labels = " ".join(w for w, _ in rest[: label_end + 1])
            rest = rest[label_end + 1 :]
        transcript = line[rest[0][1] - 1 :].strip() if rest else ""
        segments.append(StmSegment(fields[0][0], fields[1][0], fields[2][0], begin, end, labels, transcript, number))
    return segments


def trn_utterances(text: str, path: str = "<string>") -> list[TrnUtterance]:
    """The utterances of a trn file (comments left out), each with its id, checked."""
    _refuse_nul(text, path, "trn")
    utterances = []
    for number, line in enumerate(text.split("\n"), 1):
        if _is_comment(line):
            continue
        body = line.rstrip()
        open_at = body.rfind("(")
        if not body.endswith(")") or open_at < 0:
            raise InputError(
                "a trn line ends with its utterance id in parentheses",
                path,
                number,
                len(body) + 1,
                hint="write the words, then the id: 'the words here (speaker1-utt001)'",
            )
        docid = body[open_at + 1 : -1].strip()
        if not docid or any(char.isspace() for char in docid):
            raise InputError(
                f"utterance id {body[open_at:]!r} is empty or holds blanks",
                path,
                number,
                open_at + 1,
                hint="an utterance id is one word, e.g. (speaker1-utt001)",
            )
        utterances.append(TrnUtterance(docid, body[:open_at], number))
    return utterances


def first_alternative_words(transcript: str) -> list[str]:
    """The words of a transcript in sclite's notation with every ``{ a / b }`` read as its first
    alternative and the NULL word ``@`` left out; other words as written."""
    words: list[str] = []
    k, n = 0, len(transcript)
    while k < n:
        while k < n and transcript[k].isspace():
            k += 1
        if k >= n:
            break
        if transcript[k] != "{":
            start = k
            while k < n and not transcript[k].isspace():
                k += 1
            if transcript[start:k] != "@":
                words.append(transcript[start:k])
            continue
        depth, start = 0, k
        while k < n:
            if transcript[k] == "{":
                depth += 1
            elif transcript[k] == "}":
                depth -= 1
                if depth == 0:
                    k += 1
                    break
            k += 1
        body = transcript[start + 1 : k - 1 if depth == 0 else k]
        level, cut = 0, len(body)
        for j, char in enumerate(body):
            if char == "{":
                level += 1
            elif char == "}":
                level -= 1
            elif char == "/" and level == 0:
                cut = j
                break
        words.extend(first_alternative_words(body[:cut]))
    return words


def parse_ctm(
    text: str,
    path: str = "<string>",
    *,
    multi_channel: frozenset[str] = frozenset(),
    ignored: dict[tuple[str, str], list[tuple[float, float]]] | None = None,
) -> Corpus:
    """A ctm file: one document per recording, its words joined by single spaces.

    An alternation (``<ALT_BEGIN>`` ... ``<ALT>`` ... ``<ALT_END>``) is read as its
    first alternative; channels are told apart case-insensitively. A file in
    ``multi_channel`` is named FILE-CHANNEL even when this file has one channel
    of it; a word whose middle lies in an ``ignored`` span of its (file, lower-cased
    channel) is left out.
    """
    builder = _Builder()
    channels: dict[str, dict[str, str]] = {}
    for record in ctm_first_alternatives(ctm_records(text, path)):
        if ignored and _in_spans(record, ignored):
            continue
        channel = channels.setdefault(record.file, {}).setdefault(record.channel.lower(), record.channel)
        builder.add(f"{record.file}\0{channel}", [record.word], record.line, new_line=False)
    return builder.corpus(path, _recordings(builder, channels, multi_channel))


def _in_spans(record: CtmRecord, spans: dict[tuple[str, str], list[tuple[float, float]]]) -> bool:
    middle = (record.begin or 0.0) + (record.duration or 0.0) / 2.0
    return any(begin <= middle < end for begin, end in spans.get((record.file, record.channel.lower()), ()))


def parse_stm(text: str, path: str = "<string>", *, multi_channel: frozenset[str] = frozenset()) -> Corpus:
    """An stm file: one document per recording, one line per segment.

    A segment's alternations are read as their first alternative, ``@`` is left
    out; channels are told apart case-insensitively. A file in
    ``multi_channel`` is named FILE-CHANNEL even when this file has one channel of it.
    """
    builder = _Builder()
    channels: dict[str, dict[str, str]] = {}
    for segment in stm_segments(text, path):
        if segment.ignored:
            continue
        channel = channels.setdefault(segment.file, {}).setdefault(segment.channel.lower(), segment.channel)
        builder.add(f"{segment.file}\0{channel}", first_alternative_words(segment.text), segment.line)
    return builder.corpus(path, _recordings(builder, channels, multi_channel))


def parse_trn(text: str, path: str = "<string>") -> Corpus:
    """A trn file: one document per utterance id, one line per utterance.

    Alternations are read as their first alternative, ``@`` is left out.
    """
    builder = _Builder()
    last: str | None = None
    for utterance in trn_utterances(text, path):
        docid = utterance.id
        if docid != last and docid in builder.lines:
            raise InputError(
                f"utterance id {docid} comes back after other ids (first at line {builder.first_line[docid]})",
                path,
                utterance.line,
                len(utterance.text) + 1,
                hint="keep the lines of one utterance together, or give each its own id",
            )
        builder.add(docid, first_alternative_words(utterance.text), utterance.line)
        last = docid
    return builder.corpus(path)


def parse_txt(text: str, path: str = "<string>") -> Corpus:
    """Plain text: one unsegmented document, every character is text."""
    return Corpus((Document(None, text, 0, 1, ((0, len(text)),)),), segmented=False, path=path, warnings=())


_PARSERS = {"ctm": parse_ctm, "stm": parse_stm, "trn": parse_trn, "txt": parse_txt}


def parse_text_corpus(
    text: str,
    path: str = "<string>",
    text_format: str = "sgml",
    *,
    doc_tag: str = "DOC",
    docno_tag: str = "DOCNO",
    non_extractable: Iterable[str] = DEFAULT_NON_EXTRACTABLE,
    spoken_element: str = DEFAULT_SPOKEN_ELEMENT,
) -> Corpus:
    """Parse the text of a corpus file in ``text_format`` (see the module docstring).

    In ctm, trn, stm and plain text every word is spoken (they have no header
    elements); ``doc_tag``, ``docno_tag``, ``non_extractable`` and
    ``spoken_element`` apply to SGML only.

    Raises:
        UsageError: unknown format.
        InputError: a malformed line, positioned in ``path``.
    """
    text_format = check_text_format(text_format) or "sgml"
    if text_format == "sgml":
        from hub4eval.io.corpus import parse_corpus

        return parse_corpus(
            text,
            path,
            doc_tag=doc_tag,
            docno_tag=docno_tag,
            non_extractable=non_extractable,
            spoken_element=spoken_element,
        )
    corpus = _PARSERS[text_format](text, path)
    return Corpus(corpus.documents, corpus.segmented, path, corpus.warnings, spoken_element=spoken_element)


def _refuse_nul(text: str, path: str, text_format: str) -> None:
    """A NUL byte in a ctm, stm or trn file is an error at its position: a field
    holding one (a recording named ``a\\0b``) names no document a templette can
    point to, and such a file is most likely not text at all."""
    at = text.find("\0")
    if at < 0:
        return
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    raise InputError(
        f"a NUL byte (\\x00) in a {text_format} file",
        path,
        line,
        column,
        hint="is this a text file? remove the NUL bytes, or give the right file",
    )


def read_text_corpus(
    path: str,
    text_format: str | None = None,
    *,
    doc_tag: str = "DOC",
    docno_tag: str = "DOCNO",
    non_extractable: Iterable[str] = DEFAULT_NON_EXTRACTABLE,
    encoding: str = "utf-8",
    spoken_element: str = DEFAULT_SPOKEN_ELEMENT,
) -> Corpus:
    """Read a corpus file in ``text_format`` (None: by its extension, SGML when unknown)."""
    from hub4eval.io.files import read_text

    name = str(path)
    text_format = text_format_for(name, text_format)
    return parse_text_corpus(
        read_text(name, encoding),
        name,
        text_format,
        doc_tag=doc_tag,
        docno_tag=docno_tag,
        non_extractable=non_extractable,
        spoken_element=spoken_element,
    )


def read_text_corpora(
    ref_path: str,
    hyp_path: str,
    ref_format: str | None = None,
    hyp_format: str | None = None,
    **options: Any,
) -> tuple[Corpus, Corpus]:
    """A reference and a hypothesis text read as one pair, as sclite pairs them.

    Like two :func:`read_text_corpus` calls, except for time-marked files
    (ctm, stm) of the same recordings:

    * a recording with several channels in either file is named FILE-CHANNEL
      in both, so a one-channel ctm of a two-channel recording pairs with the
      right stm channel;
    * the hypothesis ctm words whose middle lies in the time of an
      ``IGNORE_TIME_SEGMENT_IN_SCORING`` segment of the stm reference are left
      out (sclite does not count them as insertions).
    """
    from hub4eval.io.files import read_text

    forms = (text_format_for(ref_path, ref_format), text_format_for(hyp_path, hyp_format))
    if forms[0] not in ("ctm", "stm") or forms[1] not in ("ctm", "stm"):
        return (
            read_text_corpus(ref_path, forms[0], **options),
            read_text_corpus(hyp_path, forms[1], **options),
        )
    encoding = options.get("encoding", "utf-8")
    texts = (read_text(ref_path, encoding), read_text(hyp_path, encoding))
    channels: dict[str, set[str]] = {}
    ignored: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for text, path, form in zip(texts, (ref_path, hyp_path), forms, strict=True):
        if form == "stm":
            for segment in stm_segments(text, path):
                channels.setdefault(segment.file, set()).add(segment.channel.lower())
                if segment.ignored and path == ref_path:
                    ignored.setdefault((segment.file, segment.channel.lower()), []).append((segment.begin, segment.end))
        else:
            for record in ctm_records(text, path):
                channels.setdefault(record.file, set()).add(record.channel.lower())
    multi = frozenset(file for file, names in channels.items() if len(names) > 1)
    spoken_element = options.get("spoken_element", DEFAULT_SPOKEN_ELEMENT)
    corpora = []
    for text, path, form in zip(texts, (ref_path, hyp_path), forms, strict=True):
        if form == "stm":
            corpus = parse_stm(text, path, multi_channel=multi)
        else:
            corpus = parse_ctm(text, path, multi_channel=multi, ignored=ignored if path == hyp_path else None)
        corpora.append(Corpus(corpus.documents, corpus.segmented, path, corpus.warnings, spoken_element=spoken_element))
    return corpora[0], corpora[1]


def corpus_text(corpus: Corpus, docid: str | None = None, source: str | None = None) -> str:
    """The text that templette offsets count in: one document's, or the whole corpus's.

    Args:
        corpus: a corpus from :func:`read_text_corpus`.
        docid: a DOCID: that document's text (offsets from its first character,
            for SGML its ``<``); None: the whole corpus text (unsegmented
            offsets count from its start).
        source: the file's own text; for SGML the corpus text is the file.

    Raises:
        InputError: no document ``docid``.
    """
    if docid is not None:
        document = corpus.document(docid)
        if document is None:
            known = [d.docid for d in corpus.documents if d.docid is not None]
            raise UsageError(
                f"no document {docid} in the corpus",
                corpus.path or None,
                hint=f"its documents are {', '.join(known[:5])}{', ...' if len(known) > 5 else ''}"
                if known
                else "the corpus has no DOCIDs: leave out --doc",
            )
        return document.text
    if source is not None:
        return source
    if not corpus.segmented:
        return corpus.documents[0].text if corpus.documents else ""
    return "".join(f"{document.text}\n" for document in corpus.documents)
