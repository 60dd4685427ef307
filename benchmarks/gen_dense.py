"""Generate one document with many instances of one type whose fills share words.

    python benchmarks/gen_dense.py OUTDIR --events 100000 --vocabulary 500 --seed 1

The reference has ``--events`` EVENT instances in the document ``DENSE``, each
of five text slots of one to three words drawn uniformly from a vocabulary of
``--vocabulary`` words, with extents laid out along the document (event k's
fills lie near offset 100 k). With a small vocabulary the same fill text
recurs across thousands of events, so thousands of hypothesis events can score
a correct content point against each reference event: about
``5 (events / 3)^2 / vocabulary`` instance pairs share a key (10 million at
100,000 events and 500 words). The hypothesis is the reference with errors,
as in ``gen_templates.py``: dropped and spurious events, changed and dropped
fills, shifted extents, shuffled order.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

SLOTS = ("S_EVENT", "WINNER", "LOSER", "SCORE", "LOCATION")


def generate(events: int, vocabulary: int, seed: int, error: float) -> tuple[str, str]:
    rnd = random.Random(seed)
    words = [f"w{i}" for i in range(vocabulary)]

    def fill(start: int) -> tuple[str, int, int]:
        content = " ".join(rnd.choices(words, k=rnd.randint(1, 3)))
        return content, start, start + len(content)

    reference = []
    for e in range(1, events + 1):
        reference.append((e, {slot: fill(100 * e + 20 * k) for k, slot in enumerate(SLOTS)}))
    hypothesis = []
    for e, slots in reference:
        if rnd.random() < error:
            continue  # dropped event
        new = {}
        for slot, (content, a, b) in slots.items():
            r = rnd.random()
            if r < error / 2:
                continue  # dropped fill
            if r < error:
                content, a, b = fill(a)  # wrong fill
            elif r < 1.5 * error:
                a, b = a + 1, b + 1  # shifted extent
            new[slot] = (content, a, b)
        hypothesis.append((e, new))
    spurious = int(events * error / 10)
    hypothesis += [
        (events + k, {s: fill(100 * rnd.randrange(1, events + 1) + 10) for s in SLOTS}) for k in range(1, spurious + 1)
    ]
    rnd.shuffle(hypothesis)

    def write(side: list[tuple[int, dict[str, tuple[str, int, int]]]]) -> str:
        lines = []
        for e, slots in side:
            lines.append(f"<EVENT-DENSE-{e}> :=")
            lines += [f'    {slot}: "{content}" ##{a}#{b}#' for slot, (content, a, b) in slots.items()]
        return "\n".join(lines) + "\n"

    return write(reference), write(hypothesis)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--events", type=int, default=100_000, help="reference instances")
    parser.add_argument("--vocabulary", type=int, default=500, help="words the fills are drawn from")
    parser.add_argument("--error", type=float, default=0.15)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.outdir.mkdir(parents=True, exist_ok=True)
    ref, hyp = generate(args.events, args.vocabulary, args.seed, args.error)
    (args.outdir / "ref.tpl").write_text(ref)
    (args.outdir / "hyp.tpl").write_text(hyp)
    print(f"wrote {args.outdir}/ref.tpl ({ref.count(':=')} instances) and hyp.tpl ({hyp.count(':=')})")


if __name__ == "__main__":
    main()
