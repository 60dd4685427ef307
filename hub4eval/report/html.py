"""A self-contained HTML report: tables, a bar chart of F per slot, the drill-down.

One file with inline CSS and an inline SVG chart; no script, no external
resource, so it opens in any browser from disk or as a mail attachment and
fetches nothing. Every piece of input text (fills, reasons, DOCIDs, slot names,
file names) goes through :func:`html.escape`.

Sections: headline (and bootstrap intervals when given), signature, warnings,
per-slot table with type subtotals and the overall row, F per slot chart,
per-document table, the mapping of instance sets and instances, and the
drill-down: every point with its category, fills and reason (and the aligned
words around the fills when the texts differ), one collapsible ``<details>``
section per slot.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from hub4eval.report.explain import GAP, Context, explain, tally
from hub4eval.report.tables import COUNT_COLUMNS, ceiling_line, entity_wer_line, headline, percent, wer_line
from hub4eval.scoring.metrics import METRICS, Counts
from hub4eval.scoring.result import ScoreResult

_CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:90em}
h1{font-size:1.4em} h2{font-size:1.15em;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0}
th,td{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right;vertical-align:top}
th{background:#f0f0f0}
th:first-child,td:first-child{text-align:left}
tr.sub td{font-weight:bold;background:#f7f7f7} tr.kind td{color:#666}
tr.all td{font-weight:bold;border-top:2px solid #444}
table.left td,table.left th{text-align:left}
code{background:#f4f4f4;padding:0 3px;white-space:pre-wrap}
.COR{color:#176317}.INC{color:#a15c00}.MIS,.SPU{color:#b00020}.OPT,.REM{color:#666}
details{margin:.3em 0} summary{cursor:pointer} summary span{margin-left:.6em}
.signature{color:#666;font-size:12px;word-break:break-all}
.ctx{font:12px/1.3 ui-monospace,monospace;border:0;margin:.2em 0}
.ctx td{border:0;padding:0 4px;text-align:left;white-space:pre}
.ctx td.label{color:#666} .ctx .on{background:#ffe08a;font-weight:bold} .ctx .sub{color:#a15c00}
.ctx .gap{color:#999} .scroll{overflow-x:auto}
"""


def _row(name: str, counts: Counts, beta: float, css: str = "") -> str:
    values = counts.as_dict(beta)
    cells = [str(values[c]) for c in COUNT_COLUMNS] + [percent(values[m]) for m in METRICS]  # type: ignore[arg-type]
    attribute = f' class="{css}"' if css else ""
    return f"<tr{attribute}><td>{escape(name)}</td>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def _header(first: str) -> str:
    return "<tr>" + "".join(f"<th>{escape(c)}</th>" for c in (first, *COUNT_COLUMNS, *METRICS)) + "</tr>"


def _chart(result: ScoreResult) -> str:
    """Horizontal bars of F per slot (inline SVG, one bar per row of the slot table)."""
    rows = list(result.by("slot").items())
    longest = max((len(name) for name, _ in rows), default=10)
    label = min(480, 16 + 9 * longest)  # room for upper-case names at 12px
    bar, height = 300, 22
    parts = [
        f'<svg width="{label + bar + 60}" height="{height * len(rows) + 10}" '
        f'role="img" aria-label="F per slot">'
    ]
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


def _context(context: Context) -> str:
    """Aligned REF/HYP words as a two-row table, the fills' words highlighted."""
    rows = []
    for label, words, marked in (
        ("REF", context.ref_words, context.ref_marked),
        ("HYP", context.hyp_words, context.hyp_marked),
    ):
        cells = [f'<td class="label">{label}</td>']
        for word, kind, on in zip(words, context.kinds, marked):
            classes = ["on"] if on else []
            if kind == GAP:
                classes.append("gap")
            elif kind != 0:  # not a match: substitution, deletion or insertion
                classes.append("sub")
            attribute = f' class="{" ".join(classes)}"' if classes else ""
            cells.append(f"<td{attribute}>{escape(word or '***')}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return '<table class="ctx">' + "".join(rows) + "</table>"


def _fill(fill: str | None, where: str | None) -> str:
    if fill is None:
        return "-"
    return f'<code>{escape(fill)}</code><br><small>{escape(where or "")}</small>'


def _drilldown(result: ScoreResult) -> list[str]:
    out = []
    by_slot: dict[str, list] = {}
    for row in explain(result):
        by_slot.setdefault(row.point.slot_key, []).append(row)
    for key, rows in by_slot.items():
        summary = "".join(f'<span class="{c}">{c} {n}</span>' for c, n in tally(r.point for r in rows).items())
        out.append(f"<details><summary><b>{escape(key)}</b>{summary}</summary>")
        out.append(
            '<table class="left points"><tr><th>CATEGORY</th><th>KIND</th><th>DOCUMENT</th>'
            "<th>REFERENCE</th><th>HYPOTHESIS</th><th>REASON</th></tr>"
        )
        for row in rows:
            p = row.point
            reason = escape(p.reason)
            if p.cause is not None:  # §11: what the error was lost to
                note = f": {row.cause_note}" if row.cause_note else ""
                reason += f'<br><small class="cause">lost to {escape(p.cause)}{escape(note)}</small>'
            if row.context is not None:
                reason += _context(row.context)
            cause = f' data-cause="{escape(p.cause)}"' if p.cause is not None else ""
            out.append(
                f'<tr{cause}><td class="{escape(p.category)}">{escape(p.category)}</td><td>{escape(p.kind)}</td>'
                f"<td>{escape(p.docid)}</td><td>{_fill(row.ref_fill, row.ref_where)}</td>"
                f"<td>{_fill(row.hyp_fill, row.hyp_where)}</td><td>{reason}</td></tr>"
            )
        out.append("</table></details>")
    return out


def to_html(
    result: ScoreResult,
    title: str = "hub4eval report",
    *,
    intervals: Mapping[str, tuple[float | None, float | None]] | None = None,
    bootstrap_note: str = "",
    ceiling_intervals: Mapping[str, tuple[float | None, float | None]] | None = None,
) -> str:
    """The whole report as one HTML document.

    Args:
        result: the scored result.
        title: page title and heading (escaped).
        intervals: bootstrap intervals per metric (see
            :func:`hub4eval.report.confidence.bootstrap_intervals`), shown under the headline.
        bootstrap_note: how they were made, e.g. ``10000 document resamples, seed 12345``.
        ceiling_intervals: intervals of the ceiling line (see
            :func:`hub4eval.report.confidence.ceiling_intervals`).

    Returns:
        The HTML text.
    """
    beta = result.config.beta
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p id="headline"><b>{escape(headline(result))}</b></p>',
    ]
    if intervals:
        shown = "  ".join(f"{m} {percent(lo)}..{percent(hi)}" for m, (lo, hi) in intervals.items())
        note = f" ({escape(bootstrap_note)})" if bootstrap_note else ""
        out.append(f'<p id="intervals">95% intervals{note}: {escape(shown)}</p>')
    wer = wer_line(result)
    if wer:
        out.append(f"<p>{escape(wer)}</p>")
    for line, name in ((entity_wer_line(result), "entity-wer"), (ceiling_line(result, ceiling_intervals), "ceiling")):
        if line:
            out.append(f'<p id="{name}">{escape(line)}</p>')
    out.append(f'<p class="signature">{escape(result.signature)}</p>')
    if result.warnings:
        out.append("<h2>Warnings</h2><ul>")
        out += [f"<li>{escape(str(w))}</li>" for w in result.warnings]
        out.append("</ul>")

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

    out.append('<h2>Scores per document</h2><div class="scroll"><table id="documents">' + _header("DOCUMENT"))
    out += [_row(name, counts, beta) for name, counts in result.by("document").items()]
    out.append(_row("ALL", result.total, beta, "all") + "</table></div>")

    out.append('<h2>Mapping</h2><table id="set-mapping" class="left"><tr><th>REFERENCE DOCUMENT</th><th>HYPOTHESIS DOCUMENT</th></tr>')
    for ref, hyp in result.instance_set_pairs():
        out.append(f"<tr><td>{escape(ref or '-')}</td><td>{escape(hyp or '-')}</td></tr>")
    out.append("</table>")
    out.append('<table id="mapping" class="left"><tr><th>REFERENCE INSTANCE</th><th>HYPOTHESIS INSTANCE</th><th>F</th></tr>')
    for ref, hyp, f in result.instance_pairs():
        out.append(
            f"<tr><td>{escape(ref or '-')}</td><td>{escape(hyp or '-')}</td>"
            f"<td>{percent(f) if ref and hyp else ''}</td></tr>"
        )
    out.append("</table>")

    out.append("<h2>Drill-down</h2><p>Every point, per slot (click to open).</p>")
    out += _drilldown(result)
    out.append("</body></html>")
    return "\n".join(out) + "\n"


__all__ = ["to_html"]
