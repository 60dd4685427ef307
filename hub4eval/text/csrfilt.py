"""NIST's ``csrfilt.sh``: a GLM applied to the text of trn, ctm, stm or txt files, as sclite's users filter them.

``hub4eval sclite --glm FILE`` filters both of its inputs this way before it
reads them, so its numbers are those of ``csrfilt.sh`` then ``sclite``:

* the transcript part of each line is taken (trn: before the ``(id)``; ctm:
  the word field; stm: after the five fields and the optional ``<label>``;
  txt: the whole line); ``;;`` comment lines and blank lines pass unchanged
  (csrfilt stops at a blank line; sclite's readers skip it);
* it is upper-cased (ASCII letters; with ``ext_ascii`` the Latin-1 ones too)
  unless ``upcase`` is false (csrfilt's ``-s``);
* the rules of the GLM that apply to the text's labels are applied: its input
  type (``trn``, ``ctm``, ``stm``, ``txt``) and its side (``ref``, ``hyp``),
  matched against each ``INPUT_DEPENDENT_APPLICATION`` section's expression
  (csrfilt's ``-i`` and ``-t``); words are blank-separated and a rule's
  right-hand side is written as the file writes it, alternations included
  (``{THAT'S / THAT IS / THAT HAS}``), so sclite's alignment chooses the
  alternative that fits best;
* with ``delete_hyphens`` (csrfilt's ``-dh``) a hyphen between two letters
  becomes a blank (``WELL-KNOWN`` -> ``WELL KNOWN``; the fragment ``BUNI-``
  keeps its hyphen);
* optionally deletable groups are split word by word (``(A B)`` -> ``(A) (B)``);
* a ctm word that became several words, or an alternation, becomes several ctm
  lines sharing the word's time equally (an alternation between
  ``<ALT_BEGIN>``, ``<ALT>`` and ``<ALT_END>`` lines), times written with
  three decimals.

Rules are applied as ``rfilter1`` applies them, on characters (see
:class:`_Rules`): a rule without ``[ ]`` boundaries rewrites inside longer
words too (``FUNDRAIS => FUND RAIS`` turns ``FUNDRAISER'S`` into ``FUND
RAISER'S``, as NIST's file intends), and at each place the first rule in file
order wins. The tests compare the output with csrfilt's own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from hub4eval.errors import InputError
from hub4eval.text.glm import Glm, GlmStack

__all__ = ["INPUT_TYPES", "Csrfilt", "CsrfiltOptions", "csrfilt_text", "csrfilt_words", "rfilter1_rule"]

INPUT_TYPES = ("trn", "ctm", "stm", "txt")
_HYPHEN = re.compile(r"([^( ])-(?=[^) ])")
_OPT_DEL = re.compile(r"(\(\s+[^()\s]+\s+)([^()\s]+)")
_TRN = re.compile(r"^(.*)(\(.*\))\s*$", re.S)
_STM = re.compile(r"^(\s*\S+\s*\S+\s*\S+\s*\S+\s*\S+\s*<\S+>)(.*)$|^(\s*\S+\s*\S+\s*\S+\s*\S+\s*\S+)(.*)$", re.S)
_NUMBER = re.compile(r"^[0-9.-]*$")
_UPPER = str.maketrans({chr(c): chr(c - 32) for c in range(ord("a"), ord("z") + 1)})
_UPPER_LATIN1 = str.maketrans({chr(c): chr(c - 32) for c in [*range(ord("a"), ord("z") + 1), *range(0xE0, 0x100)]})


@dataclass(frozen=True)
class CsrfiltOptions:
    """How to filter (csrfilt's options).

    Attributes:
        input_type: ``trn``, ``ctm``, ``stm`` or ``txt`` (``-i``).
        side: ``ref``, ``hyp`` or "" (``-t``; "" selects by input type only).
        delete_hyphens: split hyphenated words (``-dh``).
        upcase: upper-case the text (false: ``-s``).
        ext_ascii: upper-case Latin-1 letters too (``-e``).
    """

    input_type: str = "trn"
    side: str = ""
    delete_hyphens: bool = False
    upcase: bool = True
    ext_ascii: bool = False


@dataclass(frozen=True)
class Csrfilt:
    """A GLM and how csrfilt applies it to both inputs of a scoring (``hub4eval sclite --glm``).

    Attributes:
        glm: the rules (several files apply one after the other).
        delete_hyphens: split hyphenated words (``-dh``).
        sides: filter the reference with ``-t ref`` and the hypothesis with
            ``-t hyp`` (false: by input type only, csrfilt without ``-t``).
    """

    glm: Glm | GlmStack
    delete_hyphens: bool = False
    sides: bool = True

    def filter(self, text: str, input_type: str, side: str, path: str, ext_ascii: bool = False) -> str:
        """The text of one input file (``side``: ``ref`` or ``hyp``) as csrfilt writes it."""
        how = CsrfiltOptions(input_type, side if self.sides else "", self.delete_hyphens, ext_ascii=ext_ascii)
        return csrfilt_text(text, self.glm, how, path)


class _Rules:
    """The rules of one or more GLM files that apply to one kind of text, as ``rfilter1`` applies them.

    ``rfilter1`` reads a rule as four strings (what it matches, what it writes,
    the left and the right context; ``[ ]`` around one is dropped, so ``[ ]``
    is one blank) and scans its input character by character: at each place
    the first rule in file order whose string and contexts match there (the
    contexts on the input, not on what was written) writes its output and the
    scan goes on after the matched string; elsewhere the character is copied.
    One regular expression per file does the same: its alternatives are tried
    in file order at each place, the contexts are look-behind and look-ahead.
    """

    def __init__(self, glm: Glm | GlmStack, labels: Sequence[str]) -> None:
        glms = glm.glms if isinstance(glm, GlmStack) else (glm,)
        self.passes: list[tuple[re.Pattern[str], list[str], bool]] = []
        for one in glms:
            fold = (lambda t: t) if one.case_sensitive else (lambda t: t.translate(_UPPER))
            by_key: dict[str, list[tuple[str, str]]] = {}  # first character -> (alternative, output)
            for rule in one.applying_to(labels).rules:
                sin, sout, left, right = rfilter1_rule(rule.source)
                sin, left, right = fold(sin), fold(left), fold(right)
                if not sin:
                    continue
                # after the first character, the rest of the matched string, then the left
                # context with it looking back, the right one looking ahead; the empty group
                # at the end names the rule
                alternative = re.escape(sin[1:])
                alternative += f"(?<={re.escape(left + sin)})" if left else ""
                alternative += f"(?={re.escape(right)})" if right else ""
                by_key.setdefault(sin[0], []).append((alternative + "()", sout))
            if by_key:
                # one branch per first character (the engine skips a branch whose first
                # character differs at once), its rules in file order
                pattern = "|".join(
                    f"{re.escape(key)}(?:{'|'.join(a for a, _ in rules)})" for key, rules in by_key.items()
                )
                outputs = [out for rules in by_key.values() for _, out in rules]
                self.passes.append((re.compile(pattern), outputs, one.case_sensitive))

    def apply(self, text: str) -> str:
        for pattern, outputs, case_sensitive in self.passes:
            keys = text if case_sensitive else text.translate(_UPPER)  # strncasecmp: ASCII letters
            pieces: list[str] = []
            done = 0
            for match in pattern.finditer(keys):
                pieces += (text[done : match.start()], outputs[(match.lastindex or 1) - 1])
                done = match.end()
            pieces.append(text[done:])
            text = "".join(pieces)
        return text


def rfilter1_rule(line: str) -> tuple[str, str, str, str]:
    """A rule line read as ``rfilter1`` reads it: (matched string, written string, left context,
    right context); one ``[ ]`` (or quotes) around each is dropped, blanks inside are kept.

    >>> rfilter1_rule("[THAT'S] => [{THAT'S / THAT IS}] / [ ] __ [ ]")
    ("THAT'S", "{THAT'S / THAT IS}", ' ', ' ')
    >>> rfilter1_rule("FUNDRAIS => FUND RAIS")
    ('FUNDRAIS', 'FUND RAIS', '', '')
    >>> rfilter1_rule("BINYAMIN => BENJAMIN / __ [ NETANYAHU]")
    ('BINYAMIN', 'BENJAMIN', '', ' NETANYAHU')
    """
    arrow = line.find("=>")
    slash = line.rfind("/")
    context = None
    if slash > arrow:
        after = line[slash:]
        close, open_ = after.find("]"), after.find("[")
        if not (close >= 0 and (open_ < 0 or close < open_)):  # a slash inside [ ] is no context
            context = slash
    slot = line.find("_", context) if context is not None else -1
    lhs = _unbracket(line[:arrow].strip())
    rhs_end = context if context is not None else len(line)
    rhs = _unbracket(line[arrow + 2 : rhs_end].strip())
    left = right = ""
    if context is not None and slot >= 0:
        left = _unbracket(line[context + 1 : slot].strip())
        right = _unbracket(line[slot:].lstrip("_").strip())
    return lhs, rhs, left, right


def _unbracket(text: str) -> str:
    """``text`` without one enclosing ``[ ]`` or pair of quotes (rfilter1's boundary characters)."""
    if len(text) >= 2 and ((text[0] == "[" and text[-1] == "]") or (text[0] == text[-1] == '"')):
        return text[1:-1]
    return text


def csrfilt_words(text: str, rules: _Rules, options: CsrfiltOptions) -> str:
    """The transcript part of one line, filtered (csrfilt's steps 3 and 4, without the record around it)."""
    if options.upcase:
        text = text.translate(_UPPER_LATIN1 if options.ext_ascii else _UPPER)
    text = text.replace("(", "( ").replace(")", " )")
    text = rules.apply(f" {text} ")
    if options.delete_hyphens:
        text = _HYPHEN.sub(r"\1 ", text)
    text = f" {text} "
    while True:
        text, n = _OPT_DEL.subn(r"\1) ( \2", text, count=1)
        if not n:
            break
    text = re.sub(r"\(\s+", "(", text)
    text = re.sub(r"\s+\)", ")", text)
    return " ".join(text.split())


def csrfilt_text(text: str, glm: Glm | GlmStack, options: CsrfiltOptions, path: str = "<text>") -> str:
    """A whole trn, ctm, stm or txt file filtered as ``csrfilt.sh`` filters it.

    Raises:
        InputError: a trn line without ``(id)`` or an stm line with fewer than
            five fields (``FILE:LINE``), as csrfilt refuses them.

    >>> from hub4eval.text.glm import parse_glm
    >>> glm = parse_glm(';; INPUT_DEPENDENT_APPLICATION = "hyp"\\n[THAT\\'S] => [{THAT\\'S / THAT IS}] / [ ] __ [ ]\\n')
    >>> csrfilt_text("that's well-known (a)\\n", glm, CsrfiltOptions("trn", "hyp", delete_hyphens=True))
    "{THAT'S / THAT IS} WELL KNOWN (a)\\n"
    >>> csrfilt_text("that's well-known (a)\\n", glm, CsrfiltOptions("trn", "ref"))
    "THAT'S WELL-KNOWN (a)\\n"
    """
    if options.input_type not in INPUT_TYPES:
        raise InputError(f"unknown input type {options.input_type!r}", path=path, hint=f"use {', '.join(INPUT_TYPES)}")
    labels = [options.input_type] + ([options.side] if options.side else [])
    rules = _Rules(glm, labels)
    out: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith(";;") or not line.strip():
            out.append(line)
            continue
        line = re.sub(r"[ \t]+", " ", f" {line} ")
        if options.input_type == "trn":
            match = _TRN.match(line)
            if match is None:
                raise InputError("csrfilt cannot read this trn line: no (id) at its end", path=path, line=number)
            words = csrfilt_words(match.group(1), rules, options)
            out.append(" ".join(f"{words} {match.group(2)}".split()) if words else " ".join(match.group(2).split()))
        elif options.input_type == "stm":
            match = _STM.match(line)
            if match is None:
                raise InputError("csrfilt cannot read this stm line: fewer than five fields", path=path, line=number)
            head, rest = (
                (match.group(1), match.group(2)) if match.group(1) is not None else (match.group(3), match.group(4))
            )
            out.append(" ".join(f"{head} {csrfilt_words(rest, rules, options)}".split()))
        elif options.input_type == "txt":
            out.append(csrfilt_words(line, rules, options))
        else:
            out += _ctm_lines(line, rules, options)
    return "".join(f"{line}\n" for line in out)


def _ctm_lines(line: str, rules: _Rules, options: CsrfiltOptions) -> list[str]:
    """One ctm line filtered; a word that became several, or an alternation, becomes several lines."""
    fields = line.split()
    if len(fields) < 5:
        return [" ".join(fields)] if fields else [""]
    text = csrfilt_words(fields[4], rules, options)
    if text:
        fields[4:5] = [text]
    else:
        del fields[4]
    data = re.sub(r"([{}])", r" \1 ", " ".join(fields)).split()
    if len(data) == 5:
        return [" ".join(data)]
    if _NUMBER.match(data[-1]):
        words, conf = data[4:-1], data[-1]
    else:
        words, conf = data[4:], ""
    sets = " ".join(words).split("/")
    file, channel = data[0], data[1]
    try:
        begin, duration = float(data[2]), float(data[3])
    except ValueError:
        return [" ".join(data)]
    lines: list[str] = []
    if len(sets) > 1:
        lines.append(f"{file} {channel} * * <ALT_BEGIN>")
    for k, one in enumerate(sets):
        chosen = one.replace("{", "").replace("}", "").split()
        share = duration / len(chosen) if chosen else duration
        for i, word in enumerate(chosen):
            lines.append(" ".join(f"{file} {channel} {begin + share * i:.3f} {share:.3f} {word} {conf}".split()))
        if len(sets) > 1 and k != len(sets) - 1:
            lines.append(f"{file} {channel} * * <ALT>")
    if len(sets) > 1:
        lines.append(f"{file} {channel} * * <ALT_END>")
    return lines
