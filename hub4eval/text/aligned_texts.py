"""Two corpora aligned both ways, the work spread over processes (``--jobs``).

Texts that differ are aligned twice: the §7.2 weighted alignment places the
extents (:mod:`hub4eval.text.columns`) and sclite's alignment counts the WER
(:mod:`hub4eval.text.wer`). Both are functions of the tokens alone, and each
pair of documents of a segmented hypothesis is aligned on its own, so with
``jobs`` above 1 the work goes to forked processes
(:mod:`hub4eval.util.forked`). A long hypothesis is tokenized in a child while
the caller tokenizes the reference; for as long as that child is still at it,
the caller loads the compiled kernels of the alignment it will make, then, for a
stream, does its own work (``meanwhile``: a score normalizes the templettes'
strings), unless a child will make the alignment (``weighted_beside`` and one
pair, below). Once the texts are tokenized:

* segmented: the pairs are cut into ``jobs`` runs of about equal words; the
  caller makes the weighted alignments of the first run and children those
  of the others, while ``jobs`` more children count sclite's alignments of
  each run; the caller's own work is done once they are forked (a forked
  child holds every page its parent had, and a score's normalized strings
  made before were in each of them);
* unsegmented (one pair, the whole stream; or a single pair of documents):
  one child counts sclite's alignment while the caller makes the weighted
  one; or, when the caller
  has other work to do first (``weighted_beside``: a score normalizes the
  templettes' strings), one child makes the weighted alignment, and the
  caller waits for it only when it reads :attr:`AlignedTexts.alignment`
  (the compiled kernels are then loaded in the children only, never in the
  caller). For a stream whose hypothesis is tokenized in a child, that
  child is forked while the texts are still tokenized, as soon as the first
  of the two tokenizing processes is done
  (:class:`~hub4eval.util.forked.Standby`): it starts numba and loads the
  aligner's compiled code on the core that is free then, about 0.4 s that
  the alignment no longer waits for, and is sent the two texts' word
  numbers once they are tokenized. The child that counts sclite's
  alignment is started once the caller's own work is done
  (:meth:`AlignedTexts.start_counting`), on the
  core the caller then leaves idle while it waits for the weighted
  alignment: three processes never share two cores, the weighted alignment,
  which the caller waits for first, is made at full speed, and sclite's
  counts, asked for last, are made while the caller maps the templettes.

The caller needs the weighted alignment to go on (to map the templettes);
sclite's counts are waited for only when the WER is asked (:meth:`AlignedTexts.wer`),
so they are counted while the caller maps. Below :data:`PARALLEL_WORDS`
tokens everything is done in the caller (starting processes would cost more).
The alignment and the WER are the same for every ``jobs``: the same
functions of the same tokens, wherever they run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from hub4eval.model import Corpus
from hub4eval.text.columns import CorpusAlignment, align_ids, corpus_alignment, weighted_alignments
from hub4eval.text.tokenized import TokenizedCorpora, tokenize_corpora
from hub4eval.util.forked import Beside, Standby, in_child

if TYPE_CHECKING:
    from hub4eval.text.align import Alignment
    from hub4eval.text.glm import Glm, GlmStack
    from hub4eval.text.wer import SCliteCounts

PARALLEL_WORDS = 20_000
"""Tokens of both texts from which ``jobs`` above 1 starts processes."""


def _runs(tokenized: TokenizedCorpora, parts: int) -> list[list[int]]:
    """The pairs' numbers cut into at most ``parts`` consecutive runs of about equal words."""
    sizes = [len(r) + len(h) + 1 for _, _, r, h in tokenized.pairs]
    total = sum(sizes)
    runs: list[list[int]] = [[]]
    done = 0
    for number, size in enumerate(sizes):
        if runs[-1] and done >= total * len(runs) / parts and len(runs) < parts:
            runs.append([])
        runs[-1].append(number)
        done += size
    return runs


def _sclite_run(tokenized: TokenizedCorpora, numbers: Sequence[int]) -> list[dict[str, int]]:
    from hub4eval.text.wer import pair_counts

    return pair_counts([(tokenized.pairs[k][2], tokenized.pairs[k][3]) for k in numbers])


def _kernels_alone() -> None:
    """In a child that only aligns, numba is started without what the kernels do not use."""
    if in_child():
        from hub4eval.text.align.numba_cache import start_without_blas

        start_without_blas()


def _load_kernels() -> tuple[object, ...]:
    """The compiled kernels of both alignments, loaded as their first use would load them
    (numba started, the weighted alignment's dispatchers made, sclite's module, which makes
    its own, imported): by a caller that will align, while it waits for a child tokenizing
    the hypothesis."""
    from hub4eval.text.align.kernels import _kernels
    from hub4eval.text.align.sclite import sclite_align

    return _kernels(), sclite_align


def _sclite_all(tokenized: TokenizedCorpora) -> SCliteCounts:
    _kernels_alone()
    from hub4eval.text.wer import sclite_counts

    return sclite_counts(tokenized)


def _weighted_alone(tokenized: TokenizedCorpora) -> list[Alignment]:
    """The weighted alignments of ``tokenized``, made in a child that does nothing else."""
    _kernels_alone()
    return weighted_alignments(tokenized)


def _ready_to_align() -> None:
    """In a :class:`~hub4eval.util.forked.Standby` child that will align a stream: numba
    started (0.2-0.3 s), and the compiled code of the route a long text takes (the anchors'
    kernels, those of their gaps) loaded, by aligning 5,000 made-up words of a skewed
    vocabulary, which takes that route (about 0.15 s in all). The check of the anchors runs
    only when an alignment is not proven optimal, which this one is: its kernel is loaded
    when the stream's alignment first uses it."""
    from hub4eval.text.align import align_words

    _kernels_alone()
    state, ref = 1, []
    for _ in range(5000):  # (a fixed sequence: the same words on every platform)
        state = (state * 1103515245 + 12345) % 2**31
        ref.append(f"w{int(500 ** (state / 2**31))}")
    hyp = [word if k % 6 else "x" for k, word in enumerate(ref) if k % 9]
    align_words(ref, hyp)


def _weighted_ids(ref_ids: Any, hyp_ids: Any, words: Sequence[str]) -> list[Alignment]:
    """:func:`_weighted_alone` of a stream, from what it needs of the tokens: the word
    numbers of each side and the words they number (a few megabytes to send to a standby
    child, where the tokens would be several times that)."""
    return [align_ids(ref_ids, hyp_ids, words)]


def _corpus_of(tokenized: TokenizedCorpora, weighted: Beside[list[Alignment]]) -> CorpusAlignment:
    """The corpus alignment of ``tokenized`` from the alignments a child makes."""
    return corpus_alignment(tokenized, weighted.result())


class AlignedTexts:
    """The weighted alignment of two corpora (:attr:`alignment`) and, when asked, sclite's WER of them."""

    def __init__(
        self,
        alignment: CorpusAlignment | Any,
        counts: Any,
        forked: bool = False,
        counters: Sequence[Beside[Any]] = (),
        count_beside: Callable[[], Beside[Any]] | None = None,
    ) -> None:
        self._alignment = alignment  # or () -> CorpusAlignment, made when first read
        self._counts = counts  # () -> SCliteCounts (or None: counted when asked, here)
        self._counters = counters  # the children counting sclite's alignment
        self._count_beside = count_beside  # starts the child that counts it, when the caller says so
        self._wer: dict[str, Any] | None = None
        self._summary: dict[str, Any] | None = None
        self.forked = forked
        """Whether the texts were long enough, and ``jobs`` above 1, to be aligned in processes
        (so that the caller's other work on them may go to processes too)."""

    def start_counting(self) -> None:
        """Start the child that counts sclite's alignment, when it waits for the caller's word
        (``weighted_beside``: see :func:`align_texts`); else nothing. Its counts are asked for
        only at the end, so it is started once the caller's own work beside the weighted
        alignment's child is done: the three never share the two cores of a small machine."""
        start = self._count_beside
        if start is not None:
            self._count_beside = None
            counting = start()
            self._counts, self._counters = counting.result, [counting]

    def counting(self) -> int:
        """How many children are still counting sclite's alignment (asked without waiting): the
        cores they take are not free for the caller's other work yet."""
        return sum(counter.running for counter in self._counters)

    @property
    def waiting(self) -> bool:
        """Whether the weighted alignment is still being made in a child (until :attr:`alignment` is read)."""
        return not isinstance(self._alignment, CorpusAlignment)

    @property
    def alignment(self) -> CorpusAlignment:
        """The weighted alignment (waits for a child making it)."""
        if not isinstance(self._alignment, CorpusAlignment):
            self._alignment = self._alignment()
        return self._alignment

    def wer(self) -> dict[str, Any]:
        """:func:`hub4eval.text.wer.corpus_wer` of the alignment (waits for a child counting it)."""
        if self._wer is None:
            from hub4eval.text import wer

            self._wer = wer.corpus_wer(self.alignment, self._counted())
        return self._wer

    def wer_summary(self) -> dict[str, Any]:
        """The ``"summary"`` of :meth:`wer` (waits for a child counting it): what a score keeps,
        made without :meth:`wer`'s rows per document unless they were made already."""
        if self._wer is not None:
            return self._wer["summary"]
        if self._summary is None:
            from hub4eval.text import wer

            self._summary = wer.corpus_wer_summary(self.alignment, self._counted())
        return self._summary

    def _counted(self) -> SCliteCounts | None:
        """sclite's counts made in a child (asked once), or None when none counts them."""
        self.start_counting()  # (never told: started now, and waited for)
        counts = self._counts
        if callable(counts):
            counts = self._counts = counts()
        return counts


def align_texts(
    ref: Corpus,
    hyp: Corpus,
    *,
    jobs: int = 1,
    glm: Glm | GlmStack | None = None,
    keep_punctuation: bool = False,
    case_sensitive: bool = False,
    unsegmented: bool | None = None,
    spoken_forms: str | None = None,
    weighted_beside: bool = False,
    count_wer: bool = True,
    meanwhile: Callable[[], object] | None = None,
) -> AlignedTexts:
    """Align two corpora (:func:`hub4eval.text.columns.align_corpora`) and count their WER,
    in up to ``jobs`` processes at once (see the module docstring; ``weighted_beside``: an
    unsegmented stream's weighted alignment is made in a child too, read when asked, and the
    child that counts sclite's alignment is started when the caller says so,
    :meth:`AlignedTexts.start_counting`, or when the WER is asked; without ``count_wer``, no
    child counts sclite's alignment: the WER is counted here if it is asked after all).

    ``meanwhile``: the caller's own work, which needs neither the tokens nor the alignment,
    called (once) while a child works for it: once the child making the weighted alignment is
    started (``weighted_beside``, one pair: a stream, or one document on each side); once the
    children aligning runs of pairs of documents are forked (segmented); else, for a stream, when
    the reference is tokenized, while a child still tokenizes the hypothesis; else not at all
    (the caller does it when it likes)."""
    # A long hypothesis is tokenized in a child while the reference is here (about 5
    # characters a word: the length of the texts says whether they are long).
    long = sum(len(doc.text) for doc in hyp.documents) >= PARALLEL_WORDS * 5 // 2
    stream = unsegmented if unsegmented is not None else not hyp.segmented
    # While a child tokenizes the hypothesis, a caller that will align loads the kernels, then does
    # its own work. When a child will align instead (weighted_beside and one pair, below: a stream,
    # or a single reference document, which makes one pair unless the hypothesis has documents
    # of its own), the caller does that work while that child aligns: done now, it would hold
    # back the alignment it waits for whenever the tokenizing child is done first. (Every run
    # that takes that branch is one of these: the work is done once at most.)
    aligned_beside = weighted_beside and (stream or len(ref.documents) < 2)
    # Pairs of documents are aligned in runs by forked children: the caller's work is done once
    # they are forked, not while the texts are tokenized. A child's resident memory holds every
    # page the caller had when it was forked, and is counted in full where the memory of a process
    # tree is summed: a score's normalized strings (47 MB at a million words) made before the fork
    # were in each of its three children (sampled peak of the tree's sum: 1,045-1,051 -> 897-902 MB).
    while_tokenized: list[Callable[[], object]] = [] if aligned_beside else [_load_kernels]
    if meanwhile is not None and not aligned_beside and stream:
        while_tokenized.append(meanwhile)
    # A stream's weighted alignment: its child is started as soon as a core is free
    # while the texts are tokenized, and gets ready to align then (see the module docstring).
    ready: list[Standby] = []
    core_free = (lambda: ready.append(Standby(_ready_to_align))) if aligned_beside and stream else None

    tokenized = tokenize_corpora(
        ref,
        hyp,
        glm=glm,
        keep_punctuation=keep_punctuation,
        case_sensitive=case_sensitive,
        unsegmented=unsegmented,
        spoken_forms=spoken_forms,
        hyp_beside=jobs > 1 and long,
        meanwhile=while_tokenized,
        core_free=core_free,
    )
    forked = jobs > 1 and tokenized.words() >= PARALLEL_WORDS
    if not forked:
        ready.clear()  # (a child made ready for texts too short to align in processes: stopped)
        alignment = corpus_alignment(tokenized, weighted_alignments(tokenized))
        return AlignedTexts(alignment, lambda: None)
    if tokenized.unsegmented or len(tokenized.pairs) < 2:
        if weighted_beside:
            # the caller waits for the weighted alignment first: a child of its own, and
            # sclite's counted in another once the caller says so (see the module docstring)
            if ready:  # (a stream's tokens: one pair, the vocabulary's ids its codes)
                [(_, _, ref_all, hyp_all)] = tokenized.pairs
                words = tokenized.vocabulary.words
                weighted = Beside(_weighted_ids, ref_all.ids, hyp_all.ids, words, standby=ready.pop())
            else:
                weighted = Beside(_weighted_alone, tokenized)
            if meanwhile is not None:
                meanwhile()
            return AlignedTexts(
                partial(_corpus_of, tokenized, weighted),
                None if count_wer else lambda: None,
                forked=True,
                count_beside=partial(Beside, _sclite_all, tokenized) if count_wer else None,
            )
        counters = [Beside(_sclite_all, tokenized)] if count_wer else []
        alignment = corpus_alignment(tokenized, weighted_alignments(tokenized))
        counts = counters[0].result if counters else lambda: None
        return AlignedTexts(alignment, counts, forked=True, counters=counters)
    runs = _runs(tokenized, jobs)
    # The compiled kernels are loaded before the children are forked, which
    # then have them: each child loading them again cost more than its share.
    weighted_alignments(tokenized, runs[0][:1])
    if count_wer:
        _sclite_run(tokenized, runs[0][:1])
    counted = [Beside(_sclite_run, tokenized, numbers) for numbers in runs] if count_wer else []
    others = [Beside(weighted_alignments, tokenized, numbers) for numbers in runs[1:]]
    if meanwhile is not None and not stream:  # (see above: after the fork)
        meanwhile()
    alignments: list[Alignment] = weighted_alignments(tokenized, runs[0])
    for other in others:
        alignments += other.result()

    def summed_counts() -> SCliteCounts | None:
        from hub4eval.text.wer import summed

        return summed([counts for run in counted for counts in run.result()]) if counted else None

    return AlignedTexts(corpus_alignment(tokenized, alignments), summed_counts, forked=True, counters=counted)


__all__ = ["PARALLEL_WORDS", "AlignedTexts", "align_texts"]
