"""The ceiling's projection made in runs of documents in forked children, each then counting its run.

When the texts of a score were long enough to be aligned in processes, the reference is
projected onto the hypothesis text (:func:`~hub4eval.scoring.projection.project`) in
runs of consecutive instance sets, shared out among children while the caller maps the
system's templettes (:class:`ProjectionRuns`), and among the children and the caller once
it is done (:class:`hub4eval.util.forked.Shared`: each process takes the next run left
when it is free, so that none waits for the others while runs are left); for an
unsegmented hypothesis, whose sets are paired by overlap, the ceiling of each run is
counted where it was projected (:func:`ceiling_part`), and the caller joins the counts
(:func:`hub4eval.scoring.counted_parts.join_parts`): the result of one process. Used by
:mod:`hub4eval.scoring.pipeline`, which owns the stages' order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from itertools import accumulate
from typing import Any

from hub4eval.config import ScoreConfig
from hub4eval.model import Corpus, Extent, InstanceSet, TemplateSet
from hub4eval.scoring.mapping import Mapper


def contents(tset: TemplateSet) -> Iterator[str]:
    """The content strings of the text fills of a template set."""
    return (fill.content for _, fill in tset.text_fills())


RUNS_PER_CHILD = 3
"""Runs of the projection per child, each round of runs (one a child) half the size of the round
before: the children take the large runs first, and the caller, free once it has mapped the system's
templettes, and the children take the small ones left, so that the last process to end waits for no
more than about a small run (a run has a cost of its own: a few, not many)."""


class ProjectionRuns:
    """The reference projected onto the hypothesis text (:func:`~hub4eval.scoring.projection.project`),
    in runs of consecutive instance sets (cut at about equal numbers of instances) shared out
    among ``children`` forked children started when made and this process once :meth:`result`
    is asked (:class:`~hub4eval.util.forked.Shared`), or here when asked (``children`` 0).

    Each instance is projected on its own, so the runs' projections one after the other are
    the projection of the whole. With ``count`` (children only), the ceiling of each run is
    then counted where it was projected, ``count(run, projected run)``: :attr:`counted` holds
    the runs and their counts once :meth:`result` is asked (see :func:`ceiling_part`).
    """

    def __init__(
        self,
        ref: TemplateSet,
        alignment: Any,
        hyp_corpus: Corpus | None,
        judge: Any,
        children: int,
        count: Callable[[TemplateSet, TemplateSet], Any] | None = None,
    ) -> None:
        from hub4eval.util.forked import MOST_SHARED, Shared

        self.ref = ref
        forked = children > 0
        runs = _runs(ref, min(children * RUNS_PER_CHILD, MOST_SHARED), children) if forked else [ref]
        self._count = count if forked else None
        self._runs = runs
        run = partial(_project_run, runs, alignment, hyp_corpus, judge, self._count)
        self._parts = Shared(run, len(runs), children, forked=forked)
        self.counted: tuple[list[tuple[TemplateSet, TemplateSet]], list[Any]] | None = None
        """(the runs and their projections, their ceiling's counts), when ``count`` was given."""

    def result(self) -> TemplateSet:
        made = self._parts.results()
        projected = [run for run, _ in made]
        if self._count is not None:
            self.counted = (list(zip(self._runs, projected, strict=True)), [counted for _, counted in made])
        if len(projected) == 1:
            return projected[0]
        sets = tuple(iset for part in projected for iset in part.instance_sets)
        return TemplateSet(sets, role="hypothesis", path=self.ref.path)


def _runs(ref: TemplateSet, count: int, round_size: int = 1) -> list[TemplateSet]:
    """The instance sets of ``ref`` cut into at most ``count`` runs of consecutive sets (``[ref]``
    itself when one), each round of ``round_size`` runs of about equal numbers of instances, half
    as many as the round before."""
    sets = ref.instance_sets
    sizes = [len(iset.instances) for iset in sets]
    weights = [0.5 ** (number // round_size) for number in range(count)]
    total, scale = sum(sizes), sum(weights)
    ends = list(accumulate(weight * total / scale for weight in weights))  # each run's last instance, about
    done, cuts = 0, [0]
    for number, size in enumerate(sizes):
        if len(cuts) < count and done >= ends[len(cuts) - 1] and number > cuts[-1]:
            cuts.append(number)
        done += size
    cuts.append(len(sets))
    runs = [TemplateSet(sets[a:b], role=ref.role, path=ref.path) for a, b in zip(cuts, cuts[1:], strict=False)]
    return [ref] if len(runs) == 1 else runs


def _project_run(
    runs: Sequence[TemplateSet],
    alignment: Any,
    hyp_corpus: Corpus | None,
    judge: Any,
    count: Callable[[TemplateSet, TemplateSet], Any] | None,
    number: int,
) -> tuple[TemplateSet, Any]:
    """The projection of run ``number`` of the reference's sets and, with ``count``, the ceiling's count of them."""
    from hub4eval.scoring.projection import project

    run = runs[number]
    projected = project(run, alignment, hyp_corpus, judge)
    return projected, (count(run, projected) if count is not None else None)


def ceiling_part(
    run: TemplateSet,
    projected: TemplateSet,
    *,
    config: ScoreConfig,
    ref_extent: Callable[[InstanceSet], Extent | None],
    preparers: tuple[Any, Any, Any],
    noisy: bool,
    order: Sequence[str],
) -> Any:
    """The ceiling's count of a run of reference sets of an unsegmented hypothesis against their
    projection (:func:`hub4eval.scoring.counted_parts.count_part`), as the pipeline's ceiling
    counts the whole: made in the child that has just projected the run, while the judge's
    normalized strings are at hand, instead of in the caller after the whole projection.
    ``ref_extent``: the reference sets' extents (§7.4); ``preparers``: the reference's, the
    hypothesis's and the judge's (remembering ones, see the pipeline)."""
    from hub4eval.scoring.ceiling_count import Diagonal, read_projection
    from hub4eval.scoring.counted_parts import count_part

    ref_prep, hyp_prep, judge_prep = preparers
    mapper = Mapper(config, ref_prep, hyp_prep, noisy=noisy)
    # the judge's strings kept, the sets' extents and the fills the diagonal count reads, in one walk
    read = read_projection(projected, mapper.unscored, hyp_prep, judge_prep, True)
    counted = None if read.fills is None else Diagonal(mapper, run, projected, order, read.fills)
    hyp_prep.remember()  # each projected fill is prepared for its set's extent, then mapped: prepared once
    return count_part(
        mapper, run, projected, ref_extent=ref_extent, hyp_extent=read.extents, order=order, counted=counted
    )


__all__ = ["ProjectionRuns", "ceiling_part", "contents"]
