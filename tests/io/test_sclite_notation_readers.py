"""The line formats read with sclite's notation: trn alternations and ids, ctm alternation lines and
channels, stm labels and ignored segments (hub4eval.io.formats), as ``align`` and ``sclite`` read them."""

from __future__ import annotations

import pytest

from hub4eval.errors import InputError
from hub4eval.io.formats import (
    ctm_first_alternatives,
    ctm_records,
    first_alternative_words,
    parse_ctm,
    parse_stm,
    parse_trn,
    stm_segments,
    trn_utterances,
)


@pytest.mark.parametrize(
    ("transcript", "words"),
    [
        ("a { b / c d } e", ["a", "b", "e"]),
        ("a {c d / b} e", ["a", "c", "d", "e"]),
        ("{ @ / the } cat", ["cat"]),
        ("a @ b", ["a", "b"]),
        ("x { { g h / gh } i / j } y", ["x", "g", "h", "i", "y"]),
        ("(uh) th- word", ["(uh)", "th-", "word"]),
    ],
)
def test_an_alternation_is_read_as_its_first_alternative_and_null_words_are_left_out(transcript, words):
    assert first_alternative_words(transcript) == words


def test_a_trn_corpus_reads_alternations_as_their_first_alternative():
    corpus = parse_trn("a { b / c } d (Spk1-u1)\n(Spk1-u2)\n")
    assert [(d.docid, d.text) for d in corpus.documents] == [("Spk1-u1", "a b d"), ("Spk1-u2", "")]
    assert [(u.id, u.text.strip()) for u in trn_utterances("a { b / c } d (Spk1-u1)\n")] == [
        ("Spk1-u1", "a { b / c } d")
    ]


CTM = """;; a comment
rec A 0.10 0.20 the
rec A * * <ALT_BEGIN>
rec A 0.30 0.10 it
rec A * * <ALT>
rec A 0.30 0.12 at
rec A * * <alt_end>
rec a 0.50 0.20 home 0.9
rec B 0.10 0.20 yes
"""


def test_ctm_alternation_lines_are_read_and_the_corpus_takes_the_first_alternative():
    records = ctm_records(CTM, "h.ctm")
    assert [r.marker for r in records] == [None, "<ALT_BEGIN>", None, "<ALT>", None, "<ALT_END>", None, None]
    assert records[1].begin is None and records[6].confidence == 0.9
    assert [r.word for r in ctm_first_alternatives(records)] == ["the", "it", "home", "yes"]
    corpus = parse_ctm(CTM, "h.ctm")
    # channels A and a are one channel (sclite compares them case-insensitively)
    assert [(d.docid, d.text) for d in corpus.documents] == [("rec-A", "the it home"), ("rec-B", "yes")]


def test_a_ctm_line_with_a_bad_time_is_still_an_error_with_its_place():
    with pytest.raises(InputError) as error:
        ctm_records("rec A zero 0.2 the\n", "h.ctm")
    assert (error.value.line, error.value.column) == (1, 7)


STM = """;; CATEGORY "0" "" ""
rec A spk1 0.0 1.0 <o,f0,male> the { cat / dog } sat
rec a spk1 1.0 2.0 IGNORE_TIME_SEGMENT_IN_SCORING
rec B spk2 0.0 1.5 Hello there
"""


def test_stm_segments_keep_labels_transcripts_and_ignored_segments():
    segments = stm_segments(STM, "r.stm")
    assert [(s.channel, s.speaker, s.labels, s.text, s.ignored) for s in segments] == [
        ("A", "spk1", "<o,f0,male>", "the { cat / dog } sat", False),
        ("a", "spk1", None, "IGNORE_TIME_SEGMENT_IN_SCORING", True),
        ("B", "spk2", None, "Hello there", False),
    ]
    corpus = parse_stm(STM, "r.stm")
    assert [(d.docid, d.text) for d in corpus.documents] == [("rec-A", "the cat sat"), ("rec-B", "Hello there")]
