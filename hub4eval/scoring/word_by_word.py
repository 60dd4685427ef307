"""Content strings normalized word by word, when no rule of the normalization reads across their words.

:meth:`~hub4eval.scoring.fills.FillPreparer._normalize` takes a content string
through the punctuation whiteout, the premodifiers stripped, the tokenizer,
the spoken forms (numbers), the spelling rules (GLM), the letters joined and
the words the noisy comparison reads. Most of those steps read across words;
but a string

* with no tag (``<``) and no parenthesis (the tokenizer carries whether a word
  is inside parentheses to the next one),
* that does not start with a premodifier (``the``),
* none of whose tokens starts a number or a rule of the GLM,
* with no two one-letter tokens side by side (a run of letters is joined),

comes out of every one of them as its raw words' tokens, each word tokenized
on its own, shifted to its place: the tokenizer splits at blanks and reads
each raw word alone but for the parentheses; a number and a spelling rule are
only ever started at a token that starts one; a run of letters is at least two
one-letter tokens side by side; and the noisy comparison reads each token
alone. So each distinct raw word is worked out once (its tokens, whether any
of them starts a rule, its letters at either end, its noisy words) and a
string of such words is put together from them. The projection's judge
normalizes tens of thousands of candidate strings, each a run of hypothesis
words, most tried once; their words recur.

Every other string (or a preparer whose GLM is not one this module can read)
is left to the full normalization: :meth:`WordByWord.normalize` returns None.
The result is the full normalization's, token for token
(``tests/scoring/test_word_by_word.py`` checks it against it).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

from hub4eval.config import ScoreConfig
from hub4eval.scoring.noisy import NoisyWords, filler_set
from hub4eval.text.normalize import strip_premodifiers, whiteout_punctuation
from hub4eval.text.spoken import is_letter, join_letters
from hub4eval.text.tokens import Token, tokenize

_WORD = re.compile(r"\S+")  # the raw words, as the tokenizer finds them
_READ_ACROSS = re.compile(r"[<()]")  # a tag, or a parenthesis: read across words

_Word = tuple[tuple[Token, ...], bool, bool, bool, tuple[str, ...], tuple[bool, ...], tuple[str, ...]]
"""A raw word worked out: its tokens (at 0); whether its first and its last token is one
letter, and whether two of its tokens side by side are; and the noisy comparison's words,
optional flags and kept words of its tokens."""


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

    @classmethod
    def of(cls, config: ScoreConfig, glm_apply: Callable[..., Any] | None) -> WordByWord | None:
        """One for a preparer with these options, or None when none can be made (its GLM is not readable)."""
        return None if _glms(glm_apply) is None else cls(config, glm_apply)

    def _word(self, raw: str) -> _Word | tuple[()]:
        """``raw`` worked out (and remembered); empty when a number or a spelling rule may start at it."""
        cfg = self.config
        tokens = tokenize(raw, keep_punctuation=cfg.keep_punctuation, case_sensitive=cfg.case_sensitive)
        found: _Word | tuple[()] = ()
        if self._alone(tokens):
            noisy = NoisyWords.of(tokens, self.fillers)
            letters = [is_letter(t.text) for t in tokens] or [False]
            inside = any(a and b for a, b in zip(letters, letters[1:], strict=False))
            found = (tokens, letters[0], letters[-1], inside, noisy.words, noisy.optional, noisy.kept)
        self.words[raw] = found
        return found

    def _alone(self, tokens: Sequence[Token]) -> bool:
        """Whether none of these tokens starts a number or a rule of the GLM."""
        if self.numbers is not None:
            from hub4eval.text.spoken import _words, number_start

            words = _words(self.numbers)
            if any(number_start(words, t.text) for t in tokens):
                return False
        if self.glms:
            from hub4eval.text.glm import glm_keys

            texts = [t.text for t in tokens]
            for glm in self.glms:
                trie = glm._trie
                if any(key in trie for key in glm_keys(texts, glm.case_sensitive)):
                    return False
        return True

    def kept(self, raw: str) -> tuple[str, ...] | None:
        """The kept words of a content string (:attr:`NoisyWords.kept` of its normalization, all
        that the noisy comparison reads of a hypothesis), as :meth:`normalize` finds them without
        making its tokens; None when a rule may read across its words."""
        if _READ_ACROSS.search(raw) is not None:
            return None
        cfg = self.config
        if strip_premodifiers(raw if cfg.keep_punctuation else whiteout_punctuation(raw), cfg.premodifiers)[1]:
            return None
        known = self.words
        kept: list[str] = []
        letter_before = False
        for word in raw.split():  # the raw words (str.split and the tokenizer's \S+ split at the same blanks)
            found = known.get(word)
            if found is None:
                found = self._word(word)
            if not found:
                return None
            if not found[0]:
                continue  # no token: the tokens on either side are side by side
            if found[3] or (letter_before and found[1]):
                if self.letters:  # a run of letters, joined: read off the tokens
                    made = self.normalize(raw)
                    return None if made is None else made[2].kept
            letter_before = found[2]
            kept.extend(found[6])
        return tuple(kept)

    def normalize(self, raw: str) -> tuple[str, tuple[Token, ...], NoisyWords] | None:
        """(normalized text, tokens, noisy words) of a content string, as the full normalization
        makes them (no premodifier removed); None when a rule may read across its words (then
        normalize it in full)."""
        if _READ_ACROSS.search(raw) is not None:
            return None
        cfg = self.config
        text = raw if cfg.keep_punctuation else whiteout_punctuation(raw)
        if strip_premodifiers(text, cfg.premodifiers)[1]:
            return None
        known = self.words
        tokens: list[Token] = []
        words: list[str] = []
        optional: list[bool] = []
        kept: list[str] = []
        letter_before = run = False
        for match in _WORD.finditer(raw):
            word = match.group()
            found = known.get(word)
            if found is None:
                found = self._word(word)
            if not found:
                return None
            solo, first_letter, last_letter, inside, noisy_words, noisy_optional, noisy_kept = found
            if not solo:
                continue  # no token: the tokens on either side are side by side
            if inside or (letter_before and first_letter):
                run = True  # one-letter tokens side by side: joined below
            letter_before = last_letter
            base = match.start()
            if base:
                tokens.extend(
                    [Token(t.text, t.start + base, t.end + base, t.parenthesized, t.optional, t.form) for t in solo]
                )
            else:
                tokens.extend(solo)
            words.extend(noisy_words)
            optional.extend(noisy_optional)
            kept.extend(noisy_kept)
        folded = " ".join(text.split())
        if not cfg.case_sensitive:
            folded = folded.lower()
        if run and self.letters:
            # joined as the full normalization joins them (after the GLM, which changes none of them)
            joined = join_letters(tokens, raw)
            return folded, joined, NoisyWords.of(joined, self.fillers)
        return folded, tuple(tokens), NoisyWords(tuple(words), tuple(optional), tuple(kept), self.fillers)


__all__ = ["WordByWord"]
