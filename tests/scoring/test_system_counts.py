"""With texts that differ, the system's mapping counted without match records is the
mapping of the records.

``score(..., counts_only=True)`` (what ``hub4eval score`` asks for when no output
needs a point) counts the system's mapping as the ceiling's is counted: the result
holds a :class:`~hub4eval.scoring.result.Tally`, the error points by cause
(:func:`~hub4eval.scoring.attribution.counted_causes`, settled with the ceiling when
read) and the reference instance sets (for the entity WER). The oracle is the same
score with every match record: its tally (:meth:`Tally.of`), causes, entity WER and
warnings (the spanning-set warnings read the mapping).

The hypotheses are the reference's projection onto the recognizer output, spoiled at
random: fills moved to other slots, slots and instances dropped, instances repeated,
slots given a second fill or a second alternative (instances that are not plain,
whose records the count makes again), and, over the unsegmented text, sets joined
into one (a set over several reference documents: a spanning-set warning).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from hub4eval.config import ScoreConfig
from hub4eval.io.corpus import read_corpus
from hub4eval.io.templettes import parse_templates
from hub4eval.model import FillAlternative, Instance, InstanceSet, Slot, TemplateSet
from hub4eval.scoring import pipeline
from hub4eval.scoring.result import ScoreResult, Tally
from tests.support.reference_fills import EXAMPLES, TEXTS, references, with_ceiling

CONFIGS = {
    "default": ScoreConfig(),
    "clean": ScoreConfig(content="clean"),
    "extent": ScoreConfig(compare="extent"),
    "split": ScoreConfig(split_sets=True, min_map_f=0.3),
}


def _spoiled(tset: TemplateSet, seed: int, join: bool) -> TemplateSet:
    """``tset`` with fills moved, slots and instances dropped, instances repeated, slots of
    two fills or two alternatives; with ``join``, every set's instances in one set."""
    rng = random.Random(seed)
    sets = []
    for iset in tset.instance_sets:
        # fills move within their document only: their extents are the document's
        alternatives = [
            a for inst in iset.instances if inst.type != "TEMPLATE" for slot in inst.slots for a in slot.alternatives
        ]
        instances: list[Instance] = []
        for inst in iset.instances:
            slots = []
            for slot in inst.slots:
                roll = rng.random()
                if roll < 0.15:
                    continue  # dropped
                if inst.type != "TEMPLATE" and alternatives:
                    if roll < 0.35:
                        slot = Slot(rng.choice(("WINNER", "LOSER", "PLACE", slot.name)), (rng.choice(alternatives),))
                    elif roll < 0.45:  # a second alternative
                        slot = Slot(slot.name, (*slot.alternatives, rng.choice(alternatives)))
                    elif roll < 0.55:  # a second fill
                        fills = slot.alternatives[0].fills + rng.choice(alternatives).fills
                        slot = Slot(slot.name, (FillAlternative(fills), *slot.alternatives[1:]))
                slots.append(slot)
            roll = rng.random()
            if roll < 0.1:
                continue  # the instance dropped
            instances.append(Instance(inst.type, inst.docid, inst.number, tuple(slots)))
            if roll > 0.85:  # and again, under a new number
                instances.append(Instance(inst.type, inst.docid, inst.number + 50, tuple(reversed(slots))))
        sets.append(InstanceSet(iset.docid, tuple(instances)))
    if join and sets:
        docid = sets[0].docid
        joined = tuple(
            Instance(inst.type, docid, inst.number + 100 * k, inst.slots)
            for k, iset in enumerate(sets)
            for inst in iset.instances
        )
        # the pointers of a joined instance name the instances by their old numbers: those
        # left point to nothing in the set (left over), which the mapping scores as usual
        sets = [InstanceSet(docid, joined)]
    return TemplateSet(tuple(sets), role="hypothesis", path=tset.path)


def drawn_case(name: str, config: ScoreConfig, data: st.DataObject) -> tuple[str, TemplateSet]:
    """A reference drawn for the example ``name`` (sometimes of one type: its events without
    the templates that point to them, which a count reads by quicker routes) and a
    hypothesis made from its ceiling's projection, spoiled at random (and, unsegmented,
    sometimes joined into one set)."""
    ref_text = data.draw(references(name))
    if data.draw(st.booleans()):
        ref_text = "\n\n".join(block for block in ref_text.split("\n\n") if not block.startswith("<TEMPLATE-"))
    projected = with_ceiling(name, ref_text, config).ceiling
    assert projected is not None and projected.projection is not None
    hyp = _spoiled(
        projected.projection,
        data.draw(st.integers(0, 2**32 - 1)),
        name == "asr_unsegmented" and data.draw(st.booleans()),
    )
    return ref_text, hyp


def _asr_example_both_ways() -> tuple[ScoreResult, ScoreResult]:
    """The ASR example (unsegmented) scored with match records and counted without them."""
    name = "asr_unsegmented"
    ref_text = (EXAMPLES / "asr" / "ref.tpl").read_text()
    hyp = parse_templates((EXAMPLES / "asr" / "hyp.tpl").read_text(), role="hypothesis")
    return (
        _scored(name, ref_text, hyp, ScoreConfig(), counts=False),
        _scored(name, ref_text, hyp, ScoreConfig(), counts=True),
    )


def _scored(name: str, ref_text: str, hyp: TemplateSet, config: ScoreConfig, counts: bool) -> ScoreResult:
    ref_path, hyp_path = (EXAMPLES / path for path in TEXTS[name])
    return pipeline.score(
        parse_templates(ref_text, role="reference"),
        hyp,
        ref_corpus=read_corpus(ref_path),
        hyp_corpus=read_corpus(hyp_path),
        config=config,
        counts_only=counts,
        ceiling_counts=True,
    )


def _levels(tally: Tally) -> dict[str, list]:
    """Every level's groups in their order (the reports list them so)."""
    return {level: list(groups.items()) for level, groups in tally.levels.items()}


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("name", sorted(TEXTS))
@settings(
    max_examples=12,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(data=st.data())
def test_the_counted_system_mapping_is_the_mapping_of_the_records(name: str, config: str, data: st.DataObject) -> None:
    ref_text, hyp = drawn_case(name, CONFIGS[config], data)
    records = _scored(name, ref_text, hyp, CONFIGS[config], counts=False)
    counted = _scored(name, ref_text, hyp, CONFIGS[config], counts=True)
    assert records.tally is None and records.matches
    oracle, tally = Tally.of(records), counted.tally
    assert tally is not None and not counted.matches
    assert _levels(tally) == _levels(oracle)
    assert tally.instance_pairs == oracle.instance_pairs
    assert tally.set_pairs == oracle.set_pairs
    assert tally.set_counts == oracle.set_counts
    assert counted.warnings == records.warnings
    assert counted.wer == records.wer
    assert counted.causes == records.causes
    assert counted.entity_wer == records.entity_wer
    if records.entity_wer is not None:  # the slots in the same order (read from the fill table or not)
        assert list(counted.entity_wer["by_slot"]) == list(records.entity_wer["by_slot"])
    assert counted.ceiling_summary() == records.ceiling_summary()
    assert counted.to_json(points=False) == records.to_json(points=False)


def test_a_count_without_its_ceiling_settles_its_causes_as_recognition() -> None:
    """``--no-ceiling``: a misrecognized fill's INC and MIS points are the recognizer's."""
    name = "asr_unsegmented"
    ref_path, hyp_path = (EXAMPLES / path for path in TEXTS[name])
    options = {
        "ref_corpus": read_corpus(ref_path),
        "hyp_corpus": read_corpus(hyp_path),
        "ceiling": False,
    }
    ref = parse_templates((EXAMPLES / "asr" / "ref.tpl").read_text(), role="reference")
    hyp = parse_templates((EXAMPLES / "asr" / "hyp.tpl").read_text(), role="hypothesis")
    records = pipeline.score(ref, hyp, **options)  # type: ignore[arg-type]
    counted = pipeline.score(ref, hyp, counts_only=True, **options)  # type: ignore[arg-type]
    assert counted.tally is not None and counted.tally.causes is not None
    assert counted.tally.causes.pending  # the example has misrecognized fills with errors
    assert counted.causes == records.causes
    assert counted.causes["all"][""]["recognition"]["INC"] + counted.causes["all"][""]["recognition"]["MIS"] > 0


def test_the_instance_pairs_of_a_count_are_made_when_read_and_pickled_as_a_list() -> None:
    """A count's instance pairs (which only the JSON, the HTML report and --show-mapping read)
    are made from its sets when first read: the same list as the records' pairs, and a list
    once pickled (a count made in a child goes to its parent so)."""
    import pickle

    from hub4eval.scoring.result import CountedPairs

    records, counted = _asr_example_both_ways()
    assert counted.tally is not None
    pairs = counted.tally.instance_pairs
    assert isinstance(pairs, CountedPairs) and pairs._pairs is None  # not made yet
    expected = Tally.of(records).instance_pairs
    assert isinstance(expected, list) and any(f is not None for _, _, f in expected)
    assert pickle.loads(pickle.dumps(pairs)) == expected  # made now, pickled as the list
    assert pairs._sets is None  # the sets are let go once the pairs are made
    assert pairs == expected and len(pairs) == len(expected) and list(pairs) == expected
    assert pairs[0] == expected[0] and pairs[-2:] == expected[-2:]
    assert pairs != expected[:-1]
    assert counted.instance_pairs() == records.instance_pairs()


def test_the_levels_of_a_count_are_grouped_when_read_and_pickled_as_a_dict() -> None:
    """A count's documents and total come from its sets' counts; its slots, types and kinds
    (which the ceiling's tally, read for its total, never needs) are grouped from the matches'
    signatures when one of them is first read: the records' levels, in the same order, and a
    dict once pickled."""
    import pickle

    from hub4eval.scoring.result import CountedLevels

    records, counted = _asr_example_both_ways()
    assert counted.tally is not None
    levels = counted.tally.levels
    assert isinstance(levels, CountedLevels)
    expected = Tally.of(records).levels
    assert counted.total == records.total and levels["all"] == expected["all"]
    assert list(levels["document"].items()) == list(expected["document"].items())
    assert levels._grouped is None  # the total and the documents read: nothing grouped yet
    copy = pickle.loads(pickle.dumps(levels))
    assert type(copy) is dict and copy == expected and list(copy) == list(expected)
    assert levels._sets is None  # the sets are let go once grouped
    for level in expected:
        assert list(levels[level].items()) == list(expected[level].items())
    assert len(levels) == len(expected) and dict(levels) == expected
    with pytest.raises(KeyError):
        levels["nope"]
