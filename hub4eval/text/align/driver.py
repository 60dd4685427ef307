"""The entry points: one pair of word sequences, or many pairs in one compiled batch."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from hub4eval.text.align.codes import _encode
from hub4eval.text.align.costs import Alignment
from hub4eval.text.align.kernels import _kernels
from hub4eval.text.align.seeded import _align_codes, _batch


def align_words(ref: Sequence[str], hyp: Sequence[str]) -> Alignment:
    """Minimum-cost word alignment of ``ref`` with ``hyp`` (§7.2).

    Args:
        ref: reference words, already normalized (lower case, punctuation
            whited out, fragments keep their trailing hyphen).
        hyp: hypothesis words, normalized the same way.

    Returns:
        The alignment; see the module docstring for costs, tie-breaking and
        the optimality guarantee (``Alignment.exact``).

    >>> a = align_words("the h- heart of general motors".split(), "a part of general motors".split())
    >>> [(int(r), int(h)) for r, h in zip(a.ref_index, a.hyp_index)]
    [(0, 0), (1, -1), (2, 1), (3, 2), (4, 3), (5, 4)]
    >>> a.cost, a.substitutions, a.deletions, a.wer
    (980, 2, 1, 0.5)
    """
    k = _kernels()
    (rc, hc), voc = _encode((ref, hyp))
    return _align_codes(k, rc, hc, voc)


def align_many(pairs: Iterable[tuple[Sequence[str], Sequence[str]]]) -> list[Alignment]:
    """Align many (reference, hypothesis) pairs, e.g. sentence by sentence, in one kernel call.

    Equivalent to ``[align_words(r, h) for r, h in pairs]`` but without the
    per-pair Python overhead.

    Args:
        pairs: (reference words, hypothesis words) pairs.

    Returns:
        One alignment per pair, in order.
    """
    k = _kernels()
    refs: list[Sequence[str]] = []
    hyps: list[Sequence[str]] = []
    for ref, hyp in pairs:
        refs.append(ref)
        hyps.append(hyp)
    if not refs:
        return []
    (r, h), voc = _encode(([w for s in refs for w in s], [w for s in hyps for w in s]))
    rlen = np.fromiter((len(s) for s in refs), dtype=np.int64, count=len(refs))
    hlen = np.fromiter((len(s) for s in hyps), dtype=np.int64, count=len(hyps))
    re = np.cumsum(rlen)
    he = np.cumsum(hlen)
    rs = re - rlen
    hs = he - hlen
    out_r, out_h, out_k, seg_pos, seg_cols, seg_cost = _batch(k, r, h, rs, re, hs, he, voc, True)
    result: list[Alignment] = []
    for s in range(len(refs)):
        cols = int(seg_cols[s])
        if cols < 0:
            result.append(_align_codes(k, r[rs[s] : re[s]], h[hs[s] : he[s]], voc))
            continue
        p = int(seg_pos[s])
        result.append(Alignment(out_r[p : p + cols], out_h[p : p + cols], int(seg_cost[s]), out_k[p : p + cols], True))
    return result
