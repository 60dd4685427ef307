"""§6: comparing single fills, giving verdicts (kind, category, reason).

Pure functions over prepared fills (see :mod:`hub4eval.prepare`). A verdict
says in words why a point is what it is; the mapping layer attaches the
instance, slot and fills to make it a :class:`hub4eval.points.Point`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from .config import ScoreConfig
from .metrics import Category
from .model import Extent, PointerFill
from .prepare import PreparedFill

Kind = Literal["pointer", "content", "extent"]
KINDS: tuple[Kind, ...] = ("pointer", "content", "extent")


@dataclass(frozen=True)
class Verdict:
    """One point before it is placed: its kind, category and the reason."""

    kind: Kind
    category: Category
    reason: str


def _q(text: str) -> str:
    return f"`{text}`"


def _extents(extents: tuple[Extent | None, ...]) -> str:
    return ", ".join(str(e) for e in extents if e is not None) or "none"


def _clean_content(ref: PreparedFill, hyp: PreparedFill) -> Verdict:
    hyp_text = hyp.maximal.text
    ref_text = ref.maximal.text
    if hyp_text not in ref_text:
        return Verdict(
            "content",
            "INC",
            f"hypothesis {_q(hyp_text)} is not inside the reference maximal string {_q(ref_text)}",
        )
    for minimal in ref.minimals:
        if minimal.text in hyp_text:
            return Verdict(
                "content",
                "COR",
                f"hypothesis {_q(hyp_text)} is inside {_q(ref_text)} and contains "
                f"the minimal string {_q(minimal.text)}",
            )
    wanted = " or ".join(_q(m.text) for m in ref.minimals)
    return Verdict(
        "content",
        "INC",
        f"hypothesis {_q(hyp_text)} does not contain any minimal string: {wanted}",
    )


def _noisy_content(ref: PreparedFill, hyp: PreparedFill, fillers: frozenset[str]) -> Verdict:
    from .noisy import noisy_content_correct

    correct, reason = noisy_content_correct(
        ref.maximal.tokens, [m.tokens for m in ref.minimals], hyp.maximal.tokens, fillers
    )
    return Verdict("content", "COR" if correct else "INC", reason)


def _extent(ref: PreparedFill, hyp: PreparedFill) -> Verdict:
    if not hyp.has_extent:
        return Verdict("extent", "INC", "the hypothesis fill has no extent")
    if not ref.has_extent:
        return Verdict("extent", "INC", "the reference fill has no extent")
    hyp_extent = hyp.maximal.extent
    ref_extent = ref.maximal.extent
    if hyp_extent is None:
        return Verdict("extent", "INC", "the hypothesis extent touches no aligned word")
    if ref_extent is None:
        return Verdict("extent", "INC", "the reference extent touches no aligned word")
    if not ref_extent.encloses(hyp_extent):
        return Verdict(
            "extent", "INC", f"extent {hyp_extent} not enclosed in {ref_extent}"
        )
    minimal_extents = tuple(m.extent for m in ref.minimals)
    for minimal in minimal_extents:
        if minimal is not None and minimal.overlaps(hyp_extent):
            return Verdict(
                "extent",
                "COR",
                f"extent {hyp_extent} enclosed in {ref_extent}, overlaps minimal {minimal}",
            )
    return Verdict(
        "extent",
        "INC",
        f"extent {hyp_extent} enclosed in {ref_extent} but overlaps no minimal extent "
        f"({_extents(minimal_extents)})",
    )


def compare_text(
    ref: PreparedFill, hyp: PreparedFill, config: ScoreConfig, noisy: bool
) -> tuple[Verdict, ...]:
    """The points of a reference/hypothesis text fill pair (one per aspect)."""
    verdicts: list[Verdict] = []
    if config.compares_content:
        if noisy:
            verdicts.append(_noisy_content(ref, hyp, frozenset(config.fillers)))
        else:
            verdicts.append(_clean_content(ref, hyp))
    if config.compares_extent and (ref.has_extent or hyp.has_extent):
        verdicts.append(_extent(ref, hyp))
    return tuple(verdicts)


def unpaired_text(
    fill: PreparedFill, config: ScoreConfig, *, reference: bool, optional_slot: bool = False
) -> tuple[Verdict, ...]:
    """MIS (OPT in an optional slot) or SPU for each point the fill would have had."""
    if reference:
        category: Category = "OPT" if optional_slot else "MIS"
        reason = (
            "reference fill in an optional slot left unmatched"
            if optional_slot
            else "no hypothesis fill for this reference fill"
        )
    else:
        category, reason = "SPU", "no reference fill for this hypothesis fill"
    verdicts = []
    if config.compares_content:
        verdicts.append(Verdict("content", category, reason))
    if config.compares_extent and fill.has_extent:
        verdicts.append(Verdict("extent", category, reason))
    return tuple(verdicts)


def compare_pointer(
    ref: PointerFill, hyp: PointerFill, instance_mapping: Mapping[str, str]
) -> Verdict:
    """COR iff the two pointed-to instances are mapped to each other."""
    mapped = instance_mapping.get(ref.key)
    if mapped == hyp.key:
        return Verdict("pointer", "COR", f"{ref.key} is mapped to {hyp.key}")
    if mapped is None:
        return Verdict(
            "pointer",
            "INC",
            f"pointer: reference instance {ref.key} is mapped to nothing, "
            f"hypothesis points to {hyp.key}",
        )
    return Verdict(
        "pointer",
        "INC",
        f"pointer: reference instance {ref.key} mapped to {mapped}, hypothesis points to {hyp.key}",
    )


def unpaired_pointer(
    fill: PointerFill,
    *,
    reference: bool,
    optional_slot: bool = False,
    removed: bool = False,
) -> Verdict:
    """A left-over pointer: SPU (hypothesis), or MIS / OPT / REM (reference)."""
    if not reference:
        return Verdict("pointer", "SPU", f"no reference pointer for {fill.key}")
    if optional_slot:
        return Verdict("pointer", "OPT", f"{fill.key} in an optional slot left unmatched")
    if removed:
        return Verdict(
            "pointer",
            "REM",
            f"{fill.key} points to an optional instance that no hypothesis instance matched",
        )
    return Verdict("pointer", "MIS", f"no hypothesis pointer for {fill.key}")
