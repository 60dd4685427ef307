"""Reading and writing templette files (spec §2).

This module owns the templette syntax.  Parsing is done by Lark with the
grammar ``grammars/templette.lark``; the builders make the frozen
dataclasses of :mod:`hub4eval.model` directly from Lark's tokens, so no
Lark object leaves this module.  The
checks a context-free grammar cannot express are made here too, each raising
an :class:`~hub4eval.errors.InputError` positioned at the offending
character: malformed pointers, bad extents, reference ``[...]`` brackets and
their extent counts, ``/`` in a hypothesis, duplicate headers and slots, and
pointers to instances that do not exist.

For speed, a file made only of usual lines (a header ``<...> :=`` at the
start of its line; slot and fill lines of the form ``NAME: "text" ##a#b#``,
``NAME: plain words ##a#b#`` or a pointer, indented with spaces; blank and
comment lines, which is how this package's writer and most systems write
them) is read without Lark (which is then not even imported), by one regular
expression over the whole file (:meth:`InstanceBuilder.usual_file`); such lines are a part of the grammar's
language, and anything that would raise or warn leaves that reading
(docs/templette-format.md, "Reading speed", says which files are read so).
Any other file is read with the grammar's instance-level rules (one
token per instance: its header line and every line under it, which
:class:`InstanceBuilder` cuts into slots, fills and their pieces with regular
expressions).  Those rules only say "blank lines, then instances", so Lark's
lexer alone reads them and the reader checks that order.  Only a file that
fails is read again with the token-level rules of the same language (LALR,
contextual lexer), which find the offending piece and say what was expected
there (:class:`TokenBuilder`, :func:`syntax_error`).

Decisions the specification leaves open:

* ``SLOT:`` with nothing after it is a slot with zero fill-alternatives when
  the next line is another slot, a header or the end of the file.  When the
  next line is a fill, that fill is the slot's first fill.
* A reference fill without brackets takes at most one extent (``1 + k`` with
  ``k = 0`` groups).  An empty ``[]`` group is an error.
* ``?`` in a hypothesis is ignored, with a warning.
* A leading byte-order mark is dropped.

Modules: :mod:`.reader` (the parsers and file-wide checks), :mod:`.builders`
(the builder of every file), :mod:`.token_builder` (the token-level grammar's
Transformer, which imports Lark), :mod:`.checks` (checks on pieces of a line),
:mod:`.messages` (syntax-error messages), :mod:`.writer`, :mod:`.split` (the
byte ranges of each document, read on their own to score in groups).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hub4eval.io.templettes.reader import parse_templates, read_templates

if TYPE_CHECKING:
    from hub4eval.io.templettes.writer import write_templates

__all__ = ["parse_templates", "read_templates", "write_templates"]


def __getattr__(name: str) -> Any:
    """``write_templates``, its module imported when first asked for: a score reads two files
    and writes none (``hub4eval project`` and the tests write them)."""
    if name == "write_templates":
        from hub4eval.io.templettes.writer import write_templates

        return write_templates
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
