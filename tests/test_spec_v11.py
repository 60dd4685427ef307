"""The rules that scoring specification v1.1 pinned down (issue #15).

One test (or a few) per rule; each fails when its rule is broken. Expected
values are derived by hand in the comments.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from conftest import EXAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st
from scoring_helpers import cats, run
from typer.testing import CliRunner

from hub4eval.api import score as score_sets
from hub4eval.api import texts_differ
from hub4eval.cli import app
from hub4eval.config import ScoreConfig
from hub4eval.errors import InputError
from hub4eval.io.corpus import parse_corpus
from hub4eval.io.templettes import parse_templates
from hub4eval.scoring.metrics import Counts
from hub4eval.text.align import DELETION, INSERTION, MATCH, SUBSTITUTION, align_words
from hub4eval.text.align.costs import substitution_cost
from hub4eval.text.columns import align_corpora
from hub4eval.text.tokens import tokenize

runner = CliRunner()


def _write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --min-map-f: 0 is the procedure, the threshold is on instance pairs only ------

ZERO_REF = '<E-D-1> :=\n  A: "x"\n'
ZERO_HYP = '<E-D-1> :=\n  A: "y"\n'


def test_min_map_f_zero_given_explicitly_maps_zero_f_pairs():
    # The only pair has F = 0 (one INC). The procedure maps it: one INC, not MIS + SPU.
    assert cats(run(ZERO_REF, ZERO_HYP)) == ["INC"]
    assert cats(run(ZERO_REF, ZERO_HYP, min_map_f=0.0)) == ["INC"]
    assert cats(run(ZERO_REF, ZERO_HYP, min_map_f=0)) == ["INC"]
    assert ScoreConfig(min_map_f=0.0).signature(version="x") == ScoreConfig().signature(version="x")


def test_min_map_f_zero_on_the_command_line_equals_the_default(tmp_path):
    ref, hyp = _write(tmp_path, "r.tpl", ZERO_REF), _write(tmp_path, "h.tpl", ZERO_HYP)
    default = runner.invoke(app, ["score", ref, hyp, "--json", "-"])
    zero = runner.invoke(app, ["score", ref, hyp, "--min-map-f", "0", "--json", "-"])
    assert default.exit_code == zero.exit_code == 0, zero.output
    assert json.loads(zero.stdout) == json.loads(default.stdout)
    assert json.loads(zero.stdout)["summary"]["INC"] == 1


def test_min_map_f_above_zero_leaves_weak_instance_pairs_unmapped():
    # F = 0 is not > 0.5: the instances stay unmapped, MIS for the reference, SPU for the hypothesis.
    assert sorted(cats(run(ZERO_REF, ZERO_HYP, min_map_f=0.5))) == ["MIS", "SPU"]


def test_min_map_f_applies_to_instance_pairs_only():
    # Instance pair: A COR, B INC, C INC -> COR 1, POS = ACT = 3, F = 2*1/(3+3) = 1/3 > 0.3: mapped.
    # Inside it the fill pair of B and the alternative pair of C have F = 0; the
    # threshold does not apply to them, so they are still paired (INC, not MIS + SPU).
    ref = '<E-D-1> :=\n  A: "x"\n  B: "p"\n  C: "p"\n   / "r"\n'
    hyp = '<E-D-1> :=\n  A: "x"\n  B: "q"\n  C: "q"\n'
    assert cats(run(ref, hyp, min_map_f=0.3)) == ["COR", "INC", "INC"]
    # and above the pair's F (1/3 is not > 0.34) the instances are not mapped at all
    assert sorted(cats(run(ref, hyp, min_map_f=0.34))) == ["MIS"] * 3 + ["SPU"] * 3


# Exact F for every finite beta > 0 -------------------------------------------


CLEAN = EXAMPLES / "clean"


def _reject_constant(name: str):
    raise AssertionError(f"invalid JSON constant {name}")


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 50),
    st.integers(0, 50),
    st.integers(0, 50),
    st.integers(0, 50),
    st.sampled_from([1e-300, 1e-200, 1e-20, 0.3, 1.0, 2.0, 1e20, 1e200, 1e300, 1.7976931348623157e308]),
)
def test_f_is_the_exact_formula_for_any_finite_beta(cor, inc, mis, spu, beta):
    counts = Counts(cor=cor, inc=inc, mis=mis, spu=spu)
    f = counts.metrics(beta)["F"]
    if counts.pos + counts.act == 0:
        assert f is None  # undefined only when POS = ACT = 0
        return
    b2 = Fraction(str(beta)) ** 2  # the formula in exact rational arithmetic, rounded once
    assert f == float((1 + b2) * cor / (b2 * counts.pos + counts.act))
    assert 0.0 <= f <= 1.0


def test_f_limits_of_huge_and_tiny_beta():
    # COR 1, INC 1, MIS 1: POS 3, ACT 2. b -> infinity: F -> COR/POS = 1/3 (recall);
    # b -> 0: F -> COR/ACT = 1/2 (precision). The naive float formula gives NaN and None here.
    counts = Counts(cor=1, inc=1, mis=1)
    assert counts.metrics(1e200)["F"] == 1 / 3
    assert counts.metrics(1e-300)["F"] == 1 / 2
    assert Counts(mis=1).metrics(1e-300)["F"] == 0.0  # POS > 0, nothing correct: 0, not undefined


def test_huge_and_tiny_beta_in_json_tables_and_html(tmp_path):
    ref, hyp = str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl")
    base = json.loads(runner.invoke(app, ["score", ref, hyp, "--json", "-"]).stdout)["summary"]
    # clean example: COR 13, POS 31, ACT 20 (F = 26/51 with beta 1)
    expected = {"1e200": base["REC"], "1e-300": base["PRE"]}  # 13/31 and 13/20, the limits
    for beta, f in expected.items():
        html = tmp_path / f"r{beta}.html"
        result = runner.invoke(app, ["score", ref, hyp, "--beta", beta, "--json", "-", "--html", str(html)])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout, parse_constant=_reject_constant)
        assert data["summary"]["F"] == f
        assert "NaN" not in html.read_text(encoding="utf-8")
        table = runner.invoke(app, ["score", ref, hyp, "--beta", beta])
        assert table.exit_code == 0, table.output
        # F(beta=...) = ...  SER = (INC 2 + MIS 16 + SPU 5) / POS 31 = 74.2, whatever beta
        assert f") = {100 * f:.1f}  SER = 74.2  REC" in table.stdout


def test_beta_must_be_finite_and_positive(tmp_path):
    ref, hyp = str(CLEAN / "ref.tpl"), str(CLEAN / "hyp.tpl")
    # the value as read back: 1e400 overflows to inf
    for beta, shown in (("0", "0.0"), ("-1", "-1.0"), ("inf", "inf"), ("nan", "nan"), ("1e400", "inf")):
        result = runner.invoke(app, ["score", ref, hyp, "--beta", beta])
        assert result.exit_code == 2, (beta, result.output)
        assert (result.stdout, result.stderr) == (
            "",
            f"--beta must be positive and finite, got {shown} (hint: e.g. --beta 1)\n",
        )


def test_bootstrap_f_has_no_nan_for_huge_or_tiny_beta():
    import numpy as np

    from hub4eval.report.confidence import _metrics

    # rows: COR INC MIS SPU. Row 1: POS 3 ACT 2; row 2: nothing correct; row 3: nothing at all.
    sums = np.array([[1, 1, 1, 0], [0, 1, 0, 1], [0, 0, 0, 0]], dtype=np.float64)
    for beta, first in ((1e200, 1 / 3), (1e-300, 1 / 2)):  # the recall and precision limits
        f = _metrics(sums, beta)["F"]
        assert f[0] == first and f[1] == 0.0 and np.isnan(f[2])


# A pointer stays inside its instance set -------------------------------------


@pytest.mark.parametrize("role", ["reference", "hypothesis"])
def test_pointer_into_another_instance_set_is_an_input_error_at_the_pointer(role):
    text = "<T-D1-1> :=\n  A: x\n  EV: <E-D1-1>\n      <E-D2-1>\n<E-D1-1> :=\n  Y: a\n<E-D2-1> :=\n  Y: a\n"
    with pytest.raises(InputError) as caught:
        parse_templates(text, "t.tpl", role=role)
    error = caught.value
    # the second fill of EV, line 4, column 7 (after six blanks), names document D2 from D1
    assert (error.path, error.line, error.column) == ("t.tpl", 4, 7)
    assert "<E-D2-1>" in str(error) and "D1" in str(error)


def test_pointer_inside_its_instance_set_is_accepted():
    text = "<T-D1-1> :=\n  EV: <E-D1-1>\n<E-D1-1> :=\n  Y: a\n<E-D2-1> :=\n  Y: a\n"
    tset = parse_templates(text, "t.tpl", role="reference")
    assert [iset.docid for iset in tset.instance_sets] == ["D1", "D2"]


# Filler, fragment and parenthesized status from the raw token; the empty run ---


def test_percent_hesitation_is_a_filler_in_the_reference():
    # `%hesitation` is a filler (read before the whiteout turns it into `hesitation`), so it is
    # optional: the minimal string `%hesitation brazil` less it is `brazil`, inside the hypothesis.
    ref = '<E-D-1> :=\n  A: "%hesitation Brazil"\n'
    hyp = '<E-D-1> :=\n  A: "brazil"\n'
    assert cats(run(ref, hyp, content="noisy")) == ["COR"]


def test_percent_hesitation_is_dropped_from_the_hypothesis():
    ref = '<E-D-1> :=\n  A: "Brazil"\n'
    hyp = '<E-D-1> :=\n  A: "%hesitation brazil"\n'
    assert cats(run(ref, hyp, content="noisy")) == ["COR"]


def test_a_word_spelled_like_a_filler_after_whiteout_is_not_one():
    # `hesitation` (no %) is a word: not optional, so the hypothesis `brazil` misses it.
    ref = '<E-D-1> :=\n  A: "hesitation Brazil"\n'
    hyp = '<E-D-1> :=\n  A: "brazil"\n'
    assert cats(run(ref, hyp, content="noisy")) == ["INC"]


def test_raw_token_status_examples():
    tokens = tokenize('uh, "(so)" (uh). buni-, -- glen')
    # (text, raw form less outer punctuation, parenthesized, fragment); `--` gives no token
    assert [(t.text, t.raw_form, t.parenthesized, t.fragment) for t in tokens] == [
        ("uh", "uh", False, False),  # `uh,`: the comma is outer punctuation, so a filler
        ("so", "(so)", True, False),  # leading `"` stripped, `(` kept: parenthesized
        ("uh", "(uh)", True, False),  # `(uh).`: trailing `.` stripped, `)` kept
        ("buni-", "buni-", False, True),  # `buni-,`: trailing `,` stripped, `-` kept: a fragment
        ("glen", "glen", False, False),
    ]


def test_hypothesis_of_fillers_only_is_correct_against_an_optional_minimal_string():
    # The empty run: hyp `um` keeps no word; the minimal string `uh` (a filler) less its
    # optional tokens is empty, a run of the empty hypothesis: COR.
    ref = '<E-D-1> :=\n  A: "Glen [uh] Bunting"\n'
    assert cats(run(ref, '<E-D-1> :=\n  A: "um"\n', content="noisy")) == ["COR"]
    # against a minimal string with a word in it the same hypothesis is wrong
    ref_word = '<E-D-1> :=\n  A: "Glen [Bunting]"\n'
    assert cats(run(ref_word, '<E-D-1> :=\n  A: "um"\n', content="noisy")) == ["INC"]


def test_empty_run_counts_when_many_instances_are_mapped():
    # 5 x 5 instances of one type: only pairs sharing a key are counted before the F = 0 pairs.
    # R3 (minimal string `uh`) with H1 (`uh` only) is the one COR pair, F = 1: it must be chosen
    # first, so H1 maps to R3 and there is exactly one COR.
    refs = "".join(f'<E-D-{i}> :=\n  A: "{"Glen [uh] Bunting" if i == 3 else f"x{i}"}"\n' for i in range(1, 6))
    hyps = "".join(f'<E-D-{i}> :=\n  A: "{"uh" if i == 1 else f"y{i}"}"\n' for i in range(1, 6))
    result = run(refs, hyps, content="noisy")
    assert ("<E-D-3>", "<E-D-1>") in [(r, h) for r, h, _ in result.instance_pairs()]
    assert cats(result).count("COR") == 1


# Spoken text: only the text inside <TEXT> is aligned and counted in WER -----------


STORY = (
    "<DOC>\n<DOCNO> D1 </DOCNO>\n<DOCTYPE> NEWS STORY </DOCTYPE>\n<DATE_TIME> 01/20/1998 19:00 </DATE_TIME>\n"
    "<TEXT>\nBrazil beat Chile\n</TEXT>\n</DOC>\n"
)


def test_header_elements_are_not_aligned_against_an_unsegmented_hypothesis():
    # Spoken: `brazil beat chile` (3 words). Header words (D1, NEWS STORY, the date) are not
    # reference words: nothing is deleted, WER = 0 (v1.0 counted 6 header words as deletions).
    alignment = align_corpora(parse_corpus(STORY, "r.sgml"), parse_corpus("brazil beat chile\n", "h.txt"), glm=None)
    assert alignment.wer_summary()["ref_words"] == 3
    assert alignment.wer_summary()["errors"] == 0


def test_header_elements_are_not_aligned_in_segmented_mode_either():
    hyp = "<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\nbrazil beat chile\n</TEXT>\n</DOC>\n"
    alignment = align_corpora(parse_corpus(STORY, "r.sgml"), parse_corpus(hyp, "h.sgml"), glm=None)
    # reference: 3 spoken words; the hypothesis's DOCNO is outside its <TEXT> too
    assert alignment.wer_summary() == {
        **alignment.wer_summary(),
        "ref_words": 3,
        "hyp_words": 3,
        "matches": 3,
        "errors": 0,
    }


def test_a_document_without_the_spoken_element_is_all_spoken():
    # no <TEXT>: the DOCNO text `D1` is spoken too, so the reference has 4 words and the
    # hypothesis without it deletes one.
    ref = "<DOC>\n<DOCNO> D1 </DOCNO>\nBrazil beat Chile\n</DOC>\n"
    alignment = align_corpora(parse_corpus(ref, "r.sgml"), parse_corpus("brazil beat chile", "h.txt"), glm=None)
    assert (alignment.wer_summary()["ref_words"], alignment.wer_summary()["deletions"]) == (4, 1)


def test_spoken_element_option_is_in_the_signature_and_changes_the_words(tmp_path):
    ref = _write(tmp_path, "r.sgml", STORY)
    hyp = _write(tmp_path, "h.txt", "brazil beat chile\n")
    default = json.loads(runner.invoke(app, ["align", ref, hyp, "--glm", "none", "--json", "-"]).stdout)
    dated = runner.invoke(app, ["align", ref, hyp, "--glm", "none", "--spoken-element", "DATE_TIME", "--json", "-"])
    assert dated.exit_code == 0, dated.output
    # spoken is now `01/20/1998 19:00` -> tokens 01 20 1998 19 00 (5 words), none of them said
    assert default["summary"]["ref_words"] == 3
    assert json.loads(dated.stdout)["summary"]["ref_words"] == 5
    assert "spoken_element:TEXT" in ScoreConfig().signature(version="x")
    assert "spoken_element:DATE_TIME" in ScoreConfig(spoken_element="DATE_TIME").signature(version="x")


def test_library_corpus_follows_the_configs_spoken_element():
    start = STORY.index("Brazil")
    ref_tpl = parse_templates(f'<E-D1-1> :=\n  A: "Brazil" ##{start}#{start + 6}#\n', "r.tpl", role="reference")
    hyp_tpl = parse_templates('<E-asr-1> :=\n  A: "brazil" ##0#6#\n', "h.tpl", role="hypothesis")
    ref_corpus = parse_corpus(STORY, "r.sgml")
    hyp_corpus = parse_corpus("brazil beat chile\n", "h.txt")
    result = score_sets(ref_tpl, hyp_tpl, ref_corpus=ref_corpus, hyp_corpus=hyp_corpus)
    assert result.wer["ref_words"] == 3 and cats(result) == ["COR", "COR"]
    other = score_sets(
        ref_tpl,
        hyp_tpl,
        ref_corpus=ref_corpus,
        hyp_corpus=hyp_corpus,
        config=ScoreConfig(spoken_element="DOCTYPE"),
    )
    # spoken is now `NEWS STORY` only: `Brazil` has no column, its extent matches nothing
    assert other.wer["ref_words"] == 2
    assert "spoken_element:DOCTYPE" in other.signature


def test_reference_extent_in_a_header_element_matches_nothing_when_texts_differ():
    # the fill's extent covers `NEWS STORY` inside <DOCTYPE>: not spoken, no column: extent INC
    start = STORY.index("NEWS STORY")
    ref_tpl = parse_templates(f'<E-D1-1> :=\n  A: "news story" ##{start}#{start + 10}#\n', "r.tpl", role="reference")
    hyp_text = "<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\nnews story brazil beat chile\n</TEXT>\n</DOC>\n"
    at = hyp_text.index("news story")
    hyp_tpl = parse_templates(f'<E-D1-1> :=\n  A: "news story" ##{at}#{at + 10}#\n', "h.tpl", role="hypothesis")
    result = score_sets(
        ref_tpl, hyp_tpl, ref_corpus=parse_corpus(STORY, "r.sgml"), hyp_corpus=parse_corpus(hyp_text, "h.sgml")
    )
    assert [(p.kind, p.category) for p in result.points] == [("content", "COR"), ("extent", "INC")]


def test_unclosed_spoken_element_is_an_input_error():
    text = "<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\nBrazil beat Chile\n</DOC>\n"
    with pytest.raises(InputError) as caught:
        parse_corpus(text, "r.sgml")
    assert (caught.value.line, caught.value.column) == (3, 1)
    assert "<TEXT> element is not closed" in str(caught.value)


# When texts differ: only (DOCID, document text) and the segmentation count ----


def test_blank_lines_around_documents_do_not_make_texts_differ():
    plain = parse_corpus(STORY, "a.sgml")
    spaced = parse_corpus("\n\n\n" + STORY + "\n\n", "b.sgml")
    assert not texts_differ(plain, spaced)
    changed = parse_corpus(STORY.replace("Chile", "Chili"), "c.sgml")
    assert texts_differ(plain, changed)
    renamed = parse_corpus(STORY.replace("D1", "D2"), "d.sgml")
    assert texts_differ(plain, renamed)


def test_blank_lines_before_the_first_document_score_as_the_same_text(tmp_path):
    start = STORY.index("Brazil")
    ref = _write(tmp_path, "r.tpl", f'<E-D1-1> :=\n  A: "Brazil" ##{start}#{start + 6}#\n')
    hyp = _write(tmp_path, "h.tpl", f'<E-D1-1> :=\n  A: "brazil" ##{start}#{start + 6}#\n')
    a = _write(tmp_path, "a.sgml", STORY)
    b = _write(tmp_path, "b.sgml", "\n\n" + STORY)
    result = runner.invoke(app, ["score", ref, hyp, "--ref-text", a, "--hyp-text", b, "--json", "-"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert "texts:same" in data["signature"]
    assert data["summary"]["COR"] == 2


# Alignment costs and the tie rule (kept) -----------------------------------------


MAT, SUB, DEL, INS = MATCH, SUBSTITUTION, DELETION, INSERTION


def _columns(ref: str, hyp: str):
    r, h = ref.split(), hyp.split()
    a = align_words(r, h)
    cols = [
        (r[i] if i >= 0 else "", h[j] if j >= 0 else "", k)
        for i, j, k in zip(a.ref_index.tolist(), a.hyp_index.tolist(), a.kinds.tolist(), strict=True)
    ]
    return cols, a.cost


def test_substitution_costs_on_the_hundredths_scale():
    assert substitution_cost("heart", "heart") == 0
    assert substitution_cost("h-", "heart") == 100  # fragment whose stem `h` prefixes the word
    # heart/part: lev 2 (h->p, drop e), max length 5: 200 + 200*2/5 = 280
    assert substitution_cost("heart", "part") == 280
    # the/a: lev 3, max 3: 200 + 200 = 400; h-/a: `h` does not prefix `a`, lev 2, max 2: 400
    assert substitution_cost("the", "a") == 400 and substitution_cost("h-", "a") == 400
    # one letter differs in 16: 200 * 1/16 = 12.5, rounded half up to 13 (not to the even 12)
    assert substitution_cost("abcdefghijklmnop", "abcdefghijklmnoq") == 213
    assert substitution_cost("-", "a") == 400  # `-` alone is not a fragment: lev 1, max 1 -> 200 + 200


def test_general_motors_figure():
    # THE/A 400 + H- deleted 300 + HEART/PART 280 = 980. The other path of the same cost
    # (THE deleted 300 + H-/A 400 + HEART/PART 280 = 980) loses the tie: tracing back from the
    # end, at (the h-, a) a deletion (of h-) and the diagonal (h-/a) both cost 700, and the
    # deletion is preferred.
    cols, cost = _columns("the h- heart of general motors", "a part of general motors")
    assert cost == 980
    assert cols == [
        ("the", "a", SUB),
        ("h-", "", DEL),
        ("heart", "part", SUB),
        ("of", "of", MAT),
        ("general", "general", MAT),
        ("motors", "motors", MAT),
    ]
    assert [c for c, (_, h, _) in enumerate(cols) if h in ("general", "motors")] == [4, 5]  # ##4#5#


def test_tie_between_two_equal_cost_paths():
    # ref x y, hyp z: `x/z + y deleted` and `x deleted + y/z` both cost 400 + 300 = 700.
    # From the end (y, z): deletion of y (cost(x, z) 400 + 300) ties the diagonal y/z
    # (cost(x, -) 300 + 400); deletion first: y is deleted, x/z substituted.
    cols, cost = _columns("x y", "z")
    assert cost == 700 and cols == [("x", "z", SUB), ("y", "", DEL)]
    # ref z, hyp x y: insertion of y ties the diagonal z/y; insertion before the diagonal.
    cols, cost = _columns("z", "x y")
    assert cost == 700 and cols == [("z", "x", SUB), ("", "y", INS)]


# Unmapped reference instances, a missing slot against alternatives, substrings (kept)


def test_unmapped_reference_instance_opt_rem_and_opt_over_rem():
    ref = (
        "<T-D-1> :=\n"
        '  A: "x"\n'  # plain slot: MIS
        "  B: <EV-D-1>\n"  # pointer to an unmapped optional instance: REM
        "  C: ? <EV-D-1>\n"  # optional slot and such a pointer: OPT wins over REM
        '  D: ? "y"\n'  # optional slot: OPT
        "<EV-D-1> :=\n"
        "  OBJ_STATUS: OPTIONAL\n"
        '  W: "w"\n'  # an unmapped optional instance gives nothing at all
    )
    hyp = '<Z-D-1> :=\n  Q: "q"\n'  # another type: nothing maps; its point is SPU
    result = run(ref, hyp)
    assert sorted((p.slot, p.category) for p in result.points) == [
        ("A", "MIS"),
        ("B", "REM"),
        ("C", "OPT"),
        ("D", "OPT"),
        ("Q", "SPU"),
    ]


def test_missing_hypothesis_slot_is_charged_against_the_cheapest_alternative():
    # alternative 1 has two fills (2 MIS), alternative 2 one fill (1 MIS): the fewest errors win
    ref = '<E-D-1> :=\n  A: "x"\n  S: "p"\n     "q"\n   / "r"\n'
    hyp = '<E-D-1> :=\n  A: "x"\n'
    result = run(ref, hyp)
    assert sorted((p.slot, p.category) for p in result.points) == [("A", "COR"), ("S", "MIS")]
    [missed] = [p for p in result.points if p.slot == "S"]
    assert (missed.as_dict()["ref"]["fill"], missed.as_dict()["ref"]["line"]) == ('"r"', 5)
    # equal errors: the earliest alternative
    tied = run('<E-D-1> :=\n  A: "x"\n  S: "p"\n   / "r"\n', hyp)
    [missed] = [p for p in tied.points if p.slot == "S"]
    assert missed.as_dict()["ref"]["fill"] == '"p"'


def test_clean_content_compares_character_substrings():
    # `ian team` is a character substring of `egyptian team` (not word-bounded) and contains `team`
    ref = '<E-D-1> :=\n  A: "Egyptian [team]"\n'
    assert cats(run(ref, '<E-D-1> :=\n  A: "ian team"\n')) == ["COR"]
    assert cats(run(ref, '<E-D-1> :=\n  A: "gyptian tea"\n')) == ["INC"]  # lacks the minimal `team`
