"""The streamed JSON (``--json``) is exactly the §9 object of :meth:`ScoreResult.to_json`."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub4eval.api import score
from hub4eval.config import ScoreConfig
from hub4eval.model import Extent, FillAlternative, Instance, InstanceSet, Slot, TemplateSet, TextFill
from hub4eval.report.export import iter_json_text
from tests.support.strategies import template_sets

# Strings the JSON encoder must escape or keep as they are (ensure_ascii=False).
AWKWARD = st.text(
    alphabet=st.sampled_from(['"', "\\", "é", "\u2028", "\t", "x", " ", "<", "'", "ü"]), min_size=1, max_size=6
)


def _awkward_set(docid: str, contents: list[str], role: str, extents: bool = False) -> TemplateSet:
    """One instance, a slot per content; with ``extents``, each at 0..its length (the same
    extent for contents of the same length)."""

    def fill(c: str) -> TextFill:
        at = (Extent(0, len(c)),) if extents else ()
        return TextFill(c, ((0, len(c)),), at, at)

    slots = tuple(Slot(f"S{k}", (FillAlternative((fill(c),)),)) for k, c in enumerate(contents))
    return TemplateSet((InstanceSet(docid, (Instance("EV", docid, 1, slots),)),), role=role)


def _streamed(result) -> dict:
    text = "".join(iter_json_text(result))
    for line in text.split("\n")[1:-2]:  # one entry per line
        assert line.startswith("  ")
    return json.loads(text)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(template_sets(reference=True), template_sets(reference=False))
def test_streamed_json_equals_the_result_object(ref, hyp):
    result = score(ref, hyp)
    assert _streamed(result) == json.loads(json.dumps(result.to_json()))


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(['D"1', "D\\2", "Dé", "D1"]),
    st.lists(AWKWARD, min_size=1, max_size=3),
    st.lists(AWKWARD, min_size=1, max_size=3),
)
def test_streamed_json_escapes_documents_fills_and_reasons(docid, ref_contents, hyp_contents):
    config = ScoreConfig(keep_punctuation=True)  # quotes and backslashes reach the reasons
    result = score(
        _awkward_set(docid, ref_contents, "reference"), _awkward_set(docid, hyp_contents, "hypothesis"), config=config
    )
    streamed = _streamed(result)
    assert streamed == json.loads(json.dumps(result.to_json()))
    assert [p["document"] for p in streamed["points"]] == [docid] * len(streamed["points"])


def _entry_lines(result) -> list[str]:
    """The lines of the streamed "points" list, each entry without its separating comma."""
    lines = "".join(iter_json_text(result)).split("\n")
    if '  "points": [],' in lines:
        return []
    start = lines.index('  "points": [')
    end = lines.index("  ],", start)
    return [line.removeprefix("    ").removesuffix(",") for line in lines[start + 1 : end]]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(['D"1', "D\\2", "Dé", "D1"]),
    st.lists(AWKWARD, min_size=1, max_size=3),
    st.lists(AWKWARD, min_size=1, max_size=3),
    st.booleans(),
    st.booleans(),
)
def test_each_point_entry_is_the_point_as_the_json_encoder_writes_it(docid, ref_contents, hyp_contents, keep, at):
    # byte for byte: the writer makes each entry from the fill pairs, not through the encoder
    result = score(
        _awkward_set(docid, ref_contents, "reference", extents=at),
        _awkward_set(docid, hyp_contents, "hypothesis", extents=at),
        config=ScoreConfig(keep_punctuation=keep),
    )
    expected = [json.dumps(point.as_dict(), ensure_ascii=False) for point in result.iter_points()]
    assert _entry_lines(result) == expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(template_sets(reference=True), template_sets(reference=False))
def test_each_point_entry_of_random_sets_is_the_point_as_the_json_encoder_writes_it(ref, hyp):
    result = score(ref, hyp)
    assert _entry_lines(result) == [json.dumps(point.as_dict(), ensure_ascii=False) for point in result.iter_points()]


# -- the pieces the --json writer makes for every point ------------------------

from hub4eval.model import PointerFill  # noqa: E402
from hub4eval.report.export import write_text  # noqa: E402
from hub4eval.scoring.fills import FillPreparer  # noqa: E402
from hub4eval.scoring.points import fill_text  # noqa: E402
from hub4eval.scoring.verdicts import TextComparison, compare_text  # noqa: E402


@pytest.mark.parametrize(
    "fill, written",
    [
        (TextFill("Bulls", ((0, 5),), (Extent(3, 8),), (Extent(3, 8),)), '"Bulls" ##3#8#'),
        (TextFill("Bulls", ((0, 5),)), '"Bulls"'),
        (
            TextFill("the Bulls", ((4, 9),), (Extent(0, 9), Extent(4, 9)), (Extent(4, 9),), bracketed=True),
            '"the [Bulls]" ##0#9#4#9#',
        ),
        (PointerFill("EV", "D1", 2), "<EV-D1-2>"),
    ],
)
def test_fill_text_writes_the_fill_as_in_a_templette_file(fill, written):
    assert fill_text(fill) == written


@pytest.mark.parametrize(
    "ref, reason",
    [
        (
            TextFill("x y", ((0, 3),), (Extent(0, 5),), (Extent(0, 5),)),
            "extent 1..3 enclosed in 0..5, overlaps minimal 0..5",
        ),
        (
            TextFill("x y", ((2, 3),), (Extent(0, 5), Extent(2, 3)), (Extent(2, 3),), bracketed=True),
            "extent 1..3 enclosed in 0..5, overlaps minimal 2..3",
        ),
    ],
)
def test_extent_reason_names_the_minimal_extent_it_overlaps(ref, reason):
    config = ScoreConfig()
    prepared_ref = FillPreparer(config, reference=True).prepare(ref, "D")
    prepared_hyp = FillPreparer(config, reference=False).prepare(
        TextFill("x", ((0, 1),), (Extent(1, 3),), (Extent(1, 3),)), "D"
    )
    _, extent = compare_text(prepared_ref, prepared_hyp, TextComparison.of(config, noisy=False))
    assert (extent.category, extent.reason) == ("COR", reason)


def test_write_text_keeps_every_piece_in_order_across_batches(tmp_path, capsys):
    pieces = [f"{n}\n" for n in range(10_001)]  # more than two batches
    write_text(iter(pieces), str(tmp_path / "out.json"))
    assert (tmp_path / "out.json").read_text(encoding="utf-8") == "".join(pieces)
    write_text(iter(pieces), "-")
    assert capsys.readouterr().out == "".join(pieces)


# -- the entries of a count, written from its compact output (a group of --json) ------------

from hub4eval.report.export import _entry_batches, _run_entries  # noqa: E402
from hub4eval.scoring.counted_points import counted_fill_pairs  # noqa: E402
from hub4eval.scoring.pipeline import score as pipeline_score  # noqa: E402
from hub4eval.util.records import replace  # noqa: E402
from tests.support.strategies import as_hypothesis  # noqa: E402

_CONFIGS = st.sampled_from(
    [
        ScoreConfig(),
        ScoreConfig(content="noisy"),
        ScoreConfig(compare="extent"),
        ScoreConfig(compare="content"),
        ScoreConfig(min_map_f=0.3, beta=0.5),
        ScoreConfig(keep_punctuation=True, case_sensitive=True),
        ScoreConfig(unscored_slots=()),
    ]
)


def _counted_entries(ref: TemplateSet, hyp: TemplateSet, config: ScoreConfig) -> tuple[list[str], list[str]]:
    """The entries of a count without match records, as the run writer writes them and as
    the generic writer writes the count's fill pairs (:func:`counted_fill_pairs`)."""
    written: list[str] = []
    generic: list[str] = []

    def runs(run) -> None:
        _run_entries(run, written.append)
        for batch in _entry_batches(counted_fill_pairs(run), None, run.mapper.how):
            generic.extend(batch)

    result = pipeline_score(ref, hyp, config=config, counts_only=True, point_runs=runs)
    assert result.tally is not None  # counted: no match records kept
    return written, generic


def _with_lines(tset: TemplateSet, first: int) -> TemplateSet:
    """``tset`` with a line of its own for each instance and fill, from ``first`` on (as read
    from a file: the entries show each side's lines)."""
    line = iter(range(first, first + 100_000))
    sets = []
    for iset in tset.instance_sets:
        instances = []
        for inst in iset.instances:
            slots = tuple(
                replace(
                    slot,
                    alternatives=tuple(
                        replace(a, fills=tuple(replace(f, line=next(line)) for f in a.fills)) for a in slot.alternatives
                    ),
                )
                for slot in inst.slots
            )
            instances.append(replace(inst, slots=slots, line=next(line)))
        sets.append(replace(iset, instances=tuple(instances)))
    return replace(tset, instance_sets=tuple(sets))


@st.composite
def _pairs_of_sets(draw):
    """A reference and a hypothesis: unrelated, the reference as a hypothesis writes it (every
    pair correct), or that with some of its sets or slots taken from an unrelated one."""
    plain = draw(st.booleans())
    ref = draw(template_sets(reference=True, plain=plain))
    other = draw(template_sets(reference=False, plain=plain))
    how = draw(st.sampled_from(["unrelated", "same", "mixed"]))
    if how == "unrelated":
        return ref, other
    same = as_hypothesis(ref)
    if how == "same":
        return ref, same
    mixed = tuple(draw(st.sampled_from([s, o])) for s, o in zip(same.instance_sets, other.instance_sets, strict=False))
    mixed += same.instance_sets[len(mixed) :]
    docids = set()
    kept = tuple(s for s in mixed if not (s.docid in docids or docids.add(s.docid)))  # one set per DOCID
    return ref, TemplateSet(kept, role="hypothesis")


def _lined(draw_sets):
    return draw_sets.map(lambda sets: (_with_lines(sets[0], 1), _with_lines(sets[1], 5000)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_lined(_pairs_of_sets()), _CONFIGS)
def test_the_entries_of_a_count_are_those_of_the_match_records(sets, config):
    # the record path (a match record per pair, then a point per verdict) is the oracle
    ref, hyp = sets
    expected = [
        json.dumps(point.as_dict(), ensure_ascii=False) for point in score(ref, hyp, config=config).iter_points()
    ]
    written, generic = _counted_entries(ref, hyp, config)
    joined = ",\n    ".join(expected)
    assert ",\n    ".join(written) == joined
    assert ",\n    ".join(generic) == joined


def test_the_entries_of_a_count_escape_documents_fills_and_reasons():
    # the usual correct pair, written at once, escapes what the encoder escapes
    for docid, content in (('D"1', 'a "b'), ("D\\2", "c\\d"), ("Dé", "é\u2028"), ("D1", "tab\there")):
        ref = _awkward_set(docid, [content, "x"], "reference", extents=True)
        hyp = _awkward_set(docid, [content], "hypothesis", extents=True)
        config = ScoreConfig(keep_punctuation=True)
        expected = [json.dumps(p.as_dict(), ensure_ascii=False) for p in score(ref, hyp, config=config).iter_points()]
        written, generic = _counted_entries(ref, hyp, config)
        assert ",\n    ".join(written) == ",\n    ".join(expected) == ",\n    ".join(generic)
        assert len(expected) == 4  # a correct pair (content, extent) and a reference fill left over (MIS, MIS)


# -- the head of a run in groups: each group's by-document rows and mapping, encoded in its worker ------

from hub4eval.report.export import HeadPieces  # noqa: E402
from hub4eval.scoring.metrics import Counts  # noqa: E402
from hub4eval.scoring.result import Tally  # noqa: E402

_KEYS = st.one_of(st.none(), st.text(min_size=1, max_size=6))
_FS = st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True), st.integers(0, 1))


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.text(max_size=6), st.builds(Counts, *[st.integers(0, 3)] * 6), max_size=6),
    st.lists(st.tuples(_KEYS, _KEYS), max_size=6),
    st.lists(st.tuples(_KEYS, _KEYS, _FS), max_size=6),
    st.sampled_from([1.0, 0.5, 2.0]),
)
def test_a_groups_head_pieces_are_what_the_encoder_writes_of_its_rows_and_lists(rows, set_pairs, pairs, beta):
    # the pieces are f-strings (a key or null; a float as float.__repr__ writes it; a row's
    # counts once per value): the encoder of the whole result is the oracle
    tally = Tally({"document": rows}, pairs, set_pairs, [])
    head = HeadPieces.of(tally, beta)
    dump = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode
    assert head.documents == len(rows)
    assert head.by_document == ",\n    ".join(f"{dump(k)}: {dump(v.as_dict(beta))}" for k, v in rows.items())
    assert f"[{head.instance_sets}]" == dump([list(p) for p in set_pairs])
    assert f"[{head.instances}]" == dump([[r, h] for r, h, _ in pairs if r and h])
    assert f"[{head.instance_f}]" == dump([list(p) for p in pairs])


from hub4eval.report.export import _first_fills  # noqa: E402
from hub4eval.scoring.counted_points import is_plain_instance, item  # noqa: E402
from hub4eval.scoring.mapping import Mapper  # noqa: E402


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(template_sets(reference=True), template_sets(reference=False), st.sampled_from([(), ("WINNER",)]))
def test_the_fills_of_a_plain_instance_are_those_of_its_view(ref, hyp, unscored):
    # the writer reads a plain instance's fills as written; Mapper._view's items are the oracle
    config = ScoreConfig(unscored_slots=unscored)
    mapper = Mapper(config, FillPreparer(config), FillPreparer(config, reference=False))
    for tset, reference in ((ref, True), (hyp, False)):
        for inst in tset.instances:
            if not is_plain_instance(inst, reference, mapper.unscored):
                continue
            fills = _first_fills(inst)
            for name in (view := mapper._view(inst, reference)):
                expected = item(view, name)
                assert fills[name] is getattr(expected, "fill", expected)


def test_the_fills_of_a_plain_instance_with_a_name_twice_are_those_of_its_first_slot():
    config = ScoreConfig(unscored_slots=("COMMENT",))
    mapper = Mapper(config, FillPreparer(config), FillPreparer(config, reference=False))
    first, second = TextFill("a", ((0, 1),)), TextFill("b", ((0, 1),))
    inst = Instance(
        "EV",
        "D",
        1,
        (
            Slot("COMMENT", ()),  # no fill at all: left out of the view, as unscored
            Slot("WINNER", (FillAlternative((first,)),)),
            Slot("WINNER", (FillAlternative((second,)),)),
        ),
    )
    assert is_plain_instance(inst, True, mapper.unscored)
    view = mapper._view(inst, True)
    assert _first_fills(inst)["WINNER"] is first is item(view, "WINNER").fill


from hub4eval.report.export import RunWriter  # noqa: E402


@pytest.mark.parametrize("batch", [1, 3, 512])
def test_a_run_writer_writes_every_entry_once_in_order_whatever_its_batches(tmp_path, monkeypatch, batch):
    # the writer writes out what it has made between instance sets, once it holds `batch`
    # entries: the file is the entries of the match records joined, however they were cut
    ref = _with_lines(_generated_set(30, reference=True), 1)
    hyp = _with_lines(_generated_set(30, reference=False), 5000)
    config = ScoreConfig()
    expected = ",\n    ".join(
        json.dumps(point.as_dict(), ensure_ascii=False) for point in score(ref, hyp, config=config).iter_points()
    )
    monkeypatch.setattr("hub4eval.report.export._BATCH", batch)
    writer = RunWriter(str(tmp_path / "points.jsonl"))
    try:
        pipeline_score(ref, hyp, config=config, counts_only=True, point_runs=writer)
    finally:
        writer.close()
    assert (tmp_path / "points.jsonl").read_text(encoding="utf-8") == expected


def _generated_set(documents: int, reference: bool) -> TemplateSet:
    """``documents`` documents of benchmarks/gen_templates.py (seed 3, errors), one side of them."""
    import importlib.util

    from hub4eval.io.templettes import parse_templates
    from tests.support import ROOT

    spec = importlib.util.spec_from_file_location("gen_templates", ROOT / "benchmarks" / "gen_templates.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    ref_text, hyp_text = module.generate(documents, documents * 10, seed=3, error=0.3)
    role = "reference" if reference else "hypothesis"
    return parse_templates(ref_text if reference else hyp_text, role=role)
