"""Drill-down: `hub4eval explain`, its filters, reasons and aligned context; `score --by/--sort/--show-mapping`."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from hub4eval.api import score_files
from hub4eval.cli import app
from hub4eval.cli.explain import context_lines
from hub4eval.errors import UsageError
from hub4eval.report.explain import GAP, aligned_context, explain, select_points, tally
from hub4eval.scoring.pipeline import RAW_OFFSETS
from tests.support import EXAMPLES

CLEAN, SAMPLE, ASR = EXAMPLES / "clean", EXAMPLES / "sample", EXAMPLES / "asr"
ASR_TEXTS = ["--ref-text", str(ASR / "reference.sgml"), "--hyp-text", str(ASR / "asr_unsegmented.sgml")]
runner = CliRunner()


@pytest.fixture(scope="module")
def clean():
    return score_files(CLEAN / "ref.tpl", CLEAN / "hyp.tpl")


@pytest.fixture(scope="module")
def asr():
    return score_files(
        ASR / "ref.tpl", ASR / "hyp.tpl", ref_text=ASR / "reference.sgml", hyp_text=ASR / "asr_unsegmented.sgml"
    )


def invoke(*args: str):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result


# ---------------------------------------------------------------- filters


def test_no_filter_keeps_every_point_in_file_order(clean):
    assert select_points(clean) == list(clean.points)
    assert [row.point for row in explain(clean)] == list(clean.points)


def test_each_filter_alone(clean):
    loser = select_points(clean, slots=["SPORTS_EVENT.LOSER"])
    assert {p.slot_key for p in loser} == {"SPORTS_EVENT.LOSER"}
    assert len(loser) == sum(
        clean.by("slot")["SPORTS_EVENT.LOSER"].as_dict().get(c, 0) for c in ("COR", "INC", "MIS", "SPU", "OPT", "REM")
    )
    template = select_points(clean, types=["TEMPLATE"])
    assert template and {p.type for p in template} == {"TEMPLATE"}
    cnn = select_points(clean, documents=["CNN19980112.1600.0100"])
    assert cnn and {p.docid for p in cnn} == {"CNN19980112.1600.0100"}
    mis = select_points(clean, categories=["mis"])  # any case
    assert len(mis) == clean.total.mis and {p.category for p in mis} == {"MIS"}


def test_filters_combine_with_and_and_repeat_with_or(clean):
    both = select_points(clean, slots=["SPORTS_EVENT.LOSER"], categories=["INC"])
    assert [(p.category, p.kind) for p in both] == [("INC", "content")]
    either = select_points(clean, categories=["INC", "SPU"])
    assert len(either) == clean.total.inc + clean.total.spu
    two_slots = select_points(
        clean, slots=["SPORTS_EVENT.LOSER", "SPORTS_EVENT.WINNER"], documents=["CNN19980112.1600.0100"]
    )
    assert {p.slot_key for p in two_slots} == {"SPORTS_EVENT.LOSER", "SPORTS_EVENT.WINNER"}
    assert {p.docid for p in two_slots} == {"CNN19980112.1600.0100"}
    assert sorted(
        p.category for p in select_points(clean, documents=["CNN19980112.1600.0100"], types=["TEMPLATE"])
    ) == ["MIS", "REM"]


def test_tally_in_category_order(clean):
    counts = tally(clean.points)
    assert list(counts) == [c for c in ("COR", "INC", "MIS", "SPU", "OPT", "REM") if c in counts]
    assert counts["COR"] == clean.total.cor and counts["REM"] == clean.total.rem


@pytest.mark.parametrize(
    ("filters", "message"),
    [
        ({"slots": ["SPORTS_EVENT.LOSR"]}, "unknown --slot value 'SPORTS_EVENT.LOSR'.*did you mean SPORTS_EVENT.LOSER"),
        ({"slots": ["LOSER"]}, "did you mean SPORTS_EVENT.LOSER"),  # bare slot name
        ({"types": ["SPORTS_EVNT"]}, "unknown --type value.*did you mean SPORTS_EVENT"),
        ({"documents": ["CNN19980112.1600.0101"]}, "unknown --doc value.*did you mean CNN19980112.1600.0100"),
        ({"categories": ["WRONG"]}, "unknown --category value 'WRONG'"),
    ],
)
def test_unknown_filter_values_suggest_close_matches(clean, filters, message):
    with pytest.raises(UsageError, match=message):
        select_points(clean, **filters)


def test_unknown_value_without_close_match_lists_known_values(clean):
    with pytest.raises(UsageError, match="known values: SPORTS_EVENT, TEMPLATE"):
        select_points(clean, types=["ZZZZZZZZ"])


def test_cli_unknown_filter_is_one_line_exit_2():
    result = invoke("explain", CLEAN / "ref.tpl", CLEAN / "hyp.tpl", "--slot", "SPORTS_EVENT.WINER")
    assert result.exit_code == 2
    # the note that no texts were given (the templettes carry extents) is not the error
    lines = [line for line in result.output.strip().splitlines() if line != str(RAW_OFFSETS)]
    assert lines == [
        "unknown --slot value 'SPORTS_EVENT.WINER': no point has it (hint: did you mean SPORTS_EVENT.WINNER?)"
    ]


# ---------------------------------------------------------------- reasons


def _explain(tmp_path, ref: str, hyp: str, *options: str) -> str:
    (tmp_path / "ref.tpl").write_text(ref)
    (tmp_path / "hyp.tpl").write_text(hyp)
    result = invoke("explain", tmp_path / "ref.tpl", tmp_path / "hyp.tpl", *options)
    assert result.exit_code == 0, result.output
    return result.stdout


POINTER_REF = '<T-D-1> :=\n  EVENT: <EV-D-1>\n<EV-D-1> :=\n  W: "a"\n<EV-D-2> :=\n  W: "b"\n'
POINTER_HYP = '<T-D-1> :=\n  EVENT: <EV-D-3>\n<EV-D-2> :=\n  W: "a"\n<EV-D-3> :=\n  W: "b"\n'


@pytest.mark.parametrize(
    ("ref", "hyp", "options", "line"),
    [
        # content, clean data
        (
            '<E-D-1> :=\n  A: "defending champion [south Africa]" ##295#326#314#326#\n',
            '<E-D-1> :=\n  A: "defending champion" ##295#313#\n',
            (),
            "why  hypothesis `defending champion` does not contain any minimal string: `south africa`",
        ),
        (
            '<E-D-1> :=\n  A: "x y"\n',
            '<E-D-1> :=\n  A: "z"\n',
            (),
            "why  hypothesis `z` is not inside the reference maximal string `x y`",
        ),
        (
            '<E-D-1> :=\n  A: "the x y"\n',
            '<E-D-1> :=\n  A: "X Y"\n',
            (),
            "why  hypothesis `x y` is inside `x y` and contains the minimal string `x y`",
        ),
        # content, noisy data
        (
            '<E-D-1> :=\n  A: "rio de janeiro"\n',
            '<E-D-1> :=\n  A: "rio the janeiro"\n',
            ("--content", "noisy"),
            "why  hypothesis tokens `rio the janeiro` are not a run of the reference `rio de janeiro`",
        ),
        (
            '<E-D-1> :=\n  A: "defending champion [south africa]"\n',
            '<E-D-1> :=\n  A: "defending champion"\n',
            ("--content", "noisy"),
            "why  no minimal string `south africa` inside the hypothesis `defending champion`",
        ),
        (
            '<E-D-1> :=\n  A: "x"\n',
            '<E-D-1> :=\n  A: "uh"\n',
            ("--content", "noisy"),
            "why  the hypothesis has no words once fillers are dropped (dropped: `uh`)",
        ),
        # extent
        (
            '<E-D-1> :=\n  A: "x y" ##295#326#\n',
            '<E-D-1> :=\n  A: "x" ##300#330#\n',
            (),
            "why  extent 300..330 not enclosed in 295..326",
        ),
        (
            '<E-D-1> :=\n  A: "ab [cd]" ##0#5#3#5#\n',
            '<E-D-1> :=\n  A: "ab" ##0#2#\n',
            (),
            "why  extent 0..2 enclosed in 0..5 but overlaps no minimal extent (3..5)",
        ),
        (
            '<E-D-1> :=\n  A: "ab" ##0#5#\n',
            '<E-D-1> :=\n  A: "ab" ##1#3#\n',
            (),
            "why  extent 1..3 enclosed in 0..5, overlaps minimal 0..5",
        ),
        ('<E-D-1> :=\n  A: "x" ##0#1#\n', '<E-D-1> :=\n  A: "x"\n', (), "why  the hypothesis fill has no extent"),
        ('<E-D-1> :=\n  A: "x"\n', '<E-D-1> :=\n  A: "x" ##0#1#\n', (), "why  the reference fill has no extent"),
        # unpaired fills
        (
            '<E-D-1> :=\n  A: "x"\n  B: "y"\n',
            '<E-D-1> :=\n  B: "y"\n',
            (),
            "why  no hypothesis fill for this reference fill",
        ),
        (
            '<E-D-1> :=\n  B: "y"\n',
            '<E-D-1> :=\n  A: "x"\n  B: "y"\n',
            (),
            "why  no reference fill for this hypothesis fill",
        ),
        (
            '<E-D-1> :=\n  A: ? "x"\n  B: "y"\n',
            '<E-D-1> :=\n  B: "y"\n',
            (),
            "why  reference fill in an optional slot left unmatched",
        ),
        # pointers
        (
            POINTER_REF,
            POINTER_HYP,
            (),
            "why  pointer: reference instance <EV-D-1> mapped to <EV-D-2>, hypothesis points to <EV-D-3>",
        ),
        (
            '<T-D-1> :=\n  E: <EV-D-1>\n<EV-D-1> :=\n  W: "a"\n',
            '<T-D-1> :=\n  E: <X-D-1>\n<X-D-1> :=\n  W: "a"\n',
            (),
            "why  pointer: reference instance <EV-D-1> is mapped to nothing, hypothesis points to <X-D-1>",
        ),
        (
            '<T-D-1> :=\n  E: <EV-D-1>\n<EV-D-1> :=\n  W: "a"\n',
            '<T-D-1> :=\n  E: <EV-D-1>\n<EV-D-1> :=\n  W: "a"\n',
            (),
            "why  <EV-D-1> is mapped to <EV-D-1>",
        ),
        (
            '<T-D-1> :=\n  C: "q"\n',
            '<T-D-1> :=\n  C: "q"\n  E: <EV-D-1>\n<EV-D-1> :=\n  W: "a"\n',
            (),
            "why  no reference pointer for <EV-D-1>",
        ),
        (
            '<T-D-1> :=\n  C: "q"\n  E: <EV-D-1>\n<EV-D-1> :=\n  W: "a"\n',
            '<T-D-1> :=\n  C: "q"\n',
            (),
            "why  no hypothesis pointer for <EV-D-1>",
        ),
        (
            '<T-D-1> :=\n  E: ? <EV-D-1>\n<EV-D-1> :=\n  W: "a"\n',
            '<T-D-1> :=\n  C: "q"\n',
            (),
            "why  <EV-D-1> in an optional slot left unmatched",
        ),
        (
            '<T-D-1> :=\n  E: <EV-D-1>\n<EV-D-1> :=\n  OBJ_STATUS: OPTIONAL\n  W: "a"\n',
            '<T-D-1> :=\n  C: "q"\n',
            (),
            "why  <EV-D-1> points to an optional instance that no hypothesis instance matched",
        ),
    ],
)
def test_every_reason_category_through_explain(tmp_path, ref, hyp, options, line):
    assert line in _explain(tmp_path, ref, hyp, *options)


def test_explain_block_shows_both_fills_with_instance_and_line(tmp_path):
    out = _explain(tmp_path, POINTER_REF, POINTER_HYP, "--category", "INC")
    assert out.splitlines()[:3] == [
        "INC pointer T.EVENT  D",
        "  REF  <EV-D-1>  (<T-D-1>, line 2)",
        "  HYP  <EV-D-3>  (<T-D-1>, line 2)",
    ]
    assert out.rstrip().endswith("1 points (INC 1)")


def test_unpaired_side_shows_a_dash(tmp_path):
    out = _explain(tmp_path, '<E-D-1> :=\n  A: "x"\n  B: "y"\n', '<E-D-1> :=\n  B: "y"\n', "--category", "MIS")
    assert '  REF  "x"  (<E-D-1>, line 2)' in out and "  HYP  -" in out


def test_table_puts_fills_side_by_side(clean):
    result = invoke(
        "explain", CLEAN / "ref.tpl", CLEAN / "hyp.tpl", "--table", "--slot", "SPORTS_EVENT.LOSER", "--category", "INC"
    )
    assert result.exit_code == 0, result.output
    [row] = [line for line in result.stdout.splitlines() if line.startswith("INC")]
    cells = [c.strip() for c in row.split("│")]
    assert cells[:4] == ["INC", "content", "SPORTS_EVENT.LOSER", cells[3]]
    [point] = select_points(clean, slots=["SPORTS_EVENT.LOSER"], categories=["INC"])
    assert cells[4] == point.ref.fill and cells[5] == point.hyp.fill
    assert result.stdout.rstrip().endswith("1 points (INC 1)")


def test_no_match_is_not_an_error():
    result = invoke("explain", SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", "--category", "INC")
    assert result.exit_code == 0 and result.stdout.strip() == "0 points (none)"


def test_sample_all_correct_points_listed():
    result = invoke("explain", SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl")
    assert result.stdout.rstrip().endswith("13 points (COR 13)")
    assert "COR pointer SPORTS_EVENT" not in result.stdout and "COR pointer TEMPLATE.EVENT" in result.stdout


# ---------------------------------------------------------------- aligned context


def test_context_marks_the_fill_columns_with_words_around(asr):
    [location] = select_points(asr, slots=["SPORTS_EVENT.LOCATION"], categories=["INC"])
    context = aligned_context(asr, location, around=2)
    # "two to nothing" / "two nil" are the two tokens 2 0 (spoken forms); 0 is the word before "in"
    assert context.ref_words == ("0", "in", "rio", "de", "janeiro", "on", "wednesday")
    assert context.hyp_words == ("0", "in", "rio", "the", "janeiro", "on", "wednesday")
    assert context.ref_marked == (False, False, True, True, True, False, False)
    assert context.ref_marked == context.hyp_marked
    assert GAP not in context.kinds


def test_context_gap_shown_as_stars(asr):
    [scorer] = [p for p in select_points(asr, slots=["SPORTS_EVENT.SCORER"]) if p.kind == "content"]
    ref_line, hyp_line = context_lines(aligned_context(asr, scorer, around=1), plain=True)
    assert ref_line == " wednesday  [glen] [buni-] [bunting]  scored"
    assert hyp_line == " wednesday  [glen] [***  ] [bunting]  scored"


def test_context_on_a_terminal_uses_markup_and_escapes_words(asr):
    [winner] = select_points(asr, slots=["SPORTS_EVENT.WINNER"], categories=["INC"])
    ref_line, hyp_line = context_lines(aligned_context(asr, winner, around=0), plain=False)
    assert ref_line == "[bold reverse]martina[/] [bold reverse]hingis[/]"
    assert hyp_line == "[bold reverse]martina[/] [bold reverse]hinges[/]"


def test_distant_fills_get_two_windows_with_a_gap(tmp_path):
    # The hypothesis WINNER of the tennis story points at "melbourne", far from "Martina Hingis".
    hyp = (ASR / "hyp.tpl").read_text().replace('"martina hinges" ##145#159#', '"martina hinges" ##219#228#')
    (tmp_path / "hyp.tpl").write_text(hyp)
    result = score_files(
        ASR / "ref.tpl", tmp_path / "hyp.tpl", ref_text=ASR / "reference.sgml", hyp_text=ASR / "asr_unsegmented.sgml"
    )
    [extent] = [
        p
        for p in select_points(result, slots=["SPORTS_EVENT.WINNER"], documents=["ABC19980120.1830.0600"])
        if p.kind == "extent" and p.ref is not None
    ]
    assert extent.category == "INC" and "not enclosed" in extent.reason
    context = aligned_context(result, extent, around=1)
    assert context.kinds.count(GAP) == 1
    gap = context.kinds.index(GAP)
    assert [w for w, on in zip(context.ref_words[:gap], context.ref_marked, strict=False) if on] == [
        "martina",
        "hingis",
    ]
    assert [w for w, on in zip(context.hyp_words[gap:], context.hyp_marked[gap:], strict=True) if on] == ["melbourne"]
    assert len(context.ref_words) < 12  # not every column in between


def test_hypothesis_extent_on_no_word_reason_and_context(tmp_path):
    hyp = (ASR / "hyp.tpl").read_text().replace('"brazil" ##14#20#', '"brazil" ##0#3#')  # the <s> tag
    (tmp_path / "hyp.tpl").write_text(hyp)
    out = invoke(
        "explain",
        ASR / "ref.tpl",
        tmp_path / "hyp.tpl",
        *ASR_TEXTS,
        "--slot",
        "SPORTS_EVENT.WINNER",
        "--doc",
        "ABC19980120.1830.0500",
        "--category",
        "INC",
    ).stdout
    assert "why  the hypothesis extent touches no aligned word" in out
    assert "aligned REF:" in out and "[brazil]" in out  # the reference fill still has its context


def test_no_context_when_texts_are_the_same(clean):
    rows = list(explain(clean))
    assert rows  # not vacuous: the clean example has points to explain
    assert all(row.context is None for row in rows)


def test_cli_aligned_context_plain_when_piped():
    result = invoke(
        "explain",
        ASR / "ref.tpl",
        ASR / "hyp.tpl",
        *ASR_TEXTS,
        "--slot",
        "SPORTS_EVENT.LOCATION",
        "--category",
        "INC",
        "--context",
        "1",
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "INC content SPORTS_EVENT.LOCATION  ABC19980120.1830.0500"
    assert lines[3] == "  why  hypothesis tokens `rio the janeiro` are not a run of the reference `rio de janeiro`"
    # `de` heard as `the` inside the reference fill: a recognition error, named
    assert lines[4] == "  lost to recognition: the recognizer heard `the` for `de`"
    assert lines[5] == "  aligned REF:  in  [rio] [de ] [janeiro]  on"
    assert lines[6] == "  aligned HYP:  in  [rio] [the] [janeiro]  on"
    assert "\x1b[" not in result.stdout


# ---------------------------------------------------------------- score --by / --sort / --show-mapping


def _table_rows(text: str, title: str) -> list[str]:
    """First cells of the body rows of the table titled ``title`` (before its ALL row)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == title)
    names = []
    for line in lines[start + 3 :]:
        if "│" not in line:
            continue
        name = line.split("│")[0].strip()
        if name == "ALL":
            break
        names.append(name)
    return names


def test_by_document_sorted_worst_f_first(clean):
    result = invoke("score", CLEAN / "ref.tpl", CLEAN / "hyp.tpl", "--by", "document", "--sort", "F")
    assert result.exit_code == 0, result.output
    names = _table_rows(result.stdout, "Scores per document")
    docs = clean.by("document")
    assert sorted(names) == sorted(docs)
    f = [docs[n].metrics()["F"] for n in names]
    defined = [v for v in f if v is not None]
    assert defined == sorted(defined) and f[: len(defined)] == defined  # worst first, undefined last


def test_by_type_sorted_by_a_count_largest_first(clean):
    result = invoke("score", CLEAN / "ref.tpl", CLEAN / "hyp.tpl", "--by", "type", "--sort", "mis")
    assert result.exit_code == 0, result.output
    names = _table_rows(result.stdout, "Scores per type")
    types = clean.by("type")
    assert sorted(names) == sorted(types)
    mis = [types[n].mis for n in names]
    assert mis == sorted(mis, reverse=True)


def test_by_both_levels_and_unsorted_keeps_file_order(clean):
    result = invoke("score", CLEAN / "ref.tpl", CLEAN / "hyp.tpl", "--by", "type", "--by", "document")
    assert _table_rows(result.stdout, "Scores per document") == list(clean.by("document"))
    assert _table_rows(result.stdout, "Scores per type") == list(clean.by("type"))


@pytest.mark.parametrize(
    ("option", "value", "choices"),
    [
        ("--by", "slot", "'document', 'type'"),
        (
            "--sort",
            "FOO",
            "'f', 'rec', 'pre', 'und', 'ovg', 'sub', 'err', 'ser', 'pos', 'act', 'cor', 'inc', 'mis', 'spu', 'opt', 'rem'",
        ),
    ],
)
def test_bad_by_or_sort_is_exit_2(option, value, choices):
    result = invoke("score", CLEAN / "ref.tpl", CLEAN / "hyp.tpl", "--by", "document", option, value)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"invalid value for '{option}': '{value}' is not one of {choices} (hint: see hub4eval score --help)\n"
    )


def test_show_mapping_lists_every_instance_pair(clean):
    result = invoke("score", CLEAN / "ref.tpl", CLEAN / "hyp.tpl", "--show-mapping")
    assert result.exit_code == 0, result.output
    assert "Instance mapping" in result.stdout
    body = result.stdout.split("Instance mapping", 1)[1]
    for ref, hyp, f in clean.instance_pairs():
        pattern = rf"{re.escape(ref or '-')}\s+│\s+{re.escape(hyp or '-')}"
        if ref and hyp:
            pattern += rf"\s+│\s+{100 * f:.1f}"
        assert re.search(pattern, body), (ref, hyp)


def test_the_aligned_document_of_a_docid_is_found_as_a_scan_would():
    """Reference documents first, then a document of the hypothesis only; none for an unknown DOCID."""
    from hub4eval.io.corpus import parse_corpus
    from hub4eval.report.explain import _document
    from hub4eval.text.columns import align_corpora

    hide = ("ANNOTATION", "DOCNO")
    ref = parse_corpus("<DOC><DOCNO>A</DOCNO> one </DOC><DOC><DOCNO>B</DOCNO> two </DOC>", "r", non_extractable=hide)
    hyp = parse_corpus("<DOC><DOCNO>B</DOCNO> two </DOC><DOC><DOCNO>C</DOCNO> 3 </DOC>", "h", non_extractable=hide)
    alignment = align_corpora(ref, hyp)
    for docid in ("A", "B", "C", "Z"):
        scanned = next((d for d in alignment.documents if d.ref_docid == docid), None) or next(
            (d for d in alignment.documents if d.ref_docid is None and d.hyp_docid == docid), None
        )
        assert _document(alignment, docid) is scanned
    assert _document(alignment, "C").ref_docid is None and _document(alignment, "Z") is None
