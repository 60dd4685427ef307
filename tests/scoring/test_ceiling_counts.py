"""The ceiling counted without match records is the ceiling of the records.

``score(..., ceiling_counts=True)`` (what ``hub4eval score`` asks for) keeps of
the ceiling a :class:`~hub4eval.scoring.result.Tally` and the kinds of the
INC and MIS points of every reference slot (``slot_errors``); the oracle is
the same ceiling scored with every match record: its tally
(:meth:`Tally.of`) and :func:`~hub4eval.scoring.attribution.ceiling_errors`
of its records. So that the ceiling's mapping is not only the reference
against its own projection (nearly always one to one), the projection is
spoiled at random before it is scored: fills moved to other instances or
slots, slots and instances dropped, instances repeated under new numbers.
Random references over the recognizer output of the shipped examples,
segmented and unsegmented, under the options that change a verdict.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub4eval.config import ScoreConfig
from hub4eval.model import Instance, InstanceSet, TemplateSet
from hub4eval.scoring import projection
from hub4eval.scoring.attribution import ceiling_errors
from hub4eval.scoring.result import ScoreResult, Tally
from tests.support.reference_fills import TEXTS, references, with_ceiling

CONFIGS = {
    "default": ScoreConfig(),
    "clean": ScoreConfig(content="clean"),
    "extent": ScoreConfig(compare="extent"),
    "split": ScoreConfig(split_sets=True, min_map_f=0.3),
}


def _spoiled(tset: TemplateSet, seed: int) -> TemplateSet:
    """The projection with fills moved, slots and instances dropped, instances repeated."""
    rng = random.Random(seed)
    fills = [a for inst in tset.instances if inst.type != "TEMPLATE" for slot in inst.slots for a in slot.alternatives]
    sets = []
    for iset in tset.instance_sets:
        instances: list[Instance] = []
        for inst in iset.instances:
            slots = []
            for slot in inst.slots:
                roll = rng.random()
                if roll < 0.15:
                    continue  # dropped
                if roll < 0.4 and fills and inst.type != "TEMPLATE":
                    slot = type(slot)(rng.choice(("WINNER", "LOSER", "PLACE", slot.name)), (rng.choice(fills),))
                slots.append(slot)
            roll = rng.random()
            if roll < 0.1:
                continue  # the instance dropped
            instances.append(Instance(inst.type, inst.docid, inst.number, tuple(slots)))
            if roll > 0.85:  # and again, under a new number
                instances.append(Instance(inst.type, inst.docid, inst.number + 50, tuple(reversed(slots))))
        sets.append(InstanceSet(iset.docid, tuple(instances)))
    return TemplateSet(tuple(sets), role="hypothesis", path=tset.path)


def _scored(name: str, ref_text: str, config: ScoreConfig, seed: int, counts: bool) -> ScoreResult:
    project = projection.project

    def spoiled_projection(*args, **kwargs):  # type: ignore[no-untyped-def]
        return _spoiled(project(*args, **kwargs), seed)

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(projection, "project", spoiled_projection)
        return with_ceiling(name, ref_text, config, ceiling_counts=counts)


def _levels(tally: Tally) -> dict[str, list]:
    """Every level's groups in their order (the reports list them so)."""
    return {level: list(groups.items()) for level, groups in tally.levels.items()}


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("name", sorted(TEXTS))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data())
def test_the_counted_ceiling_is_the_ceiling_of_the_records(name: str, config: str, data: st.DataObject) -> None:
    ref_text = data.draw(references(name))
    seed = data.draw(st.integers(0, 2**32 - 1))
    records = _scored(name, ref_text, CONFIGS[config], seed, counts=False)
    counted = _scored(name, ref_text, CONFIGS[config], seed, counts=True)
    assert records.ceiling is not None and counted.ceiling is not None
    assert records.ceiling.tally is None and records.ceiling.matches
    oracle, tally = Tally.of(records.ceiling), counted.ceiling.tally
    assert tally is not None and not counted.ceiling.matches
    assert _levels(tally) == _levels(oracle)
    assert tally.instance_pairs == oracle.instance_pairs
    assert tally.set_pairs == oracle.set_pairs
    assert tally.set_counts == oracle.set_counts
    # each entry read on its own first (worked out when read), then the whole compared
    errors, read = ceiling_errors(records.ceiling), counted.ceiling.slot_errors
    assert read is not None
    for (key, slot), kinds in errors.items():
        assert read.get((key, slot)) == kinds
        assert read.get((key, slot + "-none")) is None and read.get((key + "-none", slot)) is None
        assert read.get((key, "OBJ_STATUS")) is None  # an unscored slot (some instances have it)
    # read all at once, as the causes read them (each key's slot is one of its instances')
    assert read.get_many(list(errors), of_reference=True) == list(errors.values())
    assert read == errors
    assert counted.ceiling.projection == records.ceiling.projection
    # what the reports show of the ceiling: its F, and the causes it decides
    assert counted.ceiling_summary() == records.ceiling_summary()
    assert counted.causes == records.causes
