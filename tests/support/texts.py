"""Random text corpora for the tests of aligning and tokenizing two texts."""

from __future__ import annotations

import random

WORDS = ["the", "a", "heart", "part", "motors", "general", "of", "uh", "h-", "hea-", "ninety", "two", "clinton's"]


def with_errors(
    ref: list[str], words: list[str], rng: random.Random, rates: tuple[float, float, float], inserted: str | None = None
) -> list[str]:
    """``ref`` with word errors, one roll of ``rng`` a word: deleted below ``rates[0]``, else
    replaced by one of ``words`` below ``rates[1]``, and followed by an insertion (``inserted``,
    or one of ``words``) above ``rates[2]``."""
    deleted, substituted, followed = rates
    hyp = []
    for word in ref:
        roll = rng.random()
        if roll < deleted:
            continue
        hyp.append(rng.choice(words) if roll < substituted else word)
        if roll > followed:
            hyp.append(rng.choice(words) if inserted is None else inserted)
    return hyp


def random_texts(seed: int, documents: int, words: int, *, missing: bool) -> tuple[str, str, str]:
    """(reference SGML, segmented hypothesis SGML, unsegmented hypothesis) at about 20% word errors."""
    rng = random.Random(seed)
    ref_docs, hyp_docs, stream = [], [], []
    for number in range(documents):
        ref = [rng.choice(WORDS) for _ in range(rng.randint(0, words))]
        hyp = with_errors(ref, WORDS, rng, (0.07, 0.14, 0.94))
        ref_docs.append(f"<DOC>\n<DOCNO> D{number} </DOCNO>\n<TEXT>\n{' '.join(ref)}\n</TEXT>\n</DOC>\n")
        if not (missing and number == 1):  # a reference document the hypothesis lacks
            hyp_docs.append(f"<DOC>\n<DOCNO> D{number} </DOCNO>\n<TEXT>\n{' '.join(hyp)}\n</TEXT>\n</DOC>\n")
        stream.append(f"<s> {' '.join(hyp)} </s>\n")
    if missing:  # and one only the hypothesis has
        hyp_docs.append("<DOC>\n<DOCNO> EXTRA </DOCNO>\n<TEXT>\ngeneral motors\n</TEXT>\n</DOC>\n")
    return "".join(ref_docs), "".join(hyp_docs), "".join(stream)
