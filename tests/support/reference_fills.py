"""Random reference templettes over the texts of the shipped ASR examples (hypothesis strategies).

Each reference fill is a run of one to four words of one line of a reference
document, some with a minimal string in brackets; slots are sometimes optional
or have a second alternative; an instance is sometimes optional, and each
document has a TEMPLATE instance pointing to its events. The recognizer output
of the same example is the hypothesis text (``TEXTS``: the reference text and
the hypothesis text of each case, under ``EXAMPLES``).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from hypothesis import strategies as st

from hub4eval.config import ScoreConfig
from hub4eval.io.corpus import read_corpus
from hub4eval.io.templettes import parse_templates
from hub4eval.model import TemplateSet
from hub4eval.scoring import pipeline
from hub4eval.scoring.result import ScoreResult

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TEXTS = {
    "asr_numbers": ("asr_numbers/reference.sgml", "asr_numbers/asr.sgml"),
    "asr": ("asr/reference.sgml", "asr/asr_segmented.sgml"),
    "asr_unsegmented": ("asr/reference.sgml", "asr/asr_unsegmented.sgml"),
}

_WORD = re.compile(r'[^\s<>"\[\]#]+')  # a word a quoted fill can hold


@cache
def _lines(name: str) -> tuple[tuple[str, str, tuple[tuple[int, int], ...]], ...]:
    """(DOCID, document text, word spans) of every line of words of the reference text."""
    corpus = read_corpus(EXAMPLES / TEXTS[name][0])
    lines = []
    for document in corpus.documents:
        text = document.text
        body = text.index("<TEXT>") + len("<TEXT>")
        end = text.index("</TEXT>")
        for line in re.finditer(r"[^\n]+", text[body:end]):
            at = body + line.start()
            spans = tuple((at + m.start(), at + m.end()) for m in _WORD.finditer(line.group()))
            if spans:
                lines.append((document.docid, text, spans))
    return tuple(lines)


@st.composite
def reference_fill(draw: st.DrawFn, name: str, docid: str) -> str:
    """A reference fill of one to four words of a line of document ``docid``, maybe with a minimal string."""
    _, text, spans = draw(st.sampled_from([line for line in _lines(name) if line[0] == docid]))
    i = draw(st.integers(0, len(spans) - 1))
    j = min(len(spans) - 1, i + draw(st.integers(0, 3)))
    start, end = spans[i][0], spans[j][1]
    content = text[start:end]
    if any(c in content for c in '"[]#'):  # characters a fill cannot hold between its words: one word
        j, end = i, spans[i][1]
        content = text[start:end]
    if i < j and draw(st.booleans()):  # a minimal string: some of its words in brackets
        a = draw(st.integers(i, j))
        b = draw(st.integers(a, j))
        m0, m1 = spans[a][0] - start, spans[b][1] - start
        content = f"{content[:m0]}[{content[m0:m1]}]{content[m1:]}"
    return f'"{content}" ##{start}#{end}#'


@st.composite
def references(draw: st.DrawFn, name: str) -> str:
    """The text of a reference templette file over the reference text of case ``name``."""
    docids = list(dict.fromkeys(docid for docid, _, _ in _lines(name)))
    out = []
    for docid in docids[: draw(st.integers(1, len(docids)))]:
        events = draw(st.integers(1, 3))
        pointers = [f"<EVENT-{docid}-{n}>" for n in range(1, events + 1)]
        out += [f"<TEMPLATE-{docid}-1> :=", f"    EVENT: {pointers[0]}", *(f"           {p}" for p in pointers[1:]), ""]
        for number in range(1, events + 1):
            out.append(f"<EVENT-{docid}-{number}> :=")
            for slot in ("WINNER", "LOSER", "PLACE")[: draw(st.integers(1, 3))]:
                optional = "? " if draw(st.integers(0, 4)) == 0 else ""
                out.append(f"    {slot}: {optional}{draw(reference_fill(name, docid))}")
                if draw(st.integers(0, 3)) == 0:  # a second alternative
                    out.append(f"         / {draw(reference_fill(name, docid))}")
            if draw(st.integers(0, 5)) == 0:
                out.append("    OBJ_STATUS: OPTIONAL")
            out.append("")
    return "\n".join(out) + "\n"


def with_ceiling(
    name: str, ref_text: str, config: ScoreConfig, hyp: TemplateSet | None = None, **options: object
) -> ScoreResult:
    """``ref_text`` scored with its ceiling over the texts of case ``name`` against ``hyp``
    (by default no hypothesis instance: the ceiling is what the tests read); ``options`` go
    to :func:`hub4eval.scoring.pipeline.score`."""
    ref_path, hyp_path = (EXAMPLES / path for path in TEXTS[name])
    return pipeline.score(
        parse_templates(ref_text, role="reference"),
        TemplateSet((), role="hypothesis") if hyp is None else hyp,
        ref_corpus=read_corpus(ref_path),
        hyp_corpus=read_corpus(hyp_path),
        config=config,
        ceiling=True,
        **options,
    )
