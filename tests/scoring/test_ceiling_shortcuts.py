"""What the ceiling's count reads without working it out again, against the old route.

The ceiling scores the reference against its projection onto the hypothesis text
(:func:`hub4eval.scoring.projection.project`); some of what that count needs is
known from the reference or from the projection. Each shortcut is checked here
against what the count worked out before, on random references over the
recognizer output of the shipped examples (``tests/support/reference_fills.py``).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub4eval.config import ScoreConfig
from hub4eval.io.templettes import parse_templates
from hub4eval.model import TemplateSet
from hub4eval.scoring.mapping import type_order
from tests.support.reference_fills import TEXTS, references, with_ceiling


@pytest.mark.parametrize("name", sorted(TEXTS))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data())
def test_the_types_of_a_projection_are_ordered_as_the_reference_alone(name: str, data: st.DataObject) -> None:
    """A projected instance keeps its reference instance's type and pointers (or fewer of
    them), so the types of the two sets have the order of the reference's alone."""
    ref_text = data.draw(references(name))
    projection = with_ceiling(name, ref_text, ScoreConfig()).ceiling.projection  # type: ignore[union-attr]
    ref = parse_templates(ref_text, role="reference")
    assert projection.instances  # something projected: the order is of both sets' types
    assert type_order(ref, projection) == type_order(ref, TemplateSet((), role="hypothesis"))
