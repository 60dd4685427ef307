"""§8: reading GLM files and applying their rules to tokens."""

from __future__ import annotations

from pathlib import Path

import pytest

from hub4eval.errors import InputError
from hub4eval.text.glm import Glm, apply_glm, default_glm, parse_glm, read_glm
from hub4eval.text.tokens import Token, tokenize

EVERY_CONSTRUCT = """\
;; A test file with every construct hub4eval reads.
;;
* name "test.glm"   ;; a trailing comment after a header field
* desc "mapping; with a semicolon ;; inside quotes"
* format = 'NIST1'
* max_nrules = '100'
* copy_no_hit = 'T'
* case_sensitive = 'F'

COLOUR => COLOR / [ ] __ [ ]            ;; British spelling
[E-MAIL] => [EMAIL] / [ ] __ [ ]
'CAUSE => BECAUSE ;; no context at all
[NINETEEN EIGHTY SIX] => [1986] / [ ] __ [ ]
[CANNOT] => [CAN NOT] / [ ] __ [ ]
UH => { UH / @ } / [ ] __ [ ]
[IT'S] => [{ IT'S / IT IS / IT HAS }] / [ ] __ [ ]
[O. K.] => OKAY / [ ] __
MR => MISTER / __ [ ]
[GONNA] => [{ GOING TO / @ }] / [ ] __ [ ]
BINYAMIN => BENJAMIN / __ [ NETANYAHU ]
"""


def texts(tokens: tuple[Token, ...]) -> list[str]:
    return [t.text for t in tokens]


@pytest.fixture
def glm() -> Glm:
    return parse_glm(EVERY_CONSTRUCT, path="test.glm")


def test_header_fields(glm: Glm) -> None:
    assert glm.name == "test.glm"
    assert glm.desc == "mapping; with a semicolon ;; inside quotes"
    assert glm.format == "NIST1"
    assert glm.max_nrules == 100
    assert glm.copy_no_hit is True
    assert glm.case_sensitive is False
    assert glm.path == "test.glm"


def test_rules_are_normalized_by_the_tokenizer(glm: Glm) -> None:
    assert [r.normalized() for r in glm.rules] == [
        "colour => color",
        "e-mail => email",
        "cause => because",
        "nineteen eighty six => 1986",
        "cannot => can not",
        "uh => uh?",
        "it's => it's",
        "o k => okay",
        "mr => mister",
        "gonna => going? to?",
    ]
    assert [r.line for r in glm.rules] == [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]
    assert glm.rules[0].source == "COLOUR => COLOR / [ ] __ [ ]"


def test_unsupported_context_is_a_warning_with_file_and_line(glm: Glm) -> None:
    assert len(glm.warnings) == 1
    warning = glm.warnings[0]
    assert (warning.path, warning.line) == ("test.glm", 20)
    assert "unsupported context" in warning.message
    assert str(warning).startswith("test.glm:20: warning: unsupported context `__ [ NETANYAHU ]`")
    assert not any(r.lhs == ("binyamin",) for r in glm.rules)


@pytest.mark.parametrize(
    ("line", "column", "message"),
    [
        ("COLOUR COLOR", 1, "needs `=>`"),
        ("A => B => C", 8, "more than one `=>`"),
        (" => B", 2, "empty left-hand side"),
        ("A =>  ;; nothing", 5, "empty right-hand side"),
        ("A { => B", 3, "not allowed on the left-hand side"),
        ("[A => B", 1, "`[` without `]`"),
        ("A => [B / [ ] __ [ ]", 6, "`[` without `]`"),
        ("A => B] / [ ] __ [ ]", 7, "`]` without `[`"),
        ("A => { B / C", 6, "`{` without `}`"),
        ("A => { B / }", 6, "empty choice"),
        ("A => { B / @ C }", 12, "`@` must be a choice by itself"),
        ("A => { B { C } }", 10, "nested `{`"),
        ("A => B / [ ] [ ]", 10, "exactly one `__`"),
        ("A => B / [ ] __ __", 10, "exactly one `__`"),
        ("... => B", 1, "no word once punctuation is whited out"),
    ],
)
def test_malformed_rule_is_an_error_at_its_line_and_column(line: str, column: int, message: str) -> None:
    text = ";; header\n* name \"x\"\n" + line + "\n"
    with pytest.raises(InputError) as caught:
        parse_glm(text, path="bad.glm")
    error = caught.value
    assert (error.path, error.line, error.column) == ("bad.glm", 3, column)
    assert message in error.message
    assert str(error).startswith(f"bad.glm:3:{column}: ")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("*", "malformed header line"),
        ("* case_sensitive = 'maybe'", "expected 'T' or 'F'"),
        ("* max_nrules = 'many'", "max_nrules must be a whole number"),
    ],
)
def test_malformed_header_is_an_error(line: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        parse_glm("\n" + line + "\n", path="h.glm")
    assert caught.value.line == 2


def test_header_warnings() -> None:
    glm = parse_glm("* colour 'x'\n* copy_no_hit = 'F'\n* format = 'NIST2'\n")
    messages = [w.message for w in glm.warnings]
    assert any("unknown header field 'colour'" in m for m in messages)
    assert any("copy_no_hit = 'F' is not supported" in m for m in messages)
    assert any("format 'NIST2' is read as NIST1" in m for m in messages)


def test_duplicate_rule_keeps_the_first_and_warns_only_when_different() -> None:
    glm = parse_glm("MR => MISTER\nMR. => MISTER\nMr => MASTER\n", path="d.glm")
    assert [r.normalized() for r in glm.rules] == ["mr => mister"]
    assert [(w.line, "repeats line 1" in w.message) for w in glm.warnings] == [(3, True)]


def test_read_glm_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read the GLM file"):
        read_glm(tmp_path / "missing.glm")
    bad = tmp_path / "latin1.glm"
    bad.write_bytes(b"A => B\ncaf\xe9 => cafe\n")
    with pytest.raises(InputError) as caught:
        read_glm(bad)
    assert (caught.value.line, caught.value.column) == (2, 4)
    good = tmp_path / "latin1ok.glm"
    good.write_bytes(b"caf\xe9 => cafe\n")
    assert texts(apply_glm(tokenize("Café"), read_glm(good, encoding="latin-1"))) == ["cafe"]


def test_digest_depends_on_rules_not_on_layout() -> None:
    a = parse_glm("COLOUR => COLOR / [ ] __ [ ] ;; comment\n")
    b = parse_glm(";; other\n\ncolour    =>   color\n")
    c = parse_glm("colour => colour\n")
    assert a.digest == b.digest != c.digest
    assert len(a.digest) == 40


# ------------------------------------------------------------------ applying


def test_apply_every_construct(glm: Glm) -> None:
    text = "The Colour, e-mail, 'cause in Nineteen Eighty Six we cannot, uh, it's O.K. Mr. Gonna"
    out = apply_glm(tokenize(text), glm)
    assert texts(out) == [
        "the", "color", "email", "because", "in", "1986", "we", "can", "not",
        "uh", "it's", "okay", "mister", "going", "to",
    ]  # fmt: skip
    optional = [t.text for t in out if t.optional]
    assert optional == ["uh", "going", "to"]


def test_spans_one_to_one_many_to_one_one_to_many() -> None:
    glm = parse_glm("colour => color\nnineteen eighty six => 1986\ncannot => can not\nu s => united states\n")
    text = "colour nineteen eighty six cannot U.S."
    out = apply_glm(tokenize(text), glm)
    spans = [(t.text, text[t.start : t.end]) for t in out]
    assert spans == [
        ("color", "colour"),
        ("1986", "nineteen eighty six"),  # many to one: the whole run
        ("can", "cannot"),  # one to many: every token gets the whole run
        ("not", "cannot"),
        ("united", "U"),  # as many tokens as replaced: one to one
        ("states", "S"),
    ]


def test_multi_token_rhs_from_longer_lhs_keeps_extents_exact() -> None:
    glm = parse_glm("a b c => x y\n")
    out = apply_glm(tokenize("q a b c r"), glm)
    assert [(t.text, t.start, t.end) for t in out] == [
        ("q", 0, 1), ("x", 2, 7), ("y", 2, 7), ("r", 8, 9),
    ]  # fmt: skip


def test_longest_match_first_and_left_to_right() -> None:
    glm = parse_glm("u s => united states\nu s a => usa\nnew => novel\nnew york => nyc\n")
    assert texts(apply_glm(tokenize("U.S.A. U.S. new new york"), glm)) == [
        "usa", "united", "states", "novel", "nyc",
    ]  # fmt: skip
    # A longer rule that fails part-way falls back to the longest rule that matched.
    assert texts(apply_glm(tokenize("u s b"), glm)) == ["united", "states", "b"]


def test_no_reapplication_on_produced_output() -> None:
    glm = parse_glm("a => b\nb => c\nx => x x\n")
    assert texts(apply_glm(tokenize("a b x"), glm)) == ["b", "c", "x", "x"]


def test_parenthesized_and_optional_marks_carry_over() -> None:
    glm = parse_glm("uh => { uh / @ }\num => { um / @ }\nhmm yes => yes\n")
    out = apply_glm(tokenize("(uh) um (hmm yes)"), glm)
    assert [(t.text, t.parenthesized, t.optional) for t in out] == [
        ("uh", True, True),
        ("um", False, True),
        ("yes", True, False),
    ]


def test_deletion_rule_and_case_and_typographic_apostrophe() -> None:
    glm = parse_glm("noise => @\ncan't => can not\n")
    assert texts(apply_glm(tokenize("NOISE can\u2019t"), glm)) == ["can", "not"]
    sensitive = parse_glm("* case_sensitive = 'T'\nUS => united states\n")
    assert texts(apply_glm(tokenize("US us", case_sensitive=True), sensitive)) == ["united", "states", "us"]


def test_empty_glm_returns_tokens_unchanged() -> None:
    tokens = tokenize("nothing to map")
    assert apply_glm(tokens, parse_glm(";; only a comment\n")) == tokens
    assert apply_glm((), parse_glm("a => b")) == ()


# ------------------------------------------------------------------ shipped file


def test_shipped_en_glm_parses_without_warnings() -> None:
    glm = default_glm()
    assert glm.warnings == ()
    assert glm.format == "NIST1"
    assert glm.case_sensitive is False
    assert glm.max_nrules == len(glm.rules)
    assert default_glm() is glm  # cached


def test_shipped_en_glm_is_what_the_script_generates() -> None:
    import importlib.util

    from hub4eval.util.resources import data_path

    script = data_path("mapping_files", "make_en_glm.py")
    spec = importlib.util.spec_from_file_location("make_en_glm", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.build() == data_path("mapping_files", "en.glm").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("colour", ["color"]),
        ("favourite centre", ["favorite", "center"]),
        ("nineteen eighty six", ["1986"]),
        ("Nineteen eighty-six", ["1986"]),
        ("two thousand and six", ["2006"]),
        ("twenty oh six", ["2006"]),
        ("nineteen oh five", ["1905"]),
        ("won two to nothing", ["won", "2-0"]),
        ("three-one", ["3-1"]),
        ("2 to 1", ["2-1"]),
        ("twenty-one", ["21"]),
        ("twenty one", ["21"]),
        ("no one", ["no", "one"]),
        ("can't", ["can", "not"]),
        ("cannot", ["can", "not"]),
        ("won't", ["will", "not"]),
        ("he's", ["he's"]),
        ("OK", ["okay"]),
        ("e-mail", ["email"]),
        ("Mr. Smith", ["mister", "smith"]),
        ("St. Louis", ["st", "louis"]),
        ("U.S. Open", ["united", "states", "open"]),
    ],
)
def test_shipped_en_glm_mappings(text: str, expected: list[str]) -> None:
    assert texts(apply_glm(tokenize(text), default_glm())) == expected


def test_shipped_en_glm_fillers_are_optional() -> None:
    out = apply_glm(tokenize("uh um er ah eh hm hmm mm uhm well"), default_glm())
    assert [(t.text, t.optional) for t in out] == [
        (w, w != "well") for w in "uh um er ah eh hm hmm mm uhm well".split()
    ]
