"""Entity WER (:mod:`hub4eval.scoring.entity_wer`) against its definition, and the placing of
every reference extent on the columns at once against ``ref_extent`` of each. (Its rules on
examples are in ``test_attribution.py``, with the causes; a count's entity WER, read from the
fill table, against the match records' in ``test_system_counts.py``.)"""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hub4eval.api import score
from hub4eval.config import ScoreConfig
from hub4eval.io.corpus import parse_corpus
from hub4eval.io.templettes import parse_templates

WORDS = "in tennis martina hingis beat conchita martinez in melbourne on sunday".split()


def _entity_wer_by_definition(result) -> dict:
    """Entity WER as its definition reads: per slot (and for all slots), the set of (column space,
    column) inside some scored reference fill, each space's columns counted by its alignment."""
    import numpy as np

    alignment = result.alignment
    unscored = set(result.config.unscored_slots)
    by_slot: dict[str, set[tuple[int, int]]] = {}
    for match in result.matches:
        for inst in match.ref.instances if match.ref is not None else ():
            space = alignment.column_space(inst.docid, reference=True)
            for slot in inst.slots:
                for alternative in slot.alternatives:
                    for fill in alternative.fills:
                        if space is None or slot.name in unscored or fill.extent is None:
                            continue
                        columns = alignment.ref_extent(inst.docid, fill.extent)
                        if columns is not None:
                            cells = by_slot.setdefault(f"{inst.type}.{slot.name}", set())
                            cells.update((space, c) for c in range(columns.start, columns.end + 1))

    def wer_of(cells: set[tuple[int, int]]) -> dict:
        total: dict[str, int] = {}
        for space in sorted({s for s, _ in cells}):
            columns = np.array(sorted(c for s, c in cells if s == space), dtype=np.int64)
            for key, value in alignment.documents[space].counts(columns).items():
                total[key] = total.get(key, 0) + value
        if not total:
            total = alignment.documents[0].counts(np.zeros(0, dtype=np.int64))
        errors = total["substitutions"] + total["deletions"] + total["insertions"]
        return {**total, "errors": errors, "wer": errors / total["ref_words"] if total["ref_words"] else None}

    union = set().union(*by_slot.values()) if by_slot else set()
    return {
        "alignment": "weighted",
        "summary": wer_of(union),
        "by_slot": {key: wer_of(cells) for key, cells in by_slot.items()},
    }


@settings(max_examples=40, deadline=None)
@given(
    edits=st.lists(st.sampled_from(["keep", "sub", "del", "ins"]), min_size=2 * len(WORDS), max_size=2 * len(WORDS)),
    picks=st.lists(
        st.tuples(st.integers(1, 2), st.integers(1, 2), st.sampled_from(["WINNER", "LOSER"]), st.integers(0, 10)),
        min_size=1,
        max_size=6,
    ),
    unsegmented=st.booleans(),
)
def test_entity_wer_counts_each_column_inside_reference_fills_once(edits, picks, unsegmented):
    """Two documents (two column spaces when segmented), fills of one slot overlapping or
    repeated in several instances: entity WER is the count of the set of columns they cover
    (every document's fills placed on its own tokens by one search over all of them)."""
    docs, hyp_docs, templates = [], [], []
    for number in (1, 2):
        hyp_words: list[str] = []
        for word, edit in zip(WORDS, edits[(number - 1) * len(WORDS) : number * len(WORDS)], strict=True):
            hyp_words += {"keep": [word], "sub": [word + "x"], "del": [], "ins": [word, "uhm" + word]}[edit]
        text = f"<DOC>\n<DOCNO> D{number} </DOCNO>\n<TEXT>\n" + " ".join(WORDS) + "\n</TEXT>\n</DOC>\n"
        docs.append(text)
        hyp_docs.append(text.replace(" ".join(WORDS), " ".join(hyp_words or ["nothing"])))
        for instance in (1, 2):
            fills = {slot: start for doc, inst, slot, start in reversed(picks) if (doc, inst) == (number, instance)}
            if fills:
                templates.append(f"<EVENT-D{number}-{instance}> :=")
                for slot, start in fills.items():
                    phrase = " ".join(WORDS[start : start + 2])
                    begin = text.index(phrase, text.index("<TEXT>"))
                    templates.append(f'    {slot}: "{phrase}" ##{begin}#{begin + len(phrase)}#')
    ref = parse_templates("\n".join(templates) + "\n", "ref.tpl", role="reference")
    hyp = parse_templates("", "hyp.tpl", role="hypothesis")
    ref_corpus = parse_corpus("".join(docs), "ref.sgml")
    hyp_text = "".join(hyp_docs)
    if unsegmented:
        hyp_text = hyp_text.replace("<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\n", "").replace("\n</TEXT>\n</DOC>\n", "\n")
        hyp_text = hyp_text.replace("<DOC>\n<DOCNO> D2 </DOCNO>\n<TEXT>\n", "")
    result = score(ref, hyp, ref_corpus=ref_corpus, hyp_corpus=parse_corpus(hyp_text, "hyp.sgml"), config=ScoreConfig())
    assume(result.alignment is not None)
    assert result.entity_wer == _entity_wer_by_definition(result)


@settings(max_examples=40, deadline=None)
@given(
    bodies=st.lists(st.lists(st.sampled_from(WORDS), max_size=8), min_size=1, max_size=3),
    runs=st.lists(
        st.tuples(
            st.sampled_from(["D1", "D2", "D3", "nope"]),
            st.lists(st.tuples(st.integers(0, 90), st.integers(0, 30)), min_size=1, max_size=4),
        ),
        max_size=6,
    ),
    unsegmented=st.booleans(),
)
def test_the_reference_extents_are_placed_at_once_as_each_one_is(bodies, runs, unsegmented):
    """The entity WER's columns of every reference extent, found by one search over every
    document's tokens (each document's offsets shifted past those of the documents before
    it), are the columns ``ref_extent`` gives each one, in the column spaces laid end to end:
    for runs of a document that come back after another's, a document the texts lack, an
    empty document, extents past a document's last word, and no extent at all."""
    from hub4eval.model import Extent
    from hub4eval.scoring.entity_wer import _reference_columns
    from hub4eval.text.columns import align_corpora

    ref_text = "".join(
        f"<DOC>\n<DOCNO> D{n} </DOCNO>\n<TEXT>\n{' '.join(words)}\n</TEXT>\n</DOC>\n"
        for n, words in enumerate(bodies, 1)
    )
    hyp_text = ref_text.replace("martina", "marina").replace(" on ", " ")
    alignment = align_corpora(
        parse_corpus(ref_text, "ref.sgml"), parse_corpus(hyp_text, "hyp.sgml"), unsegmented=unsegmented
    )
    base = [0]
    for document in alignment.documents:
        base.append(base[-1] + len(document.alignment.kinds))
    starts, extents, expected = [], [], []
    for docid, spans in runs:
        starts.append((docid, len(extents)))
        space = alignment.column_space(docid, reference=True)
        for start, length in spans:
            extent = Extent(start, start + length)
            extents.append(extent)
            columns = None if space is None else alignment.ref_extent(docid, extent)
            expected.append(None if columns is None else (base[space] + columns.start, base[space] + columns.end))
    first, last, found = _reference_columns(
        alignment, starts, [extent.start for extent in extents], [extent.end for extent in extents], base
    )
    got = [(int(a), int(b)) if ok else None for a, b, ok in zip(first, last, found, strict=True)]
    assert got == expected
