"""§4: point counts and the metrics derived from them.

Counts are the source of truth: they add up from single points to slots,
types, documents and the whole set; metrics are always computed from summed
counts, never averaged. A metric whose denominator is zero is ``None``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from hub4eval.util.records import quick_init

Category = Literal["COR", "INC", "MIS", "SPU", "OPT", "REM"]
CATEGORIES: tuple[Category, ...] = ("COR", "INC", "MIS", "SPU", "OPT", "REM")
METRICS = ("REC", "PRE", "F", "UND", "OVG", "SUB", "ERR", "SER")


@quick_init
@dataclass(frozen=True, slots=True)
class Counts:
    """How many points of each category."""

    cor: int = 0
    inc: int = 0
    mis: int = 0
    spu: int = 0
    opt: int = 0
    rem: int = 0

    @classmethod
    def of(cls, category: Category) -> Counts:
        """One point of ``category``."""
        return _UNIT[category]

    @classmethod
    def tally(cls, categories: Iterable[str]) -> Counts:
        """Counts of a sequence of categories."""
        values = dict.fromkeys(CATEGORIES, 0)
        for category in categories:
            values[category] += 1  # type: ignore[index]
        return cls(*values.values())

    @classmethod
    def total(cls, counts: Iterable[Counts]) -> Counts:
        """The sum of many counts, made once (``sum`` makes one per term)."""
        cor = inc = mis = spu = opt = rem = 0
        for c in counts:
            cor, inc, mis = cor + c.cor, inc + c.inc, mis + c.mis
            spu, opt, rem = spu + c.spu, opt + c.opt, rem + c.rem
        return cls(cor, inc, mis, spu, opt, rem)

    def __add__(self, other: Counts) -> Counts:
        return Counts(
            self.cor + other.cor,
            self.inc + other.inc,
            self.mis + other.mis,
            self.spu + other.spu,
            self.opt + other.opt,
            self.rem + other.rem,
        )

    def __radd__(self, other: object) -> Counts:
        if other == 0:  # sum() starts from 0
            return self
        return NotImplemented

    @property
    def pos(self) -> int:
        """POS = COR + INC + MIS."""
        return self.cor + self.inc + self.mis

    @property
    def act(self) -> int:
        """ACT = COR + INC + SPU."""
        return self.cor + self.inc + self.spu

    @property
    def errors(self) -> int:
        """INC + MIS + SPU, the tie-breaker of the greedy mapping (§5)."""
        return self.inc + self.mis + self.spu

    def f_key(self, beta_squared: Fraction = Fraction(1)) -> float:
        """F as a float that ties exactly when the exact F ties (§5 tie order).

        F = (p + q) COR / (p POS + q ACT) with beta^2 = p / q; numerator and
        denominator are exact integers and IEEE division is correctly rounded,
        so equal fractions give equal floats, and distinct fractions of counts
        below 2**26 differ by more than the rounding error.
        """
        if self.cor == 0:
            return 0.0
        p, q = beta_squared.numerator, beta_squared.denominator
        return ((p + q) * self.cor) / (p * self.pos + q * self.act)

    def f_exact(self, beta_squared: Fraction = Fraction(1)) -> Fraction:
        """F as an exact fraction, 0 when there is nothing correct (§5 ties).

        F = (b^2 + 1) PRE REC / (b^2 PRE + REC) = (b^2 + 1) COR / (b^2 POS + ACT).
        """
        if self.cor == 0:
            return Fraction(0)
        return (beta_squared + 1) * self.cor / (beta_squared * self.pos + self.act)

    def f(self, beta: float = 1.0) -> float | None:
        """F for weight ``beta``, exact for every finite beta > 0 (§4, v1.1).

        F = (b^2 + 1) COR / (b^2 POS + ACT) with b^2 = p / q read exactly
        (``beta`` as the decimal it prints as) is (p + q) COR / (p POS + q ACT):
        a quotient of exact integers, which Python divides with correct
        rounding however large they are. So ``--beta 1e200`` or ``1e-300``
        neither overflows nor underflows: F lies in [0, 1], is 0 when COR = 0,
        and is None (undefined) only when POS = ACT = 0.
        """
        if self.pos + self.act == 0:
            return None
        if self.cor == 0:
            return 0.0
        p, q = _beta_squared(beta)
        return ((p + q) * self.cor) / (p * self.pos + q * self.act)

    def metrics(self, beta: float = 1.0) -> dict[str, float | None]:
        """REC PRE F UND OVG SUB ERR SER as fractions, None when undefined.

        All lie in [0, 1] except SER, the slot error rate (INC + MIS + SPU) /
        (COR + INC + MIS): errors over the reference's scored points, which
        exceeds 1 when there are more errors than reference points, like WER.

        F is defined whenever POS + ACT > 0 (0 when COR = 0), so a system that
        answers nothing scores F = 0 rather than an undefined F.
        """

        def ratio(num: int, den: int) -> float | None:
            return None if den == 0 else num / den

        return {
            "REC": ratio(self.cor, self.pos),
            "PRE": ratio(self.cor, self.act),
            "F": self.f(beta),
            "UND": ratio(self.mis, self.pos),
            "OVG": ratio(self.spu, self.act),
            "SUB": ratio(self.inc, self.cor + self.inc),
            "ERR": ratio(self.errors, self.cor + self.inc + self.spu + self.mis),
            "SER": ratio(self.inc + self.mis + self.spu, self.cor + self.inc + self.mis),
        }

    def as_dict(self, beta: float = 1.0) -> dict[str, int | float | None]:
        """The §9 COUNTS object: POS ACT COR INC MIS SPU OPT REM and the metrics."""
        out: dict[str, int | float | None] = {
            "POS": self.pos,
            "ACT": self.act,
            "COR": self.cor,
            "INC": self.inc,
            "MIS": self.mis,
            "SPU": self.spu,
            "OPT": self.opt,
            "REM": self.rem,
        }
        out.update(self.metrics(beta))
        return out


@lru_cache(maxsize=16)
def _beta_squared(beta: float) -> tuple[int, int]:
    """beta**2 as (numerator, denominator), beta read as the decimal it prints as."""
    b = Fraction(str(beta))
    if b <= 0:
        raise ValueError(f"beta must be positive, got {beta}")
    b2 = b * b
    return b2.numerator, b2.denominator


_UNIT: dict[str, Counts] = {category: Counts(*(int(c == category) for c in CATEGORIES)) for category in CATEGORIES}
