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
  than one channel; words in file order.
* ``stm`` (``FILE CHANNEL SPEAKER BEGIN END [<LABELS>] TRANSCRIPT``): one
  document per recording as for ctm; one line per segment, in file order; a
  segment whose transcript is ``IGNORE_TIME_SEGMENT_IN_SCORING`` is left out.
* ``trn`` (``TRANSCRIPT (ID)``): one document per utterance id (the text in
  the last parentheses); consecutive lines with the same id are one document
  of several lines, and an id that comes back after another one is an error.
* ``txt``: the whole file is one unsegmented document (no DOCID), every
  character is text, offsets count from the start of the file.

Lines that are blank or start with ``;;`` are comments in ctm, stm and trn.
Tokens such as ``@``, ``{a / b}`` or ``(word)`` are kept as written: they are
words of the text like any other.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from hub4eval.config import DEFAULT_NON_EXTRACTABLE, DEFAULT_SPOKEN_ELEMENT
from hub4eval.errors import InputError, UsageError
from hub4eval.model import Corpus, Document

__all__ = ["TEXT_FORMATS", "corpus_text", "parse_text_corpus", "read_text_corpus", "text_format_for"]

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


def _recordings(builder: _Builder, channels: dict[str, set[str]]) -> dict[str, str]:
    """DOCID of each (file, channel) key: the file, or FILE-CHANNEL when a file has several."""
    rename = {}
    for key in builder.lines:
        file, channel = key.split("\0")
        rename[key] = file if len(channels[file]) == 1 else f"{file}-{channel}"
    return rename


def parse_ctm(text: str, path: str = "<string>") -> Corpus:
    """A ctm file: one document per recording, its words joined by single spaces."""
    builder = _Builder()
    channels: dict[str, set[str]] = {}
    for number, line in enumerate(text.split("\n"), 1):
        if _is_comment(line):
            continue
        fields = _fields(line)
        if len(fields) not in (5, 6):
            raise InputError(
                f"a ctm line has 5 or 6 fields, found {len(fields)}",
                path,
                number,
                fields[6][1] if len(fields) > 6 else len(line.rstrip()) + 1,
                hint=f"a line reads {_CTM}, separated by blanks",
            )
        _number(fields[2][0], fields[2][1], "BEGIN time", path, number, _CTM)
        _number(fields[3][0], fields[3][1], "DURATION", path, number, _CTM)
        if len(fields) == 6:
            _number(fields[5][0], fields[5][1], "CONFIDENCE", path, number, _CTM)
        file, channel = fields[0][0], fields[1][0]
        channels.setdefault(file, set()).add(channel)
        builder.add(f"{file}\0{channel}", [fields[4][0]], number, new_line=False)
    return builder.corpus(path, _recordings(builder, channels))


def parse_stm(text: str, path: str = "<string>") -> Corpus:
    """An stm file: one document per recording, one line per segment."""
    builder = _Builder()
    channels: dict[str, set[str]] = {}
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
        words = [word for word, _ in fields[5:]]
        if words and words[0].startswith("<"):  # <o,f0,male> labels
            if not words[0].endswith(">"):
                label_end = next((k for k, w in enumerate(words) if w.endswith(">")), None)
                if label_end is None:
                    raise InputError(
                        "'<' opens a label that is never closed with '>'",
                        path,
                        number,
                        fields[5][1],
                        hint="labels are written <o,f0,male> before the transcript",
                    )
                words = words[label_end + 1 :]
            else:
                words = words[1:]
        if len(words) == 1 and words[0].upper() == "IGNORE_TIME_SEGMENT_IN_SCORING":
            continue
        file, channel = fields[0][0], fields[1][0]
        channels.setdefault(file, set()).add(channel)
        builder.add(f"{file}\0{channel}", words, number)
    return builder.corpus(path, _recordings(builder, channels))


def parse_trn(text: str, path: str = "<string>") -> Corpus:
    """A trn file: one document per utterance id, one line per utterance."""
    builder = _Builder()
    last: str | None = None
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
        if docid != last and docid in builder.lines:
            raise InputError(
                f"utterance id {docid} comes back after other ids (first at line {builder.first_line[docid]})",
                path,
                number,
                open_at + 1,
                hint="keep the lines of one utterance together, or give each its own id",
            )
        builder.add(docid, body[:open_at].split(), number)
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
    _refuse_nul(text, path, text_format)
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
