"""§11 the ceiling: reference templates projected onto the hypothesis text.

Each reference text fill with an extent becomes the hypothesis tokens of its
alignment columns: content = the hypothesis characters from the first of
those tokens to the last (line breaks turned into spaces, so the fill can be
written on one line), extent = their character span in the hypothesis text
(per document, or from the start of the file when the hypothesis is
unsegmented). A fill whose columns hold no hypothesis token is dropped. Fills
without an extent (set fills) are kept as they are, and pointers follow their
instances, which keep their keys. A slot keeps one alternative (a hypothesis
slot has one): the first whose fills all survive, else the first one's
surviving fills; a slot left with no fill is dropped. The result is a
hypothesis template set; scored against the reference with the same texts,
it is the best any extractor can score on this recognizer's output.

Without an alignment (the texts are the same), fills keep their content and
offsets: the projection is the reference itself, and scores 100 %.
"""

from __future__ import annotations

from typing import Any

from hub4eval.model import (
    Corpus,
    Extent,
    Fill,
    FillAlternative,
    Instance,
    InstanceSet,
    Slot,
    TemplateSet,
    TextFill,
)

_LINE_BREAKS = str.maketrans(
    {"\r": " ", "\n": " ", "\x0b": " ", "\x0c": " ", "\x85": " ", "\u2028": " ", "\u2029": " "}
)


def _hyp_fill(content: str, start: int, end: int) -> TextFill:
    """A hypothesis text fill as the templette reader builds one."""
    extents = (Extent(start, end),)
    return TextFill(content, ((0, len(content)),), extents, extents, False, True)


class _Projector:
    def __init__(self, alignment: Any, hyp_corpus: Corpus | None) -> None:
        self.alignment = alignment
        self.texts: dict[int, str | None] = {}
        self.hyp_corpus = hyp_corpus

    def _text(self, space: int) -> str | None:
        """The hypothesis text whose offsets the tokens of column space ``space`` carry."""
        if space not in self.texts:
            text = None
            if self.hyp_corpus is not None:
                if self.alignment.unsegmented:
                    from hub4eval.io.corpus import as_unsegmented

                    text = as_unsegmented(self.hyp_corpus).documents[0].text
                else:
                    document = self.hyp_corpus.document(self.alignment.documents[space].hyp_docid)
                    text = None if document is None else document.text
            self.texts[space] = text
        return self.texts[space]

    def fill(self, docid: str, fill: Fill) -> Fill | None:
        if type(fill) is not TextFill or fill.extent is None:
            return fill if type(fill) is not TextFill else _plain(fill)
        if self.alignment is None:
            extent = fill.extent
            return _hyp_fill(fill.content.translate(_LINE_BREAKS), extent.start, extent.end)
        columns = self.alignment.ref_extent(docid, fill.extent)
        space = self.alignment.column_space(docid, reference=True)
        if columns is None or space is None:
            return None
        document = self.alignment.documents[space]
        tokens = [int(h) for h in document.alignment.hyp_index[columns.start : columns.end + 1] if h >= 0]
        text = self._text(space)
        if not tokens or text is None:
            return None
        start, end = document.hyp_tokens[tokens[0]].start, document.hyp_tokens[tokens[-1]].end
        return _hyp_fill(text[start:end].translate(_LINE_BREAKS), start, end)

    def slot(self, docid: str, slot: Slot) -> Slot | None:
        chosen: tuple[Fill, ...] | None = None
        for number, alternative in enumerate(slot.alternatives):
            projected = [self.fill(docid, f) for f in alternative.fills]
            kept = tuple(f for f in projected if f is not None)
            if len(kept) == len(projected):
                chosen = kept
                break
            if number == 0:
                chosen = kept
        if not chosen:
            return None
        return Slot(slot.name, (FillAlternative(chosen),))

    def instance(self, inst: Instance) -> Instance:
        slots = tuple(s for s in (self.slot(inst.docid, slot) for slot in inst.slots) if s is not None)
        return Instance(inst.type, inst.docid, inst.number, slots)


def _plain(fill: TextFill) -> TextFill:
    """A reference fill without extent as a hypothesis writes it (no minimal strings)."""
    content = fill.content.translate(_LINE_BREAKS)
    return TextFill(content, ((0, len(content)),), (), (), False, fill.quoted)


def project(ref: TemplateSet, alignment: Any = None, hyp_corpus: Corpus | None = None) -> TemplateSet:
    """The reference templates projected onto the hypothesis text (see the module docstring).

    Args:
        ref: the reference template set.
        alignment: the :class:`~hub4eval.text.columns.CorpusAlignment` of the
            two texts, or None when they are the same.
        hyp_corpus: the hypothesis corpus the alignment was made from (its
            characters become the projected content).

    Returns:
        A hypothesis template set. With a segmented hypothesis text, the
        instance sets of documents the hypothesis text lacks are left out.
    """
    projector = _Projector(alignment, hyp_corpus)
    keep_all = alignment is None or alignment.unsegmented or hyp_corpus is None
    sets = tuple(
        InstanceSet(iset.docid, tuple(projector.instance(inst) for inst in iset.instances))
        for iset in ref.instance_sets
        if keep_all or hyp_corpus.document(iset.docid) is not None  # type: ignore[union-attr]
    )
    return TemplateSet(sets, role="hypothesis", path=ref.path)


__all__ = ["project"]
