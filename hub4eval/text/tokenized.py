"""Two text corpora tokenized and paired for aligning (§7.1): a document's spoken words, numbers
in one form (§8.2) and spellings normalized by the GLM (§8), as records (:func:`document_tokens`)
or, for long texts, as arrays coded by one vocabulary (:class:`_ArrayTokens`); the documents
paired by DOCID (:func:`tokenize_corpora`), a long hypothesis tokenized in a forked child while
the caller tokenizes the reference. :mod:`hub4eval.text.columns` aligns what this makes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, overload

import numpy as np

from hub4eval.errors import InputWarning
from hub4eval.model import Corpus, Document
from hub4eval.text.token_arrays import TokenArray, Vocabulary, splice, tokenize_array
from hub4eval.text.tokens import Token, tokenize

if TYPE_CHECKING:
    from hub4eval.text.glm import Glm, GlmStack


def document_tokens(
    document: Document,
    *,
    glm: Glm | GlmStack | None = None,
    keep_punctuation: bool = False,
    case_sensitive: bool = False,
    spoken_forms: str | None = None,
) -> tuple[Token, ...]:
    """A document's spoken words (§1, §7.1), numbers in one form (§8.2), then
    GLM-normalized (§8); spans index ``document.text``.

    Only spoken text is aligned: in a document with a ``<TEXT>`` element (the
    corpus's spoken element) the header elements get no column.
    """
    tokens = tokenize(
        document.text,
        document.spoken_spans(),
        keep_punctuation=keep_punctuation,
        case_sensitive=case_sensitive,
    )
    if spoken_forms not in (None, "none"):
        # before the GLM: its rules match words and would cut number phrases
        from hub4eval.text.spoken import spoken_forms as normalize_numbers

        tokens = normalize_numbers(tokens, document.text, lang=spoken_forms, case_sensitive=case_sensitive)
    if glm is not None:
        from hub4eval.text.glm import apply_glm

        tokens = apply_glm(tokens, glm)
    if spoken_forms not in (None, "none"):
        # after the GLM, whose rules read some letter runs as words (`u s`)
        from hub4eval.text.spoken import join_letters

        tokens = join_letters(tokens, document.text)
    return tokens


class _ArrayTokens:
    """:func:`document_tokens` kept as arrays (:class:`TokenArray`), coded by one :class:`Vocabulary`.

    The same tokens, made without a :class:`Token` per word: the usual text
    is tokenized all at once (:func:`tokenize_array`), and only the places a
    number phrase or a GLM rule may start, found from per-word tables, are
    read as tokens and rewritten. Words are first coded by a working
    vocabulary (words a rewrite replaced stay in it); the result is then
    renumbered into ``vocabulary`` in the order its words are first seen,
    as :meth:`TokenArray.of` would have numbered them.
    """

    def __init__(
        self,
        vocabulary: Vocabulary,
        *,
        glm: Glm | GlmStack | None = None,
        keep_punctuation: bool = False,
        case_sensitive: bool = False,
        spoken_forms: str | None = None,
    ) -> None:
        self.vocabulary = vocabulary
        self.working = Vocabulary()
        self.renumbered = np.full(0, -1, np.int32)  # working id -> id in ``vocabulary`` (-1: not yet)
        self.keep_punctuation = keep_punctuation
        self.case_sensitive = case_sensitive
        self.spoken_forms = None if spoken_forms in (None, "none") else spoken_forms
        self.glms: tuple[Glm, ...] = ()
        if glm is not None:
            from hub4eval.text.glm import GlmStack

            self.glms = tuple(one for one in (glm.glms if isinstance(glm, GlmStack) else (glm,)) if one._trie)
        self.tables: dict[object, tuple[list[str], np.ndarray]] = {}  # by "spoken" or a GLM's id()

    def _table(self, key: object, word_key: Any, test: Any) -> tuple[list[str], np.ndarray]:
        """Per working word: its key (``word_key`` of a list of words) and ``test(key)``, kept up to date."""
        table = self.tables.get(key)
        if table is None:
            table = self.tables[key] = ([], np.zeros(0, bool))
        keys, flags = table
        words = self.working.words
        if len(keys) < len(words):
            new = word_key(words[len(keys) :])
            keys.extend(new)
            flags = np.concatenate((flags, np.fromiter(map(test, new), bool, len(new))))
            self.tables[key] = (keys, flags)
        return keys, flags

    def __call__(self, document: Document) -> TokenArray:
        working = self.working
        text = document.text
        tokens = tokenize_array(
            text,
            document.spoken_spans(),
            working,
            keep_punctuation=self.keep_punctuation,
            case_sensitive=self.case_sensitive,
        )
        if self.spoken_forms is not None:
            # before the GLM: its rules match words and would cut number phrases
            from hub4eval.text.spoken import _words, number_start, number_windows

            words = _words(self.spoken_forms)
            _, starts = self._table("spoken", list, lambda word: number_start(words, word))
            hits = np.flatnonzero(starts[tokens.ids])
            if hits.size:
                windows = number_windows(tokens, text, 0, words, self.case_sensitive, hits.tolist())
                tokens = splice(tokens, list(windows), working)
        for glm in self.glms:
            from hub4eval.text.glm import _produce, glm_keys, glm_matches

            trie = glm._trie
            keys, starts = self._table(
                id(glm), lambda words, glm=glm: glm_keys(words, glm.case_sensitive), trie.__contains__
            )
            candidates = np.flatnonzero(starts[tokens.ids])
            if candidates.size:
                texts = _Keys(keys, tokens.ids)
                edits = [
                    (i, i + width, _produce(tuple(tokens[i : i + width]), rule))
                    for i, width, rule in glm_matches(trie, texts, candidates.tolist())
                ]
                tokens = splice(tokens, edits, working)
        if self.spoken_forms is not None:
            # letters spelled out (`p m`, `N.C.A.A.`), after the GLM as in document_tokens
            from hub4eval.text.spoken import is_letter
            from hub4eval.text.spoken.letters import join_letter_array

            _, letters = self._table("letters", list, is_letter)
            tokens = join_letter_array(tokens, text, np.flatnonzero(letters[tokens.ids]), working)
        return self._renumber(tokens)

    def _renumber(self, tokens: TokenArray) -> TokenArray:
        """``tokens`` coded by ``vocabulary``, new words numbered in the order they first appear."""
        vocabulary, words = self.vocabulary, self.working.words
        if len(self.renumbered) < len(words):
            grown = np.full(max(len(words), 2 * len(self.renumbered)), -1, np.int32)
            grown[: len(self.renumbered)] = self.renumbered
            self.renumbered = grown
        ids = self.renumbered[tokens.ids]
        new = ids < 0
        if new.any():
            fresh, first = np.unique(tokens.ids[new], return_index=True)
            for working_id in fresh[np.argsort(first, kind="stable")].tolist():
                self.renumbered[working_id] = vocabulary.code(words[working_id])
            ids = self.renumbered[tokens.ids]
        return TokenArray(vocabulary.words, ids, tokens.starts, tokens.ends, tokens.flags, tokens.forms)


class _Keys(Sequence[str]):
    """``[keys[i] for i in ids]`` read where asked: of a text of ten million words that list took 440 MB."""

    __slots__ = ("ids", "keys")

    def __init__(self, keys: list[str], ids: np.ndarray) -> None:
        self.keys, self.ids = keys, ids

    def __len__(self) -> int:
        return len(self.ids)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self.keys[i] for i in self.ids[index].tolist()]
        return self.keys[self.ids[index]]


def _pair_documents(ref_ids: list[str | None], hyp_documents: Sequence[Any]) -> dict[str | None, Any]:
    """The hypothesis document of each reference DOCID: the one with the same DOCID, else the one
    whose DOCID differs only in case (as sclite pairs utterance ids and channels), when exactly one does."""
    exact = {doc.docid: doc for doc in hyp_documents}
    folded: dict[str, list[Any]] = {}
    for doc in hyp_documents:
        if doc.docid is not None:
            folded.setdefault(doc.docid.lower(), []).append(doc)
    taken = {docid for docid in ref_ids if docid in exact}
    pairs: dict[str | None, Any] = {}
    for docid in ref_ids:
        if docid in exact:
            pairs[docid] = exact[docid]
        elif docid is not None:
            candidates = [d for d in folded.get(docid.lower(), ()) if d.docid not in taken]
            if len(candidates) == 1:
                pairs[docid] = candidates[0]
                taken.add(candidates[0].docid)
    return pairs


@dataclass(frozen=True)
class TokenizedCorpora:
    """Two corpora tokenized and paired for aligning: what :func:`~hub4eval.text.columns.align_corpora` makes before it aligns.

    ``pairs`` are the (reference DOCID, hypothesis DOCID, reference tokens,
    hypothesis tokens) to align, in the order of the alignment's documents;
    unsegmented, one pair (None, None, all reference tokens, all hypothesis
    tokens). Each pair is aligned on its own (:func:`~hub4eval.text.columns.weighted_alignments`,
    any subset of them, in any process), and the alignments make the
    :class:`~hub4eval.text.columns.CorpusAlignment` (:func:`~hub4eval.text.columns.corpus_alignment`).
    """

    unsegmented: bool
    pairs: tuple[tuple[str | None, str | None, TokenArray, TokenArray], ...]
    warnings: tuple[InputWarning, ...]
    vocabulary: Vocabulary = field(repr=False, compare=False)
    spans: tuple[tuple[str, int], ...] = ()
    """Unsegmented: each reference document's DOCID and token count, in order (the spans of its columns)."""
    _documents: tuple[tuple[str | None, int], ...] = field(default=(), repr=False, compare=False)
    """Unsegmented: each reference document's DOCID and token count, in order (their tokens follow one another)."""

    def words(self) -> int:
        """The tokens of both sides."""
        return sum(len(r) + len(h) for _, _, r, h in self.pairs)


def _hyp_glm(glm: Glm | GlmStack | None) -> Glm | GlmStack | None:
    """The GLM the hypothesis is tokenized with (its own sections when it has one-sided ones)."""
    if glm is not None and glm.sections:
        from hub4eval.text.glm import for_side

        return for_side(glm, "hyp")
    return glm


def _hyp_tokens(
    hyp: Corpus, documents: Sequence[Document] | None, options: dict[str, Any]
) -> tuple[TokenArray, list[int]]:
    """The tokens of the hypothesis's ``documents`` (None: its stream) one after the other,
    coded by a vocabulary of their own, and each document's count of them (made in a child)."""
    if documents is None:
        from hub4eval.io.corpus import as_unsegmented

        documents = as_unsegmented(hyp).documents
    arrays = _ArrayTokens(Vocabulary(), **options)
    parts = [arrays(doc) for doc in documents]
    return TokenArray.concatenate(parts, arrays.vocabulary.words), [len(part) for part in parts]


def _coded(tokens: TokenArray, vocabulary: Vocabulary) -> TokenArray:
    """``tokens`` coded by ``vocabulary``, new words numbered in the order they first appear
    (as :meth:`_ArrayTokens._renumber` numbers them when the tokens are made here)."""
    table = np.full(len(tokens.words), -1, np.int32)
    own, first = np.unique(tokens.ids, return_index=True)
    for word in own[np.argsort(first, kind="stable")].tolist():
        table[word] = vocabulary.code(tokens.words[word])
    return TokenArray(vocabulary.words, table[tokens.ids], tokens.starts, tokens.ends, tokens.flags, tokens.forms)


def _one_side_only(docid: str | None, side: str, other: str, path: str | None) -> InputWarning:
    """The warning of a document of one text that the other lacks (its words then all errors)."""
    return InputWarning(
        f"document {docid} of the {side} text is not in the {other} text", path or None, changes_score=True
    )


def tokenize_corpora(
    ref: Corpus,
    hyp: Corpus,
    *,
    glm: Glm | GlmStack | None = None,
    keep_punctuation: bool = False,
    case_sensitive: bool = False,
    unsegmented: bool | None = None,
    spoken_forms: str | None = None,
    hyp_beside: bool = False,
    meanwhile: Sequence[Callable[[], object]] = (),
    core_free: Callable[[], object] | None = None,
) -> TokenizedCorpora:
    """The tokens of two corpora, paired for aligning; the arguments are those of
    :func:`~hub4eval.text.columns.align_corpora`.

    ``hyp_beside``: the hypothesis is tokenized in a forked child
    (:mod:`hub4eval.util.forked`) while the caller tokenizes the reference; the
    tokens, and their ids, are those made here in turn. ``meanwhile``: work of
    the caller's own, each called in turn, once the reference is tokenized, for as
    long as the child still tokenizes the hypothesis (the caller does what is left
    later: waiting for the child would leave a core idle, doing it after the child
    is done delays the alignment). ``core_free``: called once, as soon as the first of
    the two is done (this process looks at the child after each reference document),
    for work that needs no tokens on the core that is free (such as starting a process
    that gets ready to align them); never when no child tokenizes the hypothesis.
    """
    options: dict[str, Any] = {
        "glm": glm,
        "keep_punctuation": keep_punctuation,
        "case_sensitive": case_sensitive,
        "spoken_forms": spoken_forms,
    }
    if unsegmented is None:
        unsegmented = not hyp.segmented
    warnings: list[InputWarning] = []
    # Tokens are kept as arrays, their words coded in the order they are
    # first seen: the reference documents, then the hypothesis ones in the
    # order they are aligned; the order the aligners code words in too.
    vocabulary = Vocabulary()
    ref_arrays = arrays = _ArrayTokens(vocabulary, **options)
    hyp_options = {**options, "glm": _hyp_glm(glm)}
    if glm is not None and glm.sections:
        # one-sided rule sections: each side its own rules (hub4eval.text.glm.for_side)
        from hub4eval.text.glm import for_side

        ref_arrays = _ArrayTokens(vocabulary, **{**options, "glm": for_side(glm, "ref")})
        arrays = _ArrayTokens(vocabulary, **hyp_options)

    hyp_by_id: dict[str | None, Any] = {}
    unpaired: list[Any] = []
    hyp_order: list[Any] = []  # segmented: its documents in the order they are aligned (and coded)
    if not unsegmented:
        hyp_by_id = _pair_documents([d.docid for d in ref.documents], hyp.documents)
        paired = {id(doc) for doc in hyp_by_id.values()}
        unpaired = [doc for doc in hyp.documents if id(doc) not in paired]
        hyp_order = [*(hyp_by_id[d.docid] for d in ref.documents if d.docid in hyp_by_id), *unpaired]
    beside = None
    if hyp_beside:
        from hub4eval.util.forked import Beside

        beside = Beside(_hyp_tokens, hyp, None if unsegmented else hyp_order, hyp_options)

    # core_free, called once: when the child is seen done after a document, or once this
    # process is done first
    free = core_free if beside is not None and beside.forked else None
    ref_tokens = {}
    for doc in ref.documents:
        ref_tokens[doc.docid] = ref_arrays(doc)
        if free is not None and beside is not None and not beside.running:
            called = free
            free = None
            called()
    if free is not None:
        free()
    for work in meanwhile:
        if beside is None or not beside.running:
            break
        work()

    if unsegmented:
        from hub4eval.io.corpus import as_unsegmented

        ref_all = TokenArray.concatenate([ref_tokens[doc.docid] for doc in ref.documents], vocabulary.words)
        # each document's tokens are kept as a view of the concatenation (not twice)
        sizes = {docid: len(tokens) for docid, tokens in ref_tokens.items()}
        del ref_tokens
        if beside is not None:
            hyp_all = _coded(beside.result()[0], vocabulary)
        else:
            hyp_all = TokenArray.concatenate([arrays(doc) for doc in as_unsegmented(hyp).documents], vocabulary.words)
        if not len(hyp_all):
            warnings.append(
                InputWarning(
                    "the hypothesis text is empty: every reference word is deleted",
                    hyp.path or None,
                    changes_score=True,
                )
            )
        docids = [doc.docid for doc in ref.documents if doc.docid is not None]
        return TokenizedCorpora(
            True,
            ((None, None, ref_all, hyp_all),),
            tuple(warnings),
            vocabulary,
            tuple((d, sizes[d]) for d in docids),
            tuple((doc.docid, sizes[doc.docid]) for doc in ref.documents),
        )

    hyp_parts: Iterator[TokenArray]  # each hypothesis document's tokens, in the order they are aligned
    if beside is not None:
        hyp_stream, hyp_sizes = beside.result()
        hyp_parts = iter(_coded(hyp_stream, vocabulary).parts(hyp_sizes))
    else:
        hyp_parts = map(arrays, hyp_order)
    empty = TokenArray.of((), vocabulary)
    pairs: list[tuple[str | None, str | None, TokenArray, TokenArray]] = []
    for doc in ref.documents:
        other = hyp_by_id.get(doc.docid)
        if other is None:
            warnings.append(_one_side_only(doc.docid, "reference", "hypothesis", ref.path))
            pairs.append((doc.docid, None, ref_tokens[doc.docid], empty))
        else:
            pairs.append((doc.docid, other.docid, ref_tokens[doc.docid], next(hyp_parts)))
    for doc in unpaired:
        warnings.append(_one_side_only(doc.docid, "hypothesis", "reference", hyp.path))
        pairs.append((None, doc.docid, empty, next(hyp_parts)))
    return TokenizedCorpora(False, tuple(pairs), tuple(warnings), vocabulary)


__all__ = ["TokenizedCorpora", "document_tokens", "tokenize_corpora"]
