"""Abbreviations spelled letter by letter (§8.2, v1.2): their letters, joined or spaced.

A reference writes ``N.C.A.A.`` and ``7:45 p.m.``; a recognizer writes ``ncaa``,
``n c a a``, ``pm`` or ``p m``. The tokenizer cuts a written abbreviation at its
periods (``n`` ``c`` ``a`` ``a``), so both sides meet when a run of two or
more one-letter tokens is joined into one token spanning them (``ncaa``,
``pm``). It runs after the spelling rules (GLM), which map some letter runs to
words first (``u s`` is ``united states`` in the shipped file).

``a`` and ``i`` are words as well as letters: a run does not start with one
of them when it is a word of its own (``a u s soldier`` is ``a`` ``us``
``soldier``), only when it is a letter of a written abbreviation (``a.m.`` is
``am``) or follows a number (``seven a m`` is ``7`` ``am``). So ``a b c``, spoken letter by letter, is ``a`` ``bc`` while ``ABC``
is ``abc``: a known limitation (docs/spoken-forms.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from hub4eval.text.spoken.lexing import _same_word
from hub4eval.text.tokens import Token

if TYPE_CHECKING:
    import numpy as np

    from hub4eval.text.token_arrays import TokenArray, Vocabulary

_WORDS_TOO = frozenset({"a", "i", "A", "I"})


def is_letter(word: str) -> bool:
    """Whether a token text is one letter (a candidate for a run)."""
    return len(word) == 1 and word.isalpha()


def letter_runs(
    tokens: Sequence[Token], text: str, offset: int, hits: Sequence[int]
) -> Iterator[tuple[int, int, list[Token]]]:
    """(start, end, [joined token]) for each run of two or more one-letter tokens.

    Args:
        tokens: the tokens (a tuple or a token array).
        text: the raw text the token spans index (less ``offset``).
        offset: the ``offset`` the tokens were made with.
        hits: the indices of the one-letter tokens, in order.
    """
    k, count = 0, len(hits)
    while k < count:
        start = end = hits[k]
        while k < count and hits[k] == end:
            end += 1
            k += 1
        if end - start >= 2 and tokens[start].text in _WORDS_TOO:
            after_number = start > 0 and tokens[start - 1].text[:1].isdigit()  # `seven a m`
            if not after_number and not _same_word(text, offset, tokens[start], tokens[start + 1]):
                start += 1  # a word of its own, not the first letter of the run
        if end - start < 2:
            continue
        run = [tokens[i] for i in range(start, end)]
        joined = Token(
            "".join(t.text for t in run),
            run[0].start,
            run[-1].end,
            any(t.parenthesized for t in run),
            all(t.optional for t in run),
        )
        yield start, end, [joined]


def join_letter_array(tokens: TokenArray, text: str, hits: np.ndarray, vocabulary: Vocabulary) -> TokenArray:
    """:func:`letter_runs` spliced into a token array (coded by ``vocabulary``): the same tokens,
    the runs found and joined over the arrays, a :class:`Token` made only where a run starts with
    ``a`` or ``i`` (whether it is a word of its own is read from the text)."""
    import numpy as np

    from hub4eval.text.token_arrays import TokenArray, replace_runs

    if hits.size < 2:
        return tokens
    cut = np.flatnonzero(np.diff(hits) != 1) + 1
    starts = hits[np.concatenate(([0], cut))].astype(np.int64)
    ends = hits[np.concatenate((cut - 1, [hits.size - 1]))].astype(np.int64) + 1
    long = ends - starts >= 2
    starts, ends = starts[long], ends[long]
    words, ids = tokens.words, tokens.ids
    too = np.fromiter((words[i] in _WORDS_TOO for i in ids[starts].tolist()), bool, len(starts))
    for k in np.flatnonzero(too).tolist():  # as letter_runs reads them
        start = int(starts[k])
        after_number = start > 0 and words[ids[start - 1]][:1].isdigit()
        if not after_number and not _same_word(text, 0, tokens[start], tokens[start + 1]):
            starts[k] += 1
    long = ends - starts >= 2
    starts, ends = starts[long], ends[long]
    if not starts.size:
        return tokens
    runs, lengths = len(starts), ends - starts
    firsts = np.cumsum(lengths) - lengths
    letters = [words[i] for i in ids[np.repeat(starts - firsts, lengths) + np.arange(int(lengths.sum()))].tolist()]
    code = vocabulary.code
    joined = np.fromiter(
        (code("".join(letters[a:b])) for a, b in zip(firsts.tolist(), (firsts + lengths).tolist(), strict=True)),
        np.int32,
        runs,
    )
    # a joined token is parenthesized when any of its letters is, optional when all are
    counted = np.zeros((len(tokens) + 1, 2), np.int64)
    counted[1:, 0] = np.cumsum(tokens.flags & 1)
    counted[1:, 1] = np.cumsum((tokens.flags >> 1) & 1)
    inside = counted[ends] - counted[starts]
    flags = (inside[:, 0] > 0).astype(np.uint8) | ((inside[:, 1] == ends - starts).astype(np.uint8) << 1)
    offsets = tokens.starts.dtype
    new = TokenArray(
        vocabulary.words,
        joined,
        tokens.starts[starts].astype(offsets),
        tokens.ends[ends - 1].astype(offsets),
        flags,
        {},
    )
    return replace_runs(tokens, np.stack((starts, ends), axis=1), new, np.ones(runs, np.int64))


def join_letters(tokens: Sequence[Token], text: str, *, offset: int = 0) -> tuple[Token, ...]:
    """``tokens`` with every run of one-letter tokens joined (see the module docstring).

    >>> from hub4eval.text.tokens import tokenize
    >>> text = "at 7:45 p.m. the N.C.A.A. and a U S soldier"
    >>> [t.text for t in join_letters(tokenize(text), text)]
    ['at', '7', '45', 'pm', 'the', 'ncaa', 'and', 'a', 'us', 'soldier']
    """
    hits = [i for i, token in enumerate(tokens) if len(token.text) == 1 and token.text.isalpha()]  # is_letter
    if len(hits) < 2:
        return tokens if type(tokens) is tuple else tuple(tokens)
    out: list[Token] = []
    done = 0
    for start, end, joined in letter_runs(tokens, text, offset, hits):
        out.extend(tokens[done:start])
        out.extend(joined)
        done = end
    out.extend(tokens[done:])
    return tuple(out)


__all__ = ["is_letter", "join_letter_array", "join_letters", "letter_runs"]
