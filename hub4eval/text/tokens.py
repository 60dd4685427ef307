"""§7.1 / §6: the one tokenizer for texts and content strings.

Text is first whited out (§3: punctuation, length-preserving) and then split
on whitespace, so every token keeps the exact character span it came from and
word-internal punctuation (``U.S.``) splits like a space would. Two marks of
spoken text survive the whiteout because noisy comparison (§6) and the aligner
(§7) need them: a word fragment keeps its trailing hyphen (``buni-``), and a
token inside parentheses (``(uh)``) is marked ``parenthesized``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from hub4eval.text.normalize import HYPHENS, whiteout_punctuation
from hub4eval.util.records import quick_init

_WORD = re.compile(r"\S+")


@quick_init
@dataclass(frozen=True, slots=True)
class Token:
    """A normalized word and the character span [start, end) it came from."""

    text: str
    start: int
    end: int
    parenthesized: bool = False
    optional: bool = False  # set by a GLM rule such as `{ uh / @ }` (§8)

    @property
    def fragment(self) -> bool:
        """A word fragment such as ``buni-`` (trailing hyphen)."""
        return len(self.text) > 1 and self.text.endswith("-")


def _fragment_end(raw: str) -> bool:
    stripped = raw.rstrip(")]}\"'.,;:!?")
    return len(stripped) > 1 and stripped[-1] in HYPHENS and stripped[-2].isalnum()


def tokenize(
    text: str,
    spans: Iterable[tuple[int, int]] | None = None,
    *,
    offset: int = 0,
    keep_punctuation: bool = False,
    case_sensitive: bool = False,
) -> tuple[Token, ...]:
    """Split ``text`` (only inside ``spans`` if given) into normalized tokens.

    Args:
        text: the text, e.g. a document's ``text`` or a fill's content.
        spans: (start, end) pieces of ``text`` to read (extractable text);
            all of ``text`` when None.
        offset: added to every token's span (e.g. the document's file offset).
        keep_punctuation: skip the punctuation whiteout (``--keep-punctuation``).
        case_sensitive: keep case (``--case-sensitive``).

    >>> [t.text for t in tokenize("The h- heart of (uh) General Motors.")]
    ['the', 'h-', 'heart', 'of', 'uh', 'general', 'motors']
    >>> [(t.text, t.start, t.end) for t in tokenize("Anchorage,... U.S.")]
    [('anchorage', 0, 9), ('u', 14, 15), ('s', 16, 17)]
    """
    if spans is None:
        spans = ((0, len(text)),)
    tokens: list[Token] = []
    depth = 0
    for span_start, span_end in spans:
        piece = text[span_start:span_end]
        for raw_match in _WORD.finditer(piece):
            raw = raw_match.group(0)
            base = span_start + raw_match.start()
            opens = raw.count("(")
            closes = raw.count(")")
            parenthesized = depth > 0 or raw.startswith("(")
            depth = max(0, depth + opens - closes)
            cleaned = raw if keep_punctuation else whiteout_punctuation(raw)
            pieces = list(_WORD.finditer(cleaned))
            for k, word_match in enumerate(pieces):
                word = word_match.group(0)
                if not case_sensitive:
                    word = word.lower()
                if k == len(pieces) - 1 and not keep_punctuation and _fragment_end(raw):
                    word += "-"
                tokens.append(
                    Token(
                        text=word,
                        start=offset + base + word_match.start(),
                        end=offset + base + word_match.end(),
                        parenthesized=parenthesized,
                    )
                )
    return tuple(tokens)
