"""The ceiling is a true upper bound: no hypothesis made only of spans of the
hypothesis text scores above it.

Random extractors run on the real recognizer output of the shipped examples:
each picks, per reference slot, any alternative (any mention), per fill a run
of the hypothesis words in or around the reference words' columns (with or
without neighbouring words, or a few words anywhere in the document), or
leaves the fill out. F is compared exactly (rational arithmetic).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub4eval.api import score
from hub4eval.config import ScoreConfig
from hub4eval.io.corpus import read_corpus
from hub4eval.io.templettes import read_templates
from hub4eval.model import Extent, FillAlternative, Instance, InstanceSet, Slot, TemplateSet, TextFill
from hub4eval.scoring.metrics import Counts

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CASES = {
    "asr_numbers": ("asr_numbers/ref.tpl", "asr_numbers/reference.sgml", "asr_numbers/asr.sgml"),
    "asr": ("asr/ref.tpl", "asr/reference.sgml", "asr/asr_segmented.sgml"),
    "mentions": ("ref.tpl", "reference.sgml", "asr.sgml"),  # written by _mentions below
}

# Two mentions of one organization: the recognizer misheard the first (`door to
# ration`) and heard the second perfectly; a slot whose words it lost entirely
# (`Whitfield` heard as `with you`, content INC, extent INC without the edge
# rule); an optional slot it misheard; a fill whose last word it misheard.
_REF_TEXT = (
    "Harbor Steel said on Monday that its plant in Gary will close. Mayor Whitfield "
    "said the town would fight. Shares of Harbor Steel fell in New York trading, and "
    "the Red Wings team won."
)
_HYP_TEXT = (
    "door to ration said on monday that its plant in gary will close mayor with you "
    "said the town would fight shares of harbor steel fell in new york trading and "
    "the red wings beam won"
)


def _mentions(folder: Path) -> Path:
    doc = "<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\n{}\n</TEXT>\n</DOC>\n"
    ref_doc, hyp_doc = doc.format(_REF_TEXT), doc.format(_HYP_TEXT)

    def at(words: str, nth: int = 0) -> str:
        start = -1
        for _ in range(nth + 1):
            start = ref_doc.index(words, start + 1)
        return f'"{words}" ##{start}#{start + len(words)}#'

    bracketed_start = ref_doc.index("the Red Wings team")
    bracketed = f'"the [Red Wings] team" ##{bracketed_start}#{bracketed_start + len("the Red Wings team")}#'
    (folder / "reference.sgml").write_text(ref_doc)
    (folder / "asr.sgml").write_text(hyp_doc)
    (folder / "ref.tpl").write_text(
        "<EVENT-D1-1> :=\n"
        f"    ORG: {at('Harbor Steel')}\n"
        f"       / {at('Harbor Steel', 1)}\n"
        f"    PLACE: {at('Gary')}\n"
        f"    WHO: {at('Mayor Whitfield')}\n"
        f"    WHEN: ? {at('Monday')}\n"
        f"    TEAM: {bracketed}\n"
        f"    CITY: ? {at('New York')}\n"
    )
    return folder


def _f(counts: Counts) -> Fraction:
    return counts.f_exact()


class _Case:
    def __init__(self, name: str, folder: Path = EXAMPLES) -> None:
        ref_path, ref_text, hyp_text = (folder / p for p in CASES[name])
        self.ref = read_templates(ref_path, role="reference")
        self.ref_corpus = read_corpus(ref_text)
        self.hyp_corpus = read_corpus(hyp_text)
        self.config = ScoreConfig()
        result = score(
            self.ref,
            TemplateSet((), role="hypothesis"),
            ref_corpus=self.ref_corpus,
            hyp_corpus=self.hyp_corpus,
            config=self.config,
            ceiling=True,
        )
        self.alignment = result.alignment
        self.wer = result.wer
        assert result.ceiling is not None
        self.ceiling = result.ceiling
        self.ceiling_f = _f(result.ceiling.total)

    def tokens(self, docid: str) -> tuple[list[tuple[int, int]], str]:
        space = self.alignment.column_space(docid, reference=True)
        document = self.alignment.documents[space]
        text = self.hyp_corpus.document(document.hyp_docid).text
        return [(t.start, t.end) for t in document.hyp_tokens], text

    def columns_to_tokens(self, docid: str, extent: Extent) -> list[int]:
        columns = self.alignment.ref_extent(docid, extent)
        if columns is None:
            return []
        space = self.alignment.column_space(docid, reference=True)
        index = self.alignment.documents[space].alignment.hyp_index[columns.start : columns.end + 1]
        return [int(h) for h in index if h >= 0]

    def score(self, hyp: TemplateSet) -> Counts:
        result = score(
            self.ref,
            hyp,
            ref_corpus=self.ref_corpus,
            hyp_corpus=self.hyp_corpus,
            config=self.config,
            ceiling=False,
            alignment=self.alignment,
            wer_summary=self.wer,
        )
        return result.total


_CASES: dict[str, _Case] = {}


def _case(name: str) -> _Case:
    if name not in _CASES:
        if name == "mentions":
            import tempfile

            _CASES[name] = _Case(name, _mentions(Path(tempfile.mkdtemp())))
        else:
            _CASES[name] = _Case(name)
    return _CASES[name]


def _span_fill(text: str, spans: list[tuple[int, int]], i: int, j: int) -> TextFill:
    start, end = spans[i][0], spans[j][1]
    content = " ".join(text[start:end].split())
    return TextFill(content, ((0, len(content)),), (Extent(start, end),), (Extent(start, end),), False, True)


@st.composite
def extractors(draw, case: _Case) -> TemplateSet:
    sets = []
    for iset in case.ref.instance_sets:
        spans, text = case.tokens(iset.docid)
        instances = []
        for inst in iset.instances:
            slots = []
            for slot in inst.slots:
                alternative = draw(st.sampled_from(slot.alternatives))
                fills = []
                for fill in alternative.fills:
                    if type(fill) is not TextFill or fill.extent is None:
                        fills.append(fill)  # pointers follow their instances; set fills as written
                        continue
                    how = draw(st.sampled_from(["around", "around", "around", "anywhere", "leave out"]))
                    if how == "leave out" or not spans:
                        continue
                    run = case.columns_to_tokens(iset.docid, fill.extent)
                    if how == "anywhere" or not run:
                        i = draw(st.integers(0, len(spans) - 1))
                        j = min(len(spans) - 1, i + draw(st.integers(0, 3)))
                    else:  # the words of its columns, maybe fewer, maybe with neighbours
                        i = min(len(spans) - 1, max(0, min(run) + draw(st.integers(-2, 2))))
                        j = min(len(spans) - 1, max(0, max(run) + draw(st.integers(-2, 2))))
                        if i > j:
                            i, j = j, i
                    fills.append(_span_fill(text, spans, i, j))
                if fills:
                    slots.append(Slot(slot.name, (FillAlternative(tuple(fills)),)))
            instances.append(Instance(inst.type, inst.docid, inst.number, tuple(slots)))
        sets.append(InstanceSet(iset.docid, tuple(instances)))
    return TemplateSet(tuple(sets), role="hypothesis")


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_ceilings_own_projection_scores_the_ceiling(name: str) -> None:
    case = _case(name)
    assert case.score(case.ceiling.projection) == case.ceiling.total


@pytest.mark.parametrize("name", sorted(CASES))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data())
def test_no_extractor_of_spans_scores_above_the_ceiling(name: str, data: st.DataObject) -> None:
    case = _case(name)
    hyp = data.draw(extractors(case))
    total = case.score(hyp)
    assert _f(total) <= case.ceiling_f, (total, case.ceiling.total)


def test_a_slot_takes_the_alternative_the_recognizer_heard() -> None:
    # ORG: the first mention projects to `door to ration` (INC, INC); the second to
    # `harbor steel` (COR, COR); the ceiling takes the second
    case = _case("mentions")
    [inst] = case.ceiling.projection.instances
    org = inst.slot("ORG")
    assert org is not None and [f.content for f in org.alternatives[0].fills] == ["harbor steel"]
    # TEAM: `the red wings beam` is content INC (`beam`); the run `the red wings` is COR
    # in both (the premodifier is stripped, `red wings` is the minimal string)
    team = inst.slot("TEAM")
    assert team is not None and [f.content for f in team.alternatives[0].fills] == ["the red wings"]
    # CITY (optional) projects to `new york` (all right): kept
    city = inst.slot("CITY")
    assert city is not None and [f.content for f in city.alternatives[0].fills] == ["new york"]


def test_a_fill_that_can_score_no_cor_is_left_out() -> None:
    # a reference fill whose projection scores no COR: `Mayor Whitfield` / `mayor with you`
    # content INC, extent COR (the edge rule) -> kept; a fill of words all misheard scores 0
    # COR and is left out (MIS rather than INC: F is higher)
    case = _case("mentions")
    [inst] = case.ceiling.projection.instances
    assert inst.slot("WHO") is not None
    points = {(p.slot, p.kind): p.category for p in case.ceiling.points}
    assert points[("ORG", "content")] == "COR" and points[("ORG", "extent")] == "COR"
    assert points[("TEAM", "content")] == "COR"


def test_a_fill_with_no_possible_cor_is_left_out(tmp_path: Path) -> None:
    # with --compare content, `Monday` heard as `sunday` can only be INC: the ceiling
    # leaves it out (MIS: POS 1, ACT 0) rather than write it (INC: POS 1, ACT 1)
    folder = _mentions(tmp_path)
    (folder / "asr.sgml").write_text((folder / "asr.sgml").read_text().replace("monday", "sunday"))
    (folder / "ref.tpl").write_text((folder / "ref.tpl").read_text().replace("WHEN: ? ", "WHEN: "))
    ref = read_templates(folder / "ref.tpl", role="reference")
    corpora = read_corpus(folder / "reference.sgml"), read_corpus(folder / "asr.sgml")
    config = ScoreConfig(compare="content")
    empty = TemplateSet((), role="hypothesis")
    result = score(ref, empty, ref_corpus=corpora[0], hyp_corpus=corpora[1], config=config, ceiling=True)
    assert result.ceiling is not None
    [inst] = result.ceiling.projection.instances
    assert inst.slot("WHEN") is None
    when = [p.category for p in result.ceiling.points if p.slot == "WHEN"]
    assert when == ["MIS"]
