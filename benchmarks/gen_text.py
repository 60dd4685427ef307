"""Synthetic reference/hypothesis word sequences for the aligner benchmarks.

A reference is drawn from a Zipfian vocabulary of made-up words; the
hypothesis copies it with word errors at a given rate: substitutions (half of
them spelling variants of the reference word, the rest random words),
deletions, insertions (random words or the filler ``uh``), and fragments
(``hea-`` inserted before ``heart``, or replacing it). Everything is seeded.

Usage::

    python benchmarks/gen_text.py 100000 --wer 0.15 --seed 1 --out corpus
    # writes corpus.ref.txt and corpus.hyp.txt (one word per line)
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

LETTERS = np.array(list("abcdefghijklmnopqrstuvwxyz"))


def vocabulary(size: int, rng: np.random.Generator) -> list[str]:
    """``size`` distinct made-up words, 1 to 12 letters, short ones first (they get the high ranks)."""
    words: list[str] = []
    seen: set[str] = set()
    while len(words) < size:
        lengths = np.clip(rng.geometric(0.2, size=size), 1, 12)
        for n in np.sort(lengths):
            w = "".join(rng.choice(LETTERS, size=int(n)))
            if w not in seen:
                seen.add(w)
                words.append(w)
                if len(words) == size:
                    break
    return words


def zipf_words(n: int, vocab: list[str], rng: np.random.Generator, exponent: float = 1.1) -> list[str]:
    """``n`` words drawn with probability proportional to ``1 / rank**exponent``."""
    ranks = np.arange(1, len(vocab) + 1, dtype=np.float64)
    p = ranks**-exponent
    p /= p.sum()
    idx = rng.choice(len(vocab), size=n, p=p)
    return [vocab[i] for i in idx]


def corrupt(ref: list[str], wer: float, vocab: list[str], rng: np.random.Generator) -> list[str]:
    """A hypothesis of ``ref`` with about ``wer * len(ref)`` word errors.

    Error mix: 45% substitutions, 25% deletions, 20% insertions (a third of
    them the filler ``uh``), 10% fragments (a fragment of the word inserted
    before it, or replacing it).
    """
    n = len(ref)
    u = rng.random(n)
    kind = np.select(
        [u < wer * 0.45, u < wer * 0.70, u < wer * 0.90, u < wer],
        [1, 2, 3, 4],
        default=0,
    )
    coin = rng.random(n)
    picks = rng.integers(0, len(vocab), size=n)
    hyp: list[str] = []
    for i, word in enumerate(ref):
        k = kind[i]
        if k == 0:
            hyp.append(word)
        elif k == 1:  # substitution: spelling variant or another word
            if coin[i] < 0.5 and len(word) > 2:
                pos = int(picks[i] % len(word))
                hyp.append(word[:pos] + LETTERS[picks[i] % 26] + word[pos + 1 :])
            else:
                hyp.append(vocab[picks[i]])
        elif k == 2:  # deletion
            continue
        elif k == 3:  # insertion before the word
            hyp.append("uh" if coin[i] < 1 / 3 else vocab[picks[i]])
            hyp.append(word)
        else:  # fragment
            frag = word[: max(1, len(word) // 2)] + "-"
            hyp.append(frag)
            if coin[i] < 0.5:
                hyp.append(word)
    return hyp


def make_pair(n: int, wer: float = 0.15, seed: int = 0, vocab_size: int | None = None) -> tuple[list[str], list[str]]:
    """One unsegmented (reference, hypothesis) pair of ``n`` reference words.

    Args:
        n: reference length in words.
        wer: approximate word error rate of the hypothesis.
        seed: random seed.
        vocab_size: vocabulary size; default ``min(200_000, max(1000, n // 5))``.
    """
    rng = np.random.default_rng(seed)
    vocab = vocabulary(vocab_size or min(200_000, max(1000, n // 5)), rng)
    ref = zipf_words(n, vocab, rng)
    return ref, corrupt(ref, wer, vocab, rng)


def make_segmented(n: int, sentence: int = 20, wer: float = 0.15, seed: int = 0) -> list[tuple[list[str], list[str]]]:
    """``n`` reference words cut into sentences of ``sentence`` words, each with its own hypothesis."""
    ref, _ = make_pair(n, wer, seed)
    rng = np.random.default_rng(seed + 1)
    vocab = sorted(set(ref))
    pairs = []
    for start in range(0, n, sentence):
        r = ref[start : start + sentence]
        pairs.append((r, corrupt(r, wer, vocab, rng)))
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, help="reference words")
    parser.add_argument("--wer", type=float, default=0.15)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True, help="output prefix")
    args = parser.parse_args()
    ref, hyp = make_pair(args.n, args.wer, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".ref.txt").write_text("\n".join(ref) + "\n")
    args.out.with_suffix(".hyp.txt").write_text("\n".join(hyp) + "\n")


if __name__ == "__main__":
    main()
