"""Content strings normalized word by word, when no rule of the normalization reads across their words.

:meth:`~hub4eval.scoring.fills.FillPreparer._normalize` takes a content string
through the punctuation whiteout, the premodifiers stripped, the tokenizer,
the spoken forms (numbers), the spelling rules (GLM), the letters joined and
the words the noisy comparison reads. Some of those steps read across words,
but only from a few words: the tokenizer carries only whether a parenthesis is
open; a number starts only at a token that starts one; a spelling rule starts
only at a token that starts one, and reads the words around it only when it is
longer than one word or has a context; a run of letters is two or more
one-letter tokens side by side. So, for a string

* with no tag (``<``), and no parenthesis left open before another word,
* none of whose tokens starts a number,
* whose spelling rules are each of one word and without a context, or (one
  GLM) longer ones that the next word does not go on with (``u`` before
  ``x``, not before ``s``),

the tokens after its leading premodifiers are its raw words' tokens, each
word's worked out once (tokenized and spelled alone) and shifted to its
place, with its runs of letters joined as
:func:`~hub4eval.text.spoken.join_letters` joins them; and the words the noisy
comparison keeps (all it reads of a hypothesis) are read from the words'
own, without making the string's tokens (:meth:`WordByWord.kept`). The
projection's judge normalizes tens of thousands of candidate strings, each a
run of hypothesis words, most tried once and rejected; their words recur.

Every other string (or a preparer whose GLM is not one this module can read)
is left to the full normalization: :meth:`WordByWord.normalize` and
:meth:`WordByWord.kept` return None. The result is the full normalization's,
token for token (``tests/scoring/test_word_by_word.py`` checks it against it).

:meth:`WordByWord.normalize_many` applies the same rules to many strings at once
(a preparer's :meth:`~hub4eval.scoring.fills.FillPreparer.normalize`: the
templettes' tens of thousands of distinct fills, made of a few thousand words),
for strings that are ASCII letters, digits and blanks once their tags are
whited out: their words are found and numbered over one string of all of them,
each new word is worked out once (most in bulk: one token, the word itself),
and the premodifiers, the words that may read their neighbours, the tokens, the
runs of letters and the noisy words are found over arrays of all the words;
one Python step per string is left, making its records.

Why one module of about 950 lines: the two routes, one string at a time and
many at once, read the same words worked out once (:meth:`WordByWord._word`:
their tokens, noisy words, the spelling rules that start or go on at them)
under the same conditions for when a string can be put together from its
words; split, both halves would share those private records, and the tests
hold each route to the full normalization side by side.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from itertools import repeat
from typing import Any

from hub4eval.config import ScoreConfig
from hub4eval.scoring.noisy import _NOT_OPTIONAL, NoisyWords, filler_set, kept_hypothesis_tokens
from hub4eval.text.normalize import strip_premodifiers, whiteout_punctuation, whiteout_tags, whiteout_tags_by_line
from hub4eval.text.spoken import _words, is_letter, join_letters, number_start, strip_possessive
from hub4eval.text.tokens import _BLANKS, Token, tokenize

_WORD = re.compile(r"\S+")  # the raw words, as the tokenizer finds them

_Cell = tuple[str, bool, "str | None", bool, bool]
"""A token as a run of letters reads it: its text, whether it is one letter, its kept word
(None: dropped), whether it is parenthesized and whether it is optional."""
_Word = tuple[
    tuple[Token, ...],
    bool,
    bool,
    bool,
    bool,
    tuple[str, ...],
    tuple[bool, ...],
    tuple[str, ...],
    tuple[_Cell, ...],
    "dict[str | None, Any] | None",
    "str | None",
    tuple[str, ...],
]
"""A raw word worked out: its tokens (at 0); whether its first and its last token is one
letter, whether two of its tokens side by side are, and whether it leaves a parenthesis
open; the noisy comparison's words, optional flags and kept words of its tokens; its
tokens as a run of letters reads them; the GLM's words that would start a rule at its last
token if the next word started with one of them (None: no such rule); and the GLM's key of
its first token (None: it has none); and the kept words of its tokens that are not one letter,
which every run of words holding it keeps, whether or not the run joins letters (:meth:`WordByWord.runs`)."""
_Many = tuple[list[str], list[int], list[tuple[Token, ...]], list[NoisyWords], list[int], "tuple[Any, Any, Any] | None"]
"""What :meth:`WordByWord.normalize_many` makes of the strings it makes: see there."""
_WORDS_TOO = frozenset({"a", "i", "A", "I"})  # a run of letters does not start with them across words


def _glms(glm_apply: Callable[..., Any] | None) -> tuple[Any, ...] | None:
    """The GLMs ``glm_apply`` applies, in turn; None when it is not :func:`~hub4eval.text.glm.apply_glm`
    bound to a GLM (then which words it rewrites cannot be read)."""
    if glm_apply is None:
        return ()
    from hub4eval.text.glm import GlmStack, apply_glm

    if not (isinstance(glm_apply, functools.partial) and glm_apply.func is apply_glm and not glm_apply.args):
        return None
    if set(glm_apply.keywords) != {"glm"}:
        return None
    glm = glm_apply.keywords["glm"]
    return tuple(glm.glms) if isinstance(glm, GlmStack) else (glm,)


class WordByWord:
    """Normalizes content strings as a :class:`~hub4eval.scoring.fills.FillPreparer` with these
    options does, word by word where that is the same (see the module docstring).

    Args:
        config: the scoring options.
        glm_apply: the preparer's GLM (``functools.partial(apply_glm, glm=...)``), or None.
    """

    def __init__(self, config: ScoreConfig, glm_apply: Callable[..., Any] | None) -> None:
        self.config = config
        self.glms = tuple(glm for glm in _glms(glm_apply) or () if glm._trie)
        self.fillers = filler_set(config.fillers)
        self.words: dict[str, _Word | tuple[()]] = {}  # raw word -> worked out (empty: a rule may read it)
        spoken = config.spoken_forms
        self.numbers = None if spoken in (None, "none") else spoken  # the language numbers are read in
        self.letters = spoken != "none"  # whether runs of letters are joined
        self.premodifiers = frozenset(word.lower() for word in config.premodifiers)
        self.plain: dict[str, bool] = {}  # raw word -> whether a string can start with it as it is (kept_words)
        self.run_words: dict[str, tuple[_Word | tuple[()], bool]] = {}  # raw word -> _run_word
        self.literals: dict[str, bool] = {}  # raw word -> literal
        self._number_classes: Any = None  # the number words of the language numbers are read in, once asked
        # normalize_many's words (lower case unless case-sensitive): a number for each, in order
        self.numbered: dict[str, int] = {}
        self.premodifier_numbers: set[int] = set()  # those of the premodifiers
        # of each word by its number: its first token template and how many it has (-1: a number
        # or a spelling rule may start at it) (numpy arrays, made when first needed); the words
        # that would go on with a spelling rule at its last token (see _Word) and the GLM's key
        # of its first token
        self.word_templates: tuple[Any, Any] | None = None
        self.word_needs: list[Any] = []
        self.word_keys: list[str | None] = []
        self.word_needy: Any = None  # of each word: whether a spelling rule may go on after it (word_needs)
        # the token templates, column by column: their text, form and noisy word (lists), and
        # (numpy arrays) start and end in the word, parenthesized, optional, one letter, starts
        # with a digit, optional in the noisy comparison, kept there
        self.template_texts: tuple[list[str], list[str | None], list[str]] = ([], [], [])
        self.template_columns: tuple[Any, ...] | None = None
        self.joined: dict[tuple[str, bool, bool], tuple[str, bool, bool]] = {}  # a run of letters' noisy reading
        # the number of each template's noisy word in a preparer's words, and its length (-1: not yet)
        self.template_words: tuple[dict[str, int], Any, Any] | None = None

    @classmethod
    def of(cls, config: ScoreConfig, glm_apply: Callable[..., Any] | None) -> WordByWord | None:
        """One for a preparer with these options, or None when none can be made (its GLM is not readable)."""
        return None if _glms(glm_apply) is None else cls(config, glm_apply)

    def _word(self, raw: str) -> _Word | tuple[()]:
        """``raw`` worked out (and remembered); empty when a number or a spelling rule may start at it
        and read its neighbours."""
        if raw.isascii() and raw.isalnum():
            plain = self._plain_word(raw)
            if plain is not None:
                self.words[raw] = plain
                return plain
        cfg = self.config
        tokens = tokenize(raw, keep_punctuation=cfg.keep_punctuation, case_sensitive=cfg.case_sensitive)
        found: _Word | tuple[()] = ()
        first_key = None
        if tokens and len(self.glms) == 1:
            from hub4eval.text.glm import glm_keys

            first_key = glm_keys([tokens[0].text], self.glms[0].case_sensitive)[0]
        spelled = self._spelled(tokens)
        if spelled is not None:
            tokens, needs = spelled
            fillers = self.fillers
            noisy = NoisyWords.of(tokens, fillers)
            kept = set(map(id, kept_hypothesis_tokens(tokens, fillers)))
            cells = tuple(
                (
                    t.text,
                    is_letter(t.text),
                    strip_possessive(t.text) if id(t) in kept else None,
                    t.parenthesized,
                    t.optional,
                )
                for t in tokens
            )
            letters = [cell[1] for cell in cells] or [False]
            inside = any(a and b for a, b in zip(letters, letters[1:], strict=False))
            opens = raw.count("(") > raw.count(")")
            found = (
                tokens,
                letters[0],
                letters[-1],
                inside,
                opens,
                noisy.words,
                noisy.optional,
                noisy.kept,
                cells,
                needs,
                first_key,
                tuple(cell[2] for cell in cells if cell[2] is not None and not cell[1] and cell[2] in noisy.kept),
            )
        self.words[raw] = found
        return found

    def _plain_word(self, raw: str) -> _Word | None:
        """:meth:`_word` of a word of ASCII letters and digits that no number and no spelling rule
        starts at (most words), written out for its one token; None for any other word."""
        case_sensitive = self.config.case_sensitive
        text = raw if case_sensitive else raw.lower()  # its one token (tokenize's plain path)
        if self.numbers is not None:
            numbers = self._number_classes
            if numbers is None:
                numbers = self._number_classes = _words(self.numbers)
            if number_start(numbers, text):
                return None
        first_key = None
        for glm in self.glms:
            # glm_keys([text], glm.case_sensitive)[0] of a word of ASCII letters and digits (no quote)
            first_key = text if glm.case_sensitive or case_sensitive is False else text.lower()
            if first_key in glm._trie:
                return None
        if len(self.glms) != 1:
            first_key = None
        fillers = self.fillers
        filler = text in fillers or text.lower() in fillers  # NoisyWords.of and _is_filler of a plain token
        letter = len(text) == 1 and text.isalpha()  # is_letter
        cell = (text, letter, None if filler else text, False, False)  # strip_possessive(text): no quote
        return (
            (Token(text, 0, len(raw), False, False, None),),
            letter,
            letter,
            False,
            False,
            (text,),
            (filler,),
            () if filler else (text,),
            (cell,),
            None,
            first_key,
            () if filler or letter else (text,),
        )

    def _spelled(self, tokens: tuple[Token, ...]) -> tuple[tuple[Token, ...], dict[str | None, Any] | None] | None:
        """The tokens of one raw word through the spoken forms and the GLM, when neither reads
        another word: no token starts a number, and every rule that starts at a token is its
        own word's only rule there, without a context, or (one GLM) a longer one that the next
        token does not go on with: then, at the word's last token, the words that would go on
        with it (the next word must not start with one of them). None: a rule may read across
        words."""
        needs = None
        if self.numbers is not None:
            from hub4eval.text.spoken import _words, number_start

            words = _words(self.numbers)
            if any(number_start(words, t.text) for t in tokens):
                return None
        if self.glms:
            from hub4eval.text.glm import _produce, glm_keys

            for glm in self.glms:  # each GLM rewrites what the one before it made
                trie = glm._trie
                keys = glm_keys([t.text for t in tokens], glm.case_sensitive)
                if not any(key in trie for key in keys):
                    continue
                out: list[Token] = []
                last = len(tokens) - 1
                for number, (token, key) in enumerate(zip(tokens, keys, strict=True)):
                    node = trie.get(key)
                    if node is None:
                        out.append(token)
                        continue
                    rules = node.get(None)
                    if not rules and len(self.glms) == 1:  # only longer rules start here (`u s`)
                        if number < last and keys[number + 1] in node:
                            return None
                        if number == last:
                            needs = node  # the next word must not go on with it
                        out.append(token)
                        continue
                    if len(node) != 1 or not rules or rules[0].left or rules[0].right:
                        return None  # a longer rule, or one with a context: it reads the words around
                    out.extend(_produce((token,), rules[0]))
                tokens = tuple(out)
        return tokens, needs

    def _found(self, words: list[str]) -> list[_Word] | None:
        """The raw words worked out, or None when a rule may read across them (a number or a
        spelling rule, or a parenthesis left open before another word)."""
        known = self.words
        out: list[_Word] = []
        opened = False
        needs: dict[str | None, Any] | None = None
        for word in words:
            found = known.get(word)
            if found is None:
                found = self._word(word)
            if not found or opened:
                return None
            if needs is not None and (found[10] is None or found[10] in needs):
                return None  # it may go on with the rule the word before started (or has no token)
            opened, needs = found[4], found[9]
            out.append(found)
        return out

    def _start(self, raw: str) -> tuple[str, int, int] | None:
        """(the text with its leading premodifiers stripped, the characters they took, where the
        tokens start) as the full normalization finds them; None for a string with a tag."""
        if "<" in raw:
            return None
        cfg = self.config
        text = raw if cfg.keep_punctuation else whiteout_punctuation(raw)
        stripped, removed = strip_premodifiers(text, cfg.premodifiers)
        begin = removed  # back over the punctuation whited out before the first word kept
        while begin > 0 and text[begin - 1].isspace() and not raw[begin - 1].isspace():
            begin -= 1
        return stripped, removed, begin

    def kept(self, raw: str) -> tuple[str, ...] | None:
        """The kept words of a content string (:attr:`NoisyWords.kept` of its normalization, all
        that the noisy comparison reads of a hypothesis), as :meth:`normalize` finds them without
        making its tokens; None when a rule may read across its words."""
        start = self._start(raw)
        if start is None:
            return None
        found = self._found(raw[start[2] :].split())  # the raw words (str.split and \S+ split at the same blanks)
        return None if found is None else self._kept(found)

    def kept_words(self, words: list[str]) -> tuple[str, ...] | None:
        """:meth:`kept` of a string whose raw words are ``words`` (whatever the blanks between
        them), without the string: the candidates of a projected fill are runs of the same
        words. None when :meth:`kept` is None, and also when the first word may lose a
        premodifier (or is all punctuation): then ask :meth:`kept` the string itself."""
        for word in words:
            if "<" in word:  # a tag (kept: None)
                return None
        if words and not self._plain(words[0]):
            return None
        found = self._found(words)  # as kept() splits the string, which loses nothing before its first word
        return None if found is None else self._kept(found)

    def _plain(self, word: str) -> bool:
        """Whether a string whose first raw word is ``word`` loses no premodifier (and ``word`` is
        not all punctuation): strip_premodifiers reads the string's first word after the
        whiteout, this word's, which the whiteout reads alone (a blank or the end after it,
        nothing before it)."""
        plain = self.plain.get(word)
        if plain is None:
            leading = (word if self.config.keep_punctuation else whiteout_punctuation(word)).split(None, 1)
            plain = self.plain[word] = bool(leading) and leading[0].lower() not in self.premodifiers
        return plain

    def runs(self, words: list[str], allowed: frozenset[str]) -> tuple[list[_Word | tuple[()]], list[int], list[bool]]:
        """Of raw words side by side: each worked out; the runs of them that :meth:`kept_words`
        reads from these (``reach[a]`` is the last word ``b`` such that ``kept_words(words[a:b + 1])``
        is :meth:`kept_of` ``(found[a:b + 1])``, and so is every shorter run from ``a``; -1: none);
        and whether each word keeps, in every such run that holds it, a word not in ``allowed``
        (a word of a token that is not one letter, kept whether or not the run joins letters)."""
        memo = self.run_words
        found: list[_Word | tuple[()]] = []
        foreign: list[bool] = []
        within = allowed.issuperset
        simple = True
        for word in words:
            known = memo.get(word)
            if known is None:
                known = self._run_word(word)
            entry = known[0]
            found.append(entry)
            foreign.append(bool(entry) and not within(entry[11]))  # type: ignore[misc]
            simple = simple and known[1]
        if simple:
            return found, [len(words) - 1] * len(words), foreign  # every run of them read (the loop below)
        letters = self.letters
        plain = self.plain
        reach = [-1] * len(words)
        end = -1  # how far a run from the word after this one reaches
        for k in range(len(words) - 1, -1, -1):
            entry = found[k]
            if not entry or "<" in words[k] or (letters and entry[3]):
                end = -1  # kept_words is None (or, with letters side by side inside it, may be)
                continue
            if end >= 0:
                after = found[k + 1]  # worked out too (end >= 0)
                needs = entry[9]
                if entry[4] or (needs is not None and (after[10] is None or after[10] in needs)):  # type: ignore[misc]
                    end = k  # _found stops here: the next word is inside a parenthesis or may go on with a rule
            else:
                end = k
            starts = plain.get(words[k])
            if starts is None:
                starts = self._plain(words[k])
            if starts:
                reach[k] = end
        return found, reach, foreign

    def _run_word(self, word: str) -> tuple[_Word | tuple[()], bool]:
        """A raw word worked out (:meth:`_word`, remembered in :attr:`run_words`), and whether
        :meth:`runs` reads a run on past it either way and a run may start at it: it is worked out,
        not a tag, without two letters side by side, leaves no parenthesis open and starts no
        spelling rule that the next word might go on with, and loses no premodifier."""
        entry = self.words.get(word)
        if entry is None:
            entry = self._word(word)
        simple = (
            bool(entry)
            and "<" not in word
            and not (self.letters and entry[3])  # type: ignore[misc]
            and not entry[4]  # type: ignore[misc]
            and entry[9] is None  # type: ignore[misc]
            and self._plain(word)
        )
        found = self.run_words[word] = (entry, simple)
        return found

    def _local_entry(self, word: str) -> _Word | None:
        """A raw word worked out (:meth:`_word`), when its tokens are its own wherever it stands
        (no number and no spelling rule reads another word from it, it leaves no parenthesis
        open) but maybe for a longer spelling rule that the next word may go on with (its
        ``needs``, see :data:`_Word`); None for any other word. What :meth:`literal`,
        :meth:`local_letters` and :meth:`letters_before` read first."""
        entry = self.words.get(word)
        if entry is None:
            entry = self._word(word)
        return entry if entry and not entry[4] else None

    def literal(self, word: str) -> bool:
        """Whether a raw word is one token that is the word itself (in lower case), at which no
        spelling rule, number or parenthesis reads on past it: wherever it is in a string, the
        normalization keeps it as it is (or leaves it out: a filler, a premodifier) or joins it to
        the letters beside it (a letter)."""
        found = self.literals.get(word)
        if found is None:
            entry = self._local_entry(word)
            found = self.literals[word] = (
                entry is not None
                and entry[9] is None
                and "<" not in word
                and len(entry[0]) == 1
                and entry[0][0].text.lower() == word.lower()
            )
        return found

    def local_letters(self, word: str) -> tuple[str, str] | None:
        """Of a raw word whose tokens are its own wherever it stands (worked out, :meth:`_word`:
        no number and no spelling rule reads another word from it, it leaves no parenthesis
        open; the usual one-token word of letters and digits, or one a one-word rule rewrites): its
        kept words joined ("" for a filler), and its tokens as a run of letters reads them (a
        one-letter token's text in lower case, ``|`` for another token). None for any other word.
        Every string of such words keeps their kept words, in order, with their runs of letters
        joined (:meth:`_kept`); a word of ASCII letters and digits at which no number and no
        spelling rule starts (most) is read as :meth:`_plain_word` reads it, without its records."""
        if word.isascii() and word.isalnum():
            text = word if self.config.case_sensitive else word.lower()
            plain = True
            if self.numbers is not None:
                numbers = self._number_classes
                if numbers is None:
                    numbers = self._number_classes = _words(self.numbers)
                plain = not number_start(numbers, text)
            if plain:
                case_sensitive = self.config.case_sensitive
                for glm in self.glms:
                    if (text if glm.case_sensitive or case_sensitive is False else text.lower()) in glm._trie:
                        plain = False
                        break
            if plain:  # its one token, the word in lower case: kept unless a filler
                fillers = self.fillers
                run = text.lower() if len(text) == 1 and text.isalpha() else "|"
                return ("" if text in fillers or text.lower() in fillers else text), run
        entry = self._local_entry(word)
        return None if entry is None or entry[9] is not None else _letters(entry)

    def letters_before(self, word: str, after: str | None) -> tuple[str, str] | None:
        """:meth:`local_letters` of a raw word at which a longer spelling rule may start (``u`` of
        ``u s``), where the raw word after it in every string that holds it is ``after`` (None: no
        word follows it there): its own when ``after`` does not go on with the rule (as
        :meth:`_found` reads it: ``after`` worked out, its first token's key not one the rule
        needs). None for any other word, or when ``after`` may go on with the rule."""
        entry = self._local_entry(word)
        if entry is None or entry[9] is None:
            return None
        if after is not None:
            following = self.words.get(after)
            if following is None:
                following = self._word(after)
            if not following or following[10] is None or following[10] in entry[9]:
                return None
        return _letters(entry)

    def kept_of(self, found: list[_Word | tuple[()]]) -> tuple[str, ...] | None:
        """:meth:`kept_words` of a run whose words worked out (:meth:`runs`) are ``found``,
        within its reach."""
        return self._kept(found)  # type: ignore[arg-type]

    def _kept(self, found: list[_Word]) -> tuple[str, ...] | None:
        """The kept words of raw words worked out (:meth:`_found`)."""
        kept: list[str] = []
        letter_before = False
        for word in found:
            if not word[0]:
                continue  # no token: the tokens on either side are side by side
            if self.letters and (word[3] or (letter_before and word[1])):
                return self._joined(found)
            letter_before = word[2]
            kept.extend(word[7])
        return tuple(kept)

    def _joined(self, found: list[_Word]) -> tuple[str, ...] | None:
        """The kept words of these raw words' tokens once their runs of letters are joined, as
        :func:`~hub4eval.text.spoken.join_letters` joins them; None for a run whose first two
        letters are of one raw word and the first is ``a`` or ``i`` (read from the text)."""
        cells: list[tuple[_Cell, int]] = [(cell, number) for number, word in enumerate(found) for cell in word[8]]
        kept: list[str] = []
        i, total = 0, len(cells)
        while i < total:
            cell = cells[i][0]
            if not cell[1]:
                if cell[2] is not None:
                    kept.append(cell[2])
                i += 1
                continue
            end = i
            while end < total and cells[end][0][1]:
                end += 1
            start = i
            if end - start >= 2 and cell[0] in _WORDS_TOO:
                if cells[start][1] == cells[start + 1][1]:
                    return None  # of one raw word: as letter_runs reads it, from the text
                if not (start > 0 and cells[start - 1][0][0][:1].isdigit()):
                    start += 1  # a word of its own, not the first letter of the run
            kept.extend(c[0][2] for c in cells[i:start] if c[0][2] is not None)
            if end - start >= 2:
                run = [c[0] for c in cells[start:end]]
                joined = Token("".join(c[0] for c in run), 0, 0, any(c[3] for c in run), all(c[4] for c in run))
                kept.extend(strip_possessive(t.text) for t in kept_hypothesis_tokens((joined,), self.fillers))
            else:
                kept.extend(c[0][2] for c in cells[start:end] if c[0][2] is not None)
            i = end
        return tuple(kept)

    def _number_words(self, words: list[str]) -> Any:
        """The number of each word in :attr:`numbered` (a numpy array), each new one worked out
        into its token templates and facts. ``words`` are ASCII letters and digits (lower case
        unless case-sensitive): most of them read as :meth:`_plain_word` reads them, one token
        that is the word itself, worked out for all of them at once; any other (a number or a
        spelling rule may start at it) by :meth:`_word`."""
        import numpy as np

        numbered = self.numbered
        known = len(numbered)
        new = number_new(numbered, words)
        numbers = np.fromiter(map(numbered.__getitem__, words), np.int64, len(words))
        if self.word_templates is None:  # (no word yet)
            self.word_templates = (np.zeros(0, np.int64), np.zeros(0, np.int64))
            self.template_columns = (*(np.zeros(0, np.int64),) * 2, *(np.zeros(0, bool),) * 6)
            self.word_needy = np.zeros(0, bool)
        if not new:
            return numbers
        new_set = set(new)
        special: set[str] = set()
        if self.numbers is not None:
            from hub4eval.text.spoken import _words

            starts = _words(self.numbers)
            # each word's class, one look-up a word: the table holds most words of the texts by then
            # (far more than fit in the processor's caches: a look-up there is slow)
            classes = starts.classes
            found = list(map(classes.get, new))
            if None in found:  # a word not classed yet: classed now, in order
                for k in [k for k, kind in enumerate(found) if kind is None]:
                    starts.trigger(new[k])
                    found[k] = classes[new[k]]
            kinds = np.fromiter(found, np.int64, len(new))
            # as number_start reads a word's class: a number, not a blocked word (or a score word read as 0)
            special.update([new[k] for k in np.flatnonzero((kinds >= 1) & (kinds != 2)).tolist()])
            special.update(new_set.intersection(starts.language.score_zero))
        lower = not self.config.case_sensitive
        for glm in self.glms:
            trie = glm._trie
            if glm.case_sensitive or lower:
                special.update(new_set.intersection(trie))
            else:
                special.update([word for word in new if word.lower() in trie])
        key_of: Callable[[str], str] | None = None
        if len(self.glms) == 1:
            key_of = str if self.glms[0].case_sensitive or lower else str.lower
        premodifiers = self.premodifiers
        if premodifiers:
            present = new_set.intersection(premodifiers) if lower else [w for w in new if w.lower() in premodifiers]
            self.premodifier_numbers.update(numbered[word] for word in present)
        # the special words' places among the new ones (most words are plain)
        at = sorted(numbered[word] - known for word in special)
        is_special = np.zeros(len(new), bool)
        is_special[at] = True
        plain = _objects(np, new)[~is_special].tolist() if special else new
        texts, forms, noisy_words = self.template_texts
        base = len(texts)
        # the plain words' templates: one token each, the word itself
        size = len(plain)
        word_lengths = np.fromiter(map(len, plain), np.int64, size)
        initials = np.frombuffer("".join(plain).encode("ascii"), np.uint8)[np.cumsum(word_lengths) - word_lengths]
        alphabetic = ((initials | 32) >= ord("a")) & ((initials | 32) <= ord("z"))
        fillers = self.fillers
        filler = np.zeros(size, bool)  # (the fillers are in lower case: a filler's word.lower() is one)
        if not lower:
            filler = np.fromiter(map(fillers.__contains__, map(str.lower, plain)), bool, size)
        elif new_set.intersection(fillers):
            filler = np.fromiter(map(fillers.__contains__, plain), bool, size)
        falses = np.zeros(size, bool)
        columns = [
            np.zeros(size, np.int64),
            word_lengths,
            falses,
            falses,
            alphabetic & (word_lengths == 1),
            (initials >= ord("0")) & (initials <= ord("9")),
            filler,
            ~filler,
        ]
        texts.extend(plain)
        forms.extend([None] * size)
        noisy_words.extend(plain)
        firsts = np.zeros(len(new), np.int64)
        firsts[~is_special] = np.arange(base, base + size)
        counts = np.ones(len(new), np.int64)
        needs: list[Any] = [None] * len(new)
        keys: list[str | None] = list(map(key_of, new)) if key_of is not None else [None] * len(new)
        extra: list[tuple[Any, ...]] = []  # the special words' templates
        for k in at:  # in order: the same columns every run
            word = new[k]
            entry = self.words.get(word)
            if entry is None:
                entry = self._word(word)
            firsts[k] = len(texts)
            if not entry:
                counts[k], needs[k], keys[k] = -1, None, None  # a number or a spelling rule may start here
                continue
            counts[k], needs[k], keys[k] = len(entry[0]), entry[9], entry[10]
            for token, noisy_word, optional, cell in zip(entry[0], entry[5], entry[6], entry[8], strict=True):
                texts.append(token.text)
                forms.append(token.form)
                noisy_words.append(noisy_word)
                extra.append(
                    (
                        token.start,
                        token.end,
                        token.parenthesized,
                        token.optional,
                        cell[1],
                        token.text[:1].isdigit(),
                        optional,
                        cell[2] is not None,
                    )
                )
        if extra:
            columns = [
                np.concatenate((column, np.asarray(values, column.dtype)))
                for column, values in zip(columns, zip(*extra, strict=True), strict=True)
            ]
        self.template_columns = tuple(
            np.concatenate(pair)
            for pair in zip(self.template_columns, columns, strict=True)  # type: ignore[arg-type]
        )
        known_words = self.word_templates
        self.word_templates = (np.concatenate((known_words[0], firsts)), np.concatenate((known_words[1], counts)))
        self.word_needs.extend(needs)
        needy = np.zeros(len(new), bool)  # (a plain word's need is None)
        needy[at] = [needs[k] is not None for k in at]
        self.word_needy = np.concatenate((self.word_needy, needy))
        self.word_keys.extend(keys)
        return numbers

    def normalize_many(self, raws: Sequence[str], numbering: dict[str, int] | None = None) -> tuple[list[int], _Many]:
        """:meth:`normalize` of many strings, worked out for all of them at once, and of strings
        with tags too (whited out first, as the full normalization does): the positions in
        ``raws`` of the strings left out, in order, and of each of the others, in order (column
        by column), the normalized text, the characters of premodifiers removed, the tokens and
        the noisy words, the places among them of those with no word or an optional one, and,
        when ``numbering`` (a preparer's words) is given, their noisy words as arrays: the number
        of each word in ``numbering`` (new ones numbered), its length and where each string's
        words begin (as :meth:`~hub4eval.scoring.fills.FillPreparer.normalize` reads their word
        keys; else None). Left out: a string that is not ASCII letters, digits and blanks once
        its tags are whited out (punctuation, parentheses, other scripts), or where a rule may
        read across its words; normalize those in full.

        The templettes' fills are tens of thousands of distinct strings made of a few thousand
        words: each word is worked out once, the strings' words, premodifiers, tokens, runs of
        letters and noisy words are found over arrays of all their words, and the records of
        each string are made in bulk."""
        import numpy as np

        cfg = self.config
        nothing: _Many = (
            [],
            [],
            [],
            [],
            [],
            None if numbering is None else (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(1, np.int64)),
        )
        kinds_of = _kinds(np)
        joined = "\n".join(raws)
        if joined.isascii():  # (the usual case) joined, encoded and classified once
            chosen = np.arange(len(raws))
            encoded = joined.encode("ascii")
            codes = np.frombuffer(encoded, np.uint8)
            lines = joined.count("\n") == len(raws) - 1  # no string holds a line break: each is a line
            if lines:
                breaks = np.flatnonzero(codes == 10)
                starts = np.concatenate(([0], breaks + 1))
                lengths = np.concatenate((breaks, [len(codes)])) - starts
            else:
                lengths = np.fromiter(map(len, raws), np.int64, len(raws))
                starts = np.cumsum(lengths + 1) - lengths - 1
            by_line = whiteout_tags_by_line(joined, cfg.non_extractable) if lines and "<" in joined else None
            if by_line is not None:  # tags whited out (length-preserving), every line at once
                joined = by_line
                codes = np.frombuffer(joined.encode("ascii"), np.uint8)
            elif "<" in joined:  # tags whited out (length-preserving) in place, string by string
                buffer = bytearray(encoded)
                non_extractable = cfg.non_extractable
                tagged = np.searchsorted(starts, np.flatnonzero(codes == 60), "right") - 1  # (the string of each <)
                for k in np.unique(tagged).tolist():
                    start, raw = int(starts[k]), raws[k]
                    buffer[start : start + len(raw)] = whiteout_tags(raw, non_extractable).encode("ascii")
                encoded = bytes(buffer)
                joined = encoded.decode("ascii")
                codes = np.frombuffer(encoded, np.uint8)
        else:
            whited = [whiteout_tags(raw, cfg.non_extractable) if "<" in raw else raw for raw in raws]
            chosen = np.asarray([number for number, text in enumerate(whited) if text.isascii()], np.int64)
            texts = [whited[number] for number in chosen.tolist()]
            joined = "\n".join(texts)
            codes = np.frombuffer(joined.encode("ascii"), np.uint8)
            lengths = np.fromiter(map(len, texts), np.int64, len(texts))
            starts = np.cumsum(lengths + 1) - lengths - 1
        kinds = kinds_of[codes]
        other = np.concatenate(([0], np.cumsum(kinds == 2)))
        plain = other[starts + lengths] == other[starts]
        if not plain.all():  # the others' characters dropped, each with the line break after it
            keep = np.repeat(plain, lengths + 1)[: len(codes)]
            codes, kinds = codes[keep], kinds[keep]
            if len(codes) and not plain[-1]:  # (the last string kept had a line break after it)
                codes, kinds = codes[:-1], kinds[:-1]
            joined = codes.tobytes().decode("ascii")
            chosen, lengths = chosen[plain], lengths[plain]
            starts = np.cumsum(lengths + 1) - lengths - 1
        if not len(chosen):
            return list(range(len(raws))), nothing
        big = joined
        blank = kinds == 1
        count = len(chosen)
        ends = starts + lengths
        low = big if cfg.case_sensitive else big.lower()
        edges = np.flatnonzero(np.diff(np.concatenate(([True], blank, [True])).view(np.int8)))
        word_starts, word_ends = edges[0::2], edges[1::2]
        first = np.searchsorted(word_starts, starts)  # each string's first word, and the one after its last
        last = np.searchsorted(word_starts, ends)
        sizes = last - first
        owner = np.repeat(np.arange(count), sizes)  # the string of each word
        local = word_starts - starts[owner]  # where each word starts in its string
        # a string already folded (one space between words, none around them) is its own text
        odd_blanks = np.concatenate(([0], np.cumsum(blank & (codes != 32))))
        letters_in = np.concatenate(([0], np.cumsum(word_ends - word_starts)))
        folded = (odd_blanks[ends] == odd_blanks[starts]) & (
            lengths == letters_in[last] - letters_in[first] + sizes - 1
        )
        ids = self._number_words(low.split())
        firsts, widths_of = self.word_templates  # type: ignore[misc]
        needs, keys = self.word_needs, self.word_keys
        # the leading premodifier words stripped, unless all the string's words are premodifiers
        removed = np.zeros(count, np.int64)
        premodifiers = self.premodifier_numbers
        if premodifiers and len(ids):
            leading = (sizes > 0) & np.isin(ids[np.minimum(first, len(ids) - 1)], list(premodifiers))
            listed = ids.tolist()
            for s in np.flatnonzero(leading).tolist():
                k, end = int(first[s]), int(last[s])
                while k < end and listed[k] in premodifiers:
                    k += 1
                if k < end:
                    first[s] = k
                    removed[s] = local[k]
        in_piece = np.arange(len(ids)) >= first[owner]
        # a string is left to the full normalization when a word of it may read its neighbours (a
        # number, a spelling rule), or when the next word may go on with a rule its word starts
        unread = np.zeros(count, bool)
        unread[owner[in_piece & (widths_of[ids] < 0)]] = True
        for k in np.flatnonzero(in_piece & self.word_needy[ids]).tolist():
            s = owner[k]
            if k + 1 < last[s]:
                key = keys[ids[k + 1]]
                if key is None or key in needs[ids[k]]:
                    unread[s] = True
        # the tokens: each word's, moved to its place in the piece (the string less its premodifiers)
        piece = np.flatnonzero(in_piece & ~unread[owner])
        piece_ids = ids[piece]
        widths = widths_of[piece_ids]
        at = np.repeat(piece, widths)  # the word of each token
        total = len(at)
        within = np.arange(total) - np.repeat(np.cumsum(widths) - widths, widths)
        which = firsts[ids[at]] + within  # the template of each token
        texts_of, forms_of, noisy_of = self.template_texts
        columns = self.template_columns
        assert columns is not None  # (made with the words)
        starts_of, ends_of, parens_of, optional_of, letter_of, digit_of, noisy_optional_of, kept_of = columns
        token_owner = owner[at]
        base = local[at] - removed[token_owner]
        token_starts = base + starts_of[which]
        token_ends = base + ends_of[which]
        token_texts = _objects(np, texts_of)[which]
        parens = parens_of[which]
        optionals = optional_of[which]
        forms = _objects(np, forms_of)[which]
        noisy_words = _objects(np, noisy_of)[which]
        noisy_optional = noisy_optional_of[which]
        token_word = which.copy()  # the template of each token's noisy word (-1: a run of letters joined)
        noisy_kept = kept_of[which]
        kept = np.ones(total, bool)
        if self.letters and total:
            # runs of one-letter tokens side by side, joined as join_letters joins them
            letter = letter_of[which]
            same = np.zeros(total, bool)  # the token before is of the same string
            same[1:] = token_owner[1:] == token_owner[:-1]
            beside = np.zeros(total, bool)  # a letter after a letter
            beside[1:] = letter[1:] & letter[:-1] & same[1:]
            heads = np.flatnonzero(letter & ~beside)
            tails = np.flatnonzero(letter & ~np.concatenate((beside[1:], [False])))
            long = tails > heads
            heads, tails = heads[long], tails[long]
            if len(heads):
                too = np.fromiter((text in _WORDS_TOO for text in token_texts[heads].tolist()), bool, len(heads))
                one_word = too & (at[heads] == at[heads + 1])
                if one_word.any():  # its first two letters of one raw word: read from the text
                    unread[token_owner[heads[one_word]]] = True
                after_number = same[heads] & digit_of[which[heads - 1]]
                heads = heads + (too & ~after_number)  # a word of its own, not the first letter of the run
                long = (tails > heads) & ~one_word
                heads, tails = heads[long], tails[long]
            if len(heads):
                head_list, tail_list = heads.tolist(), (tails + 1).tolist()
                all_texts = token_texts.tolist()
                joined_texts = ["".join(all_texts[a:b]) for a, b in zip(head_list, tail_list, strict=True)]
                par_sum = np.concatenate(([0], np.cumsum(parens)))
                opt_sum = np.concatenate(([0], np.cumsum(optionals)))
                joined_parens = par_sum[tails + 1] > par_sum[heads]
                joined_optional = opt_sum[tails + 1] - opt_sum[heads] == tails + 1 - heads
                # a joined token's noisy reading: one neither parenthesized nor optional (most) is its own
                # word, optional exactly when it is a filler (NoisyWords.of); the others read once each
                fillers = self.fillers
                read_words = _objects(np, joined_texts)
                read_optional = np.fromiter(
                    (text in fillers or text.lower() in fillers for text in joined_texts), bool, len(joined_texts)
                )
                read_kept = ~read_optional
                memo = self.joined
                for k in np.flatnonzero(joined_parens | joined_optional).tolist():
                    key = (joined_texts[k], True if joined_parens[k] else False, True if joined_optional[k] else False)
                    reading = memo.get(key)
                    if reading is None:
                        read = NoisyWords.of((Token(key[0], 0, 0, key[1], key[2]),), fillers)
                        reading = memo[key] = (read.words[0], read.optional[0], len(read.kept) == 1)
                    read_words[k], read_optional[k], read_kept[k] = reading
                token_texts[heads] = joined_texts
                token_word[heads] = -1
                token_ends[heads] = token_ends[tails]
                parens[heads] = joined_parens
                optionals[heads] = joined_optional
                forms[heads] = None
                noisy_words[heads] = read_words
                noisy_optional[heads] = read_optional
                noisy_kept[heads] = read_kept
                covered = np.zeros(total + 1, np.int64)  # the letters after a run's first: joined into it
                np.add.at(covered, heads + 1, 1)
                np.add.at(covered, tails + 1, -1)
                kept = np.cumsum(covered[:-1]) == 0
        good = np.flatnonzero(~unread)  # the strings made here (a string is unread before its tokens are
        if len(good) < count:  # found, but for a run of letters that starts in one raw word: drop its tokens)
            kept &= ~unread[token_owner]
        if not kept.all():
            token_texts, token_starts, token_ends = token_texts[kept], token_starts[kept], token_ends[kept]
            parens, optionals, forms = parens[kept], optionals[kept], forms[kept]
            noisy_words, noisy_optional, noisy_kept = noisy_words[kept], noisy_optional[kept], noisy_kept[kept]
            token_owner = token_owner[kept]
            token_word = token_word[kept]
        tokens = _objects(
            np,
            list(
                map(
                    Token,
                    token_texts.tolist(),
                    token_starts.tolist(),
                    token_ends.tolist(),
                    parens.tolist(),
                    optionals.tolist(),
                    forms.tolist(),
                )
            ),
        )
        sizes = np.bincount(token_owner, minlength=count)[good]  # the tokens of each string made
        bounds = np.zeros(len(good) + 1, np.int64)
        np.cumsum(sizes, out=bounds[1:])
        token_tuples = run_tuples(np, tokens, bounds[:-1], sizes)
        word_tuples = run_tuples(np, noisy_words, bounds[:-1], sizes)
        # the noisy words: those of a string without an optional token (the usual one) in bulk
        flags = list(map(_flags_of(int(sizes.max(initial=0))).__getitem__, sizes.tolist()))
        fillers = self.fillers
        noisy = list(map(NoisyWords, word_tuples, flags, word_tuples, repeat(fillers)))
        some = (np.bincount(token_owner[noisy_optional], minlength=count) > 0)[good]
        if some.any():
            words = noisy_words.tolist()
            optional_list, kept_list = noisy_optional.tolist(), noisy_kept.tolist()
            lows = bounds.tolist()
            for s in np.flatnonzero(some).tolist():
                a, b = lows[s], lows[s + 1]
                noisy[s] = NoisyWords.made(
                    words[a:b],
                    optional_list[a:b],
                    [word for word, keep in zip(words[a:b], kept_list[a:b], strict=True) if keep],
                    fillers,
                )
        # the text: the piece, its blanks folded (a piece already folded is its own text)
        if low.count("\n") == count - 1:  # (no string holds a line break: each is a line)
            pieces = _objects(np, low.split("\n"))[good].tolist()
        else:
            pieces = [low[a:b] for a, b in zip(starts[good].tolist(), ends[good].tolist(), strict=True)]
        cut = removed[good]
        cuts = cut.tolist()
        for s in np.flatnonzero(cut).tolist():
            pieces[s] = pieces[s][cuts[s] :]
        for s in np.flatnonzero(~folded[good]).tolist():
            pieces[s] = " ".join(pieces[s].split())
        odd = np.flatnonzero((sizes == 0) | some).tolist()  # no word, or an optional one
        numbered = None if numbering is None else (*self._numbers_in(numbering, token_word, noisy_words), bounds)
        made = (pieces, cuts, token_tuples, noisy, odd, numbered)
        if len(good) == len(raws):
            return [], made
        left = np.ones(len(raws), bool)
        left[chosen[good]] = False
        return np.flatnonzero(left).tolist(), made

    def _numbers_in(self, words: dict[str, int], token_word: Any, noisy_words: Any) -> tuple[Any, Any]:
        """Of each token of :meth:`normalize_many`: the number in ``words`` of its noisy word (new words
        numbered, in no particular order: the numbers are only compared with each other) and the
        word's length. A token's word is its template's (``token_word``; -1: a run of letters joined,
        read from ``noisy_words``), whose number is remembered with the template (per ``words``)."""
        import numpy as np

        _, _, noisy_of = self.template_texts
        count = len(noisy_of)
        known = self.template_words
        if known is None or known[0] is not words:
            numbers, lengths = np.full(count, -1, np.int64), np.full(count, -1, np.int64)
        else:
            _, numbers, lengths = known
            if len(numbers) < count:
                grown = np.full(count - len(numbers), -1, np.int64)
                numbers, lengths = np.concatenate((numbers, grown)), np.concatenate((lengths, grown))
        joined = token_word < 0
        used = np.zeros(count, bool)
        used[token_word[~joined] if joined.any() else token_word] = True
        unknown = np.flatnonzero(used & (numbers < 0))
        if len(unknown):
            new = [noisy_of[t] for t in unknown.tolist()]
            number_new(words, new)
            numbers[unknown] = np.fromiter(map(words.__getitem__, new), np.int64, len(new))
            lengths[unknown] = np.fromiter(map(len, new), np.int64, len(new))
        self.template_words = (words, numbers, lengths)
        out = numbers[np.maximum(token_word, 0)]
        out_lengths = lengths[np.maximum(token_word, 0)]
        if joined.any():
            others = noisy_words[joined].tolist()
            number_new(words, others)
            out[joined] = np.fromiter(map(words.__getitem__, others), np.int64, len(others))
            out_lengths[joined] = np.fromiter(map(len, others), np.int64, len(others))
        return out, out_lengths

    def normalize(self, raw: str) -> tuple[str, int, tuple[Token, ...], NoisyWords] | None:
        """(normalized text, characters of premodifiers removed, tokens, noisy words) of a content
        string, as the full normalization makes them; None when a rule may read across its
        words (then normalize it in full)."""
        start = self._start(raw)
        if start is None:
            return None
        stripped, removed, begin = start
        piece = raw[begin:]  # the tokens are the piece's (their spans too)
        matches = list(_WORD.finditer(piece))
        found = self._found([match.group() for match in matches])
        if found is None:
            return None
        tokens: list[Token] = []
        words: list[str] = []
        optional: list[bool] = []
        kept: list[str] = []
        letter_before = run = False
        for match, word in zip(matches, found, strict=True):
            solo = word[0]
            if not solo:
                continue  # no token: the tokens on either side are side by side
            if word[3] or (letter_before and word[1]):
                run = True  # one-letter tokens side by side: joined below
            letter_before = word[2]
            base = match.start()
            if base:
                tokens.extend(
                    [Token(t.text, t.start + base, t.end + base, t.parenthesized, t.optional, t.form) for t in solo]
                )
            else:
                tokens.extend(solo)
            words.extend(word[5])
            optional.extend(word[6])
            kept.extend(word[7])
        folded = " ".join(stripped.split())
        if not self.config.case_sensitive:
            folded = folded.lower()
        if run and self.letters:
            # joined as the full normalization joins them (after the GLM, which reads no two words)
            joined = join_letters(tokens, piece)
            return folded, removed, joined, NoisyWords.of(joined, self.fillers)
        return folded, removed, tuple(tokens), NoisyWords.made(words, optional, kept, self.fillers)


def _letters(entry: _Word) -> tuple[str, str]:
    """A worked-out raw word's kept words joined, and its tokens as a run of letters reads them
    (see :meth:`WordByWord.local_letters`)."""
    return "".join(entry[7]), "".join(cell[0].lower() if cell[1] else "|" for cell in entry[8])


def _objects(np: Any, values: list[Any]) -> Any:
    """``values`` as a numpy array of objects (never of another dtype, whatever they are, nor
    of more dimensions: a tuple is one object). Read as an iterator: assigned to an array, each
    value would be asked whether it is a sequence first (ten times slower for records)."""
    return np.fromiter(values, dtype=object, count=len(values))


def number_new(numbers: dict[Any, int], keys: Iterable[Any]) -> list[Any]:
    """Give each of ``keys`` that ``numbers`` lacks the next number, in order of first sight
    (as ``numbers.setdefault(key, len(numbers))`` of each in turn, in bulk); return those keys."""
    known = len(numbers)
    distinct = dict.fromkeys(keys)
    new = [key for key in distinct if key not in numbers] if known else list(distinct)
    numbers.update(zip(new, range(known, known + len(new)), strict=True))
    return new


def numbers_of(numbers: dict[Any, int], keys: Iterable[Any]) -> list[int]:
    """The number of each of ``keys`` in ``numbers``, a new one given the next number as it
    comes (``numbers.setdefault(key, len(numbers))`` of each in turn). One look-up a key where
    the caller wants every key's number: :func:`number_new` then a read of each takes three,
    and a tuple (a phrase) is hashed anew at each: for the templettes' 41,000 phrases this way
    takes a third less time (less for their texts, strings, which keep their hash).
    :func:`number_new` is for a caller that wants the new keys themselves."""
    number = numbers.setdefault
    return [number(key, len(numbers)) for key in keys]


def _flags_of(most: int) -> list[tuple[bool, ...]]:
    """The :attr:`NoisyWords.optional` of 0 to ``most`` words none of which is optional (one tuple per size)."""
    flags = []
    for size in range(most + 1):
        found = _NOT_OPTIONAL.get(size)
        if found is None:
            found = _NOT_OPTIONAL[size] = (False,) * size
        flags.append(found)
    return flags


_ZIPPED = 16  # runs up to this long are made column by column (see run_tuples)


def run_tuples(np: Any, flat: Any, starts: Any, sizes: Any) -> list[tuple[Any, ...]]:
    """The tuple of each run ``flat[starts[k] : starts[k] + sizes[k]]`` of a numpy array of
    objects, in order: made size by size, the runs of one size zipped from their columns."""
    out = np.empty(len(sizes), dtype=object)
    order = np.argsort(sizes, kind="stable")
    ordered = sizes[order]
    edges = np.flatnonzero(np.diff(ordered, prepend=-1, append=-1))
    for a, b in zip(edges[:-1].tolist(), edges[1:].tolist(), strict=True):
        at = order[a:b]
        size = int(ordered[a])
        first = starts[at]
        if size > _ZIPPED:
            out[at] = np.fromiter((tuple(flat[k : k + size].tolist()) for k in first.tolist()), object, b - a)
            continue
        columns = [flat[first + j].tolist() for j in range(size)]
        out[at] = np.fromiter(zip(*columns, strict=True) if size else repeat((), b - a), object, b - a)
    return out.tolist()


@functools.cache
def _kinds(np: Any) -> Any:
    """Of each of the 256 byte values: 0 an ASCII letter or digit, 1 an ASCII blank (as
    ``str.split`` splits), 2 anything else."""
    kinds = np.full(256, 2, dtype=np.uint8)
    for char in "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ":
        kinds[ord(char)] = 0
    kinds[[ord(char) for char in _BLANKS]] = 1
    return kinds


__all__ = ["WordByWord", "number_new", "numbers_of", "run_tuples"]
