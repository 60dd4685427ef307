"""Any text given as MUC markup is read or refused with one positioned InputError, never a traceback."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.errors import InputError
from hub4eval.io.entities import parse_entity_jsonl, parse_muc_markup

PIECES = [
    '<ENAMEX TYPE="PERSON">',
    "</ENAMEX>",
    "<timex type=DATE>",
    "</TIMEX>",
    "<NUMEX TYPE='MONEY' STATUS=\"OPT\">",
    "</NUMEX>",
    "<NUMEX>",
    "</NUMEX X=1>",
    "<b_timex TYPE=DATE>",
    "<e_timex>",
    "</e_numex>",
    "<DOC>",
    "</DOC>",
    "<DOCNO> d1 </DOCNO>",
    "<DOCNO> d2 </DOCNO>",
    "<TEXT>",
    "</TEXT>",
    "<ANNOTATION>",
    "</ANNOTATION>",
    "<",
    ">",
    "word",
    "'s",
    " ",
    "\n",
    "$4",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=25))
def test_markup_is_read_or_refused_with_a_position(pieces):
    text = "".join(pieces)
    try:
        source = parse_muc_markup(text, "x.sgml")
    except InputError as error:
        assert error.path == "x.sgml" and error.line is not None and error.line >= 1
        assert "\n" not in str(error)
        return
    assert "ENAMEX" not in source.text.upper() and "NUMEX" not in source.text.upper()
    for entity in source.entities:
        document = source.corpus.document(entity.docid)
        assert document is not None
        words = document.text[entity.start : entity.end]
        assert words and words == words.strip()


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_any_json_line_is_read_or_refused_with_a_position(line):
    try:
        parse_entity_jsonl(line + "\n", "x.jsonl")
    except InputError as error:
        assert error.path == "x.jsonl" and error.line is not None


values = st.one_of(st.integers(-3, 30), st.text(max_size=6), st.none(), st.booleans())
records = st.fixed_dictionaries(
    {
        "id": st.one_of(st.text(max_size=4), st.integers(0, 9)),
        "text": st.one_of(st.text(max_size=20), values),
        "entities": st.one_of(st.lists(st.lists(values, max_size=5), max_size=4), values),
    }
)


@settings(max_examples=300, deadline=None)
@given(st.lists(records, min_size=1, max_size=3))
def test_any_json_document_is_read_or_refused_with_a_position(documents):
    import json

    try:
        source = parse_entity_jsonl("".join(json.dumps(d) + "\n" for d in documents), "x.jsonl")
    except InputError as error:
        assert error.path == "x.jsonl" and error.line is not None and "\n" not in str(error)
        return
    for entity in source.entities:
        words = source.corpus.document(entity.docid).text[entity.start : entity.end]
        assert words and words == words.strip()
