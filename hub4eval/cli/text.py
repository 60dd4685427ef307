"""`hub4eval text`: print the text a corpus file's offsets count in."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from hub4eval.cli import options as o
from hub4eval.cli.app import command, print_warnings

File = typer.Argument(..., help="Text corpus: SGML, ctm, trn, stm or plain text.")
Doc = typer.Option(None, "--doc", help="Print only this document's text (offsets count from its first character).")


@command("text")
def text_command(
    file: Path = File,
    text_format: o.TextFormatChoice | None = o.TextFormat,
    doc: str | None = Doc,
    doc_tag: str = o.DocTag,
    docno_tag: str = o.DocnoTag,
    encoding: str = o.Encoding,
    quiet: bool = o.Quiet,
) -> None:
    """Print exactly the text that templette offsets count in, so that an extractor can run on it.

    For ctm, trn and stm files this is the text built from their words (words
    joined by single spaces, one line per utterance or segment, a newline after
    each document); for SGML and plain text it is the file itself. Nothing is
    added: not even a newline after --doc.
    """
    from hub4eval.io.files import read_text
    from hub4eval.io.formats import corpus_text, parse_text_corpus, text_format_for

    name = str(file)
    form = text_format_for(name, text_format)
    source = read_text(name, encoding)
    corpus = parse_text_corpus(source, name, form, doc_tag=doc_tag, docno_tag=docno_tag)
    print_warnings(corpus.warnings, quiet)
    text = corpus_text(corpus, doc, source=source if form in ("sgml", "txt") else None)
    out = sys.stdout
    out.write(text)
    out.flush()
