"""Whether a later candidate of a projected fill can keep its reference fill's words, read from letters (§11).

The ceiling's projection (:mod:`hub4eval.scoring.projection`) keeps a fill's first
candidate, which has one COR point of two, when no later candidate (a run of the
hypothesis tokens of its widened columns) has a correct content. For the usual
reference fill that means keeping exactly its words (``plain``). Here that is
ruled out for many fills at once, from the letters of the raw words, when every
raw word of the region is one whose reading its neighbours cannot change:

* each token starts and ends at a blank (or the text's edge), so a candidate is a
  run of whole raw words;
* every raw word reads the same wherever it stands
  (:meth:`~hub4eval.scoring.word_by_word.WordByWord.local_letters`: no spelling
  rule, number or parenthesis reads across it; a one-word spelling rule or a word
  of several tokens is read as its letters), or a word at which a longer spelling
  rule may start (``u`` of ``u s``) where the next raw word does not go on with it
  and no tag follows it
  (:meth:`~hub4eval.scoring.word_by_word.WordByWord.letters_before`); ASCII and
  without an apostrophe; or a tag that the normalization whites out (then the
  words on either side are side by side).

Then the words a candidate keeps are its raw words' own kept words, less some
leading words (the premodifiers stripped), with runs of one-letter words joined,
which changes none of their letters, unless a joined run is a filler (left out):
a region where one-letter words side by side could spell a filler is not read
here. So the kept words of a candidate that keeps ``plain`` are, joined, the
letters of its words from one of the places its words may start (its first
word, or past a leading word that may be a premodifier) to its end: when, for
no candidate but the first, those letters are the letters of ``plain`` joined,
no later candidate's content is correct. Anything this cannot rule out is left
to the projection's word-by-word reading (``_Projector._only_first``). The
tests compare this reading with the full normalization of every later run
(``tests/scoring/test_run_spellings.py``), and the batch it serves with the
per-fill route.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import Any

_Chunk = tuple[str, "tuple[int, ...] | None", str]
"""A piece of the hypothesis text read (:meth:`RunSpellings._read`): its words' kept letters
joined, the offsets in those where a candidate starting with the piece may start keeping
words (0, and past each leading word that may be a premodifier; None: every word may be one),
and its words as a run of letters reads them (a one-letter word's letter, ``|`` for another word)."""


_START = (0,)  # a piece whose first word is no premodifier: a candidate starts keeping at its start


class RunSpellings:
    """Reads whether a fill's later candidates can keep its reference fill's words (see the module docstring).

    Args:
        by_word: the judge's :class:`~hub4eval.scoring.word_by_word.WordByWord`.
        blank: whether a raw word is tags the normalization whites out
            (:meth:`hub4eval.scoring.projection.Judge.blank`).
    """

    def __init__(self, by_word: Any, blank: Callable[[str], bool]) -> None:
        self.by_word = by_word
        self.blank = blank
        self.chunks: dict[str, _Chunk | bool] = {}  # a piece of text -> read (False: not read here)
        # one-letter words side by side that may be joined into a filler (in a run of letters, see _Chunk)
        fillers = sorted({filler.lower() for filler in by_word.fillers}, key=len, reverse=True)
        self.fillers = re.compile("|".join(map(re.escape, fillers))) if fillers else None
        self.premodifiers: frozenset[str] = by_word.premodifiers
        self.needy = len(by_word.glms) == 1  # whether a longer spelling rule may start at a word (see first_only)

    def _read(self, chunk: str, after: str | bool | None = False) -> _Chunk | bool:
        """A piece of the hypothesis text read (:data:`_Chunk`), or False when a word of it is not
        kept as it is wherever it stands. A word at which a longer spelling rule may start (``u``
        of ``u s``) is read when the raw word after it does not go on with the rule: the next
        one of the piece, or ``after`` for its last (the raw word after the piece in every run
        that holds it, None: none; False: not known, the word then not read)."""
        by_word = self.by_word
        words = chunk.split()
        if len(words) == 1 and "<" not in chunk:  # one word (most pieces): as the loop below reads it
            word = words[0]
            if not word.isascii() or "'" in word:
                return False
            read = by_word.local_letters(word)
            if read is None and after is not False:
                read = by_word.letters_before(word, after)
            if read is None:
                return False
            return read[0], None if not word.isalnum() or word.lower() in self.premodifiers else _START, read[1]
        letters: list[str] = []
        runs: list[str] = []
        leads = [0]
        leading = True
        at = 0
        for number, word in enumerate(words):
            if "<" in word:
                if not self.blank(word):
                    return False
                continue  # whited out: the words on either side are side by side
            if not word.isascii() or "'" in word:
                return False
            read = by_word.local_letters(word)
            if read is None:
                following = words[number + 1] if number + 1 < len(words) else after
                if following is False or (type(following) is str and "<" in following):
                    return False  # (a tag after it: not read)
                read = by_word.letters_before(word, following)
                if read is None:
                    return False
            at += len(read[0])
            letters.append(read[0])
            runs.append(read[1])
            if leading:
                # a word that may be stripped as a premodifier (or is punctuation that the
                # whiteout may make one, or none): a candidate may start keeping past it
                if not word.isalnum() or word.lower() in self.premodifiers:
                    leads.append(at)
                else:
                    leading = False
        return "".join(letters), None if leading else tuple(leads), "".join(runs)

    def first_only(self, text: str, starts: Sequence[int], ends: Sequence[int], items: Sequence[Any]) -> list[bool]:
        """For each of ``items`` (first, last, wide_first, wide_last, plain: a fill's first
        candidate's tokens, its widened tokens, and the usual reference fill's words), whether
        it is ruled out that a run of its widened tokens other than the first candidate's keeps
        ``plain`` (False: not ruled out here). ``starts`` and ``ends``: the tokens' offsets in
        ``text``, the hypothesis text."""
        chunks = self.chunks
        read = self._read
        size = len(text)
        tokens = [token for item in items for token in range(item[2], item[3] + 1)]
        token_starts = [starts[token] for token in tokens]
        token_ends = [ends[token] for token in tokens]
        heads = set(accumulate((item[3] - item[2] + 1 for item in items[:-1]), initial=0))  # each item's first
        # A token that ends before the hyphens that end its raw word (a fragment's, as the aligner
        # ends it) is read as its raw word inside a run, and as it is where a run ends with it.
        word_ends = token_ends
        tails: dict[int, tuple[str, Any, str]] = {}  # such a token (its place): as it is, read
        cut = [k for k, end in enumerate(token_ends) if end < size and not text[end].isspace()]
        unread: set[int] = set()
        if cut:
            word_ends = token_ends.copy()
            for k in cut:
                stop = end = token_ends[k]
                while stop < size and text[stop] == "-":
                    stop += 1
                whole = chunks.get(piece := text[token_starts[k] : stop])
                if whole is None:
                    whole = chunks[piece] = read(piece)
                tail = chunks.get(piece := text[token_starts[k] : end])
                if tail is None:
                    tail = chunks[piece] = read(piece)
                if stop == end or (stop < size and not text[stop].isspace()) or whole is False or tail is False:
                    unread.add(k)
                    continue
                if any(char != "|" for char in whole[2]):  # type: ignore[index]
                    unread.add(k)  # (a letter that a run ending elsewhere might join)
                    continue
                word_ends[k] = stop
                tails[k] = tail  # type: ignore[assignment]
        # the text between each token and the one before it (none before an item's first)
        gap_starts = [token_starts[k] if k in heads else word_ends[k - 1] for k in range(len(tokens))]
        pieces = [text[start:end] for start, end in zip(token_starts, word_ends, strict=True)]
        gaps = [text[start:end] for start, end in zip(gap_starts, token_starts, strict=True)]
        for piece in set(pieces).union(gaps).difference(chunks):
            chunks[piece] = read(piece)
        found = list(map(chunks.__getitem__, pieces))
        if self.needy:
            # A word at which a longer spelling rule may start (`u` of `u s`) reads as its own
            # wherever the next raw word does not go on with it: a piece's last word is followed
            # by the next token's first (an item's last token by none in any of the item's runs),
            # when only a blank is between (not a tag) and that token is read whole (not cut
            # before its hyphens).
            count = len(tokens)
            for k in [k for k, own in enumerate(found) if own is False and k not in unread]:
                after = None
                if k + 1 < count and k + 1 not in heads:
                    following = pieces[k + 1].split()
                    if gaps[k + 1].strip() or not following or "<" in following[0] or k + 1 in tails or k + 1 in unread:
                        continue
                    after = following[0]
                found[k] = read(pieces[k], after)  # (not remembered: it depends on the next word)
        between = list(map(chunks.__getitem__, gaps))
        # each token whole raw words (a blank or the text's edge on either side), it and the text before it read
        good = [
            (not start or text[start - 1].isspace())
            and (end >= size or text[end].isspace())
            and own is not False
            and gap is not False
            for start, end, own, gap in zip(token_starts, word_ends, found, between, strict=True)
        ]
        for k in unread:
            good[k] = False
        # the letters, and the words as a run of letters reads them, of each gap and token in turn
        letters = [part[0] if part else "" for pair in zip(between, found, strict=True) for part in pair]  # type: ignore[index]
        runs = [part[2] if part else "" for pair in zip(between, found, strict=True) for part in pair]  # type: ignore[index]
        fillers = self.fillers
        out: list[bool] = []
        at = 0
        for first, last, wide_first, wide_last, plain in items:
            stop = at + wide_last - wide_first + 1
            a, b = at, stop
            at = stop
            if False in good[a:b]:
                out.append(False)
                continue
            joined_runs = "".join(runs[2 * a : 2 * b])
            ending = [tails.get(k) for k in range(a, b)] if tails else None
            if ending is not None and ending.count(None) == len(ending):
                ending = None
            if ending is not None:
                # the runs of letters with each cut token as a run that ends with it reads it (a
                # cut token's raw word inside a run is no letter: see above)
                joined_runs += "/" + "".join(
                    part
                    for k, tail in zip(range(a, b), ending, strict=True)
                    for part in (runs[2 * k], runs[2 * k + 1] if tail is None else tail[2])
                )
            if fillers is not None and fillers.search(joined_runs):
                out.append(False)  # one-letter words side by side that might be joined into a filler
                continue
            spelled = "".join(plain)
            joined = "".join(letters[2 * a : 2 * b])
            if ending is None and spelled not in joined:
                out.append(True)  # (the usual case: no run's letters hold them)
                continue
            offsets = list(accumulate(map(len, letters[2 * a : 2 * b])))
            leads = [own[1] for own in found[a:b]]  # type: ignore[index]
            if ending is not None:
                # a cut token's places to start keeping: those of both its readings, when they agree
                leads = [
                    lead if tail is None or tail[1] == lead else None for lead, tail in zip(leads, ending, strict=True)
                ]
            out.append(_none_keeps(joined, offsets, leads, spelled, first - wide_first, last - wide_first, ending))
        return out


def _none_keeps(
    letters: str,
    offsets: list[int],
    leads: list[tuple[int, ...] | None],
    spelled: str,
    first: int,
    last: int,
    ending: list[Any] | None = None,
) -> bool:
    """Whether no run of tokens ``i`` to ``j`` but ``first`` to ``last`` has the letters ``spelled``
    from one of the places it may start keeping words to its end (token ``k``'s letters end at
    ``offsets[2k + 1]`` and start at ``offsets[2k]``, after the gap before it; ``leads[k]``: the
    places past its start where it may start keeping, None: anywhere in it or after; ``ending[k]``,
    when given and not None: token ``k`` read as a run that ends with it reads it, its letters first)."""
    want = len(spelled)
    for j in range(len(leads)):
        tail = None if ending is None else ending[j]
        if tail is None:
            stop = offsets[2 * j + 1]
            begin = stop - want
            if begin < 0 or letters[begin:stop] != spelled:
                continue
        else:
            head = letters[: offsets[2 * j]] + tail[0]
            begin = len(head) - want
            if begin < 0 or head[begin:] != spelled:
                continue
        for i in range(j + 1):
            if (i, j) == (first, last):
                continue
            start = offsets[2 * i]
            lead = leads[i]
            if (start <= begin) if lead is None else (begin - start in lead):
                return False
    return True


__all__ = ["RunSpellings"]
