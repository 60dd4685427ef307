"""One-sided GLM sections (`;; INPUT_DEPENDENT_APPLICATION = "..."`) in hub4eval's own alignment.

SCTK's en20090415.glm ends with a section marked "hyp": contraction expansions
csrfilt applies to the hypothesis only (`csrfilt.sh -t hyp`). hub4eval's texts
are read as csrfilt reads `-i txt` input: a "hyp" section rewrites the
hypothesis only, a "ctm" section neither side; a rule without section both.
"""

from __future__ import annotations

from pathlib import Path

from hub4eval.io.corpus import parse_corpus
from hub4eval.text.columns import align_corpora
from hub4eval.text.glm import for_side, parse_glm, read_glm

EXCERPT = Path(__file__).resolve().parents[1] / "data" / "glm" / "en20090415_excerpt.glm"


def _rows(ref: str, hyp: str, glm) -> list[tuple[str, str, int]]:
    corpus = "<DOC><DOCNO>D</DOCNO><TEXT>{}</TEXT></DOC>"
    alignment = align_corpora(parse_corpus(corpus.format(ref), "ref"), parse_corpus(corpus.format(hyp), "hyp"), glm=glm)
    [document] = alignment.documents
    return [row for row in document.rows() if row[:2] != ("d", "d")]


def test_a_hyp_section_rewrites_the_hypothesis_only():
    glm = read_glm(EXCERPT)
    # [WE'RE] => [{WE ARE / WE WERE}] is in the "hyp" section: the hypothesis's
    # we're becomes "we are" (its first alternative), the reference's stays
    rows = _rows("we're here", "we're here", glm)
    assert [(r, h) for r, h, _ in rows] == [("we're", "we"), ("", "are"), ("here", "here")]
    rows = _rows("we are here", "we're here", glm)
    assert all(kind == 0 for _, _, kind in rows)
    # a rule outside the section (BINYAMIN => BENJAMIN / __ [ NETANYAHU ]) rewrites both
    rows = _rows("binyamin netanyahu", "benjamin netanyahu", glm)
    assert all(kind == 0 for _, _, kind in rows)


def test_sections_select_by_side_and_input_type():
    glm = parse_glm(
        'colour => color\n;; INPUT_DEPENDENT_APPLICATION = "ctm"\nuh => %hesitation\n'
        ';; INPUT_DEPENDENT_APPLICATION = "hyp|ref"\nok => okay\n'
    )
    assert glm.sections == ("ctm", "hyp|ref")
    assert [r.lhs for r in for_side(glm, "ref").rules] == [("colour",), ("ok",)]
    assert [r.lhs for r in glm.applying_to(["ctm", "hyp"]).rules] == [("colour",), ("uh",), ("ok",)]
    plain = parse_glm("colour => color\n")
    assert for_side(plain, "hyp") is plain  # no section: the file itself
    assert for_side(None, "hyp") is None
