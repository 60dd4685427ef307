#!/usr/bin/env python3
"""Make the fixture of tests/scoring/test_named_entities_nervaluate.py.

Writes ref.jsonl and hyp.jsonl (random ENAMEX regions over words, seed 7, so
that every region overlaps at most one region of the other side) and
nervaluate.json: the counts that nervaluate 1.2.1 (pip install
nervaluate==1.2.1), an independent NER evaluator, gives for them with its
``ent_type`` scheme (type right, regions overlapping: MUC's TYPE) and its
``exact`` scheme (boundaries right, whatever the type: MUC's TEXT).

Run:  python make_fixture.py   (needs nervaluate; the fixture is committed)
"""

from __future__ import annotations

import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
TYPES = ("PERSON", "LOCATION", "ORGANIZATION")


def documents(seed: int = 7, count: int = 40, length: int = 30):
    rng = random.Random(seed)
    for number in range(count):
        words = [f"w{rng.randrange(100)}" for _ in range(length)]
        ref, hyp = [], []
        i = 0
        while i < length - 3:
            size = rng.randint(1, 3)
            if rng.random() < 0.35:  # a reference region on words i..i+size-1
                kind = rng.choice(TYPES)
                ref.append((kind, i, i + size - 1))
                fate = rng.random()
                if fate < 0.45:
                    hyp.append((kind, i, i + size - 1))  # right
                elif fate < 0.6:
                    hyp.append((rng.choice([t for t in TYPES if t != kind]), i, i + size - 1))  # wrong type
                elif fate < 0.75 and size > 1:
                    hyp.append((kind, i + 1, i + size - 1))  # wrong start
                elif fate < 0.85:
                    hyp.append((rng.choice(TYPES), i, i + size))  # one word too many, maybe the wrong type
                # else: missed
                i += size + 2  # a gap, so that no region reaches the next one
            elif rng.random() < 0.1:
                hyp.append((rng.choice(TYPES), i, i + size - 1))  # spurious
                i += size + 2
            else:
                i += 1
        yield f"doc{number}", words, ref, hyp


def character_offsets(words, first, last):
    start = sum(len(w) + 1 for w in words[:first])
    end = sum(len(w) + 1 for w in words[: last + 1]) - 1
    return start, end


def main() -> None:
    from nervaluate import Evaluator

    docs = list(documents())
    for name, side in (("ref.jsonl", 2), ("hyp.jsonl", 3)):
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as handle:
            for doc in docs:
                docid, words = doc[0], doc[1]
                entities = [[kind, *character_offsets(words, a, b)] for kind, a, b in doc[side]]
                handle.write(json.dumps({"id": docid, "text": " ".join(words), "entities": entities}) + "\n")
    true = [[{"label": k, "start": a, "end": b} for k, a, b in doc[2]] for doc in docs]
    pred = [[{"label": k, "start": a, "end": b} for k, a, b in doc[3]] for doc in docs]
    results = Evaluator(true, pred, tags=list(TYPES), loader="dict").evaluate()
    overall = results["overall"]
    fixture = {
        "origin": "nervaluate 1.2.1 Evaluator(loader='dict').evaluate()['overall'] on ref.jsonl/hyp.jsonl (make_fixture.py)",
        **{
            scheme: {key: getattr(overall[scheme], key) for key in ("correct", "incorrect", "missed", "spurious")}
            for scheme in ("ent_type", "exact")
        },
    }
    with open(os.path.join(HERE, "nervaluate.json"), "w", encoding="utf-8") as handle:
        json.dump(fixture, handle, indent=2)
        handle.write("\n")
    print(json.dumps(fixture, indent=2))


if __name__ == "__main__":
    main()
