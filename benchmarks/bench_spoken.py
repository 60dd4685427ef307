"""Time spoken_forms on a 1,000,000-word text (spoken and written numbers mixed in).

    python benchmarks/bench_spoken.py [WORDS]

Prints the tokenizer's time and the spoken-forms pass's time separately, for a
dense text (a number phrase in about one phrase of ten: a third of the tokens
fall in a number window), a news-like one (a number phrase about every 50
words) and one without any number. The cyclic collector is paused, as
``hub4eval.api`` pauses it for the whole run (``hub4eval.util.gcpause``).
"""

from __future__ import annotations

import argparse
import gc
import random
import time

from hub4eval.text.spoken import spoken_forms
from hub4eval.text.tokens import tokenize

PLAIN = (
    "the president said on tuesday that the talks with the prime minister would go on "
    "despite the protests in the capital and officials of the ministry declined to comment "
    "about the report which was released by the committee earlier this week"
).split()
NUMBERS = [
    "sixty three",
    "$12,500",
    "twelve thousand five hundred dollars",
    "nineteen ninety four",
    "1994,",
    "two thousand five",
    "july fourth",
    "July 4,",
    "twenty first",
    "21st",
    "$3.5 million",
    "three point five million dollars",
    "point four five",
    "0.45",
    "seven to five",
    "7-5",
    "three hours two minutes",
    "4,250",
    "forty two hundred fifty",
    "the one who",
    "a hundred",
    "thirteenth",
    "5%",
    "five percent",
    "one",
    "two",
    "second",
    "first",
]


def make_text(words: int, density: float = 0.1, seed: int = 1) -> str:
    rng = random.Random(seed)
    out: list[str] = []
    count = 0
    while count < words:
        if rng.random() < density:
            phrase = rng.choice(NUMBERS)
        else:
            phrase = rng.choice(PLAIN)
        out.append(phrase)
        count += phrase.count(" ") + 1
    return " ".join(out)


def bench(words: int = 1_000_000) -> dict[str, float]:
    result: dict[str, float] = {}
    for label, density in (("dense", 0.1), ("news", 0.02), ("plain", 0.0)):
        text = make_text(words, density)
        gc.collect()
        gc.disable()
        t0 = time.perf_counter()
        tokens = tokenize(text)
        t1 = time.perf_counter()
        out = spoken_forms(tokens, text)
        t2 = time.perf_counter()
        gc.enable()
        result[f"{label}_tokens"] = len(tokens)
        result[f"{label}_out_tokens"] = len(out)
        result[f"{label}_tokenize_s"] = t1 - t0
        result[f"{label}_spoken_s"] = t2 - t1
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("words", nargs="?", type=int, default=1_000_000, help="words of each text")
    for key, value in bench(parser.parse_args().words).items():
        print(f"{key:24} {value:.3f}" if isinstance(value, float) else f"{key:24} {value}")
