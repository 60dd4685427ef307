"""The outcome of scoring: the mapping, its points, and counts at every level (§4, §9)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .config import ScoreConfig
from .errors import InputWarning
from .mapping import SetMatch
from .metrics import CATEGORIES, Counts
from .points import Point

LEVELS: dict[str, Callable[[Point], str]] = {
    "slot": lambda p: p.slot_key,
    "type": lambda p: p.type,
    "document": lambda p: p.docid,
    "kind": lambda p: p.kind,
}


def group_counts(points: tuple[Point, ...], key: Callable[[Point], str]) -> dict[str, Counts]:
    """Summed counts per group, groups in order of first appearance."""
    index = {category: k for k, category in enumerate(CATEGORIES)}
    tallies: dict[str, list[int]] = {}
    for point in points:
        name = key(point)
        tally = tallies.get(name)
        if tally is None:
            tally = tallies[name] = [0] * len(CATEGORIES)
        tally[index[point.category]] += 1
    return {name: Counts(*tally) for name, tally in tallies.items()}


@dataclass(frozen=True)
class ScoreResult:
    """Everything a report needs; built by :func:`hub4eval.api.score`."""

    matches: tuple[SetMatch, ...]
    points: tuple[Point, ...]
    config: ScoreConfig
    signature: str
    warnings: tuple[InputWarning, ...] = ()
    wer: dict[str, Any] | None = None  # word error rate of the hypothesis text, when texts differ
    alignment: Any = field(default=None, compare=False)  # textalign.CorpusAlignment or None

    @cached_property
    def total(self) -> Counts:
        return group_counts(self.points, lambda p: "").get("", Counts())

    @cached_property
    def _levels(self) -> dict[str, dict[str, Counts]]:
        return {level: group_counts(self.points, key) for level, key in LEVELS.items()}

    def by(self, level: str) -> dict[str, Counts]:
        """Counts per ``slot`` (TYPE.SLOT), ``type``, ``document`` or ``kind``."""
        return dict(self._levels[level])

    def instance_pairs(self) -> list[tuple[str | None, str | None, float | None]]:
        """(reference pointer, hypothesis pointer, pair F) for every instance."""
        pairs = []
        beta = self.config.beta
        for set_match in self.matches:
            for inst in set_match.instances:
                f = inst.counts.metrics(beta)["F"] if inst.ref and inst.hyp else None
                pairs.append(
                    (
                        inst.ref.key if inst.ref is not None else None,
                        inst.hyp.key if inst.hyp is not None else None,
                        f,
                    )
                )
        return pairs

    def instance_set_pairs(self) -> list[tuple[str | None, str | None]]:
        return [
            (
                m.ref.docid if m.ref is not None else None,
                m.hyp.docid if m.hyp is not None else None,
            )
            for m in self.matches
        ]

    def to_json(self) -> dict[str, Any]:
        """The §9 JSON object."""
        beta = self.config.beta
        out: dict[str, Any] = {
            "signature": self.signature,
            "summary": self.total.as_dict(beta),
        }
        for level, name in (
            ("slot", "by_slot"),
            ("type", "by_type"),
            ("document", "by_document"),
            ("kind", "by_kind"),
        ):
            out[name] = {key: counts.as_dict(beta) for key, counts in self.by(level).items()}
        out["mapping"] = {
            "instance_sets": [list(pair) for pair in self.instance_set_pairs()],
            "instances": [[r, h] for r, h, _ in self.instance_pairs() if r and h],
            "instance_f": [[r, h, f] for r, h, f in self.instance_pairs()],
        }
        out["points"] = [p.as_dict() for p in self.points]
        out["warnings"] = [str(w) for w in self.warnings]
        if self.wer is not None:
            out["wer"] = self.wer
        return out
