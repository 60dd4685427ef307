"""Token arrays (the compact form of a text's tokens) and the per-document WER counting built on them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.text.align.sclite import _align_codes, _encode
from hub4eval.text.token_arrays import TokenArray, Vocabulary, splice
from hub4eval.text.tokens import Token, tokenize
from hub4eval.text.wer import _codes, _counts, _counts_by_span

TEXT = "The h- heart of (uh) General Motors, %hesitation U.S. the heart"


def test_a_token_read_back_equals_the_token_stored():
    tokens = tokenize(TEXT)
    assert any(t.parenthesized for t in tokens) and any(t.form is not None for t in tokens)
    flagged = (*tokens[:2], Token(tokens[2].text, tokens[2].start, tokens[2].end, False, True, None), *tokens[3:])
    array = TokenArray.of(flagged, Vocabulary())
    assert len(array) == len(flagged)
    assert [array[i] for i in range(len(array))] == list(flagged)
    assert list(array) == list(flagged)
    assert array == flagged and flagged == array
    assert array[-1] == flagged[-1]
    assert array.texts() == [t.text for t in flagged]


def test_slices_and_concatenation_keep_the_forms_in_place():
    tokens = tokenize(TEXT)
    vocabulary = Vocabulary()
    first, second = TokenArray.of(tokens[:5], vocabulary), TokenArray.of(tokens[5:], vocabulary)
    whole = TokenArray.concatenate([first, second], vocabulary.words)
    assert whole == tokens
    assert whole[3:9] == tokens[3:9]
    assert whole[::2] == tokens[::2]


@given(st.lists(st.integers(0, len(tokenize(TEXT))), max_size=6))
def test_parts_undo_a_concatenation(cuts):
    tokens = tokenize(TEXT)
    bounds = [0, *sorted(cuts), len(tokens)]
    pieces = [tokens[start:stop] for start, stop in zip(bounds, bounds[1:], strict=False)]
    vocabulary = Vocabulary()
    whole = TokenArray.concatenate([TokenArray.of(piece, vocabulary) for piece in pieces], vocabulary.words)
    parts = whole.parts([len(piece) for piece in pieces])
    assert [list(part) for part in parts] == [list(piece) for piece in pieces]  # forms at their place
    assert sum(len(part.forms) for part in parts) == len(whole.forms) > 0
    assert all(part.words is whole.words for part in parts)


def test_words_are_numbered_in_the_order_first_seen():
    vocabulary = Vocabulary()
    array = TokenArray.of(tokenize("b a b c a"), vocabulary)
    assert array.ids.tolist() == [0, 1, 0, 2, 1]
    assert vocabulary.words == ["b", "a", "c"]


def test_plain_words_take_the_same_route_as_any_other():
    # the letter-and-digit fast path must give what the general path gives
    # (spans by hand; a word inside parentheses is parenthesized on either route)
    text = "Alpha beta2 (gamma mid delta) ÉTÉ 42 x"
    tokens = tokenize(text)
    assert [(t.text, t.start, t.end, t.parenthesized, t.form) for t in tokens] == [
        ("alpha", 0, 5, False, None),
        ("beta2", 6, 11, False, None),
        ("gamma", 13, 18, True, "(gamma"),
        ("mid", 19, 22, True, None),
        ("delta", 23, 28, True, "delta)"),
        ("été", 30, 33, False, None),
        ("42", 34, 36, False, None),
        ("x", 37, 38, False, None),
    ]
    assert tokenize(text, case_sensitive=True)[5].text == "ÉTÉ"


words = st.lists(st.sampled_from("a b c d e f".split()), max_size=40)


@settings(max_examples=60, deadline=None)
@given(words, words)
def test_codes_from_arrays_are_the_encoders_codes(ref, hyp):
    vocabulary = Vocabulary()
    r = TokenArray.of(tokenize(" ".join(ref)), vocabulary)
    h = TokenArray.of(tokenize(" ".join(hyp)), vocabulary)
    a, b, _ = _encode(ref, hyp)
    shared_a, shared_b = _codes(r, h, shared=True)
    assert shared_a.tolist() == a.tolist() and shared_b.tolist() == b.tolist()


def test_a_large_pair_is_renumbered_as_the_encoder_would():
    rng = np.random.default_rng(3)
    vocabulary = Vocabulary()
    TokenArray.of(tokenize("zz yy xx"), vocabulary)  # ids taken by another document first
    ref = [f"w{x}" for x in rng.integers(0, 50, 1600)]
    hyp = [f"w{x}" for x in rng.integers(0, 50, 1600)]
    r = TokenArray.of(tokenize(" ".join(ref)), vocabulary)
    h = TokenArray.of(tokenize(" ".join(hyp)), vocabulary)
    a, b, _ = _encode(ref, hyp)
    got_a, got_b = _codes(r, h)
    assert got_a.tolist() == a.tolist() and got_b.tolist() == b.tolist()


def test_counts_by_span_equal_counts_of_each_slice():
    rng = np.random.default_rng(5)
    ops, _, _ = _align_codes(rng.integers(0, 5, 300), rng.integers(0, 5, 280))
    cuts = sorted(rng.integers(0, len(ops), 6).tolist())
    spans = list(zip([0, *cuts], [*cuts, len(ops)], strict=True))
    assert _counts_by_span(ops, spans) == [_counts(ops[a:b]) for a, b in spans]


_plain_text = st.text(alphabet="abcXYZ019 \t\n\x0b\x0c\r\x1c\x1f", max_size=300)
_any_text = st.text(alphabet="abcXYZ019 \n(),.-'é\xa0", max_size=300)


@settings(max_examples=200, deadline=None)
@given(st.one_of(_plain_text, _any_text), st.booleans(), st.integers(0, 5), st.integers(0, 1000))
def test_words_found_with_arrays_or_split_are_the_words_found_one_by_one(text, case_sensitive, cut, offset):
    """The three routes of a plain span (only ASCII letters, digits, blanks): arrays (a long
    span), ``str.split`` (a short one, a fill's content) and the regular expression (any span)."""
    import hub4eval.text.tokens as tokens_module

    spans = [(0, cut), (cut, len(text) + 3)] if cut < len(text) else None
    old = tokens_module._PLAIN_SPAN, tokens_module._SPLIT_PLAIN
    try:
        tokens_module._PLAIN_SPAN = 0
        with_arrays = tokenize(text, spans, offset=offset, case_sensitive=case_sensitive)
        tokens_module._PLAIN_SPAN = 1 << 62
        with_split = tokenize(text, spans, offset=offset, case_sensitive=case_sensitive)
        tokens_module._SPLIT_PLAIN = False
        one_by_one = tokenize(text, spans, offset=offset, case_sensitive=case_sensitive)
    finally:
        tokens_module._PLAIN_SPAN, tokens_module._SPLIT_PLAIN = old
    assert with_arrays == one_by_one
    assert with_split == one_by_one


@settings(max_examples=60, deadline=None)
@given(words, words, st.lists(st.sampled_from(["x-", "a", "ab", "b-"]), max_size=5))
def test_aligning_the_ids_is_aligning_the_words(ref, hyp, extra):
    from hub4eval.text.align import align_words
    from hub4eval.text.columns import align_ids

    vocabulary = Vocabulary()
    r = TokenArray.of(tokenize(" ".join(ref + extra)), vocabulary)
    h = TokenArray.of(tokenize(" ".join(extra + hyp)), vocabulary)
    got, want = align_ids(r.ids, h.ids, vocabulary.words), align_words(r.texts(), h.texts())
    assert got.cost == want.cost and got.exact == want.exact
    for name in ("ref_index", "hyp_index", "kinds"):
        assert getattr(got, name).tolist() == getattr(want, name).tolist()


# pieces of documents for the array route: plain words, numbers, GLM words,
# words with punctuation, parentheses, case, non-ASCII letters, tags
_PIECES = st.sampled_from(
    [
        "alpha", "Beta", "gamma2", "h-", "buni-,", "U.S.", "%hesitation", "uh", "(uh)", "(mid", "end)",
        "twelve", "nineteen", "eighty", "six", "$12,500", "1994,", "point", "five", "percent", "nil",
        "can't", "cannot", "don\u2019t", "été", "--", ".", "<s>", "</s>", "\n", "  ", "\t",
        "a", "I", "p", "m", "b", "N.C.A.A.", "p.m.", "(c)", "(d", "e)", "a.", "i.e.",
    ]
)  # fmt: skip


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(_PIECES, max_size=40), min_size=1, max_size=4),
    st.booleans(),
    st.sampled_from(["en", None]),
)
def test_array_tokens_equal_the_document_tokens(documents, case_sensitive, spoken_forms):
    # the align path makes document tokens as arrays; they must be document_tokens'
    # tokens, coded in the order first seen, whatever the text holds
    from hub4eval.io.corpus import parse_corpus
    from hub4eval.text.glm import default_glm
    from hub4eval.text.tokenized import _ArrayTokens, document_tokens

    text = "".join(
        f"<DOC>\n<DOCNO> D{k} </DOCNO>\n<TEXT>\n{' '.join(words)}\n</TEXT>\n</DOC>\n"
        for k, words in enumerate(documents)
    )
    corpus = parse_corpus(text, "t.sgml")
    options = {"glm": default_glm(), "case_sensitive": case_sensitive, "spoken_forms": spoken_forms}
    expected_vocabulary, vocabulary = Vocabulary(), Vocabulary()
    arrays = _ArrayTokens(vocabulary, **options)
    for document in corpus.documents:
        expected = TokenArray.of(document_tokens(document, **options), expected_vocabulary)
        got = arrays(document)
        assert got == expected
        assert got.ids.tolist() == expected.ids.tolist()
    assert vocabulary.words == expected_vocabulary.words


_LINE_WORDS = st.sampled_from(["alpha", "Beta", "gamma2", "h-", "U.S.", "can't", "--", ".", "uh", "x"])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(_LINE_WORDS, max_size=6), max_size=12),
    st.sampled_from(["<s>", "\n", "é", " <p> "]),
    st.integers(0, 30),
    st.booleans(),
)
def test_a_long_text_read_in_runs_gives_the_tokens_read_at_once(lines, between, chunk, case_sensitive):
    # the unsegmented hypothesis is tokenized a run of spans at a time; the
    # tokens, their codes and the vocabulary must be those of one reading
    import hub4eval.text.token_arrays as token_arrays

    text, spans = "", []
    for line in lines:
        text += between
        spans.append((len(text), len(text) + len(" ".join(line))))
        text += " ".join(line)
    text += between

    def read(size: int) -> tuple[TokenArray, Vocabulary]:
        old = token_arrays._CHUNK_CHARS
        token_arrays._CHUNK_CHARS = size
        try:
            vocabulary = Vocabulary()
            vocabulary.code("x")  # a word seen before
            return token_arrays.tokenize_array(text, spans, vocabulary, case_sensitive=case_sensitive), vocabulary
        finally:
            token_arrays._CHUNK_CHARS = old

    (in_runs, runs_vocabulary), (at_once, vocabulary) = read(chunk), read(1 << 62)
    assert in_runs == at_once == tokenize(text, spans, case_sensitive=case_sensitive)
    for name in ("ids", "starts", "ends", "flags"):
        assert getattr(in_runs, name).tolist() == getattr(at_once, name).tolist()
        assert getattr(in_runs, name).dtype == getattr(at_once, name).dtype
    assert in_runs.forms == at_once.forms
    assert runs_vocabulary.words == vocabulary.words


def test_runs_cut_a_long_text_between_spans_only():
    import hub4eval.text.token_arrays as token_arrays

    text = "<s> a b </s><s> c </s><s> d e f </s>"
    spans = [(3, 8), (15, 18), (25, 32)]
    old = token_arrays._CHUNK_CHARS
    try:
        token_arrays._CHUNK_CHARS = 15
        runs = list(token_arrays._runs(text, spans))
        token_arrays._CHUNK_CHARS = 2
        smallest = list(token_arrays._runs(text, spans))
    finally:
        token_arrays._CHUNK_CHARS = old
    assert runs == [((3, 18), [(3, 8), (15, 18)]), ((25, 32), [(25, 32)])]
    assert smallest == [((3, 8), [(3, 8)]), ((15, 18), [(15, 18)]), ((25, 32), [(25, 32)])]
    # spans out of order or touching: one run over the whole text
    assert list(token_arrays._runs(text, spans[::-1])) == [((0, len(text)), spans[::-1])]


@given(st.lists(st.integers(0, 4), max_size=20), st.integers(-25, 25), st.integers(-25, 25))
def test_keys_read_where_asked_are_the_list_of_keys(ids, start, stop):
    from hub4eval.text.tokenized import _Keys

    keys = ["a", "b", "c", "d", "e"]
    lazy, listed = _Keys(keys, np.array(ids, np.int32)), [keys[i] for i in ids]
    assert len(lazy) == len(listed)
    assert [lazy[i] for i in range(len(ids))] == listed
    assert lazy[start:stop] == listed[start:stop]


def _spliced_one_by_one(tokens: TokenArray, edits, vocabulary: Vocabulary) -> TokenArray:
    """The oracle: ``splice`` as it was written first, a slice and a small array per edit."""
    parts: list[TokenArray] = []
    done = 0
    for start, end, new in edits:
        if start > done:
            parts.append(tokens[done:start])
        parts.append(TokenArray.of(new, vocabulary))
        done = end
    if done < len(tokens):
        parts.append(tokens[done:])
    return TokenArray.concatenate(parts, vocabulary.words)


_TOKEN = st.builds(
    Token,
    st.sampled_from(["w", "x", "new", "y2", "%hesitation"]),
    st.integers(0, 50),
    st.integers(50, 99),
    st.booleans(),
    st.booleans(),
    st.sampled_from([None, "raw", "W-"]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_TOKEN, max_size=12), st.data())
def test_a_splice_is_the_splice_of_each_edit_in_turn(original, data):
    # edits in order, not overlapping; some insert (start == end), some delete (no tokens)
    n = len(original)
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=8)))
    edits = []
    for start, end in zip(cuts[0::2], cuts[1::2], strict=False):
        if edits and start < edits[-1][1]:
            continue
        edits.append((start, end, data.draw(st.lists(_TOKEN, max_size=3))))
    expected_vocabulary, vocabulary = Vocabulary(), Vocabulary()
    expected = _spliced_one_by_one(TokenArray.of(original, expected_vocabulary), edits, expected_vocabulary)
    got = splice(TokenArray.of(original, vocabulary), edits, vocabulary)
    assert got == expected
    assert got.ids.tolist() == expected.ids.tolist() and vocabulary.words == expected_vocabulary.words
    assert list(got.forms.items()) == list(expected.forms.items())  # in token order too


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "i", "A", "b", "c", "x", "yy", "7", "seven"]), max_size=14),
    st.lists(st.sampled_from([" ", ".", "", "  "]), min_size=14, max_size=14),
    st.lists(st.integers(0, 3), min_size=14, max_size=14),
)
def test_letters_joined_over_arrays_are_the_letter_runs_joined(words, gaps, flags):
    # join_letter_array finds and joins the runs over the arrays; letter_runs, token by token, is the oracle
    from hub4eval.text.spoken.letters import is_letter, join_letter_array, letter_runs

    text, tokens = "", []
    for k, word in enumerate(words):
        text += gaps[k] if k else ""
        tokens.append(Token(word, len(text), len(text) + len(word), bool(flags[k] & 1), bool(flags[k] & 2)))
        text += word
    hits = [i for i, token in enumerate(tokens) if is_letter(token.text)]
    expected_vocabulary, vocabulary = Vocabulary(), Vocabulary()
    expected = _spliced_one_by_one(
        TokenArray.of(tokens, expected_vocabulary), list(letter_runs(tokens, text, 0, hits)), expected_vocabulary
    )
    got = join_letter_array(TokenArray.of(tokens, vocabulary), text, np.array(hits, np.int64), vocabulary)
    assert got == expected
    assert got.ids.tolist() == expected.ids.tolist() and vocabulary.words == expected_vocabulary.words
