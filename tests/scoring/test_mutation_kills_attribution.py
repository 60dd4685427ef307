"""What the recognizer cost (hub4eval/scoring/attribution.py): tests that kill its
mutants (issue #21).

Each test builds a small scoring run where the reference and hypothesis texts
differ, and checks the cause a user sees on the points (``score``'s
``result.points``) and the note ``explain`` prints under a recognition error.
"""

from __future__ import annotations

from hub4eval.api import score
from hub4eval.config import ScoreConfig
from hub4eval.io.corpus import parse_corpus
from hub4eval.io.templettes import parse_templates
from hub4eval.report.explain import explain

WORDS = "in tennis martina hingis beat conchita martinez in melbourne on sunday".split()


def _doc(docid: str, words: list[str]) -> str:
    return f"<DOC>\n<DOCNO> {docid} </DOCNO>\n<TEXT>\n" + " ".join(words) + "\n</TEXT>\n</DOC>\n"


def _fill(text: str, docid: str, phrase: str | None, extent: tuple[int, int] | None = None) -> str:
    """``"phrase" ##start#end#`` at the phrase's first occurrence in the text of document ``docid``;
    ``extent`` given: that extent instead; ``phrase`` alone with ``extent=()``: no extent."""
    if extent == ():
        return f'"{phrase}"'
    if extent is None:
        docno = text.index(f"<DOCNO> {docid} ")
        opening = text.rindex("<DOC>", 0, docno)  # offsets count from the document's opening tag
        start = text.index(phrase, text.index("<TEXT>", docno)) - opening
        extent = (start, start + len(phrase))
    return f'"{phrase}" ##{extent[0]}#{extent[1]}#'


def _templates(instances: dict[str, dict[str, str]]) -> str:
    lines = []
    for key, slots in instances.items():
        lines.append(f"<{key}> :=")
        lines += [f"    {slot}: {fill}" for slot, fill in slots.items()]
    return "\n".join(lines) + "\n"


def _score(ref_text: str, hyp_text: str, ref_instances, hyp_instances):
    return score(
        parse_templates(_templates(ref_instances), "ref.tpl", role="reference"),
        parse_templates(_templates(hyp_instances), "hyp.tpl", role="hypothesis"),
        ref_corpus=parse_corpus(ref_text, "ref.sgml"),
        hyp_corpus=parse_corpus(hyp_text, "hyp.sgml"),
        config=ScoreConfig(),
        ceiling=False,
    )


def _causes(result) -> set[tuple[str, str, str, str | None]]:
    return {(p.slot, p.kind, p.category, p.cause) for p in result.points if p.category in ("INC", "MIS", "SPU")}


def test_a_missed_fill_without_extent_is_an_extraction_error() -> None:
    """A set-like fill (no extent) touches no recognized word: never the recognizer's fault,
    even in a document whose every word the recognizer got wrong."""
    ref_text = _doc("D1", WORDS)
    hyp_text = _doc("D1", ["uh"] * len(WORDS))
    ref = {"EVENT-D1-1": {"WINNER": '"martina hingis"', "LOSER": _fill(ref_text, "D1", "conchita martinez")}}
    hyp = {"EVENT-D1-1": {"LOSER": '"boris"'}}
    result = _score(ref_text, hyp_text, ref, hyp)
    causes = _causes(result)
    assert ("WINNER", "content", "MIS", "extraction") in causes
    # the fill with an extent over misheard words: the recognizer's
    assert ("LOSER", "content", "INC", "recognition") in causes


def test_a_fill_whose_extent_touches_no_word_is_an_extraction_error() -> None:
    """Reference and hypothesis extents over blanks only (no token touched) blame nobody's words."""
    ref_words = WORDS[:5] + ["  ,  "] + WORDS[5:]
    ref_text = _doc("D1", ref_words)
    hyp_text = _doc("D1", [w if w != "melbourne" else "melburn" for w in ref_words])
    blank = ref_text.index("  ,  ")  # the same offsets in both texts (same words up to there)
    assert hyp_text.index("  ,  ") == blank
    ref = {"EVENT-D1-1": {"WINNER": _fill(ref_text, "D1", "  ,  ", (blank, blank + 5))}}
    hyp = {"EVENT-D1-1": {"WINNER": '"beat"', "LOSER": _fill(hyp_text, "D1", "  ,  ", (blank, blank + 5))}}
    result = _score(ref_text, hyp_text, ref, hyp)
    causes = _causes(result)
    assert ("WINNER", "content", "INC", "extraction") in causes
    assert ("LOSER", "content", "SPU", "extraction") in causes
    assert ("LOSER", "extent", "SPU", "extraction") in causes


def test_a_reference_document_the_hypothesis_text_lacks_is_lost_to_recognition() -> None:
    """Every word of D2 was deleted (the recognizer produced no D2): its missed fill is recognition."""
    ref_text = _doc("D1", WORDS) + _doc("D2", WORDS)
    hyp_text = _doc("D1", WORDS)
    ref = {
        "EVENT-D1-1": {"WINNER": _fill(ref_text, "D1", "martina hingis")},
        "EVENT-D2-1": {"WINNER": _fill(ref_text, "D2", "martina hingis")},
    }
    hyp = {"EVENT-D1-1": {"WINNER": _fill(hyp_text, "D1", "conchita martinez")}}
    result = _score(ref_text, hyp_text, ref, hyp)
    by_doc = {(p.docid, p.kind, p.category, p.cause) for p in result.points if p.category in ("INC", "MIS")}
    assert by_doc == {
        ("D1", "content", "INC", "extraction"),  # D1 heard right: the extractor's error
        ("D1", "extent", "INC", "extraction"),
        ("D2", "content", "MIS", "recognition"),
        ("D2", "extent", "MIS", "recognition"),
    }
    rows = [row for row in explain(result, causes=["recognition"]) if row.point.docid == "D2"]
    assert [row.cause_note for row in rows] == ["the recognizer missed `martina`; missed `hingis`"] * 2
    # entity WER: the two words of each fill, those of D2 deleted
    summary = result.entity_wer["summary"]
    assert (summary["ref_words"], summary["deletions"], summary["errors"], summary["wer"]) == (4, 2, 2, 2 / 4)
    # counted on the weighted alignment that places extents, and the output says so
    assert result.entity_wer["alignment"] == "weighted"


def test_a_hypothesis_document_the_reference_text_lacks_is_hallucinated() -> None:
    """D3 exists only in the hypothesis text: its words were all inserted, its spurious fill is recognition."""
    ref_text = _doc("D1", WORDS)
    hyp_text = _doc("D1", WORDS) + _doc("D3", ["boris", "becker", "won"])
    ref = {"EVENT-D1-1": {"WINNER": _fill(ref_text, "D1", "martina hingis")}}
    hyp = {
        "EVENT-D1-1": {"WINNER": _fill(hyp_text, "D1", "martina hingis")},
        "EVENT-D3-1": {"WINNER": _fill(hyp_text, "D3", "boris becker")},
    }
    result = _score(ref_text, hyp_text, ref, hyp)
    assert {(p.docid, p.kind, p.cause) for p in result.points if p.category == "SPU"} == {
        ("D3", "content", "recognition"),
        ("D3", "extent", "recognition"),
    }


def test_the_note_of_a_hallucinated_fill_names_the_heard_words_not_the_missed_ones() -> None:
    """A spurious fill over `boris becker` where `conchita martinez` was said: the note
    lists what was heard for what."""
    ref_text = _doc("D1", WORDS)
    hyp_words = WORDS[:5] + ["boris", "becker"] + WORDS[7:]  # conchita martinez -> boris becker
    hyp_text = _doc("D1", hyp_words)
    ref = {"EVENT-D1-1": {"WINNER": _fill(ref_text, "D1", "martina hingis")}}
    hyp = {
        "EVENT-D1-1": {
            "WINNER": _fill(hyp_text, "D1", "martina hingis"),
            "LOSER": _fill(hyp_text, "D1", "boris becker"),
        }
    }
    result = _score(ref_text, hyp_text, ref, hyp)
    rows = [row for row in explain(result, causes=["recognition"]) if row.point.slot == "LOSER"]
    assert [row.point.category for row in rows] == ["SPU", "SPU"]
    assert [row.cause_note for row in rows] == [
        "the recognizer heard `boris` for `conchita`; heard `becker` for `martinez`"
    ] * 2


def test_a_misrecognized_fill_notes_a_word_inserted_inside_it() -> None:
    """`martina de hingis` heard for `martina hingis`: the reference fill's columns hold an insertion."""
    ref_text = _doc("D1", WORDS)
    hyp_text = _doc("D1", WORDS[:3] + ["de"] + WORDS[3:])
    ref = {"EVENT-D1-1": {"WINNER": _fill(ref_text, "D1", "martina hingis")}}
    hyp = {"EVENT-D1-1": {"WINNER": _fill(hyp_text, "D1", "martina")}}
    result = _score(ref_text, hyp_text, ref, hyp)
    rows = explain(result, causes=["recognition"])
    # the extent of `martina` lies inside the reference extent and is correct: one error, in content
    assert [(row.point.kind, row.point.category) for row in rows] == [("content", "INC")]
    assert {row.cause_note for row in rows} == {"the recognizer heard `de` where nothing was said"}
    # entity WER: one insertion over the fill's two words
    summary = result.entity_wer["summary"]
    assert (summary["ref_words"], summary["insertions"], summary["errors"], summary["wer"]) == (2, 1, 1, 1 / 2)


def test_points_of_an_aligned_run_name_both_fills() -> None:
    """With causes attributed, every point still says which reference and hypothesis fill it scores."""
    ref_text = _doc("D1", WORDS)
    hyp_text = _doc("D1", WORDS[:3] + ["hinges"] + WORDS[4:])
    ref = {"EVENT-D1-1": {"WINNER": _fill(ref_text, "D1", "martina hingis"), "LOCATION": '"melbourne"'}}
    hyp = {"EVENT-D1-1": {"WINNER": _fill(hyp_text, "D1", "martina hinges"), "LOSER": '"boris"'}}
    result = _score(ref_text, hyp_text, ref, hyp)
    start = ref_text.index("martina")
    assert hyp_text.index("martina") == start
    by_slot = {(p.slot, p.kind): (p.category, p.ref, p.hyp, p.cause) for p in result.points}
    category, ref_at, hyp_at, cause = by_slot["WINNER", "content"]
    assert (category, cause) == ("INC", "recognition")
    assert ref_at.as_dict() == {
        "instance": "<EVENT-D1-1>",
        "slot": "WINNER",
        "fill": f'"martina hingis" ##{start}#{start + 14}#',
        "line": 2,
    }
    assert hyp_at.as_dict() == {
        "instance": "<EVENT-D1-1>",
        "slot": "WINNER",
        "fill": f'"martina hinges" ##{start}#{start + 14}#',
        "line": 2,
    }
    category, ref_at, hyp_at, cause = by_slot["LOSER", "content"]
    assert (category, ref_at, hyp_at.fill, cause) == ("SPU", None, '"boris"', "extraction")
    category, ref_at, hyp_at, cause = by_slot["LOCATION", "content"]
    assert (category, ref_at.fill, hyp_at, cause) == ("MIS", '"melbourne"', None, "extraction")
