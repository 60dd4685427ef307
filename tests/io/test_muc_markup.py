"""Reading named entities: MUC inline markup and JSON Lines (hub4eval.io.entities)."""

from __future__ import annotations

import json

import pytest

from hub4eval.errors import InputError
from hub4eval.io.entities import entity_templates, parse_entity_jsonl, parse_muc_markup
from hub4eval.io.templettes import parse_templates, write_templates

DOC = """<DOC>
<DOCNO> d1 </DOCNO>
<TEXT>
{}
</TEXT>
</DOC>
"""


def regions(source):
    return [
        (e.element, e.type, e.docid, source.corpus.document(e.docid).text[e.start : e.end]) for e in source.entities
    ]


def test_markup_is_removed_and_offsets_count_in_the_text_without_it():
    text = DOC.format(
        '<ENAMEX TYPE="PERSON">Boris Yeltsin</ENAMEX> met <ENAMEX TYPE=LOCATION>Moscow</ENAMEX> on '
        "<timex type='DATE'>March 3rd</timex> for <NUMEX TYPE=\"MONEY\">$4.2 billion</NUMEX>."
    )
    source = parse_muc_markup(text, "ref.sgml")
    assert "<ENAMEX" not in source.text and "NUMEX" not in source.text.upper()
    assert "Boris Yeltsin met Moscow on March 3rd for $4.2 billion." in source.text
    assert regions(source) == [
        ("ENAMEX", "PERSON", "d1", "Boris Yeltsin"),
        ("ENAMEX", "LOCATION", "d1", "Moscow"),
        ("TIMEX", "DATE", "d1", "March 3rd"),
        ("NUMEX", "MONEY", "d1", "$4.2 billion"),
    ]
    # "<DOC>\n<DOCNO> d1 </DOCNO>\n<TEXT>\n" is 5 + 1 + 19 + 1 + 6 + 1 = 33 characters: Boris starts at 33
    first = source.entities[0]
    assert (first.start, first.end) == (33, 46)  # 13 characters
    assert (first.line, first.column) == (4, 1)


def test_blanks_at_the_ends_of_a_region_are_not_part_of_it_and_regions_may_nest():
    text = DOC.format('<ENAMEX TYPE="ORGANIZATION"> <ENAMEX TYPE="LOCATION">Boston</ENAMEX> Globe </ENAMEX>')
    source = parse_muc_markup(text, "ref.sgml")
    assert sorted(regions(source)) == [
        ("ENAMEX", "LOCATION", "d1", "Boston"),
        ("ENAMEX", "ORGANIZATION", "d1", "Boston Globe"),
    ]


def test_unsegmented_text_and_time_stamps_inside_a_region():
    source = parse_muc_markup('<ENAMEX TYPE="PERSON">bill <time t="1.2"> clinton</ENAMEX> spoke\n', "asr.sgml")
    assert not source.corpus.segmented
    [entity] = source.entities
    # "bill " 5 + '<time t="1.2">' 14 + " clinton" 8 = 27 characters, the time stamp kept
    assert entity.docid is None and (entity.start, entity.end) == (0, 27)


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        # an element left open at the end of the file: at its opening tag
        ('a <ENAMEX TYPE="PERSON">Boris met', "1:3", "<ENAMEX> element is not closed"),
        ("a\n<ENAMEX>Boris</ENAMEX> met", "2:1", "<ENAMEX> has no TYPE attribute"),
        ('<ENAMEX TYPE="">Boris</ENAMEX>', "1:1", "<ENAMEX> has an empty TYPE"),
        # crossing: the TIMEX opens at column 22 + 2 + 1 = 25; its tag is 19 characters, b is at 44,
        # </ENAMEX> at 45
        ('<ENAMEX TYPE="PERSON">a <TIMEX TYPE="DATE">b</ENAMEX></TIMEX>', "1:45", "opened at 1:25 is open"),
        ("x </NUMEX> y", "1:3", "</NUMEX> without an open <NUMEX>"),
        ('<ENAMEX TYPE="PERSON">a</NUMEX>', "1:24", "</NUMEX> without an open <NUMEX>"),
        ('Bo<ENAMEX TYPE="PERSON">ris</ENAMEX>', "1:3", "<ENAMEX> tag inside a word"),
        ('<ENAMEX TYPE="PERSON">Bor</ENAMEX>is', "1:26", "</ENAMEX> tag inside a word"),
        ('<ENAMEX TYPE="PERSON">  </ENAMEX>', "1:1", "<ENAMEX> region has no text"),
        ('<NUMEX TYPE="MONEY">1</NUMEX TYPE="X">', "1:22", "closing tag with attributes"),
    ],
)
def test_bad_markup_is_one_positioned_error(text, where, message):
    with pytest.raises(InputError) as caught:
        parse_muc_markup(text, "hyp.sgml")
    error = caught.value
    assert f"{error.line}:{error.column}" == where
    assert message in error.message
    assert "\n" not in str(error)


def test_an_element_left_open_at_the_end_of_its_document():
    text = DOC.format('<ENAMEX TYPE="PERSON">Boris') + DOC.format("x").replace("d1", "d2")
    with pytest.raises(InputError) as caught:
        parse_muc_markup(text, "ref.sgml")
    assert (caught.value.line, caught.value.column) == (4, 1)
    assert "not closed before the end of its document" in caught.value.message


def test_corpus_errors_are_positioned_in_the_file_as_written():
    # the second document has no DOCNO; the corpus reader sees the text without
    # the markup, the message points into the file with it
    text = DOC.format('<ENAMEX TYPE="PERSON">Boris</ENAMEX> x') + '<DOC>\n<ENAMEX TYPE="PERSON">y</ENAMEX>\n</DOC>\n'
    with pytest.raises(InputError) as caught:
        parse_muc_markup(text, "ref.sgml")
    assert caught.value.message == "document has no <DOCNO> element"
    assert (caught.value.line, caught.value.column) == (7, 1)


def test_a_tag_next_to_punctuation_is_not_inside_a_word():
    source = parse_muc_markup(DOC.format('(<ENAMEX TYPE="PERSON">Yeltsin</ENAMEX>\'s) plan'), "ref.sgml")
    assert regions(source) == [("ENAMEX", "PERSON", "d1", "Yeltsin")]


def test_json_lines():
    text = (
        '{"id": "a", "text": "Boris Yeltsin met Bill.", "entities": [["PERSON", 0, 13], ["DATE", 18, 22, "timex"]]}\n'
        "\n"
        '{"id": "b", "text": "It cost 5% < 6%.", "entities": [["PERCENT", 8, 10]]}\n'
    )
    source = parse_entity_jsonl(text, "ref.jsonl")
    assert [d.docid for d in source.corpus.documents] == ["a", "b"]
    assert regions(source) == [
        ("ENAMEX", "PERSON", "a", "Boris Yeltsin"),
        ("TIMEX", "DATE", "a", "Bill"),
        ("NUMEX", "PERCENT", "b", "5%"),
    ]
    assert source.entities[2].line == 3
    assert "\u2039 6%" in source.text  # a '<' of the text cannot open a tag


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"id": "a", "text": "ab", "entities": [["P", 0, 5]]}', 'entity ["P", 0, 5] is outside the text'),
        ('{"id": "a", "text": "ab", "entities": [["P", 2, 1]]}', "ends before it starts"),
        ('{"id": "a", "text": "a b", "entities": [["P", 1, 2]]}', "has no text"),
        ('{"id": "a", "text": "ab", "entities": [["P", 0]]}', "bad entity"),
        ('{"id": "a", "text": "ab", "entities": [["P", 0, 1, "PLACE"]]}', "bad entity"),
        ('{"id": "", "text": "ab"}', '"id" must be a non-blank string'),
        ('{"id": "a<b", "text": "ab"}', '"id" must be a non-blank string'),
        ('{"id": "a", "text": 3}', '"text" must be a string'),
        ('["a"]', "a line must be a JSON object"),
        ('{"id": "a", "text": "ab"', "not JSON"),
    ],
)
def test_bad_json_lines_are_one_positioned_error(line, message):
    with pytest.raises(InputError) as caught:
        parse_entity_jsonl('{"id": "z", "text": "ok", "entities": []}\n' + line + "\n", "hyp.jsonl")
    assert caught.value.line == 2
    assert message in caught.value.message


def test_duplicate_json_id():
    with pytest.raises(InputError, match="duplicate id a"):
        parse_entity_jsonl('{"id": "a", "text": "x"}\n{"id": "a", "text": "y"}\n', "ref.jsonl")


def test_templettes_of_the_regions_read_back_and_match_their_text():
    text = DOC.format(
        '<ENAMEX TYPE="PERSON">Boris\n Yeltsin</ENAMEX> and <ENAMEX TYPE="PERSON" STATUS="OPT">Bill</ENAMEX> '
        'in <TIMEX TYPE="DATE">1998</TIMEX>'
    )
    source = parse_muc_markup(text, "ref.sgml")
    templates = entity_templates(source, "reference")
    written = write_templates(templates)
    assert parse_templates(written, role="reference") == templates
    assert "<ENAMEX-d1-1> :=" in written and "<ENAMEX-d1-2> :=" in written and "<TIMEX-d1-1> :=" in written
    assert (
        'TEXT: "Boris Yeltsin" ##33#47#' in written
    )  # 14 characters as written; the line break inside the region folds to a blank
    assert "OBJ_STATUS: OPTIONAL" in written  # STATUS="OPT": an optional region
    from hub4eval.io.validate import check_against_corpus

    assert check_against_corpus(templates, source.corpus) == ()


def test_the_hub4_form_of_the_tags():
    # <b_enamex TYPE=...> ... <e_enamex> is the same region as <ENAMEX TYPE=...> ... </ENAMEX>
    hub4 = parse_muc_markup(
        DOC.format('<b_enamex TYPE="PERSON">Boris Yeltsin<e_enamex> paid <B_NUMEX TYPE=MONEY>$4<E_NUMEX>'), "r"
    )
    muc = parse_muc_markup(
        DOC.format('<ENAMEX TYPE="PERSON">Boris Yeltsin</ENAMEX> paid <NUMEX TYPE=MONEY>$4</NUMEX>'), "r"
    )
    assert hub4.text == muc.text
    assert [(e.element, e.type, e.start, e.end) for e in hub4.entities] == [
        (e.element, e.type, e.start, e.end) for e in muc.entities
    ]
    with pytest.raises(InputError, match="both a closing tag and a b_/e_ tag"):
        parse_muc_markup('<b_enamex TYPE="PERSON">Boris</e_enamex>', "r")


def test_json_entities_in_other_orders():
    # [TYPE, start, end], [start, end, TYPE] (spaCy's order) and {"type"/"label", "start", "end"} are one region each
    text = "Boris Yeltsin met Bill in May."
    forms = [["PERSON", 0, 13], [0, 13, "PERSON"], {"type": "PERSON", "start": 0, "end": 13}]
    forms.append({"label": "PERSON", "start": 0, "end": 13, "element": "enamex"})
    for form in forms:
        source = parse_entity_jsonl(json.dumps({"id": "a", "text": text, "entities": [form]}) + "\n", "r.jsonl")
        assert regions(source) == [("ENAMEX", "PERSON", "a", "Boris Yeltsin")], form
    for bad in ({"type": "PERSON", "start": 0}, {"type": "PERSON", "start": 0, "end": 3, "score": 1}, [0, 3, 4]):
        with pytest.raises(InputError, match="bad entity"):
            parse_entity_jsonl(json.dumps({"id": "a", "text": text, "entities": [bad]}) + "\n", "r.jsonl")


def test_a_json_lines_number_of_thousands_of_digits_is_one_line_at_its_line():
    # Python's json refuses to convert an integer of more than 4,300 digits (ValueError, not JSONDecodeError):
    # it was an internal error
    line = '{"id": "d", "text": "ab", "entities": [["PERSON", 0, ' + "1" * 5000 + "]]}"
    with pytest.raises(InputError) as error:
        parse_entity_jsonl('{"id": "c", "text": "x", "entities": []}\n' + line + "\n", "e.jsonl")
    assert (error.value.path, error.value.line) == ("e.jsonl", 2)
    assert "4300 digits" in error.value.message
