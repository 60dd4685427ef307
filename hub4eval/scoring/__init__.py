"""Stages 3-5, compare, map and score: from two template sets to points and counts.

Owns fill preparation (normalized strings, tokens and column extents of every
text fill), the verdicts of single fills (pointer, clean and noisy content,
extent), the candidate instance pairs worth counting, the greedy mapping at
every level (the instances of a type on compact data, many documents at once:
:mod:`.pairs`), placed
points, counts and metrics, the scoring result, the named-entity rules
(``entities``: regions paired by overlap, exact extents);
and :mod:`~hub4eval.scoring.pipeline`, which runs them all on two template
sets (the core that :mod:`hub4eval.api` and :mod:`hub4eval.parallel` call).

May import: the foundation, :mod:`hub4eval.io` and :mod:`hub4eval.text`.
Never :mod:`hub4eval.report` or :mod:`hub4eval.cli`.
"""
