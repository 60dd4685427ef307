"""Reading a templette file: the Lark parsers, the file-wide checks, grouping by DOCID."""

from __future__ import annotations

import bisect
import difflib
import functools
import gc
import io
import itertools
import operator
import pickle
import sys
from collections.abc import Container, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

from hub4eval.errors import InputError, InputWarning
from hub4eval.io.files import read_text
from hub4eval.io.templettes.builders import InstanceBuilder
from hub4eval.io.templettes.slips import find_slip
from hub4eval.model import (
    Instance,
    InstanceSet,
    PointerFill,
    Role,
    TemplateSet,
)
from hub4eval.util import diskcache
from hub4eval.util.resources import data_path

if TYPE_CHECKING:  # Lark is imported when a file is not made of usual lines only (see _parse)
    from lark import Lark
    from lark.lexer import TextSlice

    from hub4eval.io.templettes.builders import Token
    from hub4eval.io.templettes.token_builder import TokenBuilder

_ROLES = ("reference", "hypothesis")
# (TYPE, DOCID, N) of an instance's header or of a pointer fill; and an instance's DOCID
_HEADER = operator.attrgetter("type", "docid", "number")
_DOCID = operator.attrgetter("docid")


@functools.cache
def _instance_builder() -> InstanceBuilder:
    """The process's builder of every file (its per-file state is reset before each parse)."""
    return InstanceBuilder()


@functools.cache
def _parser(start: str) -> tuple[Lark, InstanceBuilder | TokenBuilder]:
    """The templette parser for grammar rule ``start`` and its Transformer,
    made once per process (its tables from the user's cache directory when
    they are there).

    ``"start"`` is the instance-level grammar every file goes through: its
    lexer cuts the file into instances (:func:`instance_tokens`) and the
    :class:`InstanceBuilder` builds them; the parser itself only serves the
    tests that compare the two.  ``"tokens"`` is the token-level grammar
    that explains a rejected file (see ``grammars/templette.lark``): its
    Transformer, the :class:`TokenBuilder`, runs inside the LALR parser (no
    parse tree is built).  Positions come from the tokens.  A builder's
    per-file state is reset before each parse (not thread-safe).
    """
    from lark import Lark
    from lark import __version__ as lark_version

    from hub4eval.io.templettes.token_builder import TokenBuilder

    grammar = data_path("grammars", "templette.lark").read_text(encoding="utf-8")
    builder = _instance_builder() if start == "start" else TokenBuilder()
    transformer = builder if start == "tokens" else None
    # Building the LALR tables took 40 ms of every run (a tenth of scoring the
    # sample): they are kept in the user's cache directory (util.diskcache),
    # under a name that digests everything they are made from; a damaged or
    # unloadable file is ignored and the tables are built as if uncached.
    # (Lark's own cache= option is not used: it writes its file in place, not
    # atomically, and by default into the shared temporary directory.)
    options = {"start": start, "parser": "lalr", "lexer": "contextual"}
    name = f"templette-{start}-{diskcache.key(grammar, repr(options), lark_version, sys.version)}.lark"

    def tables(parser: Lark) -> bytes:
        saved = io.BytesIO()
        parser.save(saved, exclude_options=("transformer",))
        return saved.getvalue()

    parser = diskcache.cached(
        name,
        lambda: Lark(grammar, transformer=transformer, **options),
        dump=tables,
        # Lark.load takes no transformer; _load is what Lark's own cache= option calls.
        load=lambda saved: Lark.__new__(Lark)._load(pickle.loads(saved), transformer=transformer),
    )
    return parser, builder


def read_templates(path: str | Path, role: Role = "reference", encoding: str = "utf-8") -> TemplateSet:
    """Read and parse a templette file.

    Args:
        path: the file to read.
        role: ``"reference"`` or ``"hypothesis"``; decides how brackets,
            ``/`` and extra extents are treated (docs/templette-format.md).
        encoding: the text encoding of the file.

    Returns:
        The parsed template set; problems that still allow scoring are in
        its ``warnings``.

    Raises:
        InputError: the file is missing, unreadable, not valid in
            ``encoding``, or not a valid templette file.
    """
    name = str(path)
    text = read_text(name, encoding)
    return parse_templates(text, name, role)


def parse_templates(
    text: str, path: str = "<string>", role: Role = "reference", *, first_line: int = 1, check_pointers: bool = True
) -> TemplateSet:
    """Parse the text of a templette file.

    Args:
        text: the file's content.
        path: the file name used in messages.
        role: ``"reference"`` or ``"hypothesis"``: in a reference,
            ``[...]`` marks minimal strings and ``/`` starts an alternative; in
            a hypothesis brackets are literal, ``/`` is an error and only the
            first extent of a fill is kept.
        first_line: the line of the file on which ``text`` starts (a part of
            a file, read on its own: the positions of instances, fills and
            messages are those in the whole file).
        check_pointers: False leaves out the check that every pointer names
            an instance of the text (for a part of a file whose instances
            are checked together with the other parts, as
            :func:`~hub4eval.io.templettes.split.read_parts` does).

    Returns:
        The template set: instances grouped by the DOCID of their headers, in
        order of first appearance, with warnings attached.

    Raises:
        InputError: a syntax error or an invalid construct, positioned at
            the offending character with a hint.
        ValueError: ``role`` is neither "reference" nor "hypothesis".
    """
    return parse_with_pointers(text, path, role, first_line=first_line, check_pointers=check_pointers)[0]


def parse_with_pointers(
    text: str, path: str = "<string>", role: Role = "reference", *, first_line: int = 1, check_pointers: bool = True
) -> tuple[TemplateSet, list[PointerFill]]:
    """:func:`parse_templates`, and the text's pointer fills in file order (the
    objects its instances hold), which the parser lists as it reads them."""
    if role not in _ROLES:
        raise ValueError(f"role must be 'reference' or 'hypothesis', not {role!r}")
    if text.startswith("\ufeff"):
        text = text[1:]
    # The grammar ends every line with a newline; a last line without one is fine.
    source = text if text.endswith("\n") else text + "\n"
    # Reading allocates objects for every line and frees almost none: the
    # cyclic garbage collector, triggered by the allocations, would only
    # rescan them again and again (a third of the time on a large file).
    collecting = gc.isenabled()
    gc.disable()
    try:
        try:
            instances, pointers, warnings, usual = _parse(source, text, path, role, first_line)
            # the usual reading saw every DOCID's headers in one run, numbered upwards: no two alike
            headers = None if usual and _instance_builder().headers_ordered else _check_headers(instances, path)
            if check_pointers:
                _check_pointers(instances, pointers, path, headers, holders_checked=usual)
        except InputError as error:
            # a slip on a line before the error (a header without ':=', say) is what to report
            slip = find_slip(text, path, first_line)
            if slip is not None and (slip.line or 0) <= (error.line or 0):
                raise slip from None
            raise
        if not usual:  # a file of usual lines holds no slip the grammar reads as something else
            slip = find_slip(text, path, first_line, read=True)
            if slip is not None:
                raise slip
        if not instances:
            warnings.append(InputWarning("no instances in the file", path))
        runs = None
        if usual:
            runs, _instance_builder().run_starts = _instance_builder().run_starts, None
        tset = TemplateSet(
            instance_sets=_group(instances, runs),
            role=role,
            path=path,
            warnings=tuple(warnings),
        )
        if usual:
            builder = _instance_builder()
            bounds, builder.fill_bounds = builder.fill_bounds, None
            if bounds is not None and len(bounds) == len(tset.instance_sets):
                tset.keep_fill_bounds(bounds)
            usual_fills, builder.usual_fills = builder.usual_fills, None
            usual_slots, builder.usual_slots = builder.usual_slots, None
            if usual_fills is not None and len(usual_fills[1]) == len(tset.instance_sets) + 1:
                tset.keep_usual_fills(*usual_fills)
                if usual_slots is not None:
                    tset.keep_usual_slots(usual_slots)
        return tset, pointers
    finally:
        if collecting:
            gc.enable()


def _parse(
    source: str, text: str, path: str, role: Role, first_line: int = 1
) -> tuple[tuple[Instance, ...], list[PointerFill], list[InputWarning], bool]:
    """The instances, pointer fills and warnings of a file, and whether it was
    read as a file of usual lines; or the InputError of its first problem.

    The instance-level parser reads valid files.  When it stops (a syntax error or
    a failed check), the token-level parser reads the file again, from the
    start, to report the first problem piece by piece, with the same message
    whatever the instance-level parser saw.  (Checks across the whole file, such
    as duplicate headers, come after either parser.)
    """
    instance_builder = _instance_builder()
    instance_builder.reset(path, role)
    # A file of usual lines only (what tools write, this one included) is
    # read without Lark (nor importing it): one findall over the file, whose
    # matches are in the grammar's language by construction
    # (tests/io/test_templette_grammars.py compares the two readings).  Any
    # other file is lexed by the grammar.
    usual = instance_builder.usual_file(source, first_line)
    if usual is not None:
        return usual, instance_builder.pointers, instance_builder.warnings, True
    from lark.exceptions import UnexpectedInput, VisitError

    from hub4eval.io.templettes.messages import syntax_error

    parser, builder = _parser("start")
    builder.reset(path, role)
    if first_line > 1:
        # Lark counts the lines of a text slice's start with str.count (the
        # lexer would match each blank line): the parse starts on first_line.
        skipped = first_line - 1
        text = "\n" * skipped + text
        source = "\n" * skipped + source
        try:  # lark 1.3: a parse may start at an offset of its text, with the lines before counted
            from lark.lexer import TextSlice
        except ImportError:  # older lark: the lexer reads the blank lines (slower, the same result)
            pass
        else:
            source = TextSlice(source, skipped, len(source))  # type: ignore[assignment]
    try:
        return instance_builder.start(instance_tokens(parser, source)), builder.pointers, builder.warnings, False
    except (UnexpectedInput, InputError):
        pass
    parser, builder = _parser("tokens")
    builder.reset(path, role)
    try:
        instances = cast("tuple[Instance, ...]", parser.parse(source))
    except UnexpectedInput as error:
        raise syntax_error(error, text, path) from None
    except VisitError as error:
        if isinstance(error.orig_exc, InputError):
            raise error.orig_exc from None
        raise
    # Only reached if the two grammars disagree: the token-level one decides.
    return instances, builder.pointers, builder.warnings, False


def instance_tokens(parser: Lark, source: str | TextSlice) -> list[Token]:
    """The INSTANCE tokens of a file, as the instance-level grammar reads it.

    That grammar's only rule is ``start: _BLANK? INSTANCE*``: blank and
    comment lines, then instances, each one token.  Its LALR parser would add
    nothing but a reduction and a callback per token (a quarter of the time
    Lark spends on a large file), so the file goes through the grammar's
    lexer alone, and the order the rule states is checked here: a ``_BLANK``
    only first.  The lexer has the same terminals as the parser's lexer has
    at the start of a file; after that the parser's allows no ``_BLANK``,
    which is why one there is refused.  The two readings accept the same
    files and give the same tokens (tests/io/test_templette_grammars.py).

    Raises:
        UnexpectedInput: the file is not a run of instances; the token-level
            grammar reads it again to say why.
    """
    from lark.exceptions import UnexpectedToken

    tokens = cast("list[Token]", list(parser.lex(source)))  # the lexer's tokens carry their positions
    if tokens and tokens[0].type == "_BLANK":
        del tokens[0]
    for token in tokens:
        if token.type != "INSTANCE":
            raise UnexpectedToken(token, {"INSTANCE"})
    return tokens


def _group(instances: tuple[Instance, ...], starts: Sequence[int] | None = None) -> tuple[InstanceSet, ...]:
    """Instance sets by DOCID, in order of each DOCID's first appearance.

    ``starts``: where the reader saw each DOCID's instances in one run, the index of each
    run's first instance and the number of instances last (``InstanceBuilder.run_starts``):
    the runs are the sets, cut without a look at each instance.
    """
    if starts is not None:
        return tuple(
            InstanceSet(instances[first].docid, instances[first:last])
            for first, last in zip(starts, starts[1:], strict=False)  # (one less: each run's end)
        )
    # the usual file: each document's instances together, cut by C loops
    runs = [(docid, tuple(run)) for docid, run in itertools.groupby(instances, _DOCID)]
    if len({docid for docid, _ in runs}) == len(runs):
        return tuple(InstanceSet(docid, run) for docid, run in runs)
    by_docid: dict[str, list[Instance]] = {}
    for instance in instances:
        by_docid.setdefault(instance.docid, []).append(instance)
    return tuple(InstanceSet(docid, tuple(group)) for docid, group in by_docid.items())


def _check_headers(instances: tuple[Instance, ...], path: str) -> dict[tuple[str, str, int], Instance]:
    """No two instances may have the same header; the instances by header.

    Headers are compared as (TYPE, DOCID, N), which is what ``Instance.key``
    spells (a TYPE has no hyphen), without making the string of each.
    """
    seen = dict(zip(map(_HEADER, instances), instances, strict=True))  # C loops: the usual file has no duplicate
    if len(seen) == len(instances):
        return seen
    seen = {}
    for instance in instances:
        first = seen.setdefault((instance.type, instance.docid, instance.number), instance)
        if first is not instance:
            raise InputError(
                f"duplicate instance header {instance.key}",
                path,
                instance.line,
                instance.column,
                hint=f"the same header is already on line {first.line}; renumber one of them",
            )
    return seen


def _check_pointers(
    instances: tuple[Instance, ...],
    pointers: list[PointerFill],
    path: str,
    headers: Container[tuple[str, str, int]] | None = None,
    holders_checked: bool = False,
) -> None:
    """Every pointer fill must name an instance of the same file and of the
    same instance set (the DOCID of the instance that holds it, §2 v1.1).

    ``pointers`` are the file's pointer fills in file order, as the parser
    built them (cheaper than walking every fill of every instance again);
    the instance holding a fill is the last one whose header comes before it.
    Pointers and headers are compared as (TYPE, DOCID, N), as in
    :func:`_check_headers`, which gives ``headers`` (else they are made here).
    ``holders_checked``: the reader has already checked that each pointer's
    DOCID is that of the instance holding it (the usual reading does).
    """
    if not pointers:
        return
    keys = headers or set(map(_HEADER, instances))
    if holders_checked and all(map(keys.__contains__, map(_HEADER, pointers))):
        return
    header_lines = [instance.line for instance in instances]
    for fill in pointers:
        if (fill.type, fill.docid, fill.number) in keys:
            holder = instances[bisect.bisect_right(header_lines, fill.line) - 1]
            if fill.docid != holder.docid:
                raise InputError(
                    f"pointer {fill.key} in {holder.key} points into the instance set of document "
                    f"{fill.docid}, not into its own ({holder.docid})",
                    path,
                    fill.line,
                    fill.column,
                    hint=f"a pointer names an instance of the same document: write <TYPE-{holder.docid}-N>",
                )
            continue
        close = difflib.get_close_matches(fill.key, sorted(instance.key for instance in instances), n=3)
        hint = (
            f"did you mean {' or '.join(close)}?" if close else "add an instance with this header, or fix the pointer"
        )
        raise InputError(
            f"pointer {fill.key} refers to no instance of this file",
            path,
            fill.line,
            fill.column,
            hint=hint,
        )
