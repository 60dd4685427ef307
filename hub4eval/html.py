"""A self-contained HTML report: tables, a bar chart of F per slot, the drill-down.

One file with inline CSS and an inline SVG chart; no script, no network, so it
opens in any browser from disk or a mail attachment. Every piece of input text
is escaped.
"""

from __future__ import annotations

from html import escape

from .metrics import METRICS, Counts
from .report import COUNT_COLUMNS, headline, percent, wer_line
from .result import ScoreResult

_CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
h1{font-size:1.4em} h2{font-size:1.15em;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0}
th,td{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}
th:first-child,td:first-child{text-align:left}
tr.sub td{font-weight:bold;background:#f4f4f4} tr.all td{font-weight:bold;border-top:2px solid #444}
#mapping td,#mapping th{text-align:left}
code{background:#f4f4f4;padding:0 3px}
.COR{color:#176317}.INC{color:#a15c00}.MIS,.SPU{color:#b00020}.OPT,.REM{color:#666}
details{margin:.3em 0} summary{cursor:pointer}
.signature{color:#666;font-size:12px;word-break:break-all}
"""


def _row(name: str, counts: Counts, beta: float, css: str = "") -> str:
    values = counts.as_dict(beta)
    cells = [str(values[c]) for c in COUNT_COLUMNS] + [percent(values[m]) for m in METRICS]  # type: ignore[arg-type]
    attribute = f' class="{css}"' if css else ""
    return f"<tr{attribute}><td>{escape(name)}</td>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def _header(first: str) -> str:
    return "<tr>" + "".join(f"<th>{escape(c)}</th>" for c in (first, *COUNT_COLUMNS, *METRICS)) + "</tr>"


def _chart(result: ScoreResult) -> str:
    """Horizontal bars of F per slot (inline SVG)."""
    rows = list(result.by("slot").items())
    bar, label, height = 300, 230, 22
    parts = [
        f'<svg width="{label + bar + 60}" '
        f'height="{height * len(rows) + 10}" role="img" aria-label="F per slot">'
    ]
    for i, (name, counts) in enumerate(rows):
        f = counts.metrics(result.config.beta)["F"]
        y = 5 + i * height
        width = 0 if f is None else round(bar * f)
        parts.append(f'<text x="0" y="{y + 15}" font-size="12">{escape(name)}</text>')
        parts.append(f'<rect x="{label}" y="{y + 3}" width="{bar}" height="{height - 6}" fill="#eee"/>')
        parts.append(f'<rect x="{label}" y="{y + 3}" width="{width}" height="{height - 6}" fill="#3b6ea5"/>')
        parts.append(f'<text x="{label + bar + 6}" y="{y + 15}" font-size="12">{percent(f)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def to_html(result: ScoreResult, title: str = "hub4eval report") -> str:
    """The whole report as one HTML document."""
    beta = result.config.beta
    out = [
        "<!DOCTYPE html>",
        f'<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>',
        f"<style>{_CSS}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p><b>{escape(headline(result))}</b></p>",
    ]
    wer = wer_line(result)
    if wer:
        out.append(f"<p>{escape(wer)}</p>")
    out.append(f'<p class="signature">{escape(result.signature)}</p>')
    if result.warnings:
        out.append("<h2>Warnings</h2><ul>")
        out += [f"<li>{escape(str(w))}</li>" for w in result.warnings]
        out.append("</ul>")
    out.append('<h2>Scores per slot</h2><table id="slots">' + _header("SLOT"))
    slots = result.by("slot")
    for type_name, type_counts in result.by("type").items():
        for key, counts in slots.items():
            if key.split(".", 1)[0] == type_name:
                out.append(_row(key, counts, beta))
        out.append(_row(f"{type_name} (all)", type_counts, beta, "sub"))
    for kind, counts in result.by("kind").items():
        out.append(_row(f"{kind} points", counts, beta, "sub"))
    out.append(_row("ALL", result.total, beta, "all") + "</table>")
    out.append("<h2>F per slot</h2>" + _chart(result))
    out.append('<h2>Scores per document</h2><table id="documents">' + _header("DOCUMENT"))
    out += [_row(name, counts, beta) for name, counts in result.by("document").items()]
    out.append(_row("ALL", result.total, beta, "all") + "</table>")
    out.append('<h2>Instance mapping</h2><table id="mapping"><tr><th>REFERENCE</th><th>HYPOTHESIS</th><th>F</th></tr>')
    for ref, hyp, f in result.instance_pairs():
        out.append(
            f"<tr><td>{escape(ref or '-')}</td><td>{escape(hyp or '-')}</td>"
            f"<td>{percent(f) if ref and hyp else ''}</td></tr>"
        )
    out.append("</table><h2>Drill-down</h2>")
    by_slot: dict[str, list] = {}
    for point in result.points:
        by_slot.setdefault(point.slot_key, []).append(point)
    for key, points in by_slot.items():
        tally = {}
        for p in points:
            tally[p.category] = tally.get(p.category, 0) + 1
        summary = " ".join(f'<span class="{c}">{c} {n}</span>' for c, n in tally.items())
        out.append(f"<details><summary><b>{escape(key)}</b> {summary}</summary><table>")
        out.append("<tr><th>CATEGORY</th><th>KIND</th><th>DOCUMENT</th><th>REFERENCE</th><th>HYPOTHESIS</th><th>REASON</th></tr>")
        for p in points:
            out.append(
                f'<tr><td class="{p.category}">{p.category}</td><td>{p.kind}</td><td>{escape(p.docid)}</td>'
                f"<td><code>{escape(p.ref.fill) if p.ref else '-'}</code></td>"
                f"<td><code>{escape(p.hyp.fill) if p.hyp else '-'}</code></td>"
                f"<td style=\"text-align:left\">{escape(p.reason)}</td></tr>"
            )
        out.append("</table></details>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
