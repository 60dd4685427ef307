"""Named entities scored as MUC (same texts) and as the MITRE speech scorer (texts that differ).

Every expected count below is derived by hand in the comments, from the MUC
rules: a region gives two points, TYPE and TEXT; a reference and a hypothesis
region are paired only when they are of the same element and share a
character (or, on different texts, an alignment column); TYPE is correct
when the values are equal, TEXT when the extents are equal. On different
texts TEXT gives two points, content (the words) and extent.
SER = (INC + MIS + SPU) / (COR + INC + MIS) = (INC + MIS + SPU) / POS.
"""

from __future__ import annotations

import pytest

from hub4eval.api import score_entity_files
from hub4eval.config import ScoreConfig
from hub4eval.report.entities import entity_counts, type_values
from hub4eval.scoring.metrics import Counts

DOC = "<DOC>\n<DOCNO> d1 </DOCNO>\n<TEXT>\n{}\n</TEXT>\n</DOC>\n"
MUC = ScoreConfig(premodifiers=())  # what `hub4eval ne` uses unless --premodifiers is given


def score(tmp_path, ref: str, hyp: str, config: ScoreConfig = MUC, **options):
    (tmp_path / "ref.sgml").write_text(ref)
    (tmp_path / "hyp.sgml").write_text(hyp)
    return score_entity_files(tmp_path / "ref.sgml", tmp_path / "hyp.sgml", config=config, **options)


def counts(result) -> tuple[int, int, int, int]:
    total = result.total
    return total.cor, total.inc, total.mis, total.spu


REF = DOC.format(
    '<ENAMEX TYPE="PERSON">Boris Yeltsin</ENAMEX> met <ENAMEX TYPE="PERSON">Bill Clinton</ENAMEX> in '
    '<ENAMEX TYPE="LOCATION">Moscow</ENAMEX> on <TIMEX TYPE="DATE">March 3rd</TIMEX> .'
)


@pytest.mark.parametrize(
    ("hyp", "expected", "f", "ser"),
    [
        # the reference itself: 4 regions x 2 points, all COR; F 1, SER 0
        (REF, (8, 0, 0, 0), 1.0, 0.0),
        # a sub-extent of the right type: Yeltsin overlaps Boris Yeltsin -> TYPE COR, TEXT INC;
        # the three others COR: COR 7 INC 1; POS = ACT = 8; F = 7/8; SER = 1/8
        (REF.replace('<ENAMEX TYPE="PERSON">Boris ', 'Boris <ENAMEX TYPE="PERSON">'), (7, 1, 0, 0), 7 / 8, 1 / 8),
        # the right extent, the wrong type: TYPE INC, TEXT COR; F = 7/8, SER = 1/8
        (REF.replace('"PERSON">Bill', '"ORGANIZATION">Bill'), (7, 1, 0, 0), 7 / 8, 1 / 8),
        # another element on the same words never pairs: the TIMEX is MIS twice, the NUMEX SPU twice:
        # COR 6, MIS 2, SPU 2; POS = ACT = 8; F = 12 / 16 = 0.75; SER = 4/8
        (REF.replace("TIMEX", "NUMEX"), (6, 0, 2, 2), 0.75, 0.5),
        # a missed region: COR 6, MIS 2; POS 8, ACT 6; F = 12/14; SER = 2/8
        (REF.replace('<ENAMEX TYPE="LOCATION">Moscow</ENAMEX>', "Moscow"), (6, 0, 2, 0), 12 / 14, 0.25),
        # a spurious region on "met": COR 8, SPU 2; POS 8, ACT 10; F = 16/18; SER = 2/8
        (REF.replace(" met ", ' <ENAMEX TYPE="LOCATION">met</ENAMEX> '), (8, 0, 0, 2), 16 / 18, 0.25),
    ],
)
def test_hand_cases_on_the_same_text(tmp_path, hyp, expected, f, ser):
    result = score(tmp_path, REF, hyp).result
    assert counts(result) == expected
    metrics = result.total.metrics()
    assert metrics["F"] == pytest.approx(f)
    assert metrics["SER"] == pytest.approx(ser)


def test_same_type_regions_that_do_not_overlap_are_not_paired(tmp_path):
    # reference PERSON on Boris, hypothesis PERSON on Bill: no shared character, so not a pair
    # (a templette score would pair them: TYPE COR, TEXT INC). MIS 2 + SPU 2, COR 0:
    # POS 2, ACT 2, F 0, SER = 4/2 = 2.0 (SER can exceed 100 %)
    ref = DOC.format('<ENAMEX TYPE="PERSON">Boris</ENAMEX> and Bill')
    hyp = DOC.format('Boris and <ENAMEX TYPE="PERSON">Bill</ENAMEX>')
    result = score(tmp_path, ref, hyp).result
    assert counts(result) == (0, 0, 2, 2)
    assert result.total.metrics()["SER"] == 2.0
    assert result.total.metrics()["F"] == 0.0


def test_two_hypotheses_over_one_reference_the_first_pairs(tmp_path):
    # New York City (LOCATION) against New York and City (LOCATION each): both pairs have
    # TYPE COR, TEXT INC (F 1/2); the tie goes to the earlier hypothesis, New York.
    # City is left over: SPU 2. COR 1 INC 1 SPU 2: POS 2, ACT 4, F = 2/6; SER = 3/2
    ref = DOC.format('in <ENAMEX TYPE="LOCATION">New York City</ENAMEX> today')
    hyp = DOC.format('in <ENAMEX TYPE="LOCATION">New York</ENAMEX> <ENAMEX TYPE="LOCATION">City</ENAMEX> today')
    scored = score(tmp_path, ref, hyp)
    assert counts(scored.result) == (1, 1, 0, 2)
    assert scored.result.total.metrics()["F"] == pytest.approx(1 / 3)
    assert scored.result.total.metrics()["SER"] == pytest.approx(1.5)
    assert ("<ENAMEX-d1-1>", "<ENAMEX-d1-1>") in [(r, h) for r, h, _ in scored.result.instance_pairs()]


def test_adjacent_regions_share_no_character(tmp_path):
    # "Boston" ends where "'s" starts (offsets end-exclusive): they do not overlap.
    # Reference Boston (LOCATION); hypothesis 's (LOCATION): MIS 2, SPU 2
    ref = DOC.format('<ENAMEX TYPE="LOCATION">Boston</ENAMEX>\'s mayor')
    hyp = DOC.format('Boston<ENAMEX TYPE="LOCATION">\'s</ENAMEX> mayor')
    assert counts(score(tmp_path, ref, hyp).result) == (0, 0, 2, 2)


def test_optional_regions(tmp_path):
    # STATUS="OPT": left out, it counts nothing; tagged, it counts as any region.
    ref = DOC.format('<ENAMEX TYPE="PERSON">Boris</ENAMEX> and <ENAMEX TYPE="PERSON" STATUS="OPT">Bill</ENAMEX>')
    left_out = DOC.format('<ENAMEX TYPE="PERSON">Boris</ENAMEX> and Bill')
    tagged = DOC.format('<ENAMEX TYPE="PERSON">Boris</ENAMEX> and <ENAMEX TYPE="ORGANIZATION">Bill</ENAMEX>')
    assert counts(score(tmp_path, ref, left_out).result) == (2, 0, 0, 0)
    assert counts(score(tmp_path, ref, tagged).result) == (3, 1, 0, 0)


def test_premodifiers_only_when_asked(tmp_path):
    # MUC compares the region as tagged: "the Pentagon" against "Pentagon" is a TEXT error.
    # With --premodifiers the (hub4eval's templette rule), "the" is dropped from both: correct.
    ref = DOC.format('<ENAMEX TYPE="ORGANIZATION">the Pentagon</ENAMEX> said')
    hyp = DOC.format('the <ENAMEX TYPE="ORGANIZATION">Pentagon</ENAMEX> said')
    assert counts(score(tmp_path, ref, hyp).result) == (1, 1, 0, 0)
    assert counts(score(tmp_path, ref, hyp, ScoreConfig(premodifiers=("the",))).result) == (2, 0, 0, 0)


def test_per_type_value_rows(tmp_path):
    # Bill Clinton tagged ORGANIZATION: the pair's points go to PERSON (the reference's value):
    # PERSON: TYPE COR + INC, TEXT COR + COR -> COR 3 INC 1; LOCATION COR 2; DATE COR 2
    scored = score(tmp_path, REF, REF.replace('"PERSON">Bill', '"ORGANIZATION">Bill'))
    rows = entity_counts(scored.result, type_values(scored.ref_templates), type_values(scored.hyp_templates))
    assert list(rows) == ["ENAMEX", "ENAMEX LOCATION", "ENAMEX PERSON", "TIMEX", "TIMEX DATE", "ALL"]
    assert rows["ENAMEX PERSON"]["ALL"] == Counts(cor=3, inc=1)
    assert rows["ENAMEX PERSON"]["TYPE"] == Counts(cor=1, inc=1)
    assert rows["ENAMEX PERSON"]["TEXT"] == Counts(cor=2)
    assert rows["ENAMEX"]["ALL"] == Counts(cor=5, inc=1)
    assert rows["ALL"]["ALL"] == scored.result.total
    # the same texts: TEXT is its extent only (no content point), as in MUC
    assert rows["ALL"]["TEXT content"] == Counts()
    assert rows["ALL"]["TEXT extent"] == rows["ALL"]["TEXT"]


SPEECH_REF = DOC.format(
    '<ENAMEX TYPE="PERSON">Bill Clinton</ENAMEX> visited <ENAMEX TYPE="LOCATION">New York</ENAMEX> today'
)


def test_speech_content_and_extent_split_unsegmented(tmp_path):
    # ASR output, no documents: bill clint visited new york today. The alignment pairs
    # clinton/clint (a substitution) and every other word with itself.
    # PERSON: TYPE COR; TEXT content `bill clint` vs `bill clinton` INC; extent: both cover the
    #   columns of bill..clinton, COR.
    # LOCATION: TYPE COR, content COR, extent COR.
    # COR 5 INC 1: POS = ACT = 6, F = 5/6, SER = 1/6
    hyp = '<ENAMEX TYPE="PERSON">bill clint</ENAMEX> visited <ENAMEX TYPE="LOCATION">new york</ENAMEX> today\n'
    scored = score(tmp_path, SPEECH_REF, hyp)
    result = scored.result
    assert counts(result) == (5, 1, 0, 0)
    assert result.total.metrics()["SER"] == pytest.approx(1 / 6)
    rows = entity_counts(result, type_values(scored.ref_templates), type_values(scored.hyp_templates))
    assert rows["ALL"]["TEXT content"] == Counts(cor=1, inc=1)
    assert rows["ALL"]["TEXT extent"] == Counts(cor=2)
    assert rows["ALL"]["TYPE"] == Counts(cor=2)
    # the error is the recognizer's: clinton was heard clint
    assert result.causes["all"][""]["recognition"]["INC"] == 1
    assert result.ceiling is not None


def test_speech_sub_extent_is_wrong_in_extent_and_content(tmp_path):
    # bill <PERSON>clint</PERSON>: the hypothesis covers the column of clinton only, the
    # reference bill..clinton: extent INC; content `clint` INC; TYPE COR.
    # LOCATION COR 3. COR 4 INC 2: F = 4/6, SER = 2/6
    hyp = 'bill <ENAMEX TYPE="PERSON">clint</ENAMEX> visited <ENAMEX TYPE="LOCATION">new york</ENAMEX> today\n'
    result = score(tmp_path, SPEECH_REF, hyp).result
    assert counts(result) == (4, 2, 0, 0)
    assert result.total.metrics()["F"] == pytest.approx(4 / 6)


def test_speech_segmented_and_unsegmented_agree(tmp_path):
    # the same words as one document with the reference's DOCNO: the same counts
    hyp = '<ENAMEX TYPE="PERSON">bill clint</ENAMEX> visited <ENAMEX TYPE="LOCATION">new york</ENAMEX> today'
    unsegmented = counts(score(tmp_path, SPEECH_REF, hyp + "\n").result)
    segmented = counts(score(tmp_path, SPEECH_REF, DOC.format(hyp)).result)
    assert unsegmented == segmented == (5, 1, 0, 0)


def test_unsegmented_regions_go_to_the_document_they_align_with(tmp_path):
    # two reference documents; the ASR output runs them together. Each hypothesis region
    # is scored against the document its words align with: all COR (2 regions x 3 points).
    ref = DOC.format('<ENAMEX TYPE="PERSON">Bill Clinton</ENAMEX> spoke') + DOC.replace("d1", "d2").format(
        'rain in <ENAMEX TYPE="LOCATION">Boston</ENAMEX> today'
    )
    hyp = '<ENAMEX TYPE="PERSON">bill clinton</ENAMEX> spoke rain in <ENAMEX TYPE="LOCATION">boston</ENAMEX> today\n'
    scored = score(tmp_path, ref, hyp)
    assert counts(scored.result) == (6, 0, 0, 0)
    assert [iset.docid for iset in scored.hyp_templates.instance_sets] == ["d1", "d2"]


def test_json_lines_score_like_markup(tmp_path):
    # the first parametrized hand case (a sub-extent) written as JSON Lines: the same counts
    text = "Boris Yeltsin met Bill Clinton in Moscow on March 3rd ."
    ref = '{"id": "d1", "text": "%s", "entities": [["PERSON", 0, 13], ["PERSON", 18, 30], ["LOCATION", 34, 40], ["DATE", 44, 53]]}\n'
    hyp = '{"id": "d1", "text": "%s", "entities": [["PERSON", 6, 13], ["PERSON", 18, 30], ["LOCATION", 34, 40], ["DATE", 44, 53]]}\n'
    (tmp_path / "ref.jsonl").write_text(ref % text)
    (tmp_path / "hyp.jsonl").write_text(hyp % text)
    result = score_entity_files(tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl", config=MUC).result
    assert counts(result) == (7, 1, 0, 0)


def test_a_document_without_regions(tmp_path):
    # d2 has no region on either side: it gives no point, and is still a document of the evaluation
    ref = DOC.format('<ENAMEX TYPE="PERSON">Boris</ENAMEX> spoke') + DOC.replace("d1", "d2").format("nothing here")
    scored = score(tmp_path, ref, ref)
    assert counts(scored.result) == (2, 0, 0, 0)
    assert [docid for docid, _ in scored.result.set_counts()] == ["d1", "d2"]


def test_compare_keeps_one_part_of_text(tmp_path):
    # speech, --compare extent: TEXT is its extent only. PERSON: TYPE COR, extent COR (the content
    # error bill clint is not counted); LOCATION TYPE COR, extent COR: COR 4, nothing else
    hyp = '<ENAMEX TYPE="PERSON">bill clint</ENAMEX> visited <ENAMEX TYPE="LOCATION">new york</ENAMEX> today\n'
    extent_only = ScoreConfig(premodifiers=(), compare="extent")
    assert counts(score(tmp_path, SPEECH_REF, hyp, extent_only).result) == (4, 0, 0, 0)
    # --compare content: TYPE and content; PERSON content INC: COR 3, INC 1
    content_only = ScoreConfig(premodifiers=(), compare="content")
    assert counts(score(tmp_path, SPEECH_REF, hyp, content_only).result) == (3, 1, 0, 0)
    # the same text, --compare content: TEXT is the region's string; Yeltsin against Boris Yeltsin INC
    sub_extent = REF.replace('<ENAMEX TYPE="PERSON">Boris ', 'Boris <ENAMEX TYPE="PERSON">')
    assert counts(score(tmp_path, REF, sub_extent, content_only).result) == (7, 1, 0, 0)
