#!/usr/bin/env python3
"""Regenerate the asr_ne example: named entities in real recognizer output.

Inputs are the texts of ../asr_numbers (five synthetic broadcast-news stories
spoken by espeak-ng and recognized by pocketsphinx; that example's
make_example.py regenerates them from the audio):

- ../asr_numbers/reference.sgml, the reference transcript,
- ../asr_numbers/asr.sgml, the recognizer's words, segmented like the reference.

This script writes

1. reference.sgml: the reference transcript with the named entities tagged by
   hand (the list REFERENCE_TAGS below, written by a person reading the
   stories; MUC-7 conventions: names of people, organizations and places,
   dates, amounts of money; plain counts and scores are not entities),
2. asr_tagged.sgml: the recognizer output tagged by a small tagger written for
   this example (tag_words below: a gazetteer of names, the day and month
   names, and patterns for spoken years and amounts of money), which makes
   the mistakes such a tagger makes on lower-case recognizer output,
3. asr_tagged_unsegmented.sgml: the same tagged words without the document
   tags, as raw recognizer output is,
4. transcript_tagged.sgml: the reference transcript (without the hand tags)
   tagged by the same tagger: the tagger without the recognizer's errors.

Usage:  python3 make_example.py [--out DIR]
"""

from __future__ import annotations

import argparse
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
NUMBERS = os.path.join(HERE, "..", "asr_numbers")

# The hand annotation of the reference: (DOCNO suffix, words as in the text, element, TYPE),
# in text order; each is the first occurrence after the previous tag of the document.
REFERENCE_TAGS = [
    ("0100", "Duke", "ENAMEX", "ORGANIZATION"),
    ("0100", "North Carolina", "ENAMEX", "ORGANIZATION"),
    ("0100", "Saturday", "TIMEX", "DATE"),
    ("0100", "Durham", "ENAMEX", "LOCATION"),
    ("0100", "Grant Hill", "ENAMEX", "PERSON"),
    ("0100", "Blue Devils", "ENAMEX", "ORGANIZATION"),
    ("0200", "New York Yankees", "ENAMEX", "ORGANIZATION"),
    ("0200", "Boston Red Sox", "ENAMEX", "ORGANIZATION"),
    ("0200", "Boston", "ENAMEX", "LOCATION"),
    ("0200", "July 4th", "TIMEX", "DATE"),
    ("0200", "Derek Jeter", "ENAMEX", "PERSON"),
    ("0300", "General Motors", "ENAMEX", "ORGANIZATION"),
    ("0300", "Tuesday", "TIMEX", "DATE"),
    ("0300", "$3.5 million", "NUMEX", "MONEY"),
    ("0300", "Dayton", "ENAMEX", "LOCATION"),
    ("0300", "Ohio", "ENAMEX", "LOCATION"),
    ("0300", "2005", "TIMEX", "DATE"),
    ("0300", "$62", "NUMEX", "MONEY"),
    ("0400", "Chicago", "ENAMEX", "LOCATION"),
    ("0400", "Acme Chemical Company", "ENAMEX", "ORGANIZATION"),
    ("0400", "$180,000", "NUMEX", "MONEY"),
    ("0400", "March 17th", "TIMEX", "DATE"),
    ("0400", "1994", "TIMEX", "DATE"),
    ("0400", "$12,500", "NUMEX", "MONEY"),
    ("0500", "Cape Canaveral", "ENAMEX", "LOCATION"),
    ("0500", "Friday", "TIMEX", "DATE"),
    ("0500", "2003", "TIMEX", "DATE"),
    ("0500", "$450 million", "NUMEX", "MONEY"),
    ("0600", "Crans-Montana", "ENAMEX", "LOCATION"),
    ("0600", "7:45 p.m.", "TIMEX", "TIME"),
    ("0600", "March 3rd, 1998", "TIMEX", "DATE"),
    ("0600", "$38.25", "NUMEX", "MONEY"),
    ("0600", "N.C.A.A.", "ENAMEX", "ORGANIZATION"),
    ("0600", "9/11", "TIMEX", "DATE"),
]

# The tagger's gazetteer (lower case, as the recognizer writes): longest match first.
GAZETTEER = {
    "duke": "ORGANIZATION",
    "north carolina": "LOCATION",  # the state: the tagger does not know the team
    "durham": "LOCATION",
    "grant hill": "PERSON",
    "blue devils": "ORGANIZATION",
    "new york yankees": "ORGANIZATION",
    "new york": "LOCATION",
    "boston red sox": "ORGANIZATION",
    "boston": "LOCATION",
    "derek jeter": "PERSON",
    "general motors": "ORGANIZATION",
    "dayton": "LOCATION",
    "ohio": "LOCATION",
    "chicago": "LOCATION",
    "acme chemical company": "ORGANIZATION",
    "cape canaveral": "LOCATION",
    "discovery": "ORGANIZATION",  # the tagger takes the shuttle for the company
    "earth": "LOCATION",
    "crans montana": "LOCATION",
    "n c a a": "ORGANIZATION",
}
DAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
MONTHS = "january february march april may june july august september october november december".split()
UNITS = "one two three four five six seven eight nine".split()
TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
ORDINALS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth thirtieth"
).split()
NUMBER_WORDS = set(UNITS + TEENS + TENS + ["zero", "hundred", "thousand", "million", "billion", "point", "and"])


def _year_length(words: list[str], i: int) -> int:
    """Words of a spoken year starting at i (nineteen ninety four, two thousand five), else 0."""
    if words[i] == "two" and i + 1 < len(words) and words[i + 1] == "thousand":
        n = 2
        if i + 2 < len(words) and words[i + 2] in UNITS + TEENS:
            n = 3
        return n
    if words[i] in ("nineteen", "eighteen") and i + 1 < len(words) and words[i + 1] in TENS:
        n = 2
        if i + 2 < len(words) and words[i + 2] in UNITS:
            n = 3
        return n
    return 0


def _time_length(words: list[str], i: int) -> int:
    """Words of a spoken time of day starting at i (seven forty five pm), else 0."""
    j = i
    while j < len(words) and j - i < 3 and words[j] in NUMBER_WORDS:
        j += 1
    if j > i and j < len(words) and words[j] in ("am", "pm"):
        return j - i + 1
    return 0


def _money_length(words: list[str], i: int) -> int:
    """Words of a spoken amount of money starting at i (number words, then dollars), else 0."""
    j = i
    while j < len(words) and words[j] in NUMBER_WORDS:
        j += 1
    if j > i and words[i] not in ("and", "point") and j < len(words) and words[j] == "dollars":
        return j - i + 1
    return 0


def tag_words(words: list[str]) -> list[tuple[int, int, str, str]]:
    """(first word, end word, element, TYPE) of each region the tagger finds, left to right."""
    found = []
    i = 0
    longest = max(len(name.split()) for name in GAZETTEER)
    while i < len(words):
        hit = None
        for size in range(longest, 0, -1):
            name = " ".join(words[i : i + size])
            if name in GAZETTEER:
                hit = (i, i + size, "ENAMEX", GAZETTEER[name])
                break
        if hit is None and words[i] in DAYS:
            hit = (i, i + 1, "TIMEX", "DATE")
        following = words[i + 1] if i + 1 < len(words) else ""
        if (
            hit is None
            and words[i] in MONTHS
            and (following in ORDINALS or re.fullmatch(r"\d+(st|nd|rd|th)", following))
        ):
            hit = (i, i + 2, "TIMEX", "DATE")
        if hit is None and (time := _time_length(words, i)):
            hit = (i, i + time, "TIMEX", "TIME")
        if hit is None and (money := _money_length(words, i)):
            hit = (i, i + money, "NUMEX", "MONEY")
        if hit is None and re.fullmatch(r"\$[0-9][0-9,.]*", words[i]):  # written: $3.5 million, $62
            hit = (i, i + (2 if following in ("million", "billion") else 1), "NUMEX", "MONEY")
        if hit is None and i and words[i - 1] in ("in", "by", "since"):
            year = _year_length(words, i) or (1 if re.fullmatch(r"(1[89]|20)[0-9][0-9]", words[i]) else 0)
            if year:
                hit = (i, i + year, "TIMEX", "DATE")
        if hit is None:
            i += 1
            continue
        found.append(hit)
        i = hit[1]
    return found


def tag_text(text: str) -> str:
    """``text`` (the words of one <TEXT> element) with the tagger's regions marked up."""
    # words without the punctuation around them (the transcript has some; the recognizer none)
    spans = [(m.start(), m.end()) for m in re.finditer(r"[^\s\"(),.;:!?]+(?:[.,][0-9]+)*", text)]
    words = [text[a:b].lower() for a, b in spans]
    out, position = [], 0
    for first, end, element, kind in tag_words(words):
        start, stop = spans[first][0], spans[end - 1][1]
        out += [text[position:start], f'<{element} TYPE="{kind}">', text[start:stop], f"</{element}>"]
        position = stop
    out.append(text[position:])
    return "".join(out)


def _texts(corpus: str):
    """(start, end, DOCNO) of the text inside each <TEXT> element."""
    for doc in re.finditer(r"<DOCNO>\s*(\S+)\s*</DOCNO>\s*<TEXT>\n(.*?)</TEXT>", corpus, re.S):
        yield doc.start(2), doc.end(2), doc.group(1)


def tag_reference(corpus: str) -> str:
    """The reference transcript with REFERENCE_TAGS marked up (checked: every tag is found)."""
    out, position = [], 0
    for start, end, docno in _texts(corpus):
        out.append(corpus[position:start])
        text, at, pieces = corpus[start:end], 0, []
        for suffix, words, element, kind in REFERENCE_TAGS:
            if not docno.endswith("." + suffix):
                continue
            found = re.search(rf"(?<!\w){re.escape(words)}(?!\w)", text[at:])
            if found is None:
                raise SystemExit(f"{words!r} not found in document {docno}")
            a, b = at + found.start(), at + found.end()
            pieces += [text[at:a], f'<{element} TYPE="{kind}">{words}</{element}>']
            at = b
        pieces.append(text[at:])
        out.append("".join(pieces))
        position = end
    out.append(corpus[position:])
    return "".join(out)


def tag_asr(corpus: str) -> str:
    out, position = [], 0
    for start, end, _ in _texts(corpus):
        out += [corpus[position:start], tag_text(corpus[start:end])]
        position = end
    out.append(corpus[position:])
    return "".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=HERE, help="where to write the files (default: this folder)")
    args = parser.parse_args()
    with open(os.path.join(NUMBERS, "reference.sgml"), encoding="utf-8") as handle:
        reference = handle.read()
    with open(os.path.join(NUMBERS, "asr.sgml"), encoding="utf-8") as handle:
        asr = handle.read()
    tagged = tag_asr(asr)
    unsegmented = (
        "\n".join(tag_text(asr[start:end].strip()) for start, end, _ in _texts(asr)) + "\n"
    )  # the words of every story, one line each, no document tags
    for name, text in (
        ("reference.sgml", tag_reference(reference)),
        ("asr_tagged.sgml", tagged),
        ("asr_tagged_unsegmented.sgml", unsegmented),
        ("transcript_tagged.sgml", tag_asr(reference)),
    ):
        with open(os.path.join(args.out, name), "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"wrote {name}: {len(re.findall(r'<(?:ENAMEX|TIMEX|NUMEX) ', text))} regions")


if __name__ == "__main__":
    main()
