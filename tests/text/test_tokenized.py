"""Two corpora tokenized and paired for aligning (:mod:`hub4eval.text.tokenized`): a long hypothesis
tokenized in a forked child gives the tokens, ids, pairs and warnings one process gives, and the
caller's own work is done while that child still tokenizes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import hub4eval.text.tokenized as tokenized_module
from hub4eval.io.corpus import parse_corpus
from hub4eval.text.tokenized import tokenize_corpora
from hub4eval.util.forked import can_fork
from tests.support.children import started_children
from tests.support.texts import random_texts

_DOGS = "<DOC>\n<DOCNO> DOGS </DOCNO>\n<TEXT>\nseventy dogs and cats in colour\n</TEXT>\n</DOC>\n"


def _one_sided_glm() -> Any:
    """A GLM whose rules differ by side: each side's own rules rewrite words the other's keep."""
    from hub4eval.text.glm import parse_glm

    glm = parse_glm(
        'colour => color\n;; INPUT_DEPENDENT_APPLICATION = "hyp"\nseventy => ninety\ndogs => cats\n'
        ';; INPUT_DEPENDENT_APPLICATION = "ref"\ncats => dogs\n'
    )
    assert glm.sections == ("hyp", "ref")
    return glm


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: the hypothesis is tokenized in the caller")
@pytest.mark.parametrize(("seed", "sides"), [(1, False), (2, False), (3, True)])
def test_a_stream_tokenized_in_a_child_has_the_tokens_and_ids_made_here(seed, sides, monkeypatch):
    import hub4eval.util.forked as forked
    from hub4eval.scoring.pipeline import load_glm

    started = started_children(monkeypatch, forked)
    ref_text, _, stream = random_texts(seed, 6, 60, missing=False)
    stream += "<s> ninety two general motors hea- uh clinton's NEWWORD </s>\n"  # words the reference lacks
    stream += "<s> seventy dogs and cats in colour </s>\n"  # words the sides' own rules rewrite
    ref, hyp = parse_corpus(ref_text + _DOGS, "r"), parse_corpus(stream, "h")
    options = {"glm": _one_sided_glm() if sides else load_glm("default"), "spoken_forms": "en"}
    here = tokenize_corpora(ref, hyp, **options)
    beside = tokenize_corpora(ref, hyp, hyp_beside=True, **options)
    assert started == ["_hyp_tokens"]
    assert here.vocabulary.words == beside.vocabulary.words
    [(_, _, ref_here, hyp_here)] = here.pairs
    [(_, _, ref_beside, hyp_beside)] = beside.pairs
    for one, other in ((ref_here, ref_beside), (hyp_here, hyp_beside)):
        for name in ("ids", "starts", "ends", "flags"):
            assert np.array_equal(getattr(one, name), getattr(other, name))
        assert one.forms == other.forms and list(one) == list(other)
    assert here.spans == beside.spans


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: the hypothesis is tokenized in the caller")
@pytest.mark.parametrize(("seed", "sides"), [(1, False), (2, False), (3, True)])
def test_segmented_documents_tokenized_in_a_child_have_the_tokens_and_ids_made_here(seed, sides, monkeypatch):
    import hub4eval.util.forked as forked
    from hub4eval.scoring.pipeline import load_glm

    started = started_children(monkeypatch, forked)
    ref_text, segmented, _ = random_texts(seed, 7, 60, missing=True)  # a document on one side only, each way
    # words the reference lacks, forms that differ from their text, and a DOCID paired by its case
    segmented = segmented.replace(
        "D3 </DOCNO>\n<TEXT>\n", "d3 </DOCNO>\n<TEXT>\nNinety Two hea- uh clinton's NEWWORD (uh) %hesitation "
    )
    # the hypothesis's documents in another order than the reference's, its own one among them
    documents = ["<DOC>" + doc for doc in segmented.split("<DOC>")[1:]]
    extra = documents.pop()
    segmented = "".join([*documents[::-2], extra, *documents[-2::-2], _DOGS])
    ref, hyp = parse_corpus(ref_text + _DOGS, "r"), parse_corpus(segmented, "h")
    assert [d.docid for d in hyp.documents] == ["D6", "D4", "D2", "EXTRA", "D5", "d3", "D0", "DOGS"]
    options = {"glm": _one_sided_glm() if sides else load_glm("default"), "spoken_forms": "en"}
    here = tokenize_corpora(ref, hyp, **options)
    beside = tokenize_corpora(ref, hyp, hyp_beside=True, **options)
    assert started == ["_hyp_tokens"]
    assert here.vocabulary.words == beside.vocabulary.words
    assert here.warnings == beside.warnings and len(here.warnings) == 2
    assert [pair[:2] for pair in here.pairs] == [pair[:2] for pair in beside.pairs]
    assert ("D3", "d3") in [pair[:2] for pair in here.pairs]
    assert any(h.forms for _, _, _, h in beside.pairs)
    for (_, _, *sides_here), (_, _, *sides_beside) in zip(here.pairs, beside.pairs, strict=True):
        for one, other in zip(sides_here, sides_beside, strict=True):
            for name in ("ids", "starts", "ends", "flags"):
                assert np.array_equal(getattr(one, name), getattr(other, name))
            assert one.forms == other.forms and list(one) == list(other)


def _tokenized_while_running(monkeypatch: pytest.MonkeyPatch, polls: int, done: list[str]) -> None:
    """The child tokenizing the hypothesis is still running the first ``polls`` times it is
    asked; each reference document tokenized here is noted in ``done`` (the child's are not
    seen here)."""
    import hub4eval.util.forked as forked

    class Slow(forked.Beside):  # type: ignore[type-arg]
        asked = 0

        @property
        def running(self) -> bool:
            Slow.asked += 1
            return Slow.asked <= polls

    monkeypatch.setattr(forked, "Beside", Slow)
    tokenizing = tokenized_module._ArrayTokens.__call__

    def tokenized(self, document):
        done.append(document.docid)
        return tokenizing(self, document)

    monkeypatch.setattr(tokenized_module._ArrayTokens, "__call__", tokenized)


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: the hypothesis is tokenized in the caller")
@pytest.mark.parametrize("polls", [0, 1, 2, 3])
def test_the_callers_work_is_done_in_turn_while_the_child_still_tokenizes(polls, monkeypatch):
    ref_text, segmented, _ = random_texts(3, 4, 30, missing=False)
    done: list[str] = []
    _tokenized_while_running(monkeypatch, polls, done)
    ref, hyp = parse_corpus(ref_text, "r"), parse_corpus(segmented, "h")
    work = [lambda: done.append("kernels"), lambda: done.append("strings")]
    tokenize_corpora(ref, hyp, hyp_beside=True, meanwhile=work)
    # once the reference is tokenized (the hypothesis is the child's); what is left, the caller does later
    assert done == [doc.docid for doc in ref.documents] + ["kernels", "strings"][:polls]


def test_no_work_is_done_meanwhile_when_no_child_tokenizes():
    ref_text, segmented, _ = random_texts(3, 4, 30, missing=False)
    done: list[int] = []
    tokenize_corpora(parse_corpus(ref_text, "r"), parse_corpus(segmented, "h"), meanwhile=[lambda: done.append(1)])
    assert done == []


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: the hypothesis is tokenized in the caller")
@pytest.mark.parametrize("polls", [0, 1, 3, 4, 6])
def test_a_free_core_is_told_once_as_soon_as_the_first_tokenizing_process_is_done(polls, monkeypatch):
    """``core_free`` is called once: after the reference document at which the child is seen done
    (it is looked at after each), or, this process done first, once the reference is tokenized,
    before the caller's own work; the tokens are those made without it."""
    ref_text, segmented, _ = random_texts(5, 4, 30, missing=False)
    done: list[str] = []
    _tokenized_while_running(monkeypatch, polls, done)
    ref, hyp = parse_corpus(ref_text, "r"), parse_corpus(segmented, "h")
    made = tokenize_corpora(
        ref, hyp, hyp_beside=True, meanwhile=[lambda: done.append("mine")], core_free=lambda: done.append("free")
    )
    docids = [doc.docid for doc in ref.documents]
    assert len(docids) == 4
    if polls < len(docids):  # the child seen done after reference document polls + 1
        assert done == [*docids[: polls + 1], "free", *docids[polls + 1 :]]
    else:  # still tokenizing when the reference is done: told then, before the caller's work
        assert done == [*docids, "free", "mine"][: len(docids) + 1 + (polls > len(docids))]
    monkeypatch.undo()
    alone = tokenize_corpora(ref, hyp)
    assert [(r.texts(), h.texts()) for _, _, r, h in made.pairs] == [
        (r.texts(), h.texts()) for _, _, r, h in alone.pairs
    ]


def test_no_free_core_is_told_when_no_child_tokenizes():
    ref_text, segmented, _ = random_texts(3, 4, 30, missing=False)
    told: list[int] = []
    tokenize_corpora(parse_corpus(ref_text, "r"), parse_corpus(segmented, "h"), core_free=lambda: told.append(1))
    assert told == []
