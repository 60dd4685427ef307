"""Every type name the grammar accepts gives schema-valid JSON; a name with a dot is refused at its line."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub4eval.api import score_files
from hub4eval.errors import InputError
from hub4eval.io.templettes import read_templates
from hub4eval.report.export import iter_json_text

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "score-output.schema.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("text", "where", "name"),
    [
        ('<.A-D-1> :=\n  X: "a"\n', "1:1", ".A"),
        ('<A.-D-1> :=\n  X: "a"\n', "1:1", "A."),
        ('<T-D-1> :=\n  X: <A.B-D-1>\n<A.B-D-1> :=\n  Y: "b"\n', "2:6", "A.B"),
    ],
)
def test_a_type_name_with_a_dot_is_refused_at_its_line(tmp_path, text, where, name):
    path = tmp_path / "ref.tpl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_templates(str(path))
    assert str(caught.value).startswith(f"{path}:{where}: type name {name!r} of ")


# type names as the pointer's TYPE part allows them: anything but blanks, '<', '>' and '-'
type_names = st.text(
    alphabet=st.one_of(
        st.sampled_from(list(".A_0!$%&'()*+,=@[]^`{|}~é")),  # ASCII punctuation, often
        st.characters(blacklist_categories=("Cs", "Zs", "Zl", "Zp", "Cc"), blacklist_characters='<>-"#/?;:'),
    ),
    min_size=1,
    max_size=6,
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(type_names)
def test_every_accepted_type_name_gives_schema_valid_json(tmp_path, name):
    text = f'<{name}-D-1> :=\n  X: "a"\n'
    ref, hyp = tmp_path / "ref.tpl", tmp_path / "hyp.tpl"
    ref.write_text(text, encoding="utf-8")
    hyp.write_text(text, encoding="utf-8")
    try:
        result = score_files(str(ref), str(hyp))
    except InputError:
        return  # refused at its line: fine
    jsonschema.validate(json.loads("".join(iter_json_text(result))), SCHEMA)
