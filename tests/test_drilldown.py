"""Issue: drill-down (explain), HTML report, bootstrap confidence and compare."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from typer.testing import CliRunner

from hub4eval.api import score_files
from hub4eval.bootstrap import bootstrap_intervals, paired_bootstrap
from hub4eval.cli import app
from hub4eval.errors import UsageError
from hub4eval.explain import aligned_context, select_points
from hub4eval.html import to_html
from hub4eval.metrics import Counts

from conftest import EXAMPLES
from scoring_helpers import run

CLEAN, ASR = EXAMPLES / "clean", EXAMPLES / "asr"
runner = CliRunner()


@pytest.fixture(scope="module")
def clean():
    return score_files(CLEAN / "ref.tpl", CLEAN / "hyp.tpl")


@pytest.fixture(scope="module")
def asr():
    return score_files(
        ASR / "ref.tpl", ASR / "hyp.tpl", ref_text=ASR / "reference.sgml", hyp_text=ASR / "asr_unsegmented.sgml"
    )


# ---------------------------------------------------------------- explain


def test_filters_combine(clean):
    loser = select_points(clean, slots=["SPORTS_EVENT.LOSER"])
    assert [p.category for p in loser] == ["INC", "COR", "MIS", "MIS"]
    inc = select_points(clean, slots=["SPORTS_EVENT.LOSER"], categories=["inc"])
    assert [p.kind for p in inc] == ["content"]
    cnn = select_points(clean, documents=["CNN19980112.1600.0100"], types=["TEMPLATE"])
    assert sorted(p.category for p in cnn) == ["MIS", "REM"]


def test_unknown_filter_value_suggests_close_matches(clean):
    with pytest.raises(UsageError, match="did you mean SPORTS_EVENT.LOSER"):
        select_points(clean, slots=["SPORTS_EVENT.LOSR"])
    with pytest.raises(UsageError, match="--category"):
        select_points(clean, categories=["WRONG"])


@pytest.mark.parametrize(
    ("ref", "hyp", "reason"),
    [
        ('<E-D-1> :=\n  A: "defending champion [south Africa]" ##295#326#314#326#\n',
         '<E-D-1> :=\n  A: "defending champion" ##295#313#\n',
         "hypothesis `defending champion` does not contain any minimal string: `south africa`"),
        ('<E-D-1> :=\n  A: "x y" ##295#326#\n', '<E-D-1> :=\n  A: "x" ##300#330#\n',
         "extent 300..330 not enclosed in 295..326"),
        ('<E-D-1> :=\n  A: "x" ##0#1#\n', '<E-D-1> :=\n  B: "x" ##0#1#\n',
         "no hypothesis fill for this reference fill"),
    ],
)
def test_reason_messages(ref, hyp, reason):
    assert reason in [p.reason for p in run(ref, hyp).points]


def test_pointer_reason_names_both_instances():
    ref = '<T-D-1> :=\n  EVENT: <EV-D-1>\n<EV-D-1> :=\n  W: "a"\n<EV-D-2> :=\n  W: "b"\n'
    hyp = '<T-D-1> :=\n  EVENT: <EV-D-3>\n<EV-D-2> :=\n  W: "a"\n<EV-D-3> :=\n  W: "b"\n'
    [pointer] = [p for p in run(ref, hyp).points if p.kind == "pointer"]
    assert pointer.reason == "pointer: reference instance <EV-D-1> mapped to <EV-D-2>, hypothesis points to <EV-D-3>"


def test_aligned_context_marks_the_fill_columns(asr):
    [location] = select_points(asr, slots=["SPORTS_EVENT.LOCATION"], categories=["INC"])
    context = aligned_context(asr, location)
    marked_ref = [w for w, on in zip(context.ref_words, context.ref_marked) if on]
    marked_hyp = [w for w, on in zip(context.hyp_words, context.hyp_marked) if on]
    assert marked_ref == ["rio", "de", "janeiro"]
    assert marked_hyp == ["rio", "the", "janeiro"]
    assert "in" in context.ref_words  # words around the fill


def test_no_context_without_texts(clean):
    assert aligned_context(clean, clean.points[0]) is None


def test_explain_cli_lists_points_with_reasons_and_context():
    result = runner.invoke(
        app,
        ["explain", str(ASR / "ref.tpl"), str(ASR / "hyp.tpl"), "--ref-text", str(ASR / "reference.sgml"),
         "--hyp-text", str(ASR / "asr_unsegmented.sgml"), "--category", "INC", "--slot", "SPORTS_EVENT.WINNER"],
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "INC content SPORTS_EVENT.WINNER" in out
    assert 'REF  "Martina Hingis"' in out and 'HYP  "martina hinges"' in out
    assert "why  hypothesis tokens `martina hinges` are not a run of the reference `martina hingis`" in out
    assert "[hingis]" in out and "[hinges]" in out
    assert out.rstrip().endswith("1 points (INC 1)")


def test_explain_cli_unknown_document_exit_2():
    result = runner.invoke(app, ["explain", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--doc", "VOA1998"])
    assert result.exit_code == 2
    assert "unknown --doc value 'VOA1998'" in result.output and "Traceback" not in result.output


# ---------------------------------------------------------------- HTML


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, list[str]] = {}
        self.table = None
        self.first_cell: list[str] | None = None
        self.cell = False

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.table = dict(attrs).get("id")
            self.rows.setdefault(self.table, [])
        elif tag == "tr":
            self.first_cell = []
        elif tag == "td" and self.first_cell == []:
            self.cell = True

    def handle_endtag(self, tag):
        if tag == "td" and self.cell:
            self.cell = False
            self.rows[self.table].append("".join(self.first_cell))
            self.first_cell = None

    def handle_data(self, data):
        if self.cell:
            self.first_cell.append(data)


def test_html_report_is_self_contained_and_holds_every_slot(clean, tmp_path):
    out = tmp_path / "r.html"
    result = runner.invoke(app, ["score", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--html", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    for forbidden in ("http:", "https:", "//", "<script", "<link", "src=", "@import"):
        assert forbidden not in text, forbidden  # nothing is fetched: no server, no network
    parser = _Collector()
    parser.feed(text)
    assert [r for r in parser.rows["slots"] if "." in r] == list(clean.by("slot"))
    assert parser.rows["documents"][:3] == list(clean.by("document"))
    assert text.count("<details>") == len(clean.by("slot"))
    assert text.count("<rect") == 2 * len(clean.by("slot"))


def test_html_escapes_input():
    result = run('<E-D-1> :=\n  A: "<b>x</b> & y"\n', '<E-D-1> :=\n  A: "<i>"\n')
    body = to_html(result)
    assert "&lt;i&gt;" in body and "<i>" not in body


# ---------------------------------------------------------------- bootstrap


def _docs(seed: int = 1, n: int = 200) -> list[Counts]:
    import random

    rnd = random.Random(seed)
    return [Counts(cor=rnd.randint(0, 9), inc=rnd.randint(0, 3), mis=rnd.randint(0, 3), spu=rnd.randint(0, 3))
            for _ in range(n)]


def test_bootstrap_is_deterministic_under_a_seed_and_contains_the_estimate():
    docs = _docs()
    first = bootstrap_intervals(docs, 2000, seed=7)
    assert first == bootstrap_intervals(docs, 2000, seed=7)
    assert first != bootstrap_intervals(docs, 2000, seed=8)
    point = sum(docs, Counts()).metrics()
    for metric in ("REC", "PRE", "F"):
        low, high = first[metric]
        assert low < point[metric] < high
        assert high - low < 0.2


def test_paired_bootstrap_identical_systems_and_a_clearly_better_one():
    docs = _docs()
    same = paired_bootstrap(docs, docs, 1000)
    assert same["difference"] == 0.0 and same["p_value"] == 1.0
    worse = [Counts(cor=max(0, c.cor - 3), inc=c.inc + 3, mis=c.mis, spu=c.spu) for c in docs]
    better = paired_bootstrap(docs, worse, 1000)
    assert better["difference"] > 0 and better["p_value"] < 0.01
    low, high = better["interval"]
    assert 0 < low < better["difference"] < high


def test_score_bootstrap_in_json_and_table():
    result = runner.invoke(
        app, ["score", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--bootstrap", "500", "--json", "-"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["bootstrap"]["resamples"] == 500 and data["bootstrap"]["seed"] == 12345
    low, high = data["bootstrap"]["F"]
    assert low <= data["summary"]["F"] <= high
    table = runner.invoke(app, ["score", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), "--bootstrap", "500"])
    assert "95% intervals (500 document resamples, seed 12345): REC" in table.stdout


def test_compare_cli(tmp_path):
    worse = tmp_path / "b.tpl"
    worse.write_text((CLEAN / "hyp.tpl").read_text().replace('"Melbourne"', '"Sydney"'))
    result = runner.invoke(
        app, ["compare", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), str(worse), "--bootstrap", "300", "--json", "-"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["F_A"] == pytest.approx(26 / 51)
    assert data["difference"] > 0 and 0 <= data["p_value"] <= 1 and data["documents"] == 3
    table = runner.invoke(app, ["compare", str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl"), str(worse), "--bootstrap", "300"])
    assert "F(A) - F(B) = " in table.stdout and "p = " in table.stdout


def test_progress_callback_counts_every_reference_set_and_bar_is_quiet_when_piped():
    seen = []
    score_files(CLEAN / "ref.tpl", CLEAN / "hyp.tpl", progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
    from hub4eval.cli.score import progress_bar

    with progress_bar("x", quiet=False) as advance:  # not a terminal under pytest
        assert advance is None


def test_overlapping_sets_found_by_bisection_match_all_pairs():
    from hub4eval.mapping import _overlapping
    from hub4eval.model import Extent

    refs = [Extent(0, 9), Extent(10, 19), None, Extent(20, 29)]
    hyps = [Extent(5, 12), None, Extent(19, 20), Extent(30, 40), Extent(29, 29)]
    brute = sorted(
        (i, j) for i, r in enumerate(refs) for j, h in enumerate(hyps) if r and h and r.overlaps(h)
    )
    assert _overlapping(refs, hyps) == brute == [(0, 0), (1, 0), (1, 2), (3, 2), (3, 4)]
