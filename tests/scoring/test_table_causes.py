"""The causes of a count's error points read from the fill tables all at once
(hub4eval.scoring.table_causes) are those asked of the attributor match by match.

The oracle is ``attribution._causes_one_by_one``, the match-by-match route (each plain
match's fills read from its instances, each point's cause asked of a fresh
:class:`~hub4eval.scoring.attribution.Attributor`), run on every match of the same count:
the counts by key must be equal (and, for the example's own hypothesis, whose instances
are plain, the tables must have read most of the points). The
hypotheses are the spoiled projections of tests/scoring/test_system_counts.py (fills
moved, slots and instances dropped or repeated, slots of two fills or alternatives,
joined sets), over the segmented and the unsegmented recognizer output, with
premodifiers (whose extents the count mapped without them) and minimal strings (whose
instances are not in the tables).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from hub4eval.config import ScoreConfig
from hub4eval.scoring import attribution, table_causes
from hub4eval.scoring.counted_points import Layouts
from tests.scoring.test_system_counts import _scored, drawn_case
from tests.support.reference_fills import TEXTS

CONFIGS = {
    "default": ScoreConfig(),
    "clean": ScoreConfig(content="clean"),
    "extent": ScoreConfig(compare="extent"),
}


def _both_routes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, Any, int]]:
    """Spy on ``counted_causes``: (its result, the match-by-match route's, how many points
    the tables read) of each call."""
    seen: list[tuple[Any, Any, int]] = []
    counted_causes = attribution.counted_causes
    table_route = table_causes.table_causes
    read: list[int] = []

    def spied_tables(sets: Any, mapper: Any, attributor: Any, errors_of: Any) -> Any:
        found = table_route(sets, mapper, attributor, errors_of)
        read.append(0 if found is None else sum(found[0].values()) + sum(found[1].values()))
        return found

    def spied(sets: Any, mapper: Any, attributor: Any) -> Any:
        read.clear()
        made = counted_causes(sets, mapper, attributor)
        fresh = attribution.Attributor(attributor.alignment)
        errors_of = attribution._ErrorsOf(Layouts(mapper.signatures))
        oracle = attribution._causes_one_by_one(((c, c.instances) for c in sets), mapper, fresh, errors_of)
        seen.append((made, oracle, sum(read)))
        return made

    monkeypatch.setattr(table_causes, "table_causes", spied_tables)
    monkeypatch.setattr(attribution, "counted_causes", spied)
    return seen


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("name", sorted(TEXTS))
@settings(
    max_examples=10,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True,
)
@given(data=st.data())
def test_the_causes_read_from_the_tables_are_those_asked_match_by_match(
    monkeypatch: pytest.MonkeyPatch, name: str, config: str, data: st.DataObject
) -> None:
    ref_text, hyp = drawn_case(name, CONFIGS[config], data)
    with monkeypatch.context() as patch:
        seen = _both_routes(patch)
        _scored(name, ref_text, hyp, CONFIGS[config], counts=True)
    assert len(seen) == 1
    made, oracle, _ = seen[0]
    assert made.settled == oracle.settled
    assert made.pending == oracle.pending


def test_the_tables_read_most_points_of_a_plain_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """The example's own hypothesis (plain instances): its error points are read from the
    tables, not match by match, and the causes are the oracle's."""
    from hub4eval.io.templettes import parse_templates
    from tests.support.reference_fills import EXAMPLES

    hyp = parse_templates((EXAMPLES / "asr" / "hyp.tpl").read_text(), role="hypothesis")
    ref_text = (EXAMPLES / "asr" / "ref.tpl").read_text()
    with monkeypatch.context() as patch:
        seen = _both_routes(patch)
        _scored("asr_unsegmented", ref_text, hyp, ScoreConfig(), counts=True)
    [(made, oracle, read)] = seen
    assert made == oracle
    total = sum(made.settled.values()) + sum(made.pending.values())
    assert total and read * 2 > total, (read, total)
