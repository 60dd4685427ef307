"""Golden: examples/asr, a raw unsegmented ASR hypothesis scored against a human transcript.

Derivation (defaults: compare both, noisy content, spoken forms en, the shipped
GLM, unsegmented because asr_unsegmented.sgml has no document tags):

Instance sets: asr1's text fills lie in the columns of the first reference
document, asr2's in the second: each overlaps one reference set only (§7.4).

ABC19980120.1830.0500 <-> asr1
  WINNER  "Brazil" / "brazil"                      COR COR
  LOSER   "Chile" / "chile"                        COR COR
  SCORE   "two to nothing" / "two nil": both become the tokens `2` `0` by the
          spoken forms (before the GLM sees them), content COR; aligned as the
          same two columns on both sides: extent COR
  LOCATION "Rio de Janeiro" / "rio the janeiro": content INC (misrecognized
          `the`); the same three columns: extent COR
  DATE    "Wednesday" / "wednesday"                COR COR
  SCORER  "Glen Buni- Bunting" / "glen bunting": the fragment is optional,
          content COR; hypothesis columns inside the reference's: extent COR
  TEMPLATE EVENT pointer                           COR
ABC19980120.1830.0600 <-> asr2
  asr2-1 (F 71.4) beats asr2-2 (F 0) for the reference event:
  WINNER  "Martina Hingis" / "martina hinges": content INC, extent COR
  LOSER   COR COR;  SCORE "six three, six three" / "six three six three": COR COR
  LOCATION missing in the hypothesis:             MIS MIS
  asr2-2 WINNER "melbourne" unmapped:             SPU SPU
  TEMPLATE EVENT: <asr2-1> COR, <asr2-2> SPU
Total COR 18, INC 2, MIS 2, SPU 3: POS 22, ACT 23, F = 36/45 = 0.8.
Without the GLM (--glm none) the spoken forms alone make the score COR; the
GLM alone (--spoken-forms none) does too (its rules make both `2-0`); without
either, "two to nothing" / "two nil" is content INC: COR 17, INC 3.
Text WER: the reference has 41 words (25 + 16: `2 0` is two); the raw hypothesis
lacks the 6 DOCNO words (5 deleted, the last one of the second document
substituted by the inserted `um`), `buni-` and `uh` are deleted, `the`/`de` and
`hinges`/`hingis` substituted: 7 deletions + 3 substitutions = 10; 10 / 41 = 24.4 %.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hub4eval.api import score, score_files
from hub4eval.cli import app
from hub4eval.config import ScoreConfig
from hub4eval.io.corpus import parse_corpus, read_corpus
from hub4eval.io.templettes import read_templates
from hub4eval.model import Extent, TextFill
from hub4eval.util.records import replace
from tests.support import EXAMPLES

ASR = EXAMPLES / "asr"
FILES = dict(ref_text=ASR / "reference.sgml", hyp_text=ASR / "asr_unsegmented.sgml")


def test_unsegmented_asr_scores_as_derived():
    result = score_files(ASR / "ref.tpl", ASR / "hyp.tpl", **FILES)
    total = result.total
    assert (total.cor, total.inc, total.mis, total.spu, total.opt, total.rem) == (18, 2, 2, 3, 0, 0)
    assert total.metrics()["F"] == pytest.approx(0.8)
    assert result.instance_set_pairs() == [
        ("ABC19980120.1830.0500", "asr1"),
        ("ABC19980120.1830.0600", "asr2"),
    ]
    by_slot = result.by("slot")
    assert (by_slot["SPORTS_EVENT.LOCATION"].inc, by_slot["SPORTS_EVENT.LOCATION"].mis) == (1, 2)
    scorer = [p for p in result.points if p.slot == "SCORER"]
    assert [p.category for p in scorer] == ["COR", "COR"]
    assert "texts:aligned" in result.signature
    # spoken words only (inside <TEXT>, no DOCNO): 22 + 13; `two to nothing` and
    # `two nil` are both the two tokens `2 0` (spoken forms)
    assert result.wer is not None and result.wer["ref_words"] == 35


def test_glm_or_spoken_forms_turn_the_score_content_from_inc_into_cor():
    def run(**options):
        return score_files(ASR / "ref.tpl", ASR / "hyp.tpl", config=ScoreConfig(**options), **FILES)

    pick = lambda r: [p.category for p in r.points if p.slot == "SCORE" and p.kind == "content"]  # noqa: E731
    assert pick(run()) == ["COR", "COR"]
    assert pick(run(glm="none")) == ["COR", "COR"]
    assert pick(run(spoken_forms="none")) == ["COR", "COR"]
    without = run(glm="none", spoken_forms="none")
    assert pick(without) == ["INC", "COR"]
    assert (without.total.cor, without.total.inc) == (17, 3)


def test_cli_prints_wer_and_scores(tmp_path):
    out = tmp_path / "r.json"
    result = CliRunner().invoke(
        app,
        [
            "score",
            str(ASR / "ref.tpl"),
            str(ASR / "hyp.tpl"),
            "--ref-text",
            str(ASR / "reference.sgml"),
            "--hyp-text",
            str(ASR / "asr_unsegmented.sgml"),
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    # the/de S, buni- D, uh D, um I, hinges/hingis S: 5 errors in 35 spoken words = 14.3%
    assert "hypothesis text WER (sclite alignment) = 14.3" in result.stdout
    # SER = (INC 2 + MIS 2 + SPU 3) / POS 22 = 31.8%
    assert "F = 80.0  SER = 31.8  REC = 81.8  PRE = 78.3" in result.stdout
    assert json.loads(out.read_text())["wer"]["wer"] == 5 / 35


def _shift(tset, offsets):
    """The same template set with every extent moved by its document's file offset."""
    sets = []
    for iset in tset.instance_sets:
        delta = offsets[iset.docid]
        instances = []
        for inst in iset.instances:
            slots = []
            for slot in inst.slots:
                alternatives = []
                for alternative in slot.alternatives:
                    fills = tuple(
                        replace(
                            f,
                            extents=tuple(Extent(e.start + delta, e.end + delta) for e in f.extents),
                            minimal_extents=tuple(Extent(e.start + delta, e.end + delta) for e in f.minimal_extents),
                        )
                        if isinstance(f, TextFill)
                        else f
                        for f in alternative.fills
                    )
                    alternatives.append(replace(alternative, fills=fills))
                slots.append(replace(slot, alternatives=tuple(alternatives)))
            instances.append(replace(inst, slots=tuple(slots)))
        sets.append(replace(iset, instances=tuple(instances)))
    return replace(tset, instance_sets=tuple(sets))


def test_segmented_like_the_reference_gives_the_same_result_in_both_modes():
    ref_corpus = read_corpus(str(ASR / "reference.sgml"))
    # a hypothesis text segmented like the reference, with two misrecognitions
    hyp_text = (ASR / "reference.sgml").read_text().replace("Rio de", "Rio the").replace("Hingis", "Hinges")
    hyp_corpus = parse_corpus(hyp_text, "hyp.sgml")
    ref = read_templates(str(ASR / "ref.tpl"))
    hyp = replace(read_templates(str(ASR / "ref.tpl"), role="hypothesis"), role="hypothesis")
    segmented = score(ref, hyp, ref_corpus=ref_corpus, hyp_corpus=hyp_corpus)
    offsets = {doc.docid: doc.offset for doc in hyp_corpus.documents}
    unsegmented = score(
        ref,
        _shift(hyp, offsets),
        ref_corpus=ref_corpus,
        hyp_corpus=hyp_corpus,
        config=ScoreConfig(unsegmented=True),
    )
    assert segmented.instance_set_pairs() == unsegmented.instance_set_pairs()
    assert [(p.category, p.kind, p.slot) for p in segmented.points] == [
        (p.category, p.kind, p.slot) for p in unsegmented.points
    ]
    assert segmented.total == unsegmented.total
    assert segmented.total.cor == 22  # the fills still read like the reference
    assert segmented.wer["substitutions"] == unsegmented.wer["substitutions"] == 2  # texts were aligned
