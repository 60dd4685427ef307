"""The streamed JSON (``--json``) is exactly the §9 object of :meth:`ScoreResult.to_json`."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub4eval.api import score
from hub4eval.config import ScoreConfig
from hub4eval.model import FillAlternative, Instance, InstanceSet, Slot, TemplateSet, TextFill
from hub4eval.report import iter_json_text

from strategies import template_sets

# Strings the JSON encoder must escape or keep as they are (ensure_ascii=False).
AWKWARD = st.text(alphabet=st.sampled_from(['"', "\\", "é", "\u2028", "\t", "x", " ", "<", "'", "ü"]), min_size=1, max_size=6)


def _awkward_set(docid: str, contents: list[str], role: str) -> TemplateSet:
    slots = tuple(
        Slot(f"S{k}", (FillAlternative((TextFill(c, ((0, len(c)),)),)),)) for k, c in enumerate(contents)
    )
    return TemplateSet((InstanceSet(docid, (Instance("EV", docid, 1, slots),)),), role=role)


def _streamed(result) -> dict:
    text = "".join(iter_json_text(result))
    for line in text.split("\n")[1:-2]:  # one entry per line
        assert line.startswith("  ")
    return json.loads(text)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(template_sets(reference=True), template_sets(reference=False))
def test_streamed_json_equals_the_result_object(ref, hyp):
    result = score(ref, hyp)
    assert _streamed(result) == json.loads(json.dumps(result.to_json()))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(['D"1', "D\\2", "Dé", "D1"]), st.lists(AWKWARD, min_size=1, max_size=3), st.lists(AWKWARD, min_size=1, max_size=3))
def test_streamed_json_escapes_documents_fills_and_reasons(docid, ref_contents, hyp_contents):
    config = ScoreConfig(keep_punctuation=True)  # quotes and backslashes reach the reasons
    result = score(
        _awkward_set(docid, ref_contents, "reference"), _awkward_set(docid, hyp_contents, "hypothesis"), config=config
    )
    streamed = _streamed(result)
    assert streamed == json.loads(json.dumps(result.to_json()))
    assert [p["document"] for p in streamed["points"]] == [docid] * len(streamed["points"])
