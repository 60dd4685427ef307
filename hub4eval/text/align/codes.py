"""Words as integer codes for the kernels, and the growing list of alignment columns."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

# ---------------------------------------------------------------------------
# Encoding
from hub4eval.text.align.costs import _is_fragment


@dataclass(frozen=True, eq=False)
class _Vocab:
    """Integer-coded words: code points of word ``c`` are ``chars[offs[c]:offs[c+1]]``."""

    chars: np.ndarray  # int32
    offs: np.ndarray  # int64, size V + 1
    frag: np.ndarray  # uint8, 1 for a fragment
    maxlen: int
    lengths: np.ndarray  # int64, characters of each word
    masks: np.ndarray  # uint64, bit ``c % 64`` set for each character ``c`` of the word


def _encode(seqs: Iterable[Sequence[str]]) -> tuple[list[np.ndarray], _Vocab]:
    """Code words as int32 (one shared vocabulary dict, first occurrence order)."""
    vocab: dict[str, int] = {}
    coded = []
    for seq in seqs:
        codes: list[int] = []
        append = codes.append
        get = vocab.get
        for word in seq:
            c = get(word)
            if c is None:
                c = vocab[word] = len(vocab)
            append(c)
        coded.append(np.array(codes, dtype=np.int32))
    words = list(vocab)
    lengths = np.fromiter((len(w) for w in words), dtype=np.int64, count=len(words))
    offs = np.zeros(len(words) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offs[1:])
    chars = np.frombuffer("".join(words).encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.int32)
    frag = np.fromiter((_is_fragment(w) for w in words), dtype=np.uint8, count=len(words))
    maxlen = int(lengths.max()) if len(words) else 0
    # Character buckets, for lower bounds of substitution costs without an edit distance.
    masks = np.zeros(len(words), dtype=np.uint64)
    if len(chars):
        bits = np.left_shift(np.uint64(1), (chars & 63).astype(np.uint64))
        nonempty = lengths > 0
        masks[nonempty] = np.bitwise_or.reduceat(bits, offs[:-1][nonempty])
    return coded, _Vocab(chars, offs, frag, maxlen, lengths, masks)


class _Columns:
    """Growing list of column pieces (ref, hyp, kind arrays) in order."""

    def __init__(self) -> None:
        self.r: list[np.ndarray] = []
        self.h: list[np.ndarray] = []
        self.k: list[np.ndarray] = []

    def add(self, r: np.ndarray, h: np.ndarray, k: np.ndarray) -> None:
        self.r.append(r)
        self.h.append(h)
        self.k.append(k)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if not self.r:
            return np.empty(0, np.int32), np.empty(0, np.int32), np.empty(0, np.int8)
        if len(self.r) == 1:
            return self.r[0], self.h[0], self.k[0]
        return np.concatenate(self.r), np.concatenate(self.h), np.concatenate(self.k)
