"""The compact mapping engine (hub4eval.scoring.pairs) against the procedure.

The oracle is the greedy over every instance pair of a type, each pair
counted through its match record (tests/support/mapping_oracle.py): the
engine must choose the same pairs and so give the same JSON (mapping, counts,
every point and reason), with and without texts, whether the documents are
mapped together or one call each.
"""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub4eval.api import score
from hub4eval.config import ScoreConfig
from hub4eval.errors import InputError
from hub4eval.io.corpus import parse_corpus
from hub4eval.io.templettes import parse_templates, write_templates
from hub4eval.model import Extent, FillAlternative, Slot, TemplateSet, TextFill
from hub4eval.scoring import mapping, pairs, pipeline
from hub4eval.scoring.fills import FillPreparer, PreparedFill
from hub4eval.scoring.result import Tally
from hub4eval.util.records import replace
from tests.support.mapping_oracle import brute_force_map_groups
from tests.support.strategies import template_sets
from tests.support.texts import with_errors


def _scored(ref, hyp, config, engine, monkeypatch, **texts) -> str:
    with monkeypatch.context() as patch:
        if engine == "records":  # every pair of every type counted through its record: the procedure itself
            patch.setattr(pairs, "map_groups", brute_force_map_groups)
        elif engine == "one by one":  # each document in a call of its own, halved batches
            patch.setattr(mapping, "_CHUNK_INSTANCES", 1)
        elif engine == "halved":  # the documents of a call split in halves down to one
            patch.setattr(pairs, "BATCH_PAIRS", 0)
        return json.dumps(score(ref, hyp, config=config, **texts).to_json(), sort_keys=True)


def _sets_and_options(test):
    """Random reference and hypothesis sets (plain instances, or any), and the options that
    change the mapping: compare, content, --min-map-f, beta."""
    return settings(
        max_examples=150,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )(
        given(
            st.one_of(
                template_sets(reference=True, max_events=8, plain=True),
                template_sets(reference=True, max_events=7),
            ),
            st.one_of(
                template_sets(reference=False, max_events=8, plain=True),
                template_sets(reference=False, max_events=7),
            ),
            st.sampled_from(["both", "content", "extent"]),
            st.sampled_from(["clean", "noisy"]),
            st.sampled_from([None, 0.0, 0.5]),
            st.sampled_from([1.0, 0.5]),
        )(test)
    )


@_sets_and_options
def test_the_compact_engine_maps_as_every_pair_counted(monkeypatch, ref, hyp, compare, content, min_f, beta):
    config = ScoreConfig(compare=compare, content=content, min_map_f=min_f, beta=beta)
    expected = _scored(ref, hyp, config, "records", monkeypatch)
    assert _scored(ref, hyp, config, "compact", monkeypatch) == expected
    assert _scored(ref, hyp, config, "one by one", monkeypatch) == expected
    assert _scored(ref, hyp, config, "halved", monkeypatch) == expected


def _tally(ref, hyp, config, engine, monkeypatch, counts_only: bool, **texts) -> list:
    """What a group of documents keeps of its score (``Tally.of``), orders of the levels' groups included."""
    with monkeypatch.context() as patch:
        if engine == "records":
            patch.setattr(pairs, "map_groups", brute_force_map_groups)
        elif engine == "halved":
            patch.setattr(pairs, "BATCH_PAIRS", 0)
        elif engine == "few aspect bits":  # no call counts without records: every pair keeps its record
            patch.setattr(pairs, "MAX_ASPECT_BITS", 0)
        tally = Tally.of(pipeline.score(ref, hyp, config=config, ceiling=False, counts_only=counts_only, **texts))
    levels = [(level, list(groups.items())) for level, groups in tally.levels.items()]
    return [levels, tally.instance_pairs, tally.set_pairs, tally.set_counts]


@_sets_and_options
def test_the_counts_without_match_records_are_those_of_the_records(
    monkeypatch, ref, hyp, compare, content, min_f, beta
):
    """A score that keeps only counts (most pairs' points taken from one pair of the same
    shapes and the pair's COR codes) counts what the match records count, in the same order."""
    config = ScoreConfig(compare=compare, content=content, min_map_f=min_f, beta=beta)
    expected = _tally(ref, hyp, config, "records", monkeypatch, False)
    assert _tally(ref, hyp, config, "compact", monkeypatch, False) == expected
    assert _tally(ref, hyp, config, "compact", monkeypatch, True) == expected
    assert _tally(ref, hyp, config, "halved", monkeypatch, True) == expected
    assert _tally(ref, hyp, config, "few aspect bits", monkeypatch, True) == expected


def _texts(seed: int) -> tuple[str, str, str, str]:
    """A reference text and an ASR-like hypothesis text of one document (word
    errors), and templettes over each: many events whose fills share words."""
    rng = random.Random(seed)
    words = ["egypt", "south", "africa", "cup", "uh", "egypt's", "two", "goal"]
    ref_words = [rng.choice(words) for _ in range(rng.randint(30, 120))]
    hyp_words = with_errors(ref_words, words, rng, (0.08, 0.16, 0.95), inserted="uh")
    ref_text = f"<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\n{' '.join(ref_words)}\n</TEXT>\n</DOC>\n"
    hyp_text = f"<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\n{' '.join(hyp_words)}\n</TEXT>\n</DOC>\n"

    def templettes(text: str, n_words: int, events: int) -> str:
        body = text.index("<TEXT>\n") + len("<TEXT>\n")
        spans = []
        at = body
        for word in text[body:].split("\n")[0].split(" "):
            spans.append((at, at + len(word)))
            at += len(word) + 1
        lines = []
        for number in range(1, events + 1):
            lines.append(f"<EVENT-D1-{number}> :=")
            for slot in ("WINNER", "LOSER"):
                if rng.random() < 0.2:
                    continue
                k = rng.randrange(len(spans))
                end = min(len(spans) - 1, k + rng.randint(0, 2))
                a, b = spans[k][0], spans[end][1]
                lines.append(f'    {slot}: "{text[a:b]}" ##{a}#{b}#')
        return "\n".join(lines) + "\n"

    ref_tpl = templettes(ref_text, len(ref_words), rng.randint(5, 25))
    hyp_tpl = templettes(hyp_text, len(hyp_words), rng.randint(5, 25))
    return ref_text, hyp_text, ref_tpl, hyp_tpl


@pytest.mark.parametrize("seed", range(12))
def test_the_compact_engine_maps_as_every_pair_counted_when_the_texts_differ(monkeypatch, seed):
    ref_text, hyp_text, ref_tpl, hyp_tpl = _texts(seed)
    texts = {
        "ref_corpus": parse_corpus(ref_text, "ref.sgml"),
        "hyp_corpus": parse_corpus(hyp_text, "hyp.sgml"),
    }
    ref = parse_templates(ref_tpl, "ref.tpl", "reference")
    hyp = parse_templates(hyp_tpl, "hyp.tpl", "hypothesis")
    for config in (ScoreConfig(), ScoreConfig(compare="extent"), ScoreConfig(compare="content")):
        expected = _scored(ref, hyp, config, "records", monkeypatch, **texts)
        assert _scored(ref, hyp, config, "compact", monkeypatch, **texts) == expected


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(template_sets(reference=True, max_events=6, plain=True), template_sets(reference=False, max_events=6))
def test_scoring_changes_none_of_its_inputs(monkeypatch, ref: TemplateSet, hyp: TemplateSet):
    """Records are immutable: a score leaves the template sets it was given as they were."""
    before = (copy.deepcopy(ref), copy.deepcopy(hyp))
    _scored(ref, hyp, ScoreConfig(), "compact", monkeypatch)
    _scored(ref, hyp, ScoreConfig(content="noisy"), "records", monkeypatch)
    assert (ref, hyp) == before


def test_too_many_pairs_are_counted_before_any_is_compared(monkeypatch):
    """The refusal comes from the count of the key holders, before a pair is made or compared."""
    text = "".join(f'<EVENT-D-{k}> :=\n    NAME: "same" ##{10 * k}#{10 * k + 4}#\n' for k in range(1, 301))
    ref = parse_templates(text, "ref.tpl", "reference")
    hyp = parse_templates(text, "hyp.tpl", "hypothesis")
    made = []
    monkeypatch.setattr(pairs._Aspect, "pairs", lambda self: made.append(self) or (_ for _ in ()).throw(AssertionError))
    monkeypatch.setattr(mapping, "MAX_CANDIDATE_PAIRS", 300 * 300 - 1)
    with pytest.raises(Exception) as caught:
        score(ref, hyp)
    # 300 x 300 content pairs share "same", and each extent shares its block with its neighbours
    assert "give more than 89,999 pairs to compare" in str(caught.value)
    assert made == []


def test_a_document_far_too_large_is_refused_before_a_fill_is_prepared(monkeypatch):
    """The pairs of equal contents as written are some of the pairs the estimate counts:
    when they alone are too many, the refusal comes before any fill is prepared, and says
    "at least"."""
    text = "".join(f'<EVENT-D-{k}> :=\n    NAME: "same" ##{10 * k}#{10 * k + 4}#\n' for k in range(1, 301))
    ref = parse_templates(text, "ref.tpl", "reference")
    hyp = parse_templates(text, "hyp.tpl", "hypothesis")
    monkeypatch.setattr(FillPreparer, "prepare", lambda *_: (_ for _ in ()).throw(AssertionError("prepared")))
    monkeypatch.setattr(mapping, "MAX_CANDIDATE_PAIRS", 300 * 300 - 1)
    with pytest.raises(InputError) as caught:
        score(ref, hyp)
    assert "give more than 89,999 pairs to compare (at least 90,000, 0.0 GB or more)" in str(caught.value)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    template_sets(reference=True, max_events=8, plain=True),
    template_sets(reference=False, max_events=8, plain=True),
    st.booleans(),
    st.sampled_from(["both", "content", "extent"]),
    st.sampled_from(["clean", "noisy"]),
)
def test_the_early_bound_never_exceeds_the_estimate(ref, hyp, same, compare, content):
    """The refusal before the fills are prepared is sound: for every group mapped, the
    bound from the contents as written is at most the estimate the arrays are counted by."""
    if same:  # the hypothesis says what the reference says, without minimal strings: many equal contents
        written = write_templates(ref).replace("[", "").replace("]", "")
        ref = parse_templates(written, "ref.tpl", "reference")
        hyp = parse_templates(written, "hyp.tpl", "hypothesis")
    calls: list[tuple[str, list[int]]] = []
    contents: list[int] = []  # per call: the candidate pairs of clean contents alone
    lower_bounds, estimates = pairs._lower_bounds, pairs._estimates

    def bounds(mapper, groups, max_pairs):
        found = lower_bounds(mapper, groups, 0)  # every group counted (none is too small to matter)
        calls.append(("bound", found))
        return found

    def counted(aspects, n_groups):
        found = estimates(aspects, n_groups)
        calls.append(("estimate", found.tolist()))
        contents.append(int(estimates([a for a in aspects if a.kind == "c"], n_groups).sum()))
        return found

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pairs, "_lower_bounds", bounds)
        patch.setattr(pairs, "_estimates", counted)
        score(ref, hyp, config=ScoreConfig(compare=compare, content=content))
    for (kind, bound), (next_kind, estimate) in zip(calls[::2], calls[1::2], strict=True):
        assert (kind, next_kind) == ("bound", "estimate")
        assert all(b <= e for b, e in zip(bound, estimate, strict=True)), (bound, estimate)
    usual = all(
        fill.minimal_is_maximal
        for inst in ref.instances
        for slot in inst.slots
        for alt in slot.alternatives
        for fill in alt.fills
        if isinstance(fill, TextFill)
    )
    if same and usual and compare != "extent" and content == "clean":
        # every usual reference fill has its twin, written alike, in the hypothesis: the bound
        # counts them (not pointers, which a call of pointers alone gives: an estimate, bound 0)
        for (_, bound), shared in zip(calls[::2], contents, strict=True):
            assert sum(bound) > 0 or shared == 0, (bound, shared)


def test_the_estimate_is_the_number_of_pairs_made():
    """:meth:`_Aspect.count` (the estimate, per group) is exactly what :meth:`_Aspect.pairs`
    makes, and a wild reference pairs with every hypothesis of its own group only."""
    rng = random.Random(5)
    for _ in range(300):
        n_ref, n_hyp, n_keys, n_groups = rng.randint(0, 6), rng.randint(0, 6), rng.randint(1, 4), rng.randint(1, 3)
        ref_group = pairs.np.asarray(sorted(rng.randrange(n_groups) for _ in range(n_ref)), dtype=pairs.Int)
        hyp_group = pairs.np.asarray(sorted(rng.randrange(n_groups) for _ in range(n_hyp)), dtype=pairs.Int)
        ref_pos = sorted(rng.randrange(n_ref) for _ in range(rng.randint(0, 8))) if n_ref else []
        keys = (
            pairs.np.asarray(ref_pos, dtype=pairs.Int),
            pairs.np.asarray([rng.randrange(n_keys) for _ in ref_pos], dtype=pairs.Int),
            pairs.np.asarray([rng.randrange(-1, n_keys) for _ in range(n_hyp)], dtype=pairs.Int),
            pairs.np.asarray(
                sorted({rng.randrange(n_ref) for _ in range(rng.randint(0, 2))}) if n_ref else [], dtype=pairs.Int
            ),
        )
        aspect = pairs._Aspect(
            "x",
            [(i, None) for i in range(n_ref)],
            [(j, None) for j in range(n_hyp)],
            keys,
            (ref_group, hyp_group),
        )
        rq, hp = aspect.pairs()
        expected = [
            (int(q), j) for q, kid in zip(keys[0], keys[1], strict=True) for j in range(n_hyp) if keys[2][j] == kid
        ] + [(int(q), j) for q in keys[3] for j in range(n_hyp) if hyp_group[j] == ref_group[q]]
        assert sorted(zip(rq.tolist(), hp.tolist(), strict=True)) == sorted(expected)
        per_group = [sum(1 for q, _ in expected if ref_group[q] == g) for g in range(n_groups)]
        assert aspect.count(n_groups).tolist() == per_group


def test_the_bytes_per_pair_of_the_message_are_the_engine_s():
    assert mapping._BYTES_PER_PAIR == pairs.BYTES_PER_PAIR


def _shape_of_the_view(mapper, inst, reference: bool, removable) -> tuple:
    """The shape of an instance as its prepared slot view (``Mapper._view``) tells it: the
    oracle of the shapes read from the fills without preparing them."""
    return tuple(
        (
            name,
            reference and slot.optional,
            tuple(
                tuple(
                    (True, item.has_extent) if type(item) is PreparedFill else (False, reference and removable(item))
                    for item in alternative
                )
                for alternative in alternatives
            ),
        )
        for name, (slot, alternatives, _) in mapper._view(inst, reference).items()
    )


@settings(max_examples=60, deadline=None)
@given(template_sets(reference=True, max_events=5), template_sets(reference=False, max_events=5), st.booleans())
def test_the_shapes_made_with_the_fills_are_the_mapper_s(ref: TemplateSet, hyp: TemplateSet, removed: bool):
    """The shapes of plain instances made in the pass over their fills equal ``Mapper._shape``,
    and both are the shapes of the prepared slot views."""
    config = ScoreConfig(unscored_slots=("COMMENT", "WINNER"))
    mapper = mapping.Mapper(config, FillPreparer(config), FillPreparer(config, reference=False))
    for tset, reference in ((ref, True), (hyp, False)):
        instances = [inst for iset in tset.instance_sets for inst in iset.instances]
        shapes, _, _ = pairs._fills_by_slot(mapper, instances, (lambda i: lambda fill: removed) if reference else None)
        for inst, shape in zip(instances, shapes, strict=True):
            expected = _shape_of_the_view(mapper, inst, reference, lambda fill: removed)
            assert mapper._shape(inst, reference, lambda fill: removed) == expected
            if shape is not None:
                assert shape == expected


def test_the_first_document_in_order_is_the_one_refused(monkeypatch):
    """Documents are mapped together type by type; a refusal still names the first
    document that would be refused mapping them one by one: here D1's second type,
    although D2's first type is mapped (and refused) before it in the run."""
    monkeypatch.setattr(mapping, "MAX_CANDIDATE_PAIRS", 20)

    def events(docid: str, type_name: str, n: int) -> str:
        return "".join(f'<{type_name}-{docid}-{k}> :=\n    NAME: "same"\n' for k in range(1, n + 1))

    # type A before type B in the dependency order: B points to A
    pointing = "<B-D1-9> :=\n    OF: <A-D1-1>\n"
    text = events("D1", "A", 2) + events("D1", "B", 6) + pointing + events("D2", "A", 6)
    ref = parse_templates(text, "ref.tpl", "reference")
    hyp = parse_templates(text, "hyp.tpl", "hypothesis")
    assert mapping.type_order(ref, hyp) == ("A", "B")
    with pytest.raises(Exception) as caught:
        score(ref, hyp)
    assert str(caught.value).startswith("document D1, type B: 7 reference and 7 hypothesis instances")


@pytest.mark.parametrize("compare", ["both", "content", "extent"])
@pytest.mark.parametrize("content", ["clean", "noisy"])
def test_fills_read_without_being_prepared_map_as_prepared_ones(monkeypatch, compare, content):
    """The fills the engine reads without preparing them (their text's number and extent)
    map as the prepared ones do, beside the slots it must take as the slot views do: a
    slot named twice (its first counts), a hypothesis slot of several alternatives (its
    first counts), premodifiers shifting an extent, minimal strings, a fill without extent."""
    ref_text = (
        '<EV-D1-1> :=\n    WINNER: "the cup" ##10#17#\n    LOSER: "south africa"\n'
        '<EV-D1-2> :=\n    WINNER: "an [egypt] cup" ##40#52#\n    LOSER: "egypt" ##60#65#\n'
        '<EV-D1-3> :=\n    WINNER: "cup" ##14#17#\n    SCORE: "2-0" ##70#73#\n'
    )
    hyp_text = (
        '<EV-D1-1> :=\n    WINNER: "cup" ##14#17#\n    LOSER: "south africa" / "egypt"\n'
        '<EV-D1-2> :=\n    WINNER: "egypt" ##43#48#\n    LOSER: "egypt" ##60#65#\n'
        '<EV-D1-3> :=\n    WINNER: "the cup" ##10#17#\n    SCORE: "2-0" ##70#73# / "1-0"\n'
    )

    def named_twice(tset: TemplateSet, at: int, slot: Slot) -> TemplateSet:
        """The set with ``slot`` added after the slots of its instance ``at`` (the reader refuses
        a slot named twice; a set made in code may have one)."""
        [iset] = tset.instance_sets
        instances = list(iset.instances)
        instances[at] = replace(instances[at], slots=(*instances[at].slots, slot))
        return replace(tset, instance_sets=(replace(iset, instances=tuple(instances)),))

    def text_slot(name: str, content: str, start: int) -> Slot:
        extent = (Extent(start, start + len(content)),)
        fill = TextFill(content, ((0, len(content)),), extent, extent)
        return Slot(name, (FillAlternative((fill,)),))

    ref = named_twice(parse_templates(ref_text, "ref.tpl", "reference"), 0, text_slot("WINNER", "egypt", 30))
    hyp = named_twice(parse_templates(hyp_text, "hyp.tpl", "hypothesis"), 1, text_slot("WINNER", "cup", 14))
    config = ScoreConfig(compare=compare, content=content)
    expected = _scored(ref, hyp, config, "records", monkeypatch)
    assert _scored(ref, hyp, config, "compact", monkeypatch) == expected
    tally = _tally(ref, hyp, config, "records", monkeypatch, False)
    assert _tally(ref, hyp, config, "compact", monkeypatch, True) == tally
    assert json.loads(expected)["summary"]["COR"] > 0  # pairs are mapped by what they share


def test_pairs_of_pointers_alone_count_as_their_records(monkeypatch):
    """A pair of instances whose slots hold only pointers (each document's template) takes
    the points of an earlier pair whose pointers pair alike: COR and INC pairs, pointers
    left over (MIS, SPU, REM to an optional instance, OPT in an optional slot), a slot on
    one side only. The counts and their order are those of every pair's record."""

    def document(docid: str, events: list[str], pointers: str, more: str = "") -> str:
        lines = "\n           ".join(pointers.split())  # one pointer a line
        text = f"<TEMPLATE-{docid}-1> :=\n    EVENT: {lines}\n{more}"
        for number, winner in enumerate(events, start=1):
            status = "    OBJ_STATUS: OPTIONAL\n" if winner == "south" else ""
            text += f'<EV-{docid}-{number}> :=\n    WINNER: "{winner}"\n{status}'
        return text

    ref_text = hyp_text = ""
    for k in range(12):  # documents k and k + 6 pair their pointers alike (but for the last one's slot)
        docid = f"D{k}"
        one, two, three = (f"<EV-{docid}-{n}>" for n in (1, 2, 3))
        pointers = f"{one} {two} {three}"
        if k == 11:  # an optional slot: its pointers left over are OPT
            pointers = "? " + pointers
        ref_text += document(docid, ["egypt", "cup", "south" if k % 2 else "africa"], pointers)  # south: optional
        if k % 3 == 0:  # the same pointers, in another order: COR, and the third left over: MIS or REM
            hyp_text += document(docid, ["cup", "egypt"], f"{one} {two}")
        elif k % 3 == 1:  # pointers to an event mapped to another: INC; one more: SPU
            hyp_text += document(docid, ["cup", "egypt", "zero"], f"{one} {one} {one} {one}")
        else:  # a slot of the hypothesis only
            hyp_text += document(docid, ["egypt"], one, f"    AGENT: {one}\n")
    ref = parse_templates(ref_text, "ref.tpl", "reference")
    hyp = parse_templates(hyp_text, "hyp.tpl", "hypothesis")
    config = ScoreConfig()
    points = json.loads(_scored(ref, hyp, config, "records", monkeypatch))["points"]
    assert {p["category"] for p in points if p["kind"] == "pointer"} == {"COR", "INC", "MIS", "SPU", "REM", "OPT"}
    expected = _tally(ref, hyp, config, "records", monkeypatch, False)
    asked, recorded = [], []
    with monkeypatch.context() as patch:
        counted, record = mapping.Mapper._pair_counted, mapping.Mapper.match_instance
        patch.setattr(mapping.Mapper, "_pair_counted", lambda *args: asked.append(args[1].type) or counted(*args))
        patch.setattr(
            mapping.Mapper, "match_instance", lambda *args: recorded.append(args[1] and args[1].type) or record(*args)
        )
        assert _tally(ref, hyp, config, "compact", monkeypatch, True) == expected
    # each template pair is counted so, a record made per way its pointers pair: D0 and D6 (COR,
    # COR, MIS), D3 and D9 (COR, COR, REM), D2 and D8 (COR, MIS, MIS, SPU), D5 (COR, MIS, REM),
    # D11 (COR, OPT, OPT), and D1, D4, D7, D10 (COR, INC, INC, SPU: their optional event is
    # mapped, so that no pointer to it is REM): 6 records
    assert asked.count("TEMPLATE") == 12 and recorded.count("TEMPLATE") == 6


def test_pairs_without_a_cor_count_as_their_records_one_record_per_two_shapes(monkeypatch):
    """Pairs mapped without any COR point (F = 0) have the points of their two shapes: a count
    makes one match record per two shapes, and counts what every pair's record counts."""
    ref_text = hyp_text = ""
    for d in range(4):
        for n in range(1, 4):
            ref_text += f'<EV-D{d}-{n}> :=\n    WINNER: "egypt{n}" ##{10 * n}#{10 * n + 6}#\n    LOSER: "cup"\n'
            hyp_text += f'<EV-D{d}-{n}> :=\n    WINNER: "africa{n}" ##{99 * n}#{99 * n + 7}#\n    LOSER: "south"\n'
    ref = parse_templates(ref_text, "ref.tpl", "reference")
    hyp = parse_templates(hyp_text, "hyp.tpl", "hypothesis")
    config = ScoreConfig()
    expected = _tally(ref, hyp, config, "records", monkeypatch, False)
    assert all(f == 0 for _, _, f in expected[1])  # every pair mapped, none with a COR
    recorded = []
    with monkeypatch.context() as patch:
        record = mapping.Mapper.match_instance
        patch.setattr(mapping.Mapper, "match_instance", lambda *args: recorded.append(args[1:3]) or record(*args))
        assert _tally(ref, hyp, config, "compact", monkeypatch, True) == expected
    assert len(recorded) == 1  # 12 pairs of the same two shapes


def _bracketed(tpl: str, rng: random.Random) -> str:
    """Reference templettes with the last word of some fills of several words made their minimal
    string (``"south [africa]"``): fills whose minimal strings are their own."""
    lines = []
    for line in tpl.split("\n"):
        name, _, rest = line.partition(': "')
        content, _, offsets = rest.partition('" ')
        if " " in content and rng.random() < 0.4:
            head, _, last = content.rpartition(" ")
            line = f'{name}: "{head} [{last}]" {offsets}'
        lines.append(line)
    return "\n".join(lines)


def _shifted(tpl: str, by: int) -> str:
    """Templettes with every extent moved ``by`` characters (a document's offsets counted
    from the start of a file it is not the first of)."""
    return re.sub(r"##(\d+)#(\d+)#", lambda m: f"##{int(m.group(1)) + by}#{int(m.group(2)) + by}#", tpl)


def _texts_configs(unsegmented: bool) -> tuple[ScoreConfig, ...]:
    """The configurations :func:`_two_documents` is scored under: default, content only, clean."""
    return (
        ScoreConfig(unsegmented=unsegmented),
        ScoreConfig(unsegmented=unsegmented, compare="content"),
        ScoreConfig(unsegmented=unsegmented, content="clean"),
    )


def _two_documents(seed: int, unsegmented: bool) -> dict[str, Any]:
    """Two documents of :func:`_texts` in one corpus each side (the second renamed D2), minimal
    strings in some reference fills; unsegmented: the hypothesis text is one stream and its
    templettes' offsets count from the start of its file."""
    rng = random.Random(seed)
    parts = [_texts(seed), _texts(seed + 1000)]
    ref_text = parts[0][0] + parts[1][0].replace("D1", "D2")
    hyp_text = parts[0][1] + parts[1][1].replace("D1", "D2")
    ref_tpl = _bracketed(parts[0][2], rng) + _bracketed(parts[1][2], rng).replace("-D1-", "-D2-")
    second = parts[1][3].replace("-D1-", "-D2-")
    hyp_tpl = parts[0][3] + (_shifted(second, len(parts[0][1])) if unsegmented else second)
    return {
        "ref": parse_templates(ref_tpl, "ref.tpl", "reference"),
        "hyp": parse_templates(hyp_tpl, "hyp.tpl", "hypothesis"),
        "ref_corpus": parse_corpus(ref_text, "ref.sgml"),
        "hyp_corpus": parse_corpus(hyp_text, "hyp.sgml"),
    }


@pytest.mark.parametrize("unsegmented", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_documents_whose_texts_differ_map_as_every_pair_counted(monkeypatch, seed, unsegmented):
    """Several documents mapped in one call when the texts differ (noisy content keys and
    verdicts told apart by document, reference fills with minimal strings of their own, an
    unsegmented hypothesis mapped against each document it overlaps): the JSON of every pair
    counted through its record, with the ceiling, and the counts kept without records."""
    inputs = _two_documents(seed, unsegmented)
    ref, hyp = inputs.pop("ref"), inputs.pop("hyp")
    for config in _texts_configs(unsegmented):
        expected = _scored(ref, hyp, config, "records", monkeypatch, **inputs)
        assert _scored(ref, hyp, config, "compact", monkeypatch, **inputs) == expected
        assert _scored(ref, hyp, config, "one by one", monkeypatch, **inputs) == expected
        records = _tally(ref, hyp, config, "records", monkeypatch, False, **inputs)
        assert _tally(ref, hyp, config, "compact", monkeypatch, True, **inputs) == records


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["egypt", "egypt's", "uh", "(um)", "%hesitation", "buni-", "the", "two", "2", "cup", "u. s."]),
        max_size=4,
    )
)
def test_the_word_keys_of_a_string_are_its_content_keys(words):
    """FillPreparer.word_keys gives, as word numbers, the noisy content keys of a usual reference
    fill of the string and of a hypothesis fill of it (candidates' rules, the slot left out)."""
    from hub4eval.scoring.candidates import hypothesis_content_key, reference_content_keys
    from hub4eval.scoring.verdicts import TextComparison

    content = " ".join(words)
    config = ScoreConfig(content="noisy")
    how = TextComparison.of(config, True)
    glm = pipeline.load_glm("default")
    from hub4eval.text.glm import apply_glm

    preparer = FillPreparer(config, glm_apply=lambda tokens: apply_glm(tokens, glm))
    fill = TextFill(content, ((0, len(content)),))
    prepared = preparer.prepare(fill, "D1")
    ref_keys, hyp_key = preparer.word_keys(content, how.fillers)
    word_of = {number: word for word, number in preparer.words.items()}
    assert [word_of[k] for k in ref_keys] == [key[2] for key in reference_content_keys("S", prepared, how) or ()]
    assert word_of[hyp_key] == hypothesis_content_key("S", prepared, how)[2]
    assert preparer.word_keys(content, how.fillers) == (ref_keys, hyp_key)  # remembered, the same
    other = frozenset({"egypt"})  # other fillers: worked out again, not remembered
    expected = [
        key[2] for key in reference_content_keys("S", prepared, TextComparison(noisy=True, fillers=other)) or ()
    ]
    keys = preparer.word_keys(content, other)[0]
    word_of = {number: word for word, number in preparer.words.items()}
    assert [word_of[k] for k in keys] == expected


def test_the_slot_views_made_with_the_rows_are_the_mapper_s(monkeypatch):
    """With texts that differ and match records to make, the engine leaves the slot views of the
    plain instances it read (pairs._fills_by_slot): each is the one Mapper._view makes."""
    inputs = _two_documents(3, False)
    config = ScoreConfig()
    result = pipeline.score(inputs["ref"], inputs["hyp"], **{k: inputs[k] for k in ("ref_corpus", "hyp_corpus")})
    alignment = result.alignment
    ref_prep = FillPreparer(config, map_extent=alignment.ref_extent, widen=alignment.ref_enclosure)
    hyp_prep = FillPreparer(config, map_extent=alignment.hyp_extent, reference=False)
    left: list[tuple[bool, Any, dict]] = []
    forget = mapping.Mapper._forget

    def kept(self):  # the views of a run, before they are dropped
        left.extend((side == 1, inst, view) for side in (0, 1) for inst, view in self._views[side].values())
        forget(self)

    monkeypatch.setattr(mapping.Mapper, "_forget", kept)
    mapping.Mapper(config, ref_prep, hyp_prep, noisy=True).match_template_sets(inputs["ref"], inputs["hyp"])
    assert {reference for reference, _, _ in left} == {True, False}
    fresh = mapping.Mapper(config, ref_prep, hyp_prep, noisy=True)
    monkeypatch.setattr(pairs, "_fills_by_slot", None)  # fresh views made by Mapper._view alone
    for reference, inst, view in left:
        assert view == fresh._view(inst, reference)


@given(st.lists(st.integers(0, 5)), st.data())
def test_shapes_are_numbered_by_value_in_order_of_first_sight(codes, data):
    """``pairs._shape_numbers`` (distinct objects found by ``id``, each hashed once) against the
    dictionary it stands for; equal shapes may be one object or several."""
    objects = {code: ("S", code, ((True, bool(code % 2)),)) for code in set(codes)}
    shapes = [objects[c] if data.draw(st.booleans()) else tuple([*objects[c]]) for c in codes]
    used = sorted(data.draw(st.sets(st.integers(0, max(0, len(shapes) - 1)))) if shapes else [])
    numbers: dict[Any, int] = {}
    expected = [numbers.setdefault(shapes[i], len(numbers)) for i in used]
    found, count = pairs._shape_numbers(shapes, np.asarray(used, dtype=np.int64))
    assert found.tolist() == expected and count == len(numbers)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3)), max_size=40))
def test_distinct_combos_numbers_each_combination_in_the_order_of_its_first_pair(combos: list[tuple[int, int]]):
    """``pairs.distinct_combos``: the first pair of each distinct (shape pair, mask), in the order of
    the pairs, and of each pair its combination's place in that order; the oracle numbers the
    combinations as a loop over the pairs first meets them."""
    import numpy as np

    numbers: dict[tuple[int, int], int] = {}
    firsts = []
    for k, combo in enumerate(combos):
        if combo not in numbers:
            numbers[combo] = len(numbers)
            firsts.append(k)
    pair_ids = np.asarray([pair for pair, _ in combos], dtype=np.int64)
    masks = np.asarray([mask for _, mask in combos], dtype=np.int64)
    for high in (0, 1 << 61):  # (masks of a high bit: two keys sorted, not one)
        found_firsts, inverse = pairs.distinct_combos(pair_ids, masks + high)
        assert found_firsts.tolist() == firsts
        assert inverse.tolist() == [numbers[combo] for combo in combos]


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_the_chosen_pairs_among_codes_are_those_numpy_isin_finds(n_ref: int, n_hyp: int, data):
    """``pairs.chosen_places`` (each chosen reference instance's one partner looked up by index)
    against the route it replaced in ``_counted``: ``numpy.isin`` of the codes in the chosen
    pairs' codes, each found one's place by a sort of them. Codes repeat (one per COR aspect)."""
    refs = data.draw(st.permutations(range(n_ref)))
    hyps = data.draw(st.permutations(range(n_hyp)))
    size = data.draw(st.integers(0, min(n_ref, n_hyp)))
    ci = np.asarray(refs[:size], dtype=np.int64)  # (the greedy takes each instance once)
    cj = np.asarray(hyps[:size], dtype=np.int64)
    pair = st.tuples(st.integers(0, n_ref - 1), st.integers(0, n_hyp - 1))
    every = np.asarray([i * n_hyp + j for i, j in data.draw(st.lists(pair, max_size=40))], dtype=np.int64)
    codes = ci * n_hyp + cj
    wanted = np.isin(every, codes)
    by_code = np.argsort(codes, kind="stable")
    where = by_code[np.searchsorted(codes[by_code], every[wanted])]
    found, places = pairs.chosen_places(every, n_hyp, ci, cj, n_ref)
    assert found.tolist() == wanted.tolist()
    assert places.tolist() == where.tolist()


def test_a_document_whose_every_instance_is_paired_keeps_its_pairs_in_reference_order():
    """The count of documents whose instances are all paired, each pair counted without a record
    (``Mapper.match_groups`` then lists a document's matches at once): the greedy takes the
    better pair first, the second reference instance with the first hypothesis instance (four
    COR), then the first with the second (three COR, an extent off); the matches keep reference
    order, each with its own partner and counts, as the records do. (Two documents alike: the
    pairs of one stand for their shapes, with records; the other's are counted without.)"""
    ref_events = '<EVENT-{d}-1> :=\n    WINNER: "alpha" ##0#5#\n    LOSER: "gamma" ##20#25#\n\n' + (
        '<EVENT-{d}-2> :=\n    WINNER: "beta" ##10#14#\n    LOSER: "delta" ##30#35#\n\n'
    )
    hyp_events = '<EVENT-{d}-1> :=\n    WINNER: "beta" ##10#14#\n    LOSER: "delta" ##30#35#\n\n' + (
        '<EVENT-{d}-2> :=\n    WINNER: "alpha" ##0#5#\n    LOSER: "gamma" ##40#45#\n\n'
    )
    ref = parse_templates("".join(ref_events.format(d=d) for d in ("D1", "D2")), "reference")
    hyp = parse_templates("".join(hyp_events.format(d=d) for d in ("D1", "D2")), "hypothesis")
    config = ScoreConfig()

    def mapper() -> mapping.Mapper:
        return mapping.Mapper(config, FillPreparer(config), FillPreparer(config, reference=False))

    counted = [[(m.ref.key, m.hyp.key, m.counts) for m in s.instances] for s in mapper().count_template_sets(ref, hyp)]
    recorded = [[(m.ref.key, m.hyp.key, m.counts) for m in s.instances] for s in mapper().match_template_sets(ref, hyp)]
    assert counted == recorded
    for d, matches in zip(("D1", "D2"), counted, strict=True):
        assert [(r, h) for r, h, _ in matches] == [
            (f"<EVENT-{d}-1>", f"<EVENT-{d}-2>"),
            (f"<EVENT-{d}-2>", f"<EVENT-{d}-1>"),
        ]
        assert [c.cor for _, _, c in matches] == [3, 4]
