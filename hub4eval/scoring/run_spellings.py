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
from functools import cache
from itertools import accumulate, repeat
from operator import is_, itemgetter
from typing import Any

import numpy as np

_Chunk = tuple[str, "tuple[int, ...] | None", str]
"""A piece of the hypothesis text read (:meth:`RunSpellings._read`): its words' kept letters
joined, the offsets in those where a candidate starting with the piece may start keeping
words (0, and past each leading word that may be a premodifier; None: every word may be one),
and its words as a run of letters reads them (a one-letter word's letter, ``|`` for another word)."""


_START = (0,)  # a piece whose first word is no premodifier: a candidate starts keeping at its start
_UNREAD: _Chunk = ("", None, "")
"""A piece not read here (a word of it not kept as it is wherever it stands), told apart by
identity: its parts are those of a piece that keeps no word, so that the batch reads them as
any other piece's (its items are answered first: False, not ruled out here)."""
_LAST_BLANK = 0x3000  # the last character that str.isspace calls a blank (U+3000, the ideographic space)


@cache
def _blank_table() -> np.ndarray:
    """Whether each character up to :data:`_LAST_BLANK` is a blank (:meth:`str.isspace`), and
    False for the next (any later one)."""
    return np.array([chr(code).isspace() for code in range(_LAST_BLANK + 2)], bool)


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
        self.chunks: dict[str, _Chunk] = {}  # a piece of text -> read (_UNREAD: not read here)
        # one-letter words side by side that may be joined into a filler (in a run of letters, see _Chunk)
        fillers = sorted({filler.lower() for filler in by_word.fillers}, key=len, reverse=True)
        self.fillers = re.compile("|".join(map(re.escape, fillers))) if fillers else None
        # the shortest filler at each place of a run of letters (an empty one: at every place)
        self.filler_starts = (
            re.compile("(?=(" + "|".join(map(re.escape, reversed(fillers))) + "))") if fillers else None
        )
        self.premodifiers: frozenset[str] = by_word.premodifiers
        self.needy = len(by_word.glms) == 1  # whether a longer spelling rule may start at a word (see first_only)

    def _read(self, chunk: str, after: str | bool | None = False) -> _Chunk:
        """A piece of the hypothesis text read (:data:`_Chunk`), or :data:`_UNREAD` when a word of it is
        not kept as it is wherever it stands. A word at which a longer spelling rule may start (``u``
        of ``u s``) is read when the raw word after it does not go on with the rule: the next
        one of the piece, or ``after`` for its last (the raw word after the piece in every run
        that holds it, None: none; False: not known, the word then not read)."""
        by_word = self.by_word
        words = chunk.split()
        if len(words) == 1 and "<" not in chunk:  # one word (most pieces): as the loop below reads it
            word = words[0]
            if not word.isascii() or "'" in word:
                return _UNREAD
            read = by_word.local_letters(word)
            if read is None and after is not False:
                read = by_word.letters_before(word, after)
            if read is None:
                return _UNREAD
            return read[0], None if not word.isalnum() or word.lower() in self.premodifiers else _START, read[1]
        letters: list[str] = []
        runs: list[str] = []
        leads = [0]
        leading = True
        at = 0
        for number, word in enumerate(words):
            if "<" in word:
                if not self.blank(word):
                    return _UNREAD
                continue  # whited out: the words on either side are side by side
            if not word.isascii() or "'" in word:
                return _UNREAD
            read = by_word.local_letters(word)
            if read is None:
                following = words[number + 1] if number + 1 < len(words) else after
                if following is False or (type(following) is str and "<" in following):
                    return _UNREAD  # (a tag after it: not read)
                read = by_word.letters_before(word, following)
                if read is None:
                    return _UNREAD
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

    def first_only(
        self, text: str, starts: Sequence[int] | np.ndarray, ends: Sequence[int] | np.ndarray, items: Sequence[Any]
    ) -> list[bool]:
        """For each of ``items`` (first, last, wide_first, wide_last, plain: a fill's first
        candidate's tokens, its widened tokens, at least one, and the usual reference fill's
        words), whether it is ruled out that a run of its widened tokens other than the first
        candidate's keeps ``plain`` (False: not ruled out here). ``starts`` and ``ends``: the
        tokens' offsets in ``text``, the hypothesis text.

        The tokens of all the items are read at once: their offsets and the characters around
        them in numpy, their pieces of text each looked up once (a Python step per distinct
        piece, in :meth:`_read`), their letters joined into one string in which each item looks
        for ``plain``'s letters. An item whose letters do not hold them is ruled out at once; one
        that holds them once and reads simply is decided in numpy (:func:`_held_once`); one with
        a token cut before its hyphen is read by :meth:`_tailed`, and any other in Python
        (:func:`_none_keeps`)."""
        if not items:
            return []
        chunks = self.chunks
        firsts, lasts, wide_firsts, wide_lasts, plains = zip(*items, strict=True)
        wide_first = np.array(wide_firsts, np.int64)
        sizes = np.array(wide_lasts, np.int64) - wide_first + 1
        bounds = np.zeros(len(items) + 1, np.int64)  # each item's first token (its place here), and the end
        np.cumsum(sizes, out=bounds[1:])
        heads = bounds[:-1]
        count = int(bounds[-1])
        tokens = np.arange(count) - np.repeat(heads - wide_first, sizes)  # each one's number in the text
        token_starts = np.asarray(starts)[tokens]
        token_ends = np.asarray(ends)[tokens]
        begins: list[int] = token_starts.tolist()
        word_ends: list[int] = token_ends.tolist()
        # A token that ends before the hyphens that end its raw word (a fragment's, as the aligner
        # ends it) is read as its raw word inside a run, and as it is where a run ends with it.
        tails: dict[int, _Chunk] = {}  # such a token (its place): as it is, read
        unread: list[int] = []  # (a token not read here)
        cut = np.flatnonzero(~_blank_at(text, token_ends)).tolist()
        if cut:
            word_ends = word_ends.copy()
            tails, unread = self._cut(text, cut, begins, word_ends)  # (moves the ends of those read)
            token_ends = np.array(word_ends, np.int64)
        # the text between each token and the one before it (none before an item's first): read
        # where it is longer than one character (one is the blank after a token read whole; none
        # and a blank read as no word)
        gap_starts = np.empty(count, np.int64)
        gap_starts[1:] = token_ends[:-1]
        gap_starts[heads] = token_starts[heads]
        gaps = {k: text[word_ends[k - 1] : begins[k]] for k in np.flatnonzero(token_starts - gap_starts > 1).tolist()}
        pieces = list(map(text.__getitem__, map(slice, begins, word_ends)))
        for piece in set(pieces).union(gaps.values()).difference(chunks):
            chunks[piece] = self._read(piece)
        found = list(map(chunks.__getitem__, pieces))
        not_read = np.flatnonzero(np.fromiter(map(is_, found, repeat(_UNREAD)), bool, count)).tolist()
        if self.needy and not_read:
            for k, own in self._needy_reads(not_read, pieces, gaps, set(heads.tolist()), tails, unread):
                found[k] = own
            not_read = [k for k in not_read if found[k] is _UNREAD]
        # each token whole raw words (a blank or the text's edge on either side), it and the
        # text before it read; an item of such tokens only is read from their letters
        between = {k: chunks[gap] for k, gap in gaps.items()}
        bad = np.zeros(count, np.int64)
        bad[not_read] = 1
        bad[unread] = 1
        bad[[k for k, gap in between.items() if gap is _UNREAD]] = 1
        bad[~_blank_at(text, token_starts - 1)] = 1
        before = np.zeros(count + 1, np.int64)  # (bad tokens before each)
        np.cumsum(bad, out=before[1:])
        good = before[bounds[1:]] == before[heads]
        # the letters, and the words as a run of letters reads them, of each token (after those of
        # the text before it)
        letters = list(map(itemgetter(0), found))
        runs = list(map(itemgetter(2), found))
        lengths = np.fromiter(map(len, letters), np.int64, count)  # (the token's own)
        gap_lengths = np.zeros(count, np.int64)  # (the text's before it)
        for k, gap in between.items():
            letters[k] = gap[0] + letters[k]
            runs[k] = gap[2] + runs[k]
            gap_lengths[k] = len(gap[0])
        joined = "".join(letters)
        letter_ends = np.cumsum(lengths + gap_lengths)
        letter_starts = letter_ends - lengths  # (past the text before the token)
        spelled = list(map("".join, plains))
        hits = np.fromiter(
            map(joined.find, spelled, letter_starts[heads].tolist(), letter_ends[bounds[1:] - 1].tolist()),
            np.int64,
            len(items),
        )
        good[self._filled(runs, heads, bounds)] = False
        verdicts: list[bool] = (good & (hits < 0)).tolist()  # (no run's letters hold them: the usual case)
        tailed = np.zeros(len(items), bool)
        tailed[np.searchsorted(bounds, list(tails), "right") - 1] = True
        # the others whose letters hold them: read in numpy where they hold them once and each
        # token may start keeping at its start or anywhere (see _held_once), else in Python
        held = np.flatnonzero(good & (hits >= 0) & ~tailed)
        if len(held):
            leads = list(map(itemgetter(1), found))
            firsts_at = np.array(firsts, np.int64) - wide_first
            lasts_at = np.array(lasts, np.int64) - wide_first
            read, verdict = _held_once(
                joined,
                [spelled[q] for q in held.tolist()],
                hits[held],
                heads[held],
                sizes[held],
                firsts_at[held],
                lasts_at[held],
                letter_starts,
                letter_ends,
                np.fromiter(map(is_, leads, repeat(_START)), bool, count),
                np.fromiter(map(is_, leads, repeat(None)), bool, count),
            )
            for q, ok in zip(held[read].tolist(), verdict[read].tolist(), strict=True):
                verdicts[q] = ok
            held = held[~read]
        asked = np.flatnonzero(good & tailed).tolist() + held.tolist()
        if asked:
            start_list: list[int] = letter_starts.tolist()
            end_list: list[int] = letter_ends.tolist()
            head_list: list[int] = heads.tolist()
            tailed_list: list[bool] = tailed.tolist()
            for q in asked:
                a, b = head_list[q], head_list[q] + int(sizes[q])
                if tailed_list[q]:
                    verdicts[q] = self._tailed(joined, start_list, end_list, found, between, tails, items[q], a, b)
                    continue
                verdicts[q] = _none_keeps(
                    joined,
                    start_list,
                    end_list,
                    a,
                    [own[1] for own in found[a:b]],
                    spelled[q],
                    firsts[q] - wide_firsts[q],
                    lasts[q] - wide_firsts[q],
                )
        return verdicts

    def _filled(self, runs: list[str], heads: np.ndarray, bounds: np.ndarray) -> list[int]:
        """The items (by number) whose tokens' runs of letters (``runs``, token by token, item by
        item from ``heads``) hold one-letter words side by side that might be joined into a
        filler: read in one pass over them all, the shortest filler at each place."""
        starts = self.filler_starts
        if starts is None:
            return []
        if starts.match(""):  # (an empty filler: every item)
            return list(range(len(heads)))
        joined_runs = "".join(runs)
        places = [(match.start(), match.end(1)) for match in starts.finditer(joined_runs)]
        if not places:
            return []
        run_ends = np.zeros(len(runs) + 1, np.int64)
        np.cumsum(np.fromiter(map(len, runs), np.int64, len(runs)), out=run_ends[1:])
        item_runs = run_ends[bounds]
        at, end = np.array(places, np.int64).T
        item = np.searchsorted(item_runs, at, "right") - 1
        inside = (item < len(heads)) & (end <= item_runs[np.minimum(item + 1, len(heads))])
        return np.unique(item[inside]).tolist()

    def first_only_spaces(
        self, asked: Sequence[tuple[str, Sequence[int], Sequence[int], Sequence[Any]]]
    ) -> list[list[bool]]:
        """:meth:`first_only` of each of ``asked`` (text, starts, ends, items: a column space's
        hypothesis text, its tokens' offsets and its items), read as one batch: the texts joined
        with a blank between (which reads as the edges of each), each space's tokens from the
        first one its items read to the last, and its items' token numbers moved with them (a
        batch's steps cost the same for a few items as for many: a segmented text asks a few
        items per document)."""
        if not asked:
            return []
        if len(asked) == 1:
            text, starts, ends, items = asked[0]
            return [self.first_only(text, starts, ends, items)]
        texts: list[str] = []
        all_starts: list[np.ndarray] = []
        all_ends: list[np.ndarray] = []
        all_items: list[Any] = []
        at = tokens = 0
        for text, starts, ends, items in asked:
            low = min(item[2] for item in items) if items else 0
            high = max(item[3] for item in items) + 1 if items else 0
            texts.append(text)
            all_starts.append(np.asarray(starts)[low:high].astype(np.int64) + at)
            all_ends.append(np.asarray(ends)[low:high].astype(np.int64) + at)
            moved = tokens - low
            all_items += [
                (first + moved, last + moved, wide_first + moved, wide_last + moved, plain)
                for first, last, wide_first, wide_last, plain in items
            ]
            at += len(text) + 1
            tokens += high - low
        verdicts = self.first_only(" ".join(texts), np.concatenate(all_starts), np.concatenate(all_ends), all_items)
        bounds = list(accumulate((len(items) for *_, items in asked), initial=0))
        return [verdicts[start:end] for start, end in zip(bounds, bounds[1:], strict=False)]

    def _cut(
        self, text: str, cut: list[int], begins: list[int], ends: list[int]
    ) -> tuple[dict[int, _Chunk], list[int]]:
        """Of the tokens ``cut`` (their places), each ending at ``ends`` inside its raw word: those
        that end before the hyphens that end it (a fragment's, as the aligner ends it), read as
        they are (a run that ends with them reads them so), by place, and the others (not read
        here). ``ends`` of the first are moved past the hyphens (a run that goes on past them
        reads the raw word, which is then read with the other pieces)."""
        chunks = self.chunks
        read = self._read
        size = len(text)
        tails: dict[int, _Chunk] = {}
        unread: list[int] = []
        for k in cut:
            stop = end = ends[k]
            while stop < size and text[stop] == "-":
                stop += 1
            whole = chunks.get(piece := text[begins[k] : stop])
            if whole is None:
                whole = chunks[piece] = read(piece)
            tail = chunks.get(piece := text[begins[k] : end])
            if tail is None:
                tail = chunks[piece] = read(piece)
            if stop == end or (stop < size and not text[stop].isspace()) or whole is _UNREAD or tail is _UNREAD:
                unread.append(k)
            elif any(char != "|" for char in whole[2]):
                unread.append(k)  # (a letter that a run ending elsewhere might join)
            else:
                ends[k] = stop
                tails[k] = tail
        return tails, unread

    def _needy_reads(
        self,
        not_read: list[int],
        pieces: list[str],
        gaps: dict[int, str],
        heads: set[int],
        tails: dict[int, _Chunk],
        unread: list[int],
    ) -> list[tuple[int, _Chunk]]:
        """Of the tokens not read alone (``not_read``), those read before the next raw word, by place.

        A word at which a longer spelling rule may start (`u` of `u s`) reads as its own wherever
        the next raw word does not go on with it: a piece's last word is followed by the next
        token's first (an item's last token by none in any of the item's runs), when only a blank
        is between (not a tag) and that token is read whole (not cut before its hyphens)."""
        count = len(pieces)
        left = set(unread)
        reads: list[tuple[int, _Chunk]] = []
        for k in not_read:
            if k in left:
                continue
            after = None
            if k + 1 < count and k + 1 not in heads:
                following = pieces[k + 1].split()
                if (
                    gaps.get(k + 1, "").strip()
                    or not following
                    or "<" in following[0]
                    or k + 1 in tails
                    or k + 1 in left
                ):
                    continue
                after = following[0]
            reads.append((k, self._read(pieces[k], after)))  # (not remembered: it depends on the next word)
        return reads

    def _tailed(
        self,
        letters: str,
        starts: list[int],
        ends: list[int],
        found: list[_Chunk],
        between: dict[int, _Chunk],
        tails: dict[int, _Chunk],
        item: Any,
        a: int,
        b: int,
    ) -> bool:
        """:meth:`first_only`'s verdict of an item (its tokens ``a`` to ``b - 1`` of the batch, all
        read) with a token cut before its hyphens (``tails``): the runs of letters read with each
        cut token as a run that ends with it reads it (its raw word inside a run is no letter)."""
        first, last, wide_first, _, plain = item
        ending = [tails.get(k) for k in range(a, b)]
        gap_runs = [between[k][2] if k in between else "" for k in range(a, b)]
        own_runs = [own[2] for own in found[a:b]]
        joined_runs = (
            "".join(part for pair in zip(gap_runs, own_runs, strict=True) for part in pair)
            + "/"
            + "".join(
                part
                for gap, own, tail in zip(gap_runs, own_runs, ending, strict=True)
                for part in (gap, own if tail is None else tail[2])
            )
        )
        if self.fillers is not None and self.fillers.search(joined_runs):
            return False  # one-letter words side by side that might be joined into a filler
        # a cut token's places to start keeping: those of both its readings, when they agree
        leads = [
            own[1] if tail is None or tail[1] == own[1] else None for own, tail in zip(found[a:b], ending, strict=True)
        ]
        return _none_keeps(
            letters, starts, ends, a, leads, "".join(plain), first - wide_first, last - wide_first, ending
        )


def _blank_at(text: str, places: np.ndarray) -> np.ndarray:
    """Whether the character of ``text`` at each of ``places`` is a blank (as :meth:`str.isspace`
    reads it; True past either end), read from one string of those characters."""
    size = len(text)
    if not size:
        return np.ones(len(places), bool)
    chars = "".join(map(text.__getitem__, np.clip(places, 0, size - 1).tolist()))
    if chars.isascii():
        blank = _blank_table()[np.frombuffer(chars.encode("ascii"), np.uint8)]
    else:
        # (a lone surrogate, which a text made by hand may hold, is a code point like any other)
        codes = np.frombuffer(chars.encode("utf-32-le", "surrogatepass"), np.uint32)
        blank = _blank_table()[np.minimum(codes, _LAST_BLANK + 1)]
    return blank | (places < 0) | (places >= size)


def _held_once(
    letters: str,
    spelled: list[str],
    hits: np.ndarray,
    heads: np.ndarray,
    sizes: np.ndarray,
    firsts: np.ndarray,
    lasts: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    at_start: np.ndarray,
    anywhere: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_none_keeps` of many items at once, where it reads simply: of each item (its tokens
    from ``heads`` on, ``sizes`` of them, the first candidate's ``firsts`` to ``lasts`` among
    them) whose letters (in ``letters``, the batch's, each token's from ``starts`` to ``ends``)
    hold ``spelled`` once (at ``hits``) and whose tokens each may start keeping ``at_start`` or
    ``anywhere`` (their leads the shared ``_START``, told by identity: a fresh ``(0,)`` of a piece
    of several words is left to Python, or None), whether it is read here and, if so, the verdict.

    Then a run of tokens ``i`` to ``j`` keeps ``spelled`` exactly when token ``j``'s letters end
    where those held end and token ``i``'s start where they start (or before, ``anywhere``): the
    item is ruled out when no such pair but the first candidate's is."""
    want = np.fromiter(map(len, spelled), np.int64, len(spelled))
    item_ends = ends[heads + sizes - 1]
    again = np.fromiter(map(letters.find, spelled, (hits + 1).tolist(), item_ends.tolist()), np.int64, len(spelled))
    total = int(sizes.sum())
    offsets = np.zeros(len(sizes), np.int64)  # each item's first token here
    np.cumsum(sizes[:-1], out=offsets[1:])
    owner = np.repeat(np.arange(len(sizes)), sizes)
    tokens = np.arange(total) - offsets[owner] + heads[owner]  # (their places in the batch)
    begin = hits[owner]
    lasting = ends[tokens] == begin + want[owner]  # j
    starting = np.where(at_start[tokens], starts[tokens] == begin, anywhere[tokens] & (starts[tokens] <= begin))  # i
    simple = at_start[tokens] | anywhere[tokens]
    read = (again < 0) & np.logical_and.reduceat(simple, offsets)
    # the pairs i <= j of each item: for each i, the j's at or after it
    from_end = np.cumsum(lasting[::-1])[::-1]  # the j's from each token to the batch's end
    item_end = np.append(from_end, 0)[offsets + sizes]  # ... past each item's end
    pairs = np.add.reduceat(starting * (from_end - item_end[owner]), offsets)
    own = starting[offsets + firsts] & lasting[offsets + lasts]  # (the first candidate's pair)
    return read, pairs == own


def _none_keeps(
    letters: str,
    starts: list[int],
    ends: list[int],
    a: int,
    leads: list[tuple[int, ...] | None],
    spelled: str,
    first: int,
    last: int,
    ending: list[Any] | None = None,
) -> bool:
    """Whether no run of tokens ``i`` to ``j`` but ``first`` to ``last`` (of those from the batch's
    token ``a`` on, one for each of ``leads``) has the letters ``spelled`` from one of the places
    it may start keeping words to its end (the batch's tokens' letters, each after those of the
    text before it, are ``letters``: token ``a + k``'s start at ``starts[a + k]`` and end at
    ``ends[a + k]``; ``leads[k]``: the places past its start where it may start keeping, None:
    anywhere in it or after; ``ending[k]``, when given and not None: token ``a + k`` read as a run
    that ends with it reads it, its letters first)."""
    want = len(spelled)
    base = starts[a]  # (an item's first token has no text before it)
    for j in range(len(leads)):
        tail = None if ending is None else ending[j]
        if tail is None:
            begin = ends[a + j] - want
            if begin < base or not letters.startswith(spelled, begin):
                continue
        else:
            head = letters[base : starts[a + j]] + tail[0]
            begin = base + len(head) - want
            if begin < base or not head.endswith(spelled):
                continue
        for i in range(j + 1):
            if i == first and j == last:
                continue
            start = starts[a + i]
            lead = leads[i]
            if (start <= begin) if lead is None else (begin - start in lead):
                return False
    return True


__all__ = ["RunSpellings"]
