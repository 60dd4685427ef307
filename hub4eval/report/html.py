"""A self-contained HTML report that scales: tables, a bar chart of F per slot, the drill-down.

One file with inline CSS, an inline SVG chart and a small inline script (plain
JavaScript, no framework); it fetches nothing, so it opens from disk or as a
mail attachment. The stylesheet and the script are files of their own,
``hub4eval/report/assets/report.css`` and ``report.js``, written into the page
(:func:`asset`). The per-slot table and the chart are plain HTML. Everything
that grows with the corpus (the per-document table, the mapping, every point
of the drill-down) is embedded once as compact data and rendered on demand,
a page of rows at a time (issue #18: a 10,000-document report used to hold 13
million page elements).

The page's data (the points, the per-document table, the mapping) is made
and coded by :mod:`hub4eval.report.page_data`.

Text from the input reaches the page only as data: HTML parts go through
:func:`html.escape`, the JSON escapes ``<`` and U+2028/U+2029, and the script
inserts every string with ``textContent``, never as markup.
"""

from __future__ import annotations

import functools
import importlib.resources
from collections.abc import Mapping
from html import escape
from typing import Any

import numpy as np

from hub4eval.report.page_data import (
    COMPRESS_ABOVE,
    PointColumns,
    embed,
    join_columns,
    point_columns,
    read_embedded,
    report_data,
    result_columns,
    row_cells,
    write_point_columns,
)
from hub4eval.report.tables import COUNT_COLUMNS, ceiling_line, entity_wer_line, headline, percent, wer_line
from hub4eval.scoring.metrics import CATEGORIES, METRICS, Counts
from hub4eval.scoring.result import ScoreResult

PAGE_SIZE = 100
"""Rows per page of the long tables and of each slot's drill-down."""

ASSETS = "assets"
"""The page's stylesheet (``report.css``) and script (``report.js``): files of this package's
``assets`` folder, read with :mod:`importlib.resources` and written into the page. The script is
plain JavaScript (ES2018), no framework; every string from the data is set with ``textContent``;
``__PAGE__`` in it is replaced by :data:`PAGE_SIZE`."""


@functools.cache
def asset(name: str) -> str:
    """The text of a file of the page (``report.css``, ``report.js``)."""
    return (importlib.resources.files("hub4eval.report") / ASSETS / name).read_text(encoding="utf-8")


def _row(name: str, counts: Counts, beta: float, css: str = "") -> str:
    attribute = f' class="{css}"' if css else ""
    return (
        f"<tr{attribute}><td>{escape(name)}</td>" + "".join(f"<td>{c}</td>" for c in row_cells(counts, beta)) + "</tr>"
    )


def _header(first: str) -> str:
    return "<tr>" + "".join(f"<th>{escape(c)}</th>" for c in (first, *COUNT_COLUMNS, *METRICS)) + "</tr>"


def _chart(result: ScoreResult) -> str:
    """Horizontal bars of F per slot (inline SVG, one bar per row of the slot table)."""
    rows = list(result.by("slot").items())
    longest = max((len(name) for name, _ in rows), default=10)
    label = min(480, 16 + 9 * longest)  # room for upper-case names at 12px
    bar, height = 300, 22
    parts = [f'<svg width="{label + bar + 60}" height="{height * len(rows) + 10}" role="img" aria-label="F per slot">']
    for i, (name, counts) in enumerate(rows):
        f = counts.metrics(result.config.beta)["F"]
        y = 5 + i * height
        width = 0 if f is None else round(bar * f)
        parts.append(
            f'<text x="{label - 8}" y="{y + 15}" font-size="12" text-anchor="end">{escape(name)}</text>'
            f'<rect x="{label}" y="{y + 3}" width="{bar}" height="{height - 6}" fill="#eee"/>'
            f'<rect x="{label}" y="{y + 3}" width="{width}" height="{height - 6}" fill="#3b6ea5"/>'
            f'<text x="{label + bar + 6}" y="{y + 15}" font-size="12">{percent(f)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _slot_sections(data: dict[str, Any]) -> list[str]:
    """One collapsible section per slot, with its points' tally; rows are rendered when opened."""
    slot_col = np.asarray(data["points"]["slot"], dtype=np.int64)
    cat_col = np.asarray(data["points"]["cat"], dtype=np.int64)
    n_cat = len(CATEGORIES)
    tallies = np.bincount(slot_col * n_cat + cat_col, minlength=len(data["slots"]) * n_cat).reshape(-1, n_cat)
    out = []
    for slot, key in enumerate(data["slots"]):
        summary = "".join(
            f'<span class="{c}">{c} {int(n):,}</span>' for c, n in zip(CATEGORIES, tallies[slot], strict=True) if n
        )
        out.append(
            f'<details data-slot="{slot}"><summary><b>{escape(key)}</b>{summary}</summary>'
            f'<div class="points-view"><p class="status">Loading…</p></div></details>'
        )
    return out


def to_html(
    result: ScoreResult,
    title: str = "hub4eval report",
    *,
    intervals: Mapping[str, tuple[float | None, float | None]] | None = None,
    bootstrap_note: str = "",
    compress: bool | None = None,
    ceiling_intervals: Mapping[str, tuple[float | None, float | None]] | None = None,
) -> str:
    """The whole report as one HTML document.

    Args:
        result: the scored result.
        title: page title and heading (escaped).
        intervals: bootstrap intervals per metric (see
            :func:`hub4eval.report.confidence.bootstrap_intervals`), shown under the headline.
        bootstrap_note: how they were made, e.g. ``10000 document resamples, seed 12345``.
        compress: deflate the embedded data (True), keep it plain JSON (False), or
            decide by its size (None, see :data:`COMPRESS_ABOVE`).
        ceiling_intervals: intervals of the ceiling line (see
            :func:`hub4eval.report.confidence.ceiling_intervals`).

    Returns:
        The HTML text.
    """
    beta = result.config.beta
    data = report_data(result)
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>\n{asset('report.css')}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p id="headline"><b>{escape(headline(result))}</b></p>',
    ]
    if intervals:
        shown = "  ".join(f"{m} {percent(lo)}..{percent(hi)}" for m, (lo, hi) in intervals.items())
        note = f" ({escape(bootstrap_note)})" if bootstrap_note else ""
        out.append(f'<p id="intervals">95% intervals{note}: {escape(shown)}</p>')
    for line in (wer_line(result), entity_wer_line(result), ceiling_line(result, ceiling_intervals)):
        if line:
            out.append(f"<p>{escape(line)}</p>")
    out.append(f'<p class="signature">{escape(result.signature)}</p>')
    if result.warnings:
        out.append("<h2>Warnings</h2><ul>")
        out += [f"<li>{escape(str(w))}</li>" for w in result.warnings]
        out.append("</ul>")
    out.append(
        "<noscript><p><b>The per-document table, the mapping and the drill-down need JavaScript;"
        " the tables above and the chart do not.</b></p></noscript>"
    )
    out.append('<p id="data-status" class="status">Loading the report data…</p>')

    out.append('<h2>Scores per slot</h2><div class="scroll"><table id="slots">' + _header("SLOT"))
    slots = result.by("slot")
    for type_name, type_counts in result.by("type").items():
        for key, counts in slots.items():
            if key.split(".", 1)[0] == type_name:
                out.append(_row(key, counts, beta))
        out.append(_row(f"{type_name} (all)", type_counts, beta, "sub"))
    for kind, counts in result.by("kind").items():
        out.append(_row(f"{kind} points", counts, beta, "kind"))
    out.append(_row("ALL", result.total, beta, "all") + "</table></div>")
    out.append("<h2>F per slot</h2>" + _chart(result))

    n_docs = len(data["documents"]["rows"])
    out.append(
        f"<h2>Scores per document</h2><p>{n_docs:,} documents, {PAGE_SIZE} a page; click a column heading"
        " to sort by it, worst first (lowest REC, PRE, F; highest of the other columns; undefined last),"
        " and a document to list its points in the drill-down.</p>"
        '<div id="documents-view"></div>'
    )
    out.append(
        "<h2>Mapping</h2><p>Which hypothesis document and instance was mapped to which reference one"
        " (<code>-</code>: left unmapped), with each instance pair's F.</p>"
    )
    out.append('<div id="set-mapping-view"></div><div id="mapping-view"></div>')

    out.append(
        '<h2 id="drilldown-heading">Drill-down</h2>'
        f"<p>Every point, per slot: open a slot to list its points, {PAGE_SIZE} a page. The filters apply to"
        " every slot; a document filter keeps the documents whose DOCID is the text given, or else contains it.</p>"
        '<form id="filters" class="filters">'
        '<label>Type <select id="filter-type"><option value="">all</option></select></label>'
        '<label>Category <select id="filter-category"><option value="">all</option></select></label>'
        '<label>Document <input id="filter-document" type="search" placeholder="DOCID or part of it"></label>'
        '<button type="submit">Apply</button> <span id="filter-status" class="status"></span></form>'
        '<div id="drilldown">'
    )
    out += _slot_sections(data)
    if not data["slots"]:
        out.append("<p>No points.</p>")
    out.append("</div>")
    encoding, payload = embed(data, compress)
    out.append(f'<script type="application/json" id="hub4eval-data" data-encoding="{encoding}">{payload}</script>')
    out.append("<script>\n" + asset("report.js").replace("__PAGE__", str(PAGE_SIZE)) + "</script>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


# The names of the page's data are kept here too: this module was their home before page_data.
__all__ = [
    "ASSETS",
    "COMPRESS_ABOVE",
    "PAGE_SIZE",
    "PointColumns",
    "asset",
    "embed",
    "join_columns",
    "point_columns",
    "read_embedded",
    "report_data",
    "result_columns",
    "to_html",
    "write_point_columns",
]
