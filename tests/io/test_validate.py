"""Tests of checking a template set against its text corpus."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.errors import InputError
from hub4eval.io.templettes import parse_templates, read_templates
from hub4eval.io.validate import check_against_corpus
from hub4eval.model import Corpus, Document, TemplateSet, TextFill
from hub4eval.util.records import replace

D1 = "<DOC>\n<DOCNO> D1 </DOCNO>\nThe big   red\ndog barked.\n</DOC>"
D2 = "<DOC>\n<DOCNO> PRI19980302.2000.2923 </DOCNO>\nA cat.\n</DOC>"
# Offsets in D1: "The" is 26..29; "big   red\ndog" is 30..43.


def document(docid: str | None, text: str, offset: int = 0, line: int = 1) -> Document:
    return Document(docid, text, offset, line, ((0, len(text)),))


CORPUS = Corpus(
    (document("D1", D1), document("PRI19980302.2000.2923", D2, len(D1) + 1, 5)), segmented=True, path="text.sgml"
)


def check(templates: str, corpus: Corpus = CORPUS, role: str = "reference") -> tuple:
    return check_against_corpus(parse_templates(templates, "t.tpl", role), corpus)  # type: ignore[arg-type]


def test_offsets_in_the_fixture() -> None:
    assert D1[26:29] == "The"
    assert D1[30:43] == "big   red\ndog"
    assert len(D2) == 58


def test_matching_content_gives_no_warning() -> None:
    assert check('<T-D1-1> :=\n  X: "big red dog" ##30#43#\n  Y: "[The] big" ##26#33#\n  Z: "no extent"\n') == ()


def test_mismatching_content_warns_with_both_strings() -> None:
    warnings = check('<T-D1-1> :=\n  X: "big red cat" ##30#43#\n')
    assert len(warnings) == 2  # the fill's, and the count of fills that do not fit (kept under --quiet)
    warning = warnings[0]
    assert warnings[1].changes_score and "1 of 1 text fill do not fit" in warnings[1].message
    assert (warning.path, warning.line, warning.column) == ("t.tpl", 2, 6)
    assert "'big red cat' does not match the text at 30..43: 'big red dog'" in warning.message


def test_unknown_docid_suggests_close_ones() -> None:
    with pytest.raises(InputError) as info:
        check("<T-D1-1> :=\n  X: a\n<T-PRI19980302.2000.2932-1> :=\n  X: b\n")
    err = info.value
    assert (err.path, err.line, err.column) == ("t.tpl", 3, 1)
    assert err.message == (
        "document PRI19980302.2000.2932 (of <T-PRI19980302.2000.2932-1>) is not in the text corpus text.sgml"
    )
    assert err.hint is not None and "did you mean PRI19980302.2000.2923?" in err.hint


def test_unknown_docid_without_close_match() -> None:
    with pytest.raises(InputError) as info:
        check("<T-XYZ.12345-1> :=\n")
    assert "is not in the text corpus" in info.value.message
    assert "right text file" in (info.value.hint or "")


@pytest.mark.parametrize(
    ("extent", "column"),
    [("##40#999#", 6), ("##0#59#", 6)],
)
def test_extent_outside_document_is_an_error(extent: str, column: int) -> None:
    with pytest.raises(InputError) as info:
        check(f'<T-PRI19980302.2000.2923-1> :=\n  X: "x" {extent}\n')
    err = info.value
    assert (err.line, err.column) == (2, column)
    assert "lies outside document PRI19980302.2000.2923 (length 58)" in err.message
    assert "'<'" in (err.hint or "")


def test_extent_at_the_very_end_is_fine() -> None:
    warnings = check(f'<T-PRI19980302.2000.2923-1> :=\n  X: "</DOC>" ##{len(D2) - 6}#{len(D2)}#\n')
    assert warnings == ()


def test_given_minimal_extent_outside_is_an_error() -> None:
    with pytest.raises(InputError, match="extent 30..500"):
        check('<T-D1-1> :=\n  X: "[The] big" ##26#33#30#500#\n')


def test_hypothesis_is_checked_too() -> None:
    with pytest.raises(InputError, match="document D9"):
        check("<T-D9-1> :=\n  X: a\n", role="hypothesis")


def test_unsegmented_corpus_checks_extents_and_content_against_the_file() -> None:
    raw = "the big red dog barked"
    corpus = Corpus((document(None, raw),), segmented=False)
    # DOCIDs are free in an unsegmented corpus; content is compared with the file's text.
    assert check('<T-ANY-1> :=\n  X: "big" ##4#7#\n', corpus) == ()
    assert (
        "'cat' does not match the text at 4..7: 'big'" in check('<T-ANY-1> :=\n  X: "cat" ##4#7#\n', corpus)[0].message
    )
    with pytest.raises(InputError) as info:
        check('<T-ANY-1> :=\n  X: "dog" ##16#23#\n', corpus)
    assert "lies outside the text file (length 22)" in info.value.message
    assert (info.value.line, info.value.column) == (2, 6)


def test_sample_against_its_corpus(examples: Path) -> None:
    corpus_module = pytest.importorskip("hub4eval.io.corpus")
    corpus = corpus_module.read_corpus(str(examples / "sample" / "text.sgml"))
    ref = read_templates(examples / "sample" / "ref.tpl")
    hyp = read_templates(examples / "sample" / "hyp.tpl", role="hypothesis")
    assert check_against_corpus(ref, corpus) == ()
    assert check_against_corpus(hyp, corpus) == ()


def _unusual(tset: TemplateSet) -> TemplateSet:
    """``tset`` with each fill's minimal extents an equal tuple of its own (not the tuple of its
    extents, as a usual line makes them): every fill then takes the check's general route."""

    def fill_of(fill):  # noqa: ANN001, ANN202
        return replace(fill, minimal_extents=tuple(list(fill.minimal_extents))) if isinstance(fill, TextFill) else fill

    return replace(
        tset,
        instance_sets=tuple(
            replace(
                iset,
                instances=tuple(
                    replace(
                        inst,
                        slots=tuple(
                            replace(
                                slot,
                                alternatives=tuple(
                                    replace(alternative, fills=tuple(fill_of(fill) for fill in alternative.fills))
                                    for alternative in slot.alternatives
                                ),
                            )
                            for slot in inst.slots
                        ),
                    )
                    for inst in iset.instances
                ),
            )
            for iset in tset.instance_sets
        ),
    )


@settings(max_examples=60, deadline=None)
@given(
    fills=st.lists(
        st.tuples(st.integers(0, len(D1) + 3), st.integers(0, 15), st.sampled_from(["text", "upper", "other"])),
        min_size=1,
        max_size=8,
    ),
    force=st.booleans(),
)
def test_a_usual_fill_is_checked_as_every_other_fill(fills: list[tuple[int, int, str]], force: bool) -> None:
    """The usual fill (one extent, no brackets, as a usual line writes it) that is the text at
    its extent is passed quickly: the warnings and the error are those of the general route."""
    lines = ["<T-D1-1> :="]
    for number, (start, length, content) in enumerate(fills):
        end = start + length
        written = " ".join(D1[start:end].split()) or "x"
        written = {"text": written, "upper": written.upper(), "other": "zz top"}[content]
        written = written.replace('"', "'").replace("[", "(").replace("]", ")")
        lines.append(f'  S{number}: "{written}" ##{start}#{end}#')
    tset = parse_templates("\n".join(lines) + "\n", "t.tpl", "reference")
    outcomes = []
    for checked in (tset, _unusual(tset)):
        try:
            outcomes.append(check_against_corpus(checked, CORPUS, force=force))
        except InputError as error:
            outcomes.append((type(error), str(error)))
    assert outcomes[0] == outcomes[1]


@settings(max_examples=80, deadline=None)
@given(
    sets=st.lists(
        st.lists(
            st.tuples(
                st.integers(0, len(D1) + 3),
                st.integers(0, 15),
                st.sampled_from(["text", "newlines", "upper", "other"]),
            ),
            min_size=1,
            max_size=4,
        ),
        min_size=1,
        max_size=2,
    ),
    role=st.sampled_from(["reference", "hypothesis"]),
    as_stream=st.booleans(),
    force=st.booleans(),
)
def test_fills_the_reader_listed_are_checked_as_the_walk_checks_them(
    sets: list[list[tuple[int, int, str]]], role: str, as_stream: bool, force: bool
) -> None:
    """A file of usual lines has its text fills listed by the reader (``TemplateSet.usual_fills``),
    and the check reads each set's fills from that list: the warnings (in file order), the error
    and the counts are those of the walk over the instances of a copy without the list, and of
    the general route. Two documents (a set each), a pointer among the
    fills, contents that are the text, the text with its line ends as blanks, other case or
    other words, extents inside and outside, a segmented text or the file as one stream."""
    texts = {"D1": D1, "D2": D2}
    lines = []
    for docid, fills in zip(("D1", "D2"), sets, strict=False):
        lines.append(f"<T-{docid}-1> :=")
        lines.append(f"  P: <T-{docid}-1>")
        for slot, (start, length, content) in enumerate(fills):
            end = start + length
            text = texts[docid]
            written = {
                "text": text[start:end],
                "newlines": text[start:end].replace("\n", " "),
                "upper": " ".join(text[start:end].split()).upper(),
                "other": "zz top",
            }[content]
            written = written.replace('"', "'").replace("[", "(").replace("]", ")").replace("\n", " ") or "x"
            lines.append(f'  S{slot}: "{written}" ##{start}#{end}#')
    tset = parse_templates("\n".join(lines) + "\n", "t.tpl", role)  # type: ignore[arg-type]
    assert tset.usual_fills() is not None
    walked = replace(tset, path=tset.path)
    assert walked.usual_fills() is None
    outcomes = []
    for checked in (tset, walked, _unusual(tset)):
        try:
            outcomes.append(check_against_corpus(checked, CORPUS, as_stream=as_stream, force=force))
        except InputError as error:
            outcomes.append((type(error), str(error), getattr(error, "misfits", None), getattr(error, "fills", None)))
    assert outcomes[0] == outcomes[1] == outcomes[2]


def test_each_set_of_listed_fills_is_checked_against_its_own_document() -> None:
    """A set's listed fills are its own: two documents whose fills each fit their own text (and
    not the other's) warn of nothing, in the reader's list or walked."""
    tset = parse_templates(
        '<T-D1-1> :=\n  A: "The" ##26#29#\n  B: "big red dog" ##30#43#\n'
        '<T-PRI19980302.2000.2923-1> :=\n  A: "A cat." ##45#51#\n',
        "t.tpl",
    )
    assert D2[45:51] == "A cat." and D1[45:51] != "A cat."
    usual = tset.usual_fills()
    assert usual is not None and usual[1] == [0, 2, 3]
    assert check_against_corpus(tset, CORPUS) == check_against_corpus(replace(tset, path="t.tpl"), CORPUS) == ()
