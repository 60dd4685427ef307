"""One hypothesis instance set over an unsegmented hypothesis that holds several stories:
the warning that names it, and ``--split-sets``, which cuts it at the reference documents."""

from __future__ import annotations

import bisect
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.api import score_files
from hub4eval.config import ScoreConfig
from hub4eval.io.templettes import parse_templates, write_templates
from hub4eval.model import Extent, FillAlternative, Instance, InstanceSet, PointerFill, Slot, TemplateSet, TextFill
from hub4eval.scoring.split_sets import SpanningSetWarning, document_groups, spanning_set_warnings
from hub4eval.util.records import replace

ROOT = Path(__file__).resolve().parents[2]
ASR = ROOT / "examples" / "asr"

STORY_1 = "Brazil beat Chile in Rio."
STORY_2 = "Hingis defeated Martinez in Melbourne."
REFERENCE = "".join(
    f"<DOC>\n<DOCNO> {docid} </DOCNO>\n<TEXT>\n{story}\n</TEXT>\n</DOC>\n"
    for docid, story in (("D1", STORY_1), ("D2", STORY_2))
)
ASR_TEXT = "<s> brazil beat chile in rio </s>\n<s> hingis defeated martinez in melbourne </s>\n"


def _at(text: str, word: str, start: int = 0) -> str:
    """``"word" ##a#b#`` for the first ``word`` in ``text`` from ``start`` (offsets of the file or document)."""
    a = text.index(word, start)
    return f'"{word}" ##{a}#{a + len(word)}#'


def _reference() -> str:
    out = []
    for n, (docid, winner, loser) in enumerate((("D1", "Brazil", "Chile"), ("D2", "Hingis", "Martinez"))):
        document = REFERENCE.split("</DOC>\n")[n] + "</DOC>\n"
        out.append(
            f"<TEMPLATE-{docid}-1> :=\n    EVENT: <SPORTS_EVENT-{docid}-1>\n\n"
            f"<SPORTS_EVENT-{docid}-1> :=\n    WINNER: {_at(document, winner)}\n    LOSER: {_at(document, loser)}\n\n"
        )
    return "".join(out)


def _one_set(docid: str = "rec") -> str:
    """The extractor's output: both stories under one DOCID; the second LOSER is wrong."""
    return (
        f"<TEMPLATE-{docid}-1> :=\n    EVENT: <SPORTS_EVENT-{docid}-1>\n\n"
        f"<SPORTS_EVENT-{docid}-1> :=\n    WINNER: {_at(ASR_TEXT, 'brazil')}\n    LOSER: {_at(ASR_TEXT, 'chile')}\n\n"
        f"<TEMPLATE-{docid}-2> :=\n    EVENT: <SPORTS_EVENT-{docid}-2>\n\n"
        f"<SPORTS_EVENT-{docid}-2> :=\n    WINNER: {_at(ASR_TEXT, 'hingis')}\n"
        f"    LOSER: {_at(ASR_TEXT, 'melbourne')}\n\n"
    )


def _split_by_hand() -> str:
    """The same instances, each story under its own DOCID."""
    one = _one_set()
    first, second = one[: one.index("<TEMPLATE-rec-2>")], one[one.index("<TEMPLATE-rec-2>") :]
    return first.replace("-rec-", "-recA-") + second.replace("-rec-", "-recB-")


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {
        "ref_text": tmp_path / "reference.sgml",
        "hyp_text": tmp_path / "asr.sgml",
        "ref": tmp_path / "ref.tpl",
        "one": tmp_path / "one_set.tpl",
        "hand": tmp_path / "by_hand.tpl",
    }
    for name, text in (
        ("ref_text", REFERENCE),
        ("hyp_text", ASR_TEXT),
        ("ref", _reference()),
        ("one", _one_set()),
        ("hand", _split_by_hand()),
    ):
        paths[name].write_text(text, encoding="utf-8")
    return paths


def _score(files: dict[str, Path], hyp: str, **options: object):
    return score_files(
        files["ref"], files[hyp], ref_text=files["ref_text"], hyp_text=files["hyp_text"], config=ScoreConfig(**options)
    )


def _counts(result) -> tuple[int, ...]:
    c = result.total
    return (c.cor, c.inc, c.mis, c.spu)


def test_one_set_over_two_stories_loses_the_second_story_and_says_so(files):
    # Each story: TEMPLATE (1 pointer point) + SPORTS_EVENT (WINNER, LOSER: content and extent
    # points, 4), 5 points; POS 10, ACT 10.
    # One set maps to one document only: (D1, rec) has COR 5 (the first story's 5 points) and the
    # second story's hypothesis instances spurious (1 pointer + 4 fill points = SPU 5): F 2/3;
    # (D2, rec) has COR 3 (WINNER 2, pointer 1), INC 2 (LOSER melbourne for Martinez) and SPU 5:
    # F 0.4. The greedy takes (D1, rec); D2's 5 points are MIS.
    # COR 5 INC 0 MIS 5 SPU 5: REC 50, PRE 50, F 50.
    result = _score(files, "one")
    assert _counts(result) == (5, 0, 5, 5)
    [warning] = [w for w in result.warnings if isinstance(w, SpanningSetWarning)]
    assert warning.docid == "rec" and warning.documents == ("D1", "D2")
    assert warning.unmapped_documents == ("D2",)
    assert (warning.unmapped_instances, warning.missing_points) == (2, 5)
    assert "--split-sets" in warning.message and "2 reference instances" in warning.message
    assert (warning.path, warning.line) == (str(files["one"]), 1)


def test_split_sets_gives_the_split_by_hand_score_exactly(files):
    # Split: D1 <- {TEMPLATE-rec-1, SPORTS_EVENT-rec-1} (its fills' words are in story 1),
    # D2 <- {TEMPLATE-rec-2, SPORTS_EVENT-rec-2}. D1: COR 5. D2: WINNER COR 2, LOSER INC 2,
    # pointer COR 1. COR 8 INC 2 MIS 0 SPU 0: REC = PRE = F = 80.
    split = _score(files, "one", split_sets=True)
    by_hand = _score(files, "hand")
    assert _counts(split) == _counts(by_hand) == (8, 2, 0, 0)
    assert split.total.as_dict()["F"] == pytest.approx(0.8)
    assert split.by("slot") == by_hand.by("slot")
    renamed = [
        tuple(None if key is None else str(key).replace("-recA-", "-rec-").replace("-recB-", "-rec-") for key in pair)
        for pair in by_hand.instance_pairs()
    ]
    assert [tuple(map(str, pair)) for pair in split.instance_pairs()] == renamed
    assert not [w for w in split.warnings if isinstance(w, SpanningSetWarning)]
    assert not [w for w in by_hand.warnings if isinstance(w, SpanningSetWarning)]
    assert "|split_sets:True" in split.signature and "|split_sets:False" in by_hand.signature


def test_split_sets_changes_nothing_when_sets_already_follow_the_stories(files):
    plain, split = _score(files, "hand"), _score(files, "hand", split_sets=True)
    assert [(m.ref and m.ref.docid, m.hyp and m.hyp.docid, m.counts) for m in plain.matches] == [
        (m.ref and m.ref.docid, m.hyp and m.hyp.docid, m.counts) for m in split.matches
    ]


def test_split_sets_changes_nothing_when_the_texts_are_the_same(files):
    # segmented texts pair sets by DOCID: there is nothing to cut
    texts = {"ref_text": files["ref_text"], "hyp_text": files["ref_text"]}
    plain = score_files(files["ref"], files["ref"], **texts)
    split = score_files(files["ref"], files["ref"], config=ScoreConfig(split_sets=True), **texts)
    assert plain.total == split.total and plain.instance_pairs() == split.instance_pairs()


def test_the_bundled_one_set_example_scores_as_the_bundled_split_one():
    texts = {"ref_text": ASR / "reference.sgml", "hyp_text": ASR / "asr_unsegmented.sgml"}
    split = score_files(ASR / "ref.tpl", ASR / "hyp_one_set.tpl", config=ScoreConfig(split_sets=True), **texts)
    by_hand = score_files(ASR / "ref.tpl", ASR / "hyp.tpl", **texts)
    whole = score_files(ASR / "ref.tpl", ASR / "hyp_one_set.tpl", **texts)
    assert split.total == by_hand.total
    assert [m.counts for m in split.matches] == [m.counts for m in by_hand.matches]
    assert whole.total.as_dict()["F"] < by_hand.total.as_dict()["F"]
    assert [w.docid for w in whole.warnings if isinstance(w, SpanningSetWarning)] == ["asr"]


def _text(content: str) -> TextFill:
    return TextFill(content, ((0, len(content)),), (Extent(0, len(content)),))


def _instance(type_: str, number: int, *fills) -> Instance:
    slots = tuple(Slot(f"S{k}", (FillAlternative((fill,)),)) for k, fill in enumerate(fills))
    return Instance(type_, "x", number, slots)


def test_groups_follow_pointers_both_ways_and_go_where_most_of_their_words_are():
    # documents A = columns [0, 10), B = [10, 20); each fill's columns come from the table below
    columns = {"a1": Extent(1, 2), "b1": Extent(12, 15), "b2": Extent(10, 10), "edge": Extent(8, 11)}
    spans = [("A", 0, 10), ("B", 10, 20)]
    instances = (
        _instance("T", 1, PointerFill("E", "x", 1)),  # 0: no text, tied to 1 by its pointer
        _instance("E", 1, _text("a1"), _text("b1")),  # 1: 2 words in A, 4 in B -> B
        _instance("E", 2, _text("a1")),  # 2: A
        _instance("T", 2),  # 3: no text, no pointer -> the remainder
        _instance("E", 3, _text("edge")),  # 4: 2 words in A (8, 9), 2 in B (10, 11): the tie goes to A
        _instance("F", 1, PointerFill("E", "x", 2)),  # 5: points to 2 (pointed-to instances come along) -> A
        _instance("E", 4, _text("zzz")),  # 6: a fill with no columns (all its words lost) -> the remainder
    )
    columns["zzz"] = None
    targets = document_groups(InstanceSet("x", instances), spans, lambda fill, docid: columns[fill.content])
    assert targets == [1, 1, 0, None, 0, 0, None]


def _run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hub4eval", *map(str, args)], capture_output=True, text=True, check=False, cwd=ROOT
    )


@pytest.mark.slow
def test_cli_warns_in_text_json_and_html_and_the_cause_table_says_why(files, tmp_path):
    html = tmp_path / "report.html"
    common = [files["ref"], files["one"], "--ref-text", files["ref_text"], "--hyp-text", files["hyp_text"]]
    proc = _run("score", *common, "--json", tmp_path / "out.json", "--html", html)
    assert proc.returncode == 0, proc.stderr
    [line] = [line for line in proc.stderr.splitlines() if "instance set rec" in line]
    assert line.startswith(f"{files['one']}:1:1: warning:")
    assert "D1, D2" in line and "2 reference instances" in line and "--split-sets" in line
    assert "how the sets were written" in " ".join(proc.stdout.split())
    data = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert any("instance set rec" in w and "--split-sets" in w for w in data["warnings"])
    assert "instance set rec" in html.read_text(encoding="utf-8")
    split = _run("score", *common, "--split-sets", "--json", "-")
    assert split.returncode == 0, split.stderr
    assert "instance set rec" not in split.stderr
    data = json.loads(split.stdout)
    assert data["summary"]["F"] == pytest.approx(0.8) and "|split_sets:True" in data["signature"]


@pytest.mark.slow
@pytest.mark.parametrize("command", ["explain", "compare"])
def test_explain_and_compare_take_split_sets(files, command):
    common = [files["ref"], files["one"]] + ([files["hand"]] if command == "compare" else [])
    proc = _run(command, *common, "--ref-text", files["ref_text"], "--hyp-text", files["hyp_text"], "--split-sets")
    assert proc.returncode == 0, proc.stderr
    assert "instance set rec" not in proc.stderr


@pytest.mark.slow
def test_compare_and_explain_say_why_those_mis_are_no_extraction_loss(files):
    texts = ["--ref-text", files["ref_text"], "--hyp-text", files["hyp_text"]]
    compare = _run("compare", files["ref"], files["one"], files["hand"], *texts, "--bootstrap", "10", "-q")
    assert compare.returncode == 0, compare.stderr
    [line] = [line for line in compare.stdout.splitlines() if line.startswith("A  errors lost to")]
    assert "5 of these MIS" in line and "--split-sets" in line
    # -q keeps the warning: it changes what the score means
    assert "instance set rec" in compare.stderr
    explain = _run("explain", files["ref"], files["one"], *texts, "--category", "MIS", "-q")
    assert explain.returncode == 0, explain.stderr
    assert explain.stdout.count("its document was left unmapped: hypothesis set rec") == 5


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(0, 3), min_size=1, max_size=12),
    st.lists(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 8)), max_size=3), min_size=1, max_size=5),
    st.lists(st.integers(1, 3), min_size=1, max_size=4),
)
def test_sets_in_one_document_are_passed_over_with_the_same_warnings(gaps, sets, sizes):
    """A hypothesis set whose fills' extents, first start to last end, map to columns of one reference
    document is passed over (spanning_set_warnings' extent_columns): the warnings are those of grouping
    every set. Tokens of the text at increasing offsets, one column each; documents own runs of columns."""
    tokens, at = [], 0
    for gap in gaps:  # (start, end) of each token; its column is its index
        at += gap
        tokens.append((at, at + 3))
        at += 4
    starts, ends = [s for s, _ in tokens], [e for _, e in tokens]

    def extent_columns(extent: Extent) -> Extent | None:  # as CorpusAlignment.hyp_extent reads it
        first, last = bisect.bisect_right(ends, extent.start), bisect.bisect_left(starts, extent.end) - 1
        return None if first > last else Extent(first, last)

    spans, column = [], 0
    for number, size in enumerate(sizes):
        end = len(tokens) if number == len(sizes) - 1 else min(len(tokens), column + size)
        spans.append((f"D{number}", column, end))
        column = end
    instance_sets = []
    for number, fills in enumerate(sets):
        texts = [TextFill("w", ((0, 1),), (Extent(start, start + width),)) for start, width in fills]
        instance_sets.append(InstanceSet(f"s{number}", tuple(_instance("E", k, text) for k, text in enumerate(texts))))
    hyp = TemplateSet(tuple(instance_sets), role="hypothesis")

    def columns_of(fill, docid):
        return extent_columns(fill.extents[0])

    every = spanning_set_warnings(hyp, spans, columns_of, [])
    assert spanning_set_warnings(hyp, spans, columns_of, [], extent_columns) == every
    asked: list[int] = []

    def many_extent_columns(extents):  # the sets' bounds mapped at once, in the sets' order
        asked.append(len(extents))
        return [extent_columns(extent) for extent in extents]

    assert spanning_set_warnings(hyp, spans, columns_of, [], extent_columns, many_extent_columns) == every
    assert asked == [sum(1 for fills in sets if fills)]  # one call, one extent per set with a fill
    # the same sets read from a file: their bounds come from the reader (TemplateSet.fill_bounds),
    # and warn as the walk over every fill of a copy without them does
    own = [InstanceSet(i.docid, tuple(replace(inst, docid=i.docid) for inst in i.instances)) for i in instance_sets]
    read = parse_templates(write_templates(TemplateSet(tuple(own), role="hypothesis")), "h.tpl", "hypothesis")
    assert read.fill_bounds() is not None
    walked = replace(read, path=read.path)
    assert walked.fill_bounds() is None
    assert spanning_set_warnings(read, spans, columns_of, [], extent_columns) == spanning_set_warnings(
        walked, spans, columns_of, []
    )


def test_the_sets_bounds_are_mapped_at_once_as_each_one_maps():
    """The pipeline's mapping of many extents of an unsegmented hypothesis at once gives what
    ``hyp_extent`` gives each: columns, or None where an extent touches no token."""
    from hub4eval.io.corpus import parse_corpus
    from hub4eval.scoring.pipeline import _many_hyp_extents
    from hub4eval.text.columns import align_corpora

    alignment = align_corpora(parse_corpus(REFERENCE, "r.sgml"), parse_corpus(ASR_TEXT, "h.sgml"), unsegmented=True)
    many = _many_hyp_extents(alignment)
    assert many is not None
    extents = [Extent(a, b) for a in range(0, len(ASR_TEXT) + 2, 3) for b in range(a, len(ASR_TEXT) + 4, 7)]
    expected = [alignment.hyp_extent(None, extent) for extent in extents]
    assert None in expected and len(set(expected)) > 20  # extents between tokens, and many columns
    assert many(extents) == expected
    assert many([]) == []
    segmented = align_corpora(parse_corpus(REFERENCE, "r.sgml"), parse_corpus(REFERENCE, "h.sgml"), unsegmented=False)
    assert _many_hyp_extents(segmented) is None  # the sets of a segmented hypothesis are not mapped so


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.lists(st.lists(st.tuples(st.integers(0, 5_000), st.integers(0, 40)), max_size=3), min_size=1, max_size=3),
        min_size=1,
        max_size=5,
    ),
    st.booleans(),
)
def test_the_readers_bounds_of_each_set_are_those_of_the_walk_over_its_fills(sets, pointer):
    """``TemplateSet.fill_bounds`` (what the reader found as it made the fills) gives, for each
    set, what ``_fills_bounds`` (the walk that takes its place without them) gives: sets of
    instances with 0-3 text fills each (some with none: None), and a pointer slot, from a
    written hypothesis file."""
    from hub4eval.scoring.split_sets import _fills_bounds

    instance_sets = []
    for number, instances in enumerate(sets):
        docid = f"D{number}"
        made = []
        for k, fills in enumerate(instances, 1):
            slots = [
                Slot(f"S{j}", (FillAlternative((TextFill("w x", ((0, 3),), (Extent(start, start + width),)),)),))
                for j, (start, width) in enumerate(fills)
            ]
            if pointer:
                slots.append(Slot("P", (FillAlternative((PointerFill("E", docid, 1),)),)))
            made.append(Instance("E", docid, k, tuple(slots)))
        instance_sets.append(InstanceSet(docid, tuple(made)))
    read = parse_templates(write_templates(TemplateSet(tuple(instance_sets), role="hypothesis")), "t.tpl", "hypothesis")
    assert read.fill_bounds() == [_fills_bounds(iset) for iset in read.instance_sets]
    assert replace(read, path="u.tpl").fill_bounds() is None  # a copy: the caller walks
