"""Generate a synthetic reference/hypothesis templette pair for scoring benchmarks.

    python benchmarks/gen_templates.py OUTDIR --docs 10000 --instances 100000 --seed 1 [--text]

Each document gets one TEMPLATE instance pointing to its events; events have
five text slots with extents over a Zipfian vocabulary. The hypothesis is the
reference with errors: dropped and spurious events, changed and dropped
fills, shifted extents, reordered instances.

With ``--text`` the set comes with its text corpus, ``OUTDIR/ref.sgml``
(clean texts: one ``<DOC>`` per document, lines of twelve Zipfian words),
and every fill is words of its document's text at its extent: a reference
fill one to three words of a line, a changed hypothesis fill other words of
the document, a shifted hypothesis extent the same number of words one word
later (its content the words there). The files differ from those made
without ``--text`` (the same kinds of errors, drawn in another order).
"""

from __future__ import annotations

import argparse
import itertools
import random
from pathlib import Path

SLOTS = ("S_EVENT", "WINNER", "LOSER", "SCORE", "LOCATION")


VOCABULARY = [f"w{i}" for i in range(5000)]
CUMULATIVE_WEIGHTS = list(itertools.accumulate(1 / (i + 1) for i in range(len(VOCABULARY))))  # Zipf


def zipf_words(rnd: random.Random, n: int) -> list[str]:
    # cum_weights once, not per call: the same draws as choices(weights=...), 5000x less work
    return rnd.choices(VOCABULARY, cum_weights=CUMULATIVE_WEIGHTS, k=n)


def fill(rnd: random.Random, start: int) -> tuple[str, int, int]:
    words = zipf_words(rnd, rnd.randint(1, 3))
    content = " ".join(words)
    return content, start, start + len(content)


def generate(docs: int, instances: int, seed: int, error: float) -> tuple[str, str]:
    rnd = random.Random(seed)
    per_doc = max(1, instances // docs - 1)
    ref_lines: list[str] = []
    hyp_lines: list[str] = []
    for d in range(docs):
        docid = f"SYN{d:07d}.0000"
        events = []
        for e in range(1, per_doc + 1):
            slots = {}
            for slot in SLOTS:
                slots[slot] = fill(rnd, rnd.randint(0, 5000))
            events.append((e, slots))
        ref_lines.append(f"<TEMPLATE-{docid}-1> :=")
        ref_lines.append("    EVENT: " + "\n           ".join(f"<EV-{docid}-{e}>" for e, _ in events))
        for e, slots in events:
            ref_lines.append(f"<EV-{docid}-{e}> :=")
            for slot, (content, a, b) in slots.items():
                ref_lines.append(f'    {slot}: "{content}" ##{a}#{b}#')
        kept = [ev for ev in events if rnd.random() > error]
        rnd.shuffle(kept)
        hyp_events = []
        for e, slots in kept:
            new = {}
            for slot, (content, a, b) in slots.items():
                r = rnd.random()
                if r < error / 2:
                    continue  # dropped fill
                if r < error:
                    content, a, b = fill(rnd, a)  # wrong fill
                elif r < 1.5 * error:
                    a, b = a + 1, b + 1  # shifted extent
                new[slot] = (content, a, b)
            hyp_events.append((e, new))
        for k in range(rnd.randint(0, 1) if rnd.random() < error else 0):
            hyp_events.append((per_doc + 1 + k, {s: fill(rnd, rnd.randint(0, 5000)) for s in SLOTS}))
        hyp_lines.append(f"<TEMPLATE-{docid}-1> :=")
        if hyp_events:
            hyp_lines.append("    EVENT: " + "\n           ".join(f"<EV-{docid}-{e}>" for e, _ in hyp_events))
        for e, slots in hyp_events:
            hyp_lines.append(f"<EV-{docid}-{e}> :=")
            for slot, (content, a, b) in slots.items():
                hyp_lines.append(f'    {slot}: "{content}" ##{a}#{b}#')
    return "\n".join(ref_lines) + "\n", "\n".join(hyp_lines) + "\n"


WORDS_PER_LINE = 12


def generate_with_text(docs: int, instances: int, seed: int, error: float) -> tuple[str, str, str]:
    """Like :func:`generate`, with the SGML text every extent points into."""
    rnd = random.Random(seed)
    per_doc = max(1, instances // docs - 1)
    lines_per_doc = max(1, per_doc * len(SLOTS) * 2 // WORDS_PER_LINE)
    ref_lines: list[str] = []
    hyp_lines: list[str] = []
    text: list[str] = []
    for d in range(docs):
        docid = f"SYN{d:07d}.0000"
        head = f"<DOC>\n<DOCNO> {docid} </DOCNO>\n<TEXT>\n"
        lines = [zipf_words(rnd, WORDS_PER_LINE) for _ in range(lines_per_doc)]
        starts = []  # (line, word) -> offset of the word from the `<` of <DOC>
        offset = len(head)
        for words in lines:
            row = []
            for word in words:
                row.append(offset)
                offset += len(word) + 1  # a space, or the line end after the last word
            starts.append(row)
        text.append(head + "".join(" ".join(words) + "\n" for words in lines) + "</TEXT>\n</DOC>\n")

        def span(
            line: int, word: int, count: int, lines: list[list[str]] = lines, starts: list[list[int]] = starts
        ) -> tuple[str, int, int]:
            content = " ".join(lines[line][word : word + count])
            start = starts[line][word]
            return content, start, start + len(content)

        def any_span() -> tuple[int, int, int]:
            count = rnd.randint(1, 3)
            return rnd.randrange(lines_per_doc), rnd.randrange(WORDS_PER_LINE - count + 1), count

        events = []
        for e in range(1, per_doc + 1):
            events.append((e, {slot: any_span() for slot in SLOTS}))
        ref_lines.append(f"<TEMPLATE-{docid}-1> :=")
        ref_lines.append("    EVENT: " + "\n           ".join(f"<EV-{docid}-{e}>" for e, _ in events))
        for e, slots in events:
            ref_lines.append(f"<EV-{docid}-{e}> :=")
            for slot, where in slots.items():
                content, a, b = span(*where)
                ref_lines.append(f'    {slot}: "{content}" ##{a}#{b}#')
        kept = [ev for ev in events if rnd.random() > error]
        rnd.shuffle(kept)
        hyp_events = []
        for e, slots in kept:
            new = {}
            for slot, (line, word, count) in slots.items():
                r = rnd.random()
                if r < error / 2:
                    continue  # dropped fill
                if r < error:
                    line, word, count = any_span()  # wrong fill
                elif r < 1.5 * error and word + count < WORDS_PER_LINE:
                    word += 1  # shifted extent: the words one word later
                new[slot] = (line, word, count)
            hyp_events.append((e, new))
        for k in range(rnd.randint(0, 1) if rnd.random() < error else 0):
            hyp_events.append((per_doc + 1 + k, {s: any_span() for s in SLOTS}))
        hyp_lines.append(f"<TEMPLATE-{docid}-1> :=")
        if hyp_events:
            hyp_lines.append("    EVENT: " + "\n           ".join(f"<EV-{docid}-{e}>" for e, _ in hyp_events))
        for e, slots in hyp_events:
            hyp_lines.append(f"<EV-{docid}-{e}> :=")
            for slot, where in slots.items():
                content, a, b = span(*where)
                hyp_lines.append(f'    {slot}: "{content}" ##{a}#{b}#')
    return "\n".join(ref_lines) + "\n", "\n".join(hyp_lines) + "\n", "".join(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--docs", type=int, default=10000)
    parser.add_argument("--instances", type=int, default=100000)
    parser.add_argument("--error", type=float, default=0.15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--text", action="store_true", help="also write OUTDIR/ref.sgml, the text every extent is in")
    args = parser.parse_args()
    args.outdir.mkdir(parents=True, exist_ok=True)
    if args.text:
        ref, hyp, text = generate_with_text(args.docs, args.instances, args.seed, args.error)
        (args.outdir / "ref.sgml").write_text(text)
    else:
        ref, hyp = generate(args.docs, args.instances, args.seed, args.error)
    (args.outdir / "ref.tpl").write_text(ref)
    (args.outdir / "hyp.tpl").write_text(hyp)
    print(f"wrote {args.outdir}/ref.tpl ({ref.count(':=')} instances) and hyp.tpl ({hyp.count(':=')})")


if __name__ == "__main__":
    main()
