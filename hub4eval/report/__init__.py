"""Stage 6, report: what a user reads of a scoring result.

Owns the tables, headline and signature line, JSON and CSV output, the
drill-down (``explain``), the HTML report (``html``, the page: its stylesheet
and script are the files ``assets/report.css`` and ``assets/report.js``;
``page_data``, the data the page renders), bootstrap confidence intervals
the paired comparison of two systems, and the named-entity tables.

May import: the foundation and every earlier stage (mostly
:mod:`hub4eval.scoring`). Never :mod:`hub4eval.api` or :mod:`hub4eval.cli`.
"""
