"""Different scorings never share a signature, whatever characters the option values hold.

The signature is '|'-separated ``option:value`` parts, list values joined by
','; config.signed escapes '|', ',' (and a '%' before two hex digits) in
every value, so two configurations are equal exactly when their signatures
are, and every signature matches the JSON Schema's pattern.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hub4eval.cli import app
from hub4eval.config import ScoreConfig

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "examples" / "sample"
SCHEMA = json.loads((ROOT / "docs" / "score-output.schema.json").read_text(encoding="utf-8"))
PATTERN = re.compile(SCHEMA["properties"]["signature"]["pattern"])

# values made of the characters that could confuse a reader of the signature
tricky = st.text(alphabet="ab|,%-:2C7F \\", min_size=0, max_size=5)
values = st.lists(tricky, max_size=3).map(tuple)
slots = st.lists(st.from_regex(r"[A-Za-z0-9_-]{1,4}", fullmatch=True), max_size=3).map(tuple)
configs = st.builds(
    ScoreConfig,
    compare=st.sampled_from(["both", "content", "extent"]),
    content=st.sampled_from(["auto", "clean", "noisy"]),
    beta=st.sampled_from([0.5, 1.0, 2.0]),
    min_map_f=st.sampled_from([None, 0.0, 0.5]),
    unscored_slots=slots,
    premodifiers=values,
    keep_punctuation=st.booleans(),
    case_sensitive=st.booleans(),
    non_extractable=values,
    spoken_element=st.sampled_from(["TEXT", "BODY"]),
    fillers=values,
    spoken_forms=st.sampled_from(["en", "none"]),
    unsegmented=st.sampled_from([None, True, False]),
)


@settings(max_examples=500, deadline=None)
@given(configs, configs)
def test_configs_are_equal_exactly_when_their_signatures_are(first, second):
    one, two = first.signature(version="1"), second.signature(version="1")
    assert (first == second) == (one == two), (one, two)
    assert PATTERN.match(one), one


@settings(max_examples=300, deadline=None)
@given(configs)
def test_a_config_differing_in_one_list_value_signs_differently(config):
    for name in ("premodifiers", "fillers", "non_extractable"):
        for extra in ("a|b", "a,b", "-", "%2C", ""):
            changed = ScoreConfig(**{**config.__dict__, name: (*getattr(config, name), extra)})
            assert changed.signature(version="1") != config.signature(version="1")


def _score(*options: str):
    return CliRunner().invoke(app, ["score", str(SAMPLE / "ref.tpl"), str(SAMPLE / "hyp.tpl"), "--json", "-", *options])


def test_the_issues_two_commands_sign_differently_or_are_refused():
    # one slot named 'WINNER,LOSER' cannot exist (slot names have no ','): refused, with the repeated form
    result = _score("--unscored-slot", "WINNER,LOSER")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "--unscored-slot 'WINNER,LOSER' is not a slot name (letters, digits, '_' and '-') "
        "(hint: repeat the option, one slot each: --unscored-slot WINNER --unscored-slot LOSER)"
    )
    two = _score("--unscored-slot", "WINNER", "--unscored-slot", "LOSER")
    assert two.exit_code == 0
    assert "|unscored_slots:WINNER,LOSER|" in json.loads(two.stdout)["signature"]


def test_a_bar_in_a_value_gives_schema_valid_json():
    result = _score("--premodifiers", "a|b", "--fillers", "x,y", "--non-extractable", "A|B")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    assert "|premodifiers:a%7Cb|" in data["signature"] and "|fillers:x%2Cy|" in data["signature"]
