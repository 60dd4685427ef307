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

Rules are applied as ``rfilter1`` applies them: one left-to-right pass; at
each place the first rule in file order that matches there, its contexts
checked on the input; the pass goes on after the rewritten words. hub4eval
matches whole blank-separated words where ``rfilter1`` matches characters, so
a rule written without a ``[ ]`` boundary rewrites only whole words here
(``rfilter1`` would also rewrite inside a longer word); NIST's files write
the boundaries (the tests compare with csrfilt's own output).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hub4eval.errors import InputError
from hub4eval.text.glm import Glm, GlmRule, GlmStack, written_rule

__all__ = ["INPUT_TYPES", "Csrfilt", "CsrfiltOptions", "csrfilt_text", "csrfilt_words"]

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
    """The rules of one or more GLM files that apply to one kind of text, by written words."""

    def __init__(self, glm: Glm | GlmStack, labels: Sequence[str]) -> None:
        glms = glm.glms if isinstance(glm, GlmStack) else (glm,)
        self.passes: list[tuple[dict, bool, dict[int, tuple[str, ...]]]] = []
        for one in glms:
            chosen = one.applying_to(labels)
            trie: dict = {}
            produced: dict[int, tuple[str, ...]] = {}
            for rule in chosen.rules:
                lhs, rhs, left, right = written_rule(rule)
                fold = _folder(one.case_sensitive)
                keyed = GlmRule(
                    tuple(map(fold, lhs)),
                    (),
                    (),
                    rule.line,
                    rule.source,
                    tuple(map(fold, left)),
                    tuple(map(fold, right)),
                )
                node = trie
                for word in keyed.lhs:
                    node = node.setdefault(word, {})
                node.setdefault(None, []).append(keyed)
                produced[id(keyed)] = rhs
            if trie:
                self.passes.append((trie, one.case_sensitive, produced))

    def apply(self, words: list[str]) -> list[str]:
        """One left-to-right pass per file; at each word the first rule in file order that
        matches there (``rfilter1``'s choice), contexts checked on the input words."""
        for trie, case_sensitive, produced in self.passes:
            fold = _folder(case_sensitive)
            keys = [fold(w) for w in words]
            out: list[str] = []
            i, total = 0, len(keys)
            while i < total:
                chosen: tuple[GlmRule, int] | None = None
                node = trie.get(keys[i])
                j = i
                while node is not None:
                    j += 1
                    for rule in node.get(None, ()):
                        if (not (rule.left or rule.right) or rule.fits(keys, i, j)) and (
                            chosen is None or rule.line < chosen[0].line
                        ):
                            chosen = (rule, j)
                            break  # a node's rules are in file order
                    node = node.get(keys[j]) if j < total else None
                if chosen is None:
                    out.append(words[i])
                    i += 1
                else:
                    out += produced[id(chosen[0])]
                    i = chosen[1]
            words = out
        return words


def _folder(case_sensitive: bool) -> Callable[[str], str]:
    return str if case_sensitive else str.upper


def csrfilt_words(text: str, rules: _Rules, options: CsrfiltOptions) -> str:
    """The transcript part of one line, filtered (csrfilt's steps 3 and 4, without the record around it)."""
    if options.upcase:
        text = text.translate(_UPPER_LATIN1 if options.ext_ascii else _UPPER)
    text = text.replace("(", "( ").replace(")", " )")
    text = " ".join(rules.apply(text.split()))
    if options.delete_hyphens:
        text = _HYPHEN.sub(r"\1 ", f" {text} ").strip()
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
        line = " ".join(line.replace("\t", " ").split(" "))
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
