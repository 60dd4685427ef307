"""A GLM under --keep-punctuation (hub4eval.text.glm.Glm.keeping_punctuation): a rule that produces
``%hesitation`` produces the token the text's ``%HESITATION`` is when punctuation is kept."""

from __future__ import annotations

from hub4eval.api import load_glm
from hub4eval.text.glm import apply_glm, parse_glm
from hub4eval.text.tokens import tokenize


def test_a_produced_filler_keeps_its_percent_sign_when_punctuation_is_kept():
    glm = parse_glm("uh => %hesitation / [ ] __ [ ]\n")
    text = tokenize("%HESITATION the cat", keep_punctuation=True)
    produced = apply_glm(tokenize("uh the cat", keep_punctuation=True), glm.keeping_punctuation())
    assert [t.text for t in produced] == [t.text for t in text] == ["%hesitation", "the", "cat"]
    # without --keep-punctuation both lose the %: still equal
    assert [t.text for t in apply_glm(tokenize("uh"), glm)] == [t.text for t in tokenize("%HESITATION")]
    assert glm.keeping_punctuation().digest == glm.digest


def test_load_glm_reads_the_rules_for_the_punctuation_option(tmp_path):
    path = tmp_path / "h.glm"
    path.write_text("uh => %hesitation / [ ] __ [ ]\n", encoding="utf-8")
    kept = load_glm(str(path), keep_punctuation=True)
    assert [r.rhs for r in kept.rules] == [("%hesitation",)]
    assert [r.rhs for r in load_glm(str(path)).rules] == [("hesitation",)]
    stacked = load_glm([str(path), str(path)], keep_punctuation=True)
    assert [r.rhs for g in stacked.glms for r in g.rules] == [("%hesitation",), ("%hesitation",)]
