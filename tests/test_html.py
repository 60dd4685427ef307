"""The self-contained HTML report (`score --html`), checked without a browser.

(It was also opened once by hand in headless chromium and looked at: tables,
chart and drill-down render; see docs/drilldown.md.)
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from conftest import EXAMPLES
from scoring_helpers import run
from typer.testing import CliRunner

from hub4eval.api import score_files
from hub4eval.cli import app
from hub4eval.report.html import to_html

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

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self.attributes += attrs
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
        self.text.append(data)
        if self.in_first and self.first is not None:
            self.first.append(data)


def parse(text: str) -> Report:
    report = Report()
    report.feed(text)
    report.close()
    assert report.open == [], report.open  # every element closed
    return report


@pytest.fixture(scope="module")
def clean():
    return score_files(CLEAN / "ref.tpl", CLEAN / "hyp.tpl")


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


def test_per_document_table_and_mapping(clean, clean_html):
    report = parse(clean_html)
    assert report.tables["documents"] == [*clean.by("document"), "ALL"]
    assert report.tables["mapping"] == [ref or "-" for ref, _, _ in clean.instance_pairs()]
    assert report.tables["set-mapping"] == [ref or "-" for ref, _ in clean.instance_set_pairs()]


def test_no_external_resources(clean_html):
    for forbidden in ("http:", "https:", "//", "<script", "<link", "@import", "url("):
        assert forbidden not in clean_html, forbidden
    report = parse(clean_html)
    assert not [value for name, value in report.attributes if name in ("src", "href")]


def test_svg_chart_has_one_bar_per_slot(clean, clean_html):
    report = parse(clean_html)
    assert report.tags["svg"] == 1
    assert report.tags["rect"] == 2 * len(clean.by("slot"))  # background and value bar
    widths = [int(w) for w in re.findall(r'<rect x="\d+" y="\d+" width="(\d+)" height="\d+" fill="#3b6ea5"', clean_html)]
    expected = [round(300 * (c.metrics()["F"] or 0)) for c in clean.by("slot").values()]
    assert widths == expected


def test_drilldown_every_point_in_a_collapsible_section_per_slot(clean, clean_html):
    report = parse(clean_html)
    assert report.tags["details"] == len({p.slot_key for p in clean.points})
    assert clean_html.count('<tr><td class="') == len(clean.points)  # one drill-down row per point
    text = "".join(report.text)
    for point in clean.points:
        assert point.reason in text


def test_headline_signature_present(clean, clean_html):
    text = "".join(parse(clean_html).text)
    assert "F = 51.0" in text and clean.signature in text


def test_everything_is_escaped():
    result = run(
        '<E-D-1> :=\n  A: "<b>x</b> & y"\n  B: "q"\n',
        '<E-D-1> :=\n  A: "<i>\'quote\'"\n  B: "<script>alert(1)</script>"\n',
    )
    body = to_html(result, title="<title> & co")
    assert "<i>" not in body and "&lt;i&gt;" in body
    assert "<script" not in body and "&lt;script&gt;" in body
    assert "&lt;title&gt; &amp; co" in body
    report = parse(body)
    assert "<b>x</b> & y" in "".join(report.text)  # read back as the text it was


def test_aligned_context_in_the_drilldown_when_texts_differ():
    result = score_files(
        ASR / "ref.tpl", ASR / "hyp.tpl", ref_text=ASR / "reference.sgml", hyp_text=ASR / "asr_unsegmented.sgml"
    )
    body = to_html(result)
    parse(body)
    assert '<td class="on sub">hingis</td>' in body and '<td class="on sub">hinges</td>' in body
    assert "hypothesis text WER" in body
    assert "asr1" in body  # the instance-set mapping of the unsegmented hypothesis


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
