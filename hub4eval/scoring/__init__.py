"""Stages 3-5, compare, map and score: from two template sets to points and counts.

Owns fill preparation (normalized strings, tokens and column extents of every
text fill), the verdicts of single fills (pointer, clean and noisy content,
extent), the candidate instance pairs worth counting, the greedy mapping at
every level, placed points, counts and metrics, the scoring result, and the
named-entity rules (``entities``: regions paired by overlap, exact extents).

May import: the foundation, :mod:`hub4eval.io` and :mod:`hub4eval.text`.
Never :mod:`hub4eval.report` or :mod:`hub4eval.cli`.
"""
