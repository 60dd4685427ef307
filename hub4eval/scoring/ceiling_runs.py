"""The ceiling's projection made in runs of documents in forked children, each then counting its run.

When the texts of a score were long enough to be aligned in processes, the reference is
projected onto the hypothesis text (:func:`~hub4eval.scoring.projection.project`) in
children, one for each run of consecutive instance sets, while the caller maps the
system's templettes (:class:`ProjectionRuns`); for an unsegmented hypothesis, whose sets
are paired by overlap, each child then counts the ceiling of its run
(:func:`ceiling_part`), which the caller joins
(:func:`hub4eval.scoring.counted_parts.join_parts`): the result of one process. Used by
:mod:`hub4eval.scoring.pipeline`, which owns the stages' order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from hub4eval.config import ScoreConfig
from hub4eval.model import Corpus, Extent, InstanceSet, TemplateSet
from hub4eval.scoring.mapping import Mapper


def contents(tset: TemplateSet) -> Iterator[str]:
    """The content strings of the text fills of a template set."""
    return (fill.content for _, fill in tset.text_fills())


class ProjectionRuns:
    """The reference projected onto the hypothesis text (:func:`~hub4eval.scoring.projection.project`),
    in ``parts`` forked children (one for each run of consecutive instance sets, cut at about equal
    numbers of instances) started when made, or here when asked (``parts`` 1).

    Each instance is projected on its own, so the runs' projections one after the other are
    the projection of the whole. With ``count`` (children only), each child then counts the
    ceiling of its run, ``count(run, projected run)``: :attr:`counted` holds the runs and
    their counts once :meth:`result` is asked (see :func:`ceiling_part`).
    """

    def __init__(
        self,
        ref: TemplateSet,
        alignment: Any,
        hyp_corpus: Corpus | None,
        judge: Any,
        parts: int,
        count: Callable[[TemplateSet, TemplateSet], Any] | None = None,
    ) -> None:
        from hub4eval.util.forked import Beside

        self.ref = ref
        sets = ref.instance_sets
        sizes = [len(iset.instances) for iset in sets]
        total, done, cuts = sum(sizes), 0, [0]
        for number, size in enumerate(sizes):
            if len(cuts) < parts and done >= total * len(cuts) / parts and number > cuts[-1]:
                cuts.append(number)
            done += size
        cuts.append(len(sets))
        runs = [TemplateSet(sets[a:b], role=ref.role, path=ref.path) for a, b in zip(cuts, cuts[1:], strict=False)]
        if len(runs) == 1:
            runs = [ref]
        forked = parts > 1
        self._count = count if forked else None
        self._runs = runs
        self._parts = [
            Beside(_project_then_count, run, alignment, hyp_corpus, judge, self._count, forked=forked) for run in runs
        ]
        self.counted: tuple[list[tuple[TemplateSet, TemplateSet]], list[Any]] | None = None
        """(the runs and their projections, their ceiling's counts), when ``count`` was given."""

    def result(self) -> TemplateSet:
        made = [part.result() for part in self._parts]
        projected = [run for run, _ in made]
        if self._count is not None:
            self.counted = (list(zip(self._runs, projected, strict=True)), [counted for _, counted in made])
        if len(projected) == 1:
            return projected[0]
        sets = tuple(iset for part in projected for iset in part.instance_sets)
        return TemplateSet(sets, role="hypothesis", path=self.ref.path)


def _project_then_count(
    run: TemplateSet,
    alignment: Any,
    hyp_corpus: Corpus | None,
    judge: Any,
    count: Callable[[TemplateSet, TemplateSet], Any] | None,
) -> tuple[TemplateSet, Any]:
    """The projection of a run of reference sets and, with ``count``, the ceiling's count of them."""
    from hub4eval.scoring.projection import project

    projected = project(run, alignment, hyp_corpus, judge)
    return projected, (count(run, projected) if count is not None else None)


def ceiling_part(
    run: TemplateSet,
    projected: TemplateSet,
    *,
    config: ScoreConfig,
    alignment: Any,
    preparers: tuple[Any, Any, Any],
    noisy: bool,
    order: Sequence[str],
    set_extent: Callable[[InstanceSet, Any], Extent | None],
) -> Any:
    """The ceiling's count of a run of reference sets of an unsegmented hypothesis against their
    projection (:func:`hub4eval.scoring.counted_parts.count_part`), as the pipeline's ceiling
    counts the whole: made in the child that has just projected the run, while the judge's
    normalized strings are at hand, instead of in the caller after the whole projection.
    ``preparers``: the reference's, the hypothesis's and the judge's (remembering ones, see
    the pipeline); ``set_extent(iset, preparer)``: a hypothesis set's extent (§7.4)."""
    from hub4eval.scoring.counted_parts import count_part

    ref_prep, hyp_prep, judge_prep = preparers
    judge_prep.keep_texts(hyp_prep, contents(projected))
    mapper = Mapper(config, ref_prep, hyp_prep, noisy=noisy)
    hyp_prep.remember()  # each projected fill is prepared for its set's extent, then mapped: prepared once
    return count_part(
        mapper,
        run,
        projected,
        ref_extent=lambda iset: alignment.document_extent(iset.docid),
        hyp_extent=lambda iset: set_extent(iset, hyp_prep),
        order=order,
    )


__all__ = ["ProjectionRuns", "ceiling_part", "contents"]
