"""The self-contained HTML report (`score --html`), checked without a browser.

The page's static parts (per-slot table, chart, drill-down sections) are
parsed here; the data the script renders (per-document table, mapping, every
point) is decoded by an independent Python reading of its coding and compared
with the result. tests/end_to_end/test_html_browser.py opens the page in Chromium.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from hub4eval.api import score_files
from hub4eval.cli import app
from hub4eval.report import page_data
from hub4eval.report.explain import GAP, explain, tally
from hub4eval.report.html import read_embedded, to_html
from hub4eval.report.tables import COUNT_COLUMNS, percent
from hub4eval.scoring.metrics import METRICS
from tests.support import EXAMPLES
from tests.support.scoring import run

CLEAN, ASR = EXAMPLES / "clean", EXAMPLES / "asr"
runner = CliRunner()


class Report(HTMLParser):
    """Collects, per table id, the first cell of each body row; counts tags; checks nesting."""

    VOID = {"meta", "br", "rect", "img", "input", "link"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[str]] = {}
        self.table_stack: list[str | None] = []
        self.first: list[str] | None = None
        self.in_first = False
        self.cells_in_row = 0
        self.tags: dict[str, int] = {}
        self.open: list[str] = []
        self.attributes: list[tuple[str, str | None]] = []
        self.text: list[str] = []
        self.scripts: list[dict[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self.attributes += attrs
        if tag == "script":
            self.scripts.append(dict(attrs))
        if tag not in self.VOID:
            self.open.append(tag)
        if tag == "table":
            table_id = dict(attrs).get("id")
            self.table_stack.append(table_id)
            if table_id:
                self.tables.setdefault(table_id, [])
        elif tag == "tr":
            self.first, self.cells_in_row = [], 0
        elif tag == "td":
            self.cells_in_row += 1
            self.in_first = self.cells_in_row == 1

    def handle_startendtag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self.attributes += attrs

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1] if self.open else None}>"
        self.open.pop()
        if tag == "td" and self.in_first:
            self.in_first = False
            table_id = self.table_stack[-1] if self.table_stack else None
            if table_id:
                self.tables[table_id].append("".join(self.first or []))
        elif tag == "table":
            self.table_stack.pop()

    def handle_data(self, data):
        if self.open and self.open[-1] == "script":
            return
        self.text.append(data)
        if self.in_first and self.first is not None:
            self.first.append(data)


def parse(text: str) -> Report:
    report = Report()
    report.feed(text)
    report.close()
    assert report.open == [], report.open  # every element closed
    return report


# An independent reading of the data coding (hub4eval/report/html.py's module docstring).


def undelta(values, present):
    out, previous, values = [], 0, iter(values)
    for here in present:
        if here:
            previous += next(values)
            out.append(previous)
        else:
            out.append(None)
    return out


def unfresh(columns, presents):
    """Fresh-coded columns sharing one table, read in point order, column by column."""
    following, iters, outs = 0, [iter(c) for c in columns], [[] for _ in columns]
    for flags in zip(*presents, strict=True):
        for c, here in enumerate(flags):
            if not here:
                outs[c].append(None)
                continue
            code = next(iters[c])
            if code == -1:
                outs[c].append(following)
                following += 1
            elif code < 0:
                distance = -1 - code
                assert 1 <= distance <= 16
                outs[c].append(following - distance)
            else:
                assert code < following
                outs[c].append(code)
    return outs


def decoded_points(data) -> list[dict]:
    p = data["points"]
    n = p["n"]
    has_ref = [bool(s & 1) for s in p["side"]]
    has_hyp = [bool(s & 2) for s in p["side"]]
    doc = undelta(p["doc"], [True] * n)
    ref_inst, hyp_inst = undelta(p["refInst"], has_ref), undelta(p["hypInst"], has_hyp)
    ref_line, hyp_line = undelta(p["refLine"], has_ref), undelta(p["hypLine"], has_hyp)
    ref_fill, hyp_fill = unfresh([p["refFill"], p["hypFill"]], [has_ref, has_hyp])
    (reason,) = unfresh([p["reason"]], [[True] * n])
    (fields,) = unfresh([p["field"]], [[True] * len(p["field"])])
    rows = []
    start = 0
    for i in range(n):
        template, arity = data["reasons"][reason[i]], data["reasonArity"][reason[i]]
        mine = [data["fields"][f] for f in fields[start : start + arity]]
        start += arity
        text = re.sub(r"\{(\d+)\}", lambda m, mine=mine: mine[int(m[1])], template) if arity else template
        row = {
            "slot": data["slots"][p["slot"][i]],
            "type": data["types"][data["slotType"][p["slot"][i]]],
            "kind": data["kinds"][p["kind"][i]],
            "category": data["categories"][p["cat"][i]],
            "document": data["docs"][doc[i]],
            "ref": None if ref_fill[i] is None else data["fills"][ref_fill[i]],
            "ref_where": None if ref_inst[i] is None else f"{data['inst'][ref_inst[i]]}, line {ref_line[i]}",
            "hyp": None if hyp_fill[i] is None else data["fills"][hyp_fill[i]],
            "hyp_where": None if hyp_inst[i] is None else f"{data['inst'][hyp_inst[i]]}, line {hyp_line[i]}",
            "reason": text,
            "context": None,
        }
        if "ctx" in p and p["ctx"][i] >= 0:
            c = data["contexts"][p["ctx"][i]]
            k = c[0]
            words = data["words"]
            codes = c[1 + 2 * k : 1 + 3 * k]
            row["context"] = (
                tuple(words[w] for w in c[1 : 1 + k]),
                tuple(words[w] for w in c[1 + k : 1 + 2 * k]),
                tuple(code & 3 for code in codes),
                tuple(bool(code & 4) for code in codes),
                tuple(bool(code & 8) for code in codes),
            )
        rows.append(row)
    return rows


def expected_points(result) -> list[dict]:
    """The same rows straight from the result (explain: the drill-down of the CLI)."""
    rows = []
    for row in explain(result):
        p = row.point
        context = None
        if row.context is not None:
            c = row.context
            kinds = tuple(2 if k == GAP else (0 if k == 0 else 1) for k in c.kinds)
            context = (c.ref_words, c.hyp_words, kinds, c.ref_marked, c.hyp_marked)
        reason = p.reason
        if p.cause is not None:  # what the error was lost to, as explain prints it
            reason += f"; lost to {p.cause}" + (f": {row.cause_note}" if row.cause_note else "")
        rows.append(
            {
                "slot": p.slot_key, "type": p.type, "kind": p.kind, "category": p.category, "document": p.docid,
                "ref": row.ref_fill, "ref_where": row.ref_where, "hyp": row.hyp_fill, "hyp_where": row.hyp_where,
                "reason": reason, "context": context,
            }
        )  # fmt: skip
    return rows


@pytest.fixture(scope="module")
def clean():
    return score_files(CLEAN / "ref.tpl", CLEAN / "hyp.tpl")


@pytest.fixture(scope="module")
def asr():
    return score_files(
        ASR / "ref.tpl", ASR / "hyp.tpl", ref_text=ASR / "reference.sgml", hyp_text=ASR / "asr_unsegmented.sgml"
    )


@pytest.fixture(scope="module")
def clean_html(tmp_path_factory, clean):
    out = tmp_path_factory.mktemp("html") / "report.html"
    result = runner.invoke(app, ["score", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--html", str(out)])
    assert result.exit_code == 0, result.output
    assert "Scores per slot" in result.stdout  # the terminal report is still printed
    return out.read_text(encoding="utf-8")


def test_parses_and_holds_one_row_per_slot_with_subtotals_and_overall(clean, clean_html):
    report = parse(clean_html)
    rows = report.tables["slots"]
    assert [r for r in rows if "." in r and not r.endswith(" points")] == list(clean.by("slot"))
    assert [r for r in rows if r.endswith(" (all)")] == [f"{t} (all)" for t in clean.by("type")]
    assert [r for r in rows if r.endswith(" points")] == [f"{k} points" for k in clean.by("kind")]
    assert rows[-1] == "ALL"


@pytest.mark.parametrize("compress", [False, True])
def test_embedded_points_are_every_point_of_the_drilldown(clean, asr, compress):
    for result in (clean, asr):
        body = to_html(result, compress=compress)
        assert f'data-encoding="{"deflate-base64" if compress else "json"}"' in body
        assert decoded_points(read_embedded(body)) == expected_points(result)


def test_aligned_context_is_embedded_when_texts_differ(asr):
    rows = decoded_points(read_embedded(to_html(asr)))
    contexts = [r["context"] for r in rows if r["context"] is not None]
    assert contexts  # the ASR example's text fills all touch aligned words
    # The Hingis fill: `hingis` (reference) against `hinges` (hypothesis), a marked substitution.
    assert any(
        "hingis" in ref and hyp[ref.index("hingis")] == "hinges" and kinds[ref.index("hingis")] == 1
        for ref, hyp, kinds, _, _ in contexts
    )
    assert "hypothesis text WER" in to_html(asr)


def test_per_document_table_and_mapping(clean, clean_html):
    data = read_embedded(clean_html)
    beta = clean.config.beta

    def cells(counts):
        values = counts.as_dict(beta)
        return [str(values[c]) for c in COUNT_COLUMNS] + [percent(values[m]) for m in METRICS]

    assert data["documents"]["columns"] == [*COUNT_COLUMNS, *METRICS]
    assert data["documents"]["rows"] == [[name, *cells(c)] for name, c in clean.by("document").items()]
    assert data["documents"]["total"] == ["ALL", *cells(clean.total)]
    mapping = data["mapping"]
    triples = [mapping[i : i + 3] for i in range(0, len(mapping), 3)]
    named = [(None if r < 0 else data["inst"][r], None if h < 0 else data["inst"][h], f) for r, h, f in triples]
    assert named == [(r, h, percent(f) if r and h else None) for r, h, f in clean.instance_pairs()]
    assert [tuple(pair) for pair in data["setMapping"]] == clean.instance_set_pairs()


def test_no_external_resources(clean_html, asr):
    for body in (clean_html, to_html(asr, compress=True)):
        report = parse(body)
        assert not [value for name, value in report.attributes if name in ("src", "href", "action")]
        assert not re.search(r"(?i)https?:|@import|url\(|<link|<iframe|<img", body)
        script = body[body.rindex("<script>") :]
        for forbidden in ("fetch(", "XMLHttpRequest", "import(", "innerHTML", "outerHTML", "insertAdjacentHTML"):
            assert forbidden not in script, forbidden
        assert report.scripts == [
            {"type": "application/json", "id": "hub4eval-data", "data-encoding": report.scripts[0]["data-encoding"]},
            {},
        ]


def test_svg_chart_has_one_bar_per_slot(clean, clean_html):
    report = parse(clean_html)
    assert report.tags["svg"] == 1
    assert report.tags["rect"] == 2 * len(clean.by("slot"))  # background and value bar
    widths = [
        int(w) for w in re.findall(r'<rect x="\d+" y="\d+" width="(\d+)" height="\d+" fill="#3b6ea5"', clean_html)
    ]
    expected = [round(300 * (c.metrics()["F"] or 0)) for c in clean.by("slot").values()]
    assert widths == expected


def test_one_collapsible_section_per_slot_with_its_tally(clean, clean_html):
    report = parse(clean_html)
    slots = list(dict.fromkeys(p.slot_key for p in clean.points))
    assert report.tags["details"] == len(slots)
    for number, slot in enumerate(slots):
        counts = tally(p for p in clean.points if p.slot_key == slot)
        summary = "".join(f'<span class="{c}">{c} {n}</span>' for c, n in counts.items())
        assert f'<details data-slot="{number}"><summary><b>{slot}</b>{summary}</summary>' in clean_html


def test_headline_signature_present(clean, clean_html):
    text = "".join(parse(clean_html).text)
    assert "F = 51.0" in text and clean.signature in text


def test_everything_is_escaped():
    nasty = "</script><script>alert(1)</script><!-- \u2028\u2029 & 'q' \"d\""
    result = run(
        '<E-D-1> :=\n  A: "<b>x</b> & y"\n  B: "q"\n',
        f'<E-D-1> :=\n  A: "<i>\'quote\'"\n  B: "{nasty}"\n',
    )
    for compress in (False, True):
        body = to_html(result, title="<title> & co", compress=compress)
        assert "<i>" not in body and "<b>x" not in body
        assert body.count("<script") == 2 and body.count("</script>") == 2  # only the report's own blocks
        assert "&lt;title&gt; &amp; co" in body
        block = body[body.index('id="hub4eval-data"') : body.index("</script>")]
        assert "<" not in block.split(">", 1)[1] and "\u2028" not in block and "\u2029" not in block
        report = parse(body)
        assert [s.get("id") for s in report.scripts] == ["hub4eval-data", None]
        fills = {r["hyp"] for r in decoded_points(read_embedded(body))}
        assert f'"{nasty}"' in fills and "\"<i>'quote'\"" in fills  # read back as the text it was


@given(st.lists(st.sampled_from("abcdefghijklmnopqrstuvwxyz"), max_size=80))
def test_fresh_coding_reads_back(strings):
    table, indices = page_data._index(strings)
    assert table == list(dict.fromkeys(strings))
    (decoded,) = unfresh([page_data._fresh(indices)], [[True] * len(strings)])
    assert [table[i] for i in decoded] == strings


@given(st.lists(st.integers(min_value=0, max_value=10**6), max_size=50))
def test_delta_coding_reads_back(values):
    assert undelta(page_data._delta(values), [True] * len(values)) == values


@pytest.mark.parametrize(
    ("values", "kind"),
    [
        ([], "Int8"),
        ([0, -128, 127, 5], "Int8"),
        ([-129, 5, 1], "Int16"),
        ([40000, -1], "Int32"),
        ([2**31, -3], "Float64"),
    ],
)
def test_point_columns_read_back_from_the_deflated_bytes(values, kind):
    """Each column in the narrowest type that holds it, at an offset the page can view in place."""
    import json
    import zlib
    from base64 import b64decode

    import numpy as np

    odd = np.asarray([1, 2, 3], dtype=np.int64)  # 3 bytes: the next column starts after padding
    data = {"points": {"n": len(values), "odd": odd, "x": np.asarray(values, dtype=np.int64)}, "s": ["é", "<"]}
    encoding, text = page_data.embed(data, compress=True)
    assert encoding == "deflate-base64"
    page = f'<script type="application/json" id="hub4eval-data" data-encoding="{encoding}">{text}</script>'
    back = read_embedded(page)
    assert back == {"points": {"n": len(values), "odd": [1, 2, 3], "x": values}, "s": ["é", "<"]}
    raw = zlib.decompress(b64decode(text))
    head = json.loads(raw[4 : 4 + int.from_bytes(raw[:4], "little")])
    assert head["points"]["x"]["type"] == kind and head["points"]["x"]["offset"] % 4 == 0


def test_compressed_only_above_the_threshold(clean, monkeypatch):
    assert 'data-encoding="json"' in to_html(clean)  # the example's data is far below the threshold
    monkeypatch.setattr(page_data, "COMPRESS_ABOVE", 10)
    body = to_html(clean)
    assert 'data-encoding="deflate-base64"' in body
    assert read_embedded(body) == read_embedded(to_html(clean, compress=False))


def test_bootstrap_intervals_in_the_report(tmp_path):
    out = tmp_path / "r.html"
    result = runner.invoke(
        app, ["score", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--html", str(out), "--bootstrap", "200"]
    )
    assert result.exit_code == 0, result.output
    text = "".join(parse(out.read_text()).text)
    assert "95% intervals (200 document resamples, seed 12345): REC " in text


def test_unwritable_path_is_one_line_exit_2(tmp_path):
    result = runner.invoke(
        app, ["score", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--html", str(tmp_path / "no" / "r.html")]
    )
    assert result.exit_code == 2
    assert "cannot write the --html output" in result.output and "Traceback" not in result.output


def test_empty_result_still_a_valid_page():
    result = run("<E-D-1> :=\n  COMMENT: x\n", "<E-D-1> :=\n  COMMENT: y\n")
    body = to_html(result)
    report = parse(body)
    assert report.tables["slots"] == ["ALL"] and report.tags.get("details", 0) == 0
    assert read_embedded(body)["points"]["n"] == 0 and "No points." in body
