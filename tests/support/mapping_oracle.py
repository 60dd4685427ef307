"""The greedy mapping of a type as the procedure states it, pair by pair: the oracle
of the compact engine (:func:`hub4eval.scoring.pairs.map_groups`).

Every (reference, hypothesis) instance pair of a type is counted through its
match record (``Mapper.match_instance``), ranked by (F desc, COR desc,
INC+MIS+SPU asc, reference order, hypothesis order) with F an exact fraction,
and the best pair whose two instances are both free is taken, again and again;
with ``--min-map-f`` above 0 only pairs with F above it are taken. Nothing is
skipped, estimated or shared: it is slow and obviously the procedure.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

from hub4eval.scoring import pairs


def brute_force_map_groups(mapper: Any, groups: Sequence[pairs.Group], max_pairs: int) -> list[pairs.Chosen]:
    """:func:`hub4eval.scoring.pairs.map_groups`, every pair counted."""
    beta_squared = mapper.beta_squared
    min_f = mapper.config.min_map_f
    threshold = Fraction(str(min_f)) if min_f else None  # None or 0: every pair may be mapped
    results: list[pairs.Chosen] = []
    for refs, hyps, mapping, removable in groups:
        ranked = []
        for i, ref in enumerate(refs):
            for j, hyp in enumerate(hyps):
                counts = mapper.match_instance(ref, hyp, mapping, removable).counts
                ranked.append((-counts.f_exact(beta_squared), -counts.cor, counts.errors, i, j))
        ranked.sort()
        used_ref: set[int] = set()
        used_hyp: set[int] = set()
        chosen = []
        for minus_f, _, _, i, j in ranked:
            if i in used_ref or j in used_hyp:
                continue
            if threshold is not None and -minus_f <= threshold:
                continue
            used_ref.add(i)
            used_hyp.add(j)
            chosen.append((i, j))
        results.append((chosen, {}))
    return results


def use_brute_force(monkeypatch: pytest.MonkeyPatch) -> None:
    """Map every type of every score in this test with :func:`brute_force_map_groups`."""
    monkeypatch.setattr(pairs, "map_groups", brute_force_map_groups)
