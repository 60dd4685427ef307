"""§8: global mapping files (GLM): read NIST ``csrfilt`` rules, apply them to tokens.

A GLM file lists spelling rules that bring two transcripts to one normal form
before they are compared (``colour`` and ``color`` both become ``color``).
This module owns the reader (:func:`read_glm`, :func:`parse_glm`), the parsed
file (:class:`Glm`), the rule applier (:func:`apply_glm`) and the shipped
English file (:func:`default_glm`, ``mapping_files/en.glm``).

File format (the subset of NIST1 that hub4eval reads)::

    ;; a comment line                      ;; also after a rule or header
    * name "en.glm"                        header fields: name, desc, format,
    * format = 'NIST1'                     max_nrules, copy_no_hit, case_sensitive
    colour => color / [ ] __ [ ]           LHS => RHS, then an optional context
    [can't] => [can not] / [ ] __ [ ]      brackets only group words
    uh => { uh / @ } / [ ] __ [ ]          `@` = nothing: the produced token is optional
    [it's] => [{ it's / it is }]           other alternations: the first choice is produced
    'cause => because                      no context at all = the empty context

Files are read as NIST's ``csrfilt`` (SCTK ``rfilter1``) reads them, so the
GLM files NIST ships with SCTK (``en20030506.glm``, ``en20090415.glm``) load
unchanged:

* a context ``/ LEFT __ RIGHT`` restricts the rule to places where the words
  of LEFT come just before the matched words and those of RIGHT just after
  (``BINYAMIN => BENJAMIN / __ [ NETANYAHU ]``); ``[ ]`` marks a word
  boundary, which token matching always has, so ``/ [ ] __ [ ]``, ``/ [ ] __``,
  ``/ __ [ ]``, ``/ __`` and no context at all are the same context. The
  contexts are compared with the input tokens, as ``rfilter1`` compares them
  with its input line, not with what earlier rules produced.
* a rule line that cannot be read (no ``=>``, unbalanced brackets or braces,
  an empty side, ...) is skipped with an
  :class:`~hub4eval.errors.InputWarning` naming ``FILE:LINE:COL``; NIST's own
  files have such lines (``[WEBSTER'S] => [{WEBSTER'S / WEBSTER IS / WEBSTER
  HAS}`` lacks its ``]``). A malformed header line stays an
  :class:`~hub4eval.errors.InputError`: it changes how every rule reads.
* ``;; INPUT_DEPENDENT_APPLICATION = "REGEXP"`` comments open a section: the
  rules below it, up to the next such comment, apply only to the texts whose
  labels the regular expression matches, as ``csrfilt.sh`` selects them by its
  ``-i`` input type (``trn``, ``ctm``, ``stm``, ``txt``) and ``-t`` purpose
  (``ref``, ``hyp``). Each rule keeps its section (:attr:`GlmRule.section`);
  :meth:`Glm.applying_to` gives the rules for a text's labels. NIST's files
  have one such section: ``"ctm"`` in ``en20030506.glm`` (rules for
  recognizer output in ctm files) and ``"hyp"`` in ``en20090415.glm`` (rules
  for the hypothesis side); both expand contractions into alternatives.

Differences from ``rfilter1`` (it rewrites characters, hub4eval rewrites
tokens): a rule only matches whole tokens (``rfilter1`` would also rewrite
``ANALYSE`` inside ``ANALYSED`` when the rule has no boundary), and when rules
overlap the longest left-hand side wins (``rfilter1`` takes the first in file
order).

Why one module of about 920 lines: a GLM is one concept whose reader, rule
record, sections and applier share private pieces (a rule is parsed again for
``--keep-punctuation``; the word trie serves :func:`apply_glm` and
:mod:`hub4eval.text.columns`); split, those pieces would become a public
interface of their own.

Several files can be stacked (:func:`stack_glms`): each applies to the output
of the previous one, in the order given.

Both sides of a rule are normalized by the one tokenizer
(:func:`hub4eval.text.tokens.tokenize`), so a rule is written the way text is
written (``U.S.`` is the two tokens ``u s``; ``2-0`` stays one token) and it
matches the tokens the scorer compares. Typographic apostrophes (U+2019) match
ASCII ones. The tokenizer's punctuation whiteout is assumed: under
``--keep-punctuation`` a rule such as ``mr => mister`` no longer matches the
token ``mr.``.

Applying rules (:func:`apply_glm`): one left-to-right pass; at each token the
longest rule left-hand side that matches the following tokens is replaced by
its right-hand side, and the pass continues after the replaced run, so
produced tokens are never rewritten again. Spans of produced tokens:

* a right-hand side with as many tokens as the replaced run: the k-th produced
  token takes the span of the k-th replaced token;
* any other length: every produced token takes the span of the whole replaced
  run (first start, last end); extents therefore stay exact: the first
  produced token starts where the run starts and the last ends where it ends;
* an empty right-hand side (``x => @``) deletes the run.

A produced token is ``parenthesized`` if a token it replaces is (the whole run
for the many-to-many case), and ``optional`` if the rule marks it so or every
replaced token already was.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any, overload

from hub4eval.errors import InputError, InputWarning
from hub4eval.text.tokens import Token, tokenize

__all__ = [
    "Glm",
    "GlmRule",
    "GlmStack",
    "apply_glm",
    "default_glm",
    "for_side",
    "parse_glm",
    "read_glm",
    "stack_glms",
]

_HEADER_FIELDS = ("name", "desc", "format", "max_nrules", "copy_no_hit", "case_sensitive")
_TRUE = {"t", "true", "y", "yes", "1"}
_FALSE = {"f", "false", "n", "no", "0"}
_LEXEME = re.compile(r"[\[\]{}/]|[^\s\[\]{}/]+")
_HEADER = re.compile(r"\*\s*([A-Za-z_][A-Za-z0-9_]*)\s*(=)?\s*(.*)$")
_RIGHT_QUOTE = "\u2019"
_INPUT_DEPENDENT = re.compile(r';;\s+INPUT_DEPENDENT_APPLICATION\s*=\s*"([^"]*)"')


@cache
def _section_pattern(section: str) -> re.Pattern[str]:
    """A section's expression, compiled as csrfilt matches it (both sides lower-cased)."""
    return re.compile(section.lower())


@dataclass(frozen=True)
class GlmRule:
    """One mapping rule, normalized by the tokenizer.

    Attributes:
        lhs: the token texts the rule matches, in order (at least one).
        rhs: the token texts it produces (empty: the run is deleted).
        optional: for each produced token, whether it is optional (``@``).
        line: the rule's line in its file (1-based).
        source: the rule as written, without its comment.
        left: the words that must come just before ``lhs`` (its context).
        right: the words that must come just after ``lhs``.
        section: the regular expression of the ``INPUT_DEPENDENT_APPLICATION``
            section the rule is in (None: the rule applies to every text).
    """

    lhs: tuple[str, ...]
    rhs: tuple[str, ...]
    optional: tuple[bool, ...]
    line: int = 0
    source: str = ""
    left: tuple[str, ...] = ()
    right: tuple[str, ...] = ()
    section: str | None = None

    def applies_to(self, labels: Sequence[str]) -> bool:
        """Whether the rule applies to a text with these labels (csrfilt's test: the
        section's regular expression, lower-cased, is searched in each lower-cased label).

        >>> rule = GlmRule(("that's",), ("that", "is"), (False, False), section="hyp")
        >>> rule.applies_to(["trn", "hyp"]), rule.applies_to(["trn", "ref"])
        (True, False)
        """
        if self.section is None:
            return True
        pattern = _section_pattern(self.section)
        return any(pattern.search(label.lower()) for label in labels)

    def normalized(self) -> str:
        """The rule as one canonical line (the digest is computed over these).

        >>> GlmRule(("uh",), ("uh",), (True,)).normalized()
        'uh => uh?'
        """
        produced = " ".join(w + ("?" if o else "") for w, o in zip(self.rhs, self.optional, strict=True)) or "@"
        context = f" / {' '.join(self.left)} __ {' '.join(self.right)}".replace("  ", " ").rstrip()
        line = f"{' '.join(self.lhs)} => {produced}" + (context if self.left or self.right else "")
        return line if self.section is None else f"{line} ;; only {self.section}"

    def fits(self, texts: Sequence[str], start: int, end: int) -> bool:
        """Whether the context holds around ``texts[start:end]`` (the matched words)."""
        left, right = self.left, self.right
        if left and (start < len(left) or tuple(texts[start - len(left) : start]) != left):
            return False
        return not right or tuple(texts[end : end + len(right)]) == right


@dataclass(frozen=True)
class Glm:
    """A parsed GLM file: header fields, rules, warnings and a content digest.

    Attributes:
        path: where the rules came from (a file path or ``<string>``).
        rules: the applicable rules in file order (skipped rules are absent).
        name: the ``* name`` header field, if any.
        desc: the ``* desc`` header field, if any.
        format: the ``* format`` header field, if any (``NIST1``).
        max_nrules: the ``* max_nrules`` header field, if any.
        copy_no_hit: the ``* copy_no_hit`` flag (words no rule hits are kept;
            hub4eval always keeps them).
        case_sensitive: the ``* case_sensitive`` flag; when false (the
            default) rules match tokens whatever their case.
        warnings: problems that did not stop reading (skipped rules, ...).
        digest: sha1 (hex) of the normalized rules and the case flag, for
            reproducibility signatures (``glm:`` + ``digest[:8]``).
    """

    path: str
    rules: tuple[GlmRule, ...]
    name: str | None = None
    desc: str | None = None
    format: str | None = None
    max_nrules: int | None = None
    copy_no_hit: bool = True
    case_sensitive: bool = False
    warnings: tuple[InputWarning, ...] = ()
    digest: str = ""
    _trie: dict[str | None, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.digest:
            object.__setattr__(self, "digest", _digest(self.rules, self.case_sensitive))
        # A word trie keyed by the first word, then the next, ...; the key None
        # holds the rules ending there, in file order (one left-hand side may
        # have rules with different contexts). Walking it finds the longest
        # match in at most (longest left-hand side) steps, however many rules
        # share a first word (`two` starts over a hundred in en.glm).
        trie: dict[str | None, Any] = {}
        for rule in self.rules:
            node = trie
            for word in rule.lhs:
                node = node.setdefault(word, {})
            node.setdefault(None, []).append(rule)
        object.__setattr__(self, "_trie", trie)

    def __len__(self) -> int:
        return len(self.rules)

    @property
    def sections(self) -> tuple[str, ...]:
        """The ``INPUT_DEPENDENT_APPLICATION`` expressions of the file, in order."""
        return tuple(dict.fromkeys(r.section for r in self.rules if r.section is not None))

    def applying_to(self, labels: Sequence[str]) -> Glm:
        """The rules that apply to a text with these labels (its side ``ref``/``hyp`` and
        its input type ``trn``/``ctm``/``stm``/``txt``); the file itself when it has no section."""
        if not self.sections:
            return self
        rules = tuple(r for r in self.rules if r.applies_to(labels))
        return replace(self, rules=rules, digest="")

    def keeping_punctuation(self) -> Glm:
        """The same rules read as text is read under ``--keep-punctuation``.

        The rules are normally cut into tokens after the punctuation whiteout,
        so ``uh => %hesitation`` produces ``hesitation``, the token the text's
        ``%hesitation`` becomes. When the text keeps its punctuation the token
        is ``%hesitation``, and so must be the rule's. The digest stays the
        file's.
        """
        rules = []
        for rule in self.rules:
            try:
                again = _parse_rule(rule.source, self.path, rule.line, self.case_sensitive, keep_punctuation=True)
                rules.append(replace(again, section=rule.section))
            except InputError:
                rules.append(rule)
        return replace(self, rules=tuple(rules), digest=self.digest)


@dataclass(frozen=True)
class GlmStack:
    """GLM files applied one after the other (``--glm default --glm mine.glm``).

    Attributes:
        glms: the files, in the order they apply.
        warnings: the files' warnings, in order.
        digest: sha1 (hex) of the files' digests in order.
    """

    glms: tuple[Glm, ...]
    warnings: tuple[InputWarning, ...] = ()
    digest: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "warnings", tuple(w for g in self.glms for w in g.warnings))
        joined = "\n".join(g.digest for g in self.glms)
        object.__setattr__(self, "digest", hashlib.sha1(joined.encode("ascii")).hexdigest())

    @property
    def digests(self) -> tuple[str, ...]:
        return tuple(g.digest for g in self.glms)

    @property
    def sections(self) -> tuple[str, ...]:
        """The ``INPUT_DEPENDENT_APPLICATION`` expressions of the files, in order."""
        return tuple(dict.fromkeys(s for g in self.glms for s in g.sections))

    def applying_to(self, labels: Sequence[str]) -> GlmStack:
        """Each file's rules that apply to a text with these labels (see :meth:`Glm.applying_to`)."""
        if not self.sections:
            return self
        return GlmStack(tuple(g.applying_to(labels) for g in self.glms))

    def keeping_punctuation(self) -> GlmStack:
        """Every file read as under ``--keep-punctuation`` (see :meth:`Glm.keeping_punctuation`)."""
        return GlmStack(tuple(g.keeping_punctuation() for g in self.glms))

    def __len__(self) -> int:
        return sum(len(g) for g in self.glms)


@overload
def for_side(glm: Glm, side: str) -> Glm: ...
@overload
def for_side(glm: GlmStack, side: str) -> GlmStack: ...
@overload
def for_side(glm: None, side: str) -> None: ...
def for_side(glm: Glm | GlmStack | None, side: str) -> Glm | GlmStack | None:
    """The rules of ``glm`` for one side (``ref`` or ``hyp``) of hub4eval's own texts.

    hub4eval's texts are plain running text, read as csrfilt reads ``-i txt``
    input given ``-t ref`` or ``-t hyp``: a section applies to the side it
    names (``"hyp"``) and to neither when it names another input type
    (``"ctm"``). A file without sections applies to both sides unchanged.
    """
    if glm is None or not glm.sections:
        return glm
    return glm.applying_to((side, "txt"))


def stack_glms(glms: Sequence[Glm]) -> Glm | GlmStack | None:
    """One file as itself, several as a :class:`GlmStack`, none as None."""
    if not glms:
        return None
    if len(glms) == 1:
        return glms[0]
    return GlmStack(tuple(glms))


def _digest(rules: Sequence[GlmRule], case_sensitive: bool) -> str:
    lines = [f"case_sensitive={'T' if case_sensitive else 'F'}"]
    lines += [rule.normalized() for rule in rules]
    return hashlib.sha1("\n".join(lines).encode("utf-8")).hexdigest()


def _match_key(text: str, case_sensitive: bool) -> str:
    if _RIGHT_QUOTE in text:
        text = text.replace(_RIGHT_QUOTE, "'")
    return text if case_sensitive else text.lower()


# ---------------------------------------------------------------- reading


def read_glm(path: str | Path, encoding: str = "utf-8") -> Glm:
    """Read a GLM file.

    Args:
        path: the file.
        encoding: its text encoding.

    Returns:
        The parsed :class:`Glm`; skipped rules are listed in its ``warnings``.

    Raises:
        InputError: the file cannot be read or decoded, or a header line is
            malformed (``FILE:LINE:COL: message``); a malformed rule line is
            a warning.
    """
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise InputError(
            f"cannot read the GLM file: {error.strerror or error}",
            path=name,
            hint="give an existing mapping file, or --glm none",
        ) from error
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        before = data[: error.start]
        line = before.count(b"\n") + 1
        column = error.start - (before.rfind(b"\n") + 1) + 1
        raise InputError(
            f"the GLM file is not valid {encoding}",
            path=name,
            line=line,
            column=column,
            hint="save it as UTF-8",
        ) from error
    return parse_glm(text, path=name)


def parse_glm(text: str, path: str = "<string>") -> Glm:
    """Parse the text of a GLM file.

    Args:
        text: the file's content.
        path: the name used in errors and warnings.

    Returns:
        The parsed :class:`Glm`.

    Raises:
        InputError: a malformed header line, with ``FILE:LINE:COL`` (a rule
            line that cannot be read is skipped with a warning).

    >>> glm = parse_glm("* case_sensitive = 'F'\\nColour => color / [ ] __ [ ] ;; UK\\n")
    >>> [r.normalized() for r in glm.rules], glm.case_sensitive
    (['colour => color'], False)
    """
    header: dict[str, str] = {}
    header_lines: dict[str, int] = {}
    warnings: list[InputWarning] = []
    rules: list[GlmRule] = []
    seen: dict[tuple[tuple[str, ...], ...], GlmRule] = {}
    case_sensitive = False
    section: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith(";;"):
            dependent = _INPUT_DEPENDENT.match(raw)
            if dependent:
                section = dependent.group(1)
                try:
                    _section_pattern(section)
                except re.error as error:
                    raise InputError(
                        f"INPUT_DEPENDENT_APPLICATION {section!r} is not a regular expression: {error}",
                        path=path,
                        line=number,
                        column=raw.index('"') + 2,
                        hint='write e.g. ;; INPUT_DEPENDENT_APPLICATION = "hyp"',
                    ) from None
            continue
        if stripped.startswith("*"):
            key, value = _parse_header(raw, path, number)
            if key in header:
                warnings.append(
                    InputWarning(
                        f"header field {key!r} repeats line {header_lines[key]}; the last value is used",
                        path,
                        number,
                    )
                )
            if key not in _HEADER_FIELDS:
                warnings.append(
                    InputWarning(
                        f"unknown header field {key!r} ignored (known: {', '.join(_HEADER_FIELDS)})",
                        path,
                        number,
                    )
                )
            header[key] = value
            header_lines[key] = number
            if key == "case_sensitive":
                case_sensitive = _flag(value, path, number, raw)
            continue
        try:
            rule = _parse_rule(raw, path, number, case_sensitive)
            if section is not None:
                rule = replace(rule, section=section)
        except InputError as error:
            # rfilter1 would read such a line as some garbled rule; skipping
            # it, with the place named, is the honest reading.
            warnings.append(InputWarning(f"{error.message}: rule skipped ({error.hint})", path, number, error.column))
            continue
        rule_key = (rule.lhs, rule.left, rule.right)
        previous = seen.get(rule_key)
        # an earlier rule wins wherever it applies: a later one is dropped when the
        # earlier applies to every text (no section) or to the same texts
        if previous is not None and previous.section in (None, rule.section):
            if (previous.rhs, previous.optional) != (rule.rhs, rule.optional):
                warnings.append(
                    InputWarning(
                        f"rule for `{' '.join(rule.lhs)}` repeats line {previous.line} with a "
                        "different right-hand side; the first rule is kept",
                        path,
                        number,
                    )
                )
            continue
        seen[rule_key] = rule
        rules.append(rule)

    fmt = header.get("format")
    if fmt is not None and fmt.upper() != "NIST1":
        warnings.append(InputWarning(f"format {fmt!r} is read as NIST1", path, header_lines["format"]))
    max_nrules = None
    if "max_nrules" in header:
        try:
            max_nrules = int(header["max_nrules"])
        except ValueError:
            raise InputError(
                f"max_nrules must be a whole number, not {header['max_nrules']!r}",
                path=path,
                line=header_lines["max_nrules"],
                column=1,
                hint="write e.g. * max_nrules = '2500'",
            ) from None
    copy_no_hit = True
    if "copy_no_hit" in header:
        copy_no_hit = _flag(header["copy_no_hit"], path, header_lines["copy_no_hit"], "")
        if not copy_no_hit:
            warnings.append(
                InputWarning(
                    "copy_no_hit = 'F' is not supported: words that no rule hits are kept",
                    path,
                    header_lines["copy_no_hit"],
                )
            )
    return Glm(
        path=path,
        rules=tuple(rules),
        name=header.get("name"),
        desc=header.get("desc"),
        format=fmt,
        max_nrules=max_nrules,
        copy_no_hit=copy_no_hit,
        case_sensitive=case_sensitive,
        warnings=tuple(warnings),
    )


def _strip_quotes(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _without_comment(line: str, quoted: bool = False) -> str:
    """Drop a trailing ``;;`` comment (outside quoted values when ``quoted``).

    Rule words may start with an apostrophe (``'cause``), so only header
    lines have quotes.
    """
    if not quoted:
        cut = line.find(";;")
        return line if cut < 0 else line[:cut]
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"" and (i == 0 or line[i - 1].isspace() or line[i - 1] == "="):
            quote = ch
        elif line.startswith(";;", i):
            return line[:i]
    return line


def _parse_header(raw: str, path: str, number: int) -> tuple[str, str]:
    body = _without_comment(raw, quoted=True).strip()
    match = _HEADER.match(body)
    if match is None or not match.group(3).strip():
        raise InputError(
            "malformed header line",
            path=path,
            line=number,
            column=raw.index("*") + 1,
            hint="write * NAME \"VALUE\" or * NAME = 'VALUE'",
        )
    return match.group(1).lower(), _strip_quotes(match.group(3).strip())


def _flag(value: str, path: str, number: int, raw: str) -> bool:
    folded = value.strip().lower()
    if folded in _TRUE:
        return True
    if folded in _FALSE:
        return False
    column = raw.find(value) + 1 if raw and value in raw else 1
    raise InputError(
        f"expected 'T' or 'F', not {value!r}",
        path=path,
        line=number,
        column=column,
        hint="header flags are 'T' (true) or 'F' (false)",
    )


def _lex(text: str, base: int) -> list[tuple[str, int]]:
    """Lexemes of ``text`` with their 1-based columns (``base`` = offset in the line)."""
    return [(m.group(0), base + m.start() + 1) for m in _LEXEME.finditer(text)]


class _RuleError(Exception):
    def __init__(self, message: str, column: int, hint: str) -> None:
        super().__init__(message)
        self.message = message
        self.column = column
        self.hint = hint


def _parse_rule(raw: str, path: str, number: int, case_sensitive: bool, keep_punctuation: bool = False) -> GlmRule:
    body = _without_comment(raw)
    source = body.strip()
    try:
        arrow = body.find("=>")
        if arrow < 0:
            first = len(body) - len(body.lstrip()) + 1
            raise _RuleError("a rule needs `=>`", first, "write LHS => RHS / [ ] __ [ ]")
        second = body.find("=>", arrow + 2)
        if second >= 0:
            raise _RuleError("more than one `=>` in a rule", second + 1, "write one rule per line")
        lhs_words = _parse_lhs(_lex(body[:arrow], 0), arrow + 1)
        rhs_items, context = _split_rhs(_lex(body[arrow + 2 :], arrow + 2), arrow + 1)
        produced = _parse_rhs(rhs_items, arrow + 1)
        left_words, right_words = _parse_context(context) if context is not None else ([], [])
        lhs = _keys(lhs_words, case_sensitive, keep_punctuation)
        if not lhs:
            raise _RuleError(
                "the left-hand side has no word once punctuation is whited out",
                lhs_words[0][1],
                "a rule must match at least one token",
            )
        rhs: list[str] = []
        optional: list[bool] = []
        for word, opt in produced:
            for token in tokenize(word, case_sensitive=case_sensitive, keep_punctuation=keep_punctuation):
                rhs.append(token.text if case_sensitive else token.text.lower())
                optional.append(opt)
    except _RuleError as error:
        raise InputError(error.message, path=path, line=number, column=error.column, hint=error.hint) from None
    left = _keys(left_words, case_sensitive, keep_punctuation)
    right = _keys(right_words, case_sensitive, keep_punctuation)
    return GlmRule(lhs, tuple(rhs), tuple(optional), number, source, left, right)


def _keys(words: list[tuple[str, int]], case_sensitive: bool, keep_punctuation: bool = False) -> tuple[str, ...]:
    """Match keys of rule words, cut into tokens as text is."""
    joined = " ".join(w for w, _ in words)
    tokens = tokenize(joined, case_sensitive=case_sensitive, keep_punctuation=keep_punctuation)
    return tuple(_match_key(t.text, case_sensitive) for t in tokens)


def _parse_lhs(lexemes: list[tuple[str, int]], arrow_column: int) -> list[tuple[str, int]]:
    words: list[tuple[str, int]] = []
    depth = 0
    opened = arrow_column
    for lexeme, column in lexemes:
        if lexeme == "[":
            depth += 1
            opened = column
        elif lexeme == "]":
            depth -= 1
            if depth < 0:
                raise _RuleError("`]` without `[`", column, "balance the brackets")
        elif lexeme in ("{", "}", "/", "@", "__"):
            raise _RuleError(
                f"`{lexeme}` is not allowed on the left-hand side",
                column,
                "the left-hand side is plain words, optionally in [ ]",
            )
        else:
            words.append((lexeme, column))
    if depth:
        raise _RuleError("`[` without `]` on the left-hand side", opened, "balance the brackets")
    if not words:
        raise _RuleError("empty left-hand side", arrow_column, "write at least one word before `=>`")
    return words


def _split_rhs(
    lexemes: list[tuple[str, int]], arrow_column: int
) -> tuple[list[tuple[str, int]], list[tuple[str, int]] | None]:
    """Split the right side at its first `/` outside braces: (RHS, context or None)."""
    depth = 0
    opened = arrow_column
    for k, (lexeme, column) in enumerate(lexemes):
        if lexeme == "{":
            if depth:
                raise _RuleError("nested `{`", column, "alternations cannot be nested")
            depth, opened = 1, column
        elif lexeme == "}":
            if not depth:
                raise _RuleError("`}` without `{`", column, "balance the braces")
            depth = 0
        elif lexeme == "/" and not depth:
            return lexemes[:k], lexemes[k + 1 :]
    if depth:
        raise _RuleError("`{` without `}`", opened, "close the alternation with `}`")
    return lexemes, None


def _parse_rhs(items: list[tuple[str, int]], arrow_column: int) -> list[tuple[str, bool]]:
    """The produced words of a right-hand side, each with its optional mark."""
    if not items:
        raise _RuleError("empty right-hand side", arrow_column + 2, "write the replacement, or @ to delete")
    produced: list[tuple[str, bool]] = []
    depth = 0
    opened = arrow_column
    k = 0
    while k < len(items):
        lexeme, column = items[k]
        if lexeme == "[":
            depth += 1
            opened = column
        elif lexeme == "]":
            depth -= 1
            if depth < 0:
                raise _RuleError("`]` without `[`", column, "balance the brackets")
        elif lexeme == "{":
            end = k + 1
            while items[end][0] != "}":
                end += 1
            produced += _alternation(items[k + 1 : end], column)
            k = end
        elif lexeme == "__":
            raise _RuleError("`__` outside a context", column, "a context follows ` / `")
        elif lexeme != "@":
            produced.append((lexeme, False))
        k += 1
    if depth:
        raise _RuleError("`[` without `]` on the right-hand side", opened, "balance the brackets")
    return produced


def _alternation(items: list[tuple[str, int]], brace_column: int) -> list[tuple[str, bool]]:
    choices: list[list[tuple[str, int]]] = [[]]
    for lexeme, column in items:
        if lexeme == "/":
            choices.append([])
        elif lexeme in ("[", "]"):
            continue
        elif lexeme == "__":
            raise _RuleError("`__` inside an alternation", column, "a context follows ` / `")
        else:
            choices[-1].append((lexeme, column))
    for choice in choices:
        if not choice:
            raise _RuleError("empty choice in an alternation", brace_column, "write { a / b }, or @ for nothing")
        if len(choice) > 1 and any(word == "@" for word, _ in choice):
            at = next(column for word, column in choice if word == "@")
            raise _RuleError("`@` must be a choice by itself", at, "write { uh / @ }")
    nothing = any(choice[0][0] == "@" for choice in choices)
    words = next((choice for choice in choices if choice[0][0] != "@"), [])
    return [(word, nothing) for word, _ in words]


def _parse_context(context: list[tuple[str, int]]) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """The words before and after ``__`` in a context (``[`` ``]`` are boundaries)."""
    marks = [lexeme for lexeme, _ in context if lexeme == "__"]
    if len(marks) != 1:
        column = context[0][1] if context else 1
        raise _RuleError("a context needs exactly one `__`", column, "write / [ ] __ [ ] (or drop the context)")
    depth = 0
    for lexeme, column in context:
        if lexeme == "[":
            depth += 1
        elif lexeme == "]":
            depth -= 1
            if depth < 0:
                raise _RuleError("`]` without `[` in the context", column, "balance the brackets")
        elif lexeme in ("{", "}", "/", "@"):
            raise _RuleError(f"`{lexeme}` in a context", column, "write / [ ] __ [ ]")
    slot = next(k for k, (lexeme, _) in enumerate(context) if lexeme == "__")
    left = [(w, c) for w, c in context[:slot] if w not in ("[", "]")]
    right = [(w, c) for w, c in context[slot + 1 :] if w not in ("[", "]")]
    return left, right


# ---------------------------------------------------------------- applying


def apply_glm(tokens: Sequence[Token], glm: Glm | GlmStack) -> tuple[Token, ...]:
    """Rewrite ``tokens`` with the rules of ``glm`` (one pass, longest match first).

    Args:
        tokens: tokens from :func:`hub4eval.text.tokens.tokenize`.
        glm: the rules (a :class:`GlmStack`: each file's rules in turn).

    Returns:
        The rewritten tokens; spans follow the rule in the module docstring.

    >>> glm = parse_glm("nineteen eighty six => 1986\\ncannot => can not\\nuh => { uh / @ }")
    >>> [(t.text, t.start, t.end, t.optional) for t in apply_glm(tokenize("Uh, nineteen eighty six"), glm)]
    [('uh', 0, 2, True), ('1986', 4, 23, False)]
    >>> [(t.text, t.start, t.end) for t in apply_glm(tokenize("I cannot"), glm)]
    [('i', 0, 1), ('can', 2, 8), ('not', 2, 8)]
    """
    if isinstance(glm, GlmStack):
        applied = tuple(tokens)
        for one in glm.glms:
            applied = apply_glm(applied, one)
        return applied
    trie = glm._trie
    if not trie:
        return tuple(tokens)
    case_sensitive = glm.case_sensitive
    for token in tokens:  # each token's match key, as glm_keys makes it: does a rule start there?
        key = token.text
        if not case_sensitive and not key.islower():
            key = key.lower()
        if _RIGHT_QUOTE in key:
            key = _match_key(key, True)
        if key in trie:
            break
    else:  # no rule starts anywhere (most fills): the tokens as they are
        return tokens if type(tokens) is tuple else tuple(tokens)
    texts = glm_keys([t.text for t in tokens], glm.case_sensitive)
    candidates = [i for i, text in enumerate(texts) if text in trie]
    out: list[Token] = []
    done = 0
    for i, width, rule in glm_matches(trie, texts, candidates):
        out.extend(tokens[done:i])
        out.extend(_produce(tokens[i : i + width], rule))
        done = i + width
    out.extend(tokens[done:])
    return tuple(out)


def glm_keys(texts: list[str], case_sensitive: bool) -> list[str]:
    """The words the rules of a GLM (of ``case_sensitive``) are matched against, one per text."""
    if not case_sensitive:
        # (a text already in lower case is kept: a copy of each of ten million words took 500 MB)
        texts = [text if text.islower() else text.lower() for text in texts]
    return [_match_key(t, True) if _RIGHT_QUOTE in t else t for t in texts]


def glm_matches(trie: dict, texts: Sequence[str], candidates: Iterable[int]) -> Iterator[tuple[int, int, GlmRule]]:
    """(start, width, rule) of each rewrite of one left-to-right pass, longest match first.

    ``candidates``: in increasing order, the positions whose word starts a
    rule (``texts[i] in trie``); no rewrite starts anywhere else.
    """
    total = len(texts)
    resume = 0
    for i in candidates:
        if i < resume:
            continue
        node = trie[texts[i]]
        rule = _fitting(node.get(None), texts, i, i + 1)
        width = 1
        j = i + 1
        while j < total:
            node = node.get(texts[j])
            if node is None:
                break
            j += 1
            found = _fitting(node.get(None), texts, i, j)
            if found is not None:
                rule, width = found, j - i
        if rule is None:
            continue
        yield i, width, rule
        resume = i + width


def _fitting(rules: list[GlmRule] | None, texts: Sequence[str], start: int, end: int) -> GlmRule | None:
    """The first of ``rules`` (file order) whose context holds around ``texts[start:end]``."""
    if rules is None:
        return None
    for rule in rules:
        if not (rule.left or rule.right) or rule.fits(texts, start, end):
            return rule
    return None


def _produce(replaced: Sequence[Token], rule: GlmRule) -> list[Token]:
    if len(rule.rhs) == len(replaced):
        return [
            Token(
                text,
                old.start,
                old.end,
                old.parenthesized,
                optional or old.optional,
                old.form if text == old.text else None,  # a new word has no raw form (§6)
            )
            for text, optional, old in zip(rule.rhs, rule.optional, replaced, strict=True)
        ]
    start, end = replaced[0].start, replaced[-1].end
    parenthesized = any(t.parenthesized for t in replaced)
    all_optional = all(t.optional for t in replaced)
    return [
        Token(text, start, end, parenthesized, optional or all_optional)
        for text, optional in zip(rule.rhs, rule.optional, strict=True)
    ]


@cache
def default_glm() -> Glm:
    """The shipped English mapping file, ``mapping_files/en.glm`` (read once).

    Parsing its 1,450 rules took 30 ms of every run that aligns texts (each
    rule's words go through the tokenizer): the parsed file is kept in the
    user's cache directory (:mod:`hub4eval.util.diskcache`), under a name that
    digests the file, its path and the source of every module the parse
    depends on (this one, the tokenizer, the punctuation whiteout, the
    warnings), so that a changed file or parser never finds an old one; a
    missing, damaged or unloadable cache file means: parsed as if uncached.

    Raises:
        FileNotFoundError: the installation lacks the file.
    """
    from hub4eval.util.resources import data_path

    return _read_cached(data_path("mapping_files", "en.glm"))


def _read_cached(path: Path) -> Glm:
    """:func:`read_glm` of ``path`` (UTF-8), from the cache directory when it is there."""
    import sys
    import unicodedata

    from hub4eval import errors
    from hub4eval.text import normalize, tokens
    from hub4eval.util import diskcache

    try:
        data = path.read_bytes()
        sources = [
            Path(module.__file__ or "").read_bytes() for module in (sys.modules[__name__], tokens, normalize, errors)
        ]
    except OSError:
        return read_glm(path)  # its error
    digests = [hashlib.sha256(part).hexdigest() for part in (data, *sources)]
    name = f"glm-{diskcache.key(*digests, str(path), sys.version, unicodedata.unidata_version)}.pickle"
    return diskcache.cached(name, lambda: read_glm(path), kind=Glm)
