"""sclite's network alignment (hub4eval.text.align.sclite_net): the notation read as sclite reads it,
the network programme equal to the linear aligner on plain words, and hand-derived cases."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hub4eval.text.align.sclite_net import (
    NetWord,
    _align_graph,
    _align_plain,
    _Network,
    align_networks,
    parse_items,
    word_of,
)


def items(text: str, **options: bool):
    return parse_items(text, lambda token: word_of(token, **options))


def ops(ref: str, hyp: str, **options: bool) -> str:
    return "".join(entry.op for entry in align_networks(items(ref, **options), items(hyp, **options)))


def test_words_are_read_with_tags_stars_optional_words_and_fragments():
    word = word_of("b\\;b;tag1;tag2")
    assert (word.value, word.tag1, word.tag2) == ("b;b", "tag1", "tag2")
    assert word_of("barked*").value == "barked" and word_of("*").value == "*"
    assert word_of("(uh)").opt_del is False and word_of("(uh)", opt_del=True).intern == "uh"
    assert word_of("th-", frag_corr=True).frag and word_of("-ing", frag_corr=True).frag
    assert word_of("(c-)", opt_del=True, frag_corr=True).frag
    assert items("a { b c / @ } { d / { e / f } }") == (
        NetWord("a"),
        ((NetWord("b"), NetWord("c")), (NetWord("@"),)),
        ((NetWord("d"),), (((NetWord("e"),), (NetWord("f"),)),)),
    )


def test_the_best_alternative_is_taken_and_null_words_vanish():
    # ref a {b c / @} d against a d: the @ branch costs 0.001, the b c branch two deletions (6)
    assert ops("a { b c / @ } d", "a d") == "CC"
    # against a b c d the b c branch is correct
    assert ops("a { b c / @ } d", "a b c d") == "CCCC"
    # a hypothesis alternation too
    assert ops("this is", "{ this / the } is") == "CC"


def test_optional_words_cost_two_and_count_as_correct_when_deleted():
    # (uh) deleted: correct (cost 2, not 3); without -D it is the word "(uh)", a deletion
    assert ops("(uh) we went", "we went", opt_del=True) == "CCC"
    assert ops("(uh) we went", "we went") == "DCC"
    # matched, it is compared without its parentheses
    assert ops("(uh) we", "uh we", opt_del=True) == "CC"


def test_fragments_match_the_words_they_start_or_end_under_minus_f():
    assert ops("th- thinking", "the thinking", frag_corr=True) == "CC"
    assert ops("th- thinking", "the thinking") == "SC"
    assert ops("-ing now", "going now", frag_corr=True) == "CC"


plain_words = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=9)


@settings(max_examples=300, deadline=None)
@given(plain_words, plain_words)
def test_the_network_programme_equals_the_linear_aligner_on_plain_words(ref, hyp):
    """On plain words the network DP (quadratic, Python) and the numba kernels give one alignment."""
    r = tuple(NetWord(w) for w in ref)
    h = tuple(NetWord(w) for w in hyp)
    assert _align_graph(_Network(r), _Network(h)) == _align_plain(r, h)


def test_the_small_python_path_gives_sclites_alignments_of_the_stored_cases():
    """Short plain utterances skip the compiled kernels; they still give the alignments the real sclite
    printed (tests/data/sclite/, see its README)."""
    import json
    from pathlib import Path

    from hub4eval.text.align.sclite_net import _align_small

    cases = json.loads((Path(__file__).resolve().parents[1] / "data" / "sclite" / "sclite_cases.json").read_text())
    checked = 0
    for case in cases["cases"]:
        ref = [NetWord(w.lower()) for w in case["ref"].split()]
        hyp = [NetWord(w.lower()) for w in case["hyp"].split()]
        if (len(ref) + 1) * (len(hyp) + 1) > 40000:
            continue
        assert "".join(e.op for e in _align_small(ref, hyp)) == case["ops"], case["id"]
        checked += 1
    assert checked > 800


@settings(max_examples=200, deadline=None)
@given(plain_words, plain_words)
def test_the_small_python_path_equals_the_kernels(ref, hyp):
    from hub4eval.text.align.sclite_net import _align_small

    r = tuple(NetWord(w) for w in ref)
    h = tuple(NetWord(w) for w in hyp)
    from hub4eval.text.align.sclite import sclite_align

    kernel = sclite_align(ref, hyp)
    assert "".join(e.op for e in _align_small(r, h)) == kernel.op_string()
