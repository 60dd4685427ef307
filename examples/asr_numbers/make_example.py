#!/usr/bin/env python3
"""Regenerate the asr_numbers example: real speech, real recognizer, numbers.

From stories.txt (broadcast-news stories full of numbers, with the written and
spoken form of each number and the reference fills marked) this script

1. writes the reference transcript reference.sgml (written forms: 98-71, $3.5 million),
2. synthesizes each story with espeak-ng, converts it with sox to 16 kHz mono
   16-bit, recognizes it with pocketsphinx's bundled US English model, and
   writes the raw recognizer words as the segmented hypothesis corpus asr.sgml,
3. writes the reference templettes ref.tpl (one EVENT per story, fills with
   character extents computed from reference.sgml),
4. writes hyp.tpl, the output of a "perfect extractor" run on asr.sgml: each
   reference fill projected through a word alignment of the spoken rendering of
   the story onto the recognizer's words (content = those words verbatim,
   extent = their characters in asr.sgml); a fill whose words the recognizer
   lost entirely is dropped,
5. checks every extent it wrote and writes README.md (tool versions, word error
   rate per story, which numbers the recognizer got right).

Audio is made in a temporary directory and not kept.

Usage:  python3 make_example.py [--out DIR] [--voice en-us+f5] [--speed 150]
                                [--asr-from asr.sgml]   (skip synthesis/recognition)
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
import wave

HERE = os.path.dirname(os.path.abspath(__file__))

INSTALL_HINT = """\
make_example.py needs:
  espeak-ng and sox   (Debian/Ubuntu: apt-get update && apt-get install -y espeak-ng sox)
  pocketsphinx >= 5   (pip install pocketsphinx; it bundles the en-us model)"""

# Slots are written in this order (others after them, alphabetically).
SLOT_ORDER = ["WHO", "AGAINST", "SCORE", "AMOUNT", "COUNT", "RATE", "CHANGE", "RANK", "DURATION", "DATE", "LOCATION"]


# --------------------------------------------------------------------------
# tools
# --------------------------------------------------------------------------


def check_tools(need_audio: bool = True) -> dict:
    missing = []
    if need_audio:
        for exe in ("espeak-ng", "sox"):
            if shutil.which(exe) is None:
                missing.append(exe)
    try:
        import pocketsphinx  # noqa: F401
    except ImportError:
        if need_audio:
            missing.append("pocketsphinx (Python package)")
    if missing:
        sys.exit("missing: " + ", ".join(missing) + "\n" + INSTALL_HINT)
    versions = {}
    if need_audio:
        out = subprocess.run(["espeak-ng", "--version"], check=False, capture_output=True, text=True).stdout
        m = re.search(r"text-to-speech:\s*(\S+)", out)
        versions["espeak-ng"] = m.group(1) if m else out.strip()
        out = subprocess.run(["sox", "--version"], check=False, capture_output=True, text=True).stdout
        versions["sox"] = out.strip().replace("sox:", "").strip()
        versions["pocketsphinx"] = importlib.metadata.version("pocketsphinx")
    return versions


# --------------------------------------------------------------------------
# stories and their markup
# --------------------------------------------------------------------------


@dataclasses.dataclass
class Group:
    """A number: written form in the reference, spoken form as said."""

    written: str
    spoken: str
    start: int = 0  # span of the written form in the story text
    end: int = 0
    fed_written: bool = False


@dataclasses.dataclass
class Story:
    docno: str
    text: str = ""  # written (reference) text
    tokens: list = dataclasses.field(default_factory=list)  # (word, start, end, group index or None)
    fills: list = dataclasses.field(default_factory=list)  # (slot, start, end)
    groups: list = dataclasses.field(default_factory=list)
    feed_parts: list = dataclasses.field(default_factory=list)  # plain str or Group


def read_stories(path: str) -> list[Story]:
    stories: list[Story] = []
    lines: list[str] = []
    docno = None

    def flush():
        if docno is not None:
            stories.append(parse_markup(docno, "\n".join(lines).strip("\n")))

    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if line.startswith("#"):
                continue
            if line.startswith("DOC "):
                flush()
                docno, lines = line[4:].strip(), []
            elif docno is not None and line.strip():
                lines.append(line.strip())
    flush()
    if not stories:
        sys.exit(f"{path}: no stories")
    return stories


def _strip_word(word: str, start: int):
    """Drop leading/trailing punctuation of a plain word; keep inner ' and -."""
    a, b = 0, len(word)
    while a < b and unicodedata.category(word[a]).startswith("P"):
        a += 1
    while b > a and unicodedata.category(word[b - 1]).startswith("P"):
        b -= 1
    return word[a:b], start + a, start + b


def parse_markup(docno: str, src: str) -> Story:
    st = Story(docno)
    out: list[str] = []  # written text being built
    pos = 0  # length of written text so far
    open_fill = None  # (slot, start)
    plain: list[str] = []  # pending plain chars (for tokenizing and feeding)
    plain_start = 0
    i = 0

    def flush_plain():
        nonlocal plain
        s = "".join(plain)
        if s:
            for m in re.finditer(r"\S+", s):
                w, a, b = _strip_word(m.group(), plain_start + m.start())
                # a hyphenated word is its parts (Crans-Montana is said `crans montana`)
                for part in re.finditer(r"[^-]+", w):
                    st.tokens.append((part.group().lower(), a + part.start(), a + part.end(), None))
            st.feed_parts.append(s)
        plain = []

    while i < len(src):
        c = src[i]
        if c == "[":
            m = re.match(r"\[([A-Za-z0-9_-]+) ", src[i:])
            if not m or open_fill:
                sys.exit(f"{docno}: bad or nested '[' at {src[i : i + 30]!r}")
            flush_plain()
            open_fill = (m.group(1).upper(), pos)
            i += m.end()
            plain_start = pos
        elif c == "]":
            if not open_fill:
                sys.exit(f"{docno}: ']' without '['")
            flush_plain()
            st.fills.append((open_fill[0], open_fill[1], pos))
            open_fill = None
            i += 1
            plain_start = pos
        elif c == "{":
            m = re.match(r"\{([^|{}]+)\|([^|{}]+)\}", src[i:])
            if not m:
                sys.exit(f"{docno}: bad number markup at {src[i : i + 30]!r}")
            flush_plain()
            g = Group(m.group(1), m.group(2).strip(), pos, pos + len(m.group(1)))
            gi = len(st.groups)
            st.groups.append(g)
            for w in g.spoken.lower().split():
                st.tokens.append((w, g.start, g.end, gi))
            st.feed_parts.append(g)
            out.append(g.written)
            pos = g.end
            i += m.end()
            plain_start = pos
        elif c in "}|":
            sys.exit(f"{docno}: stray {c!r}")
        else:
            plain.append(c)
            out.append(c)
            pos += 1
            i += 1
    flush_plain()
    if open_fill:
        sys.exit(f"{docno}: '[' not closed")
    st.text = "".join(out)
    # A fill must not cut through a number.
    for slot, a, b in st.fills:
        for g in st.groups:
            if g.start < b and a < g.end and not (a <= g.start and g.end <= b):
                sys.exit(f"{docno}: fill {slot} cuts the number {g.written!r}")
        if st.text[a:b] != st.text[a:b].strip() or a == b:
            sys.exit(f"{docno}: fill {slot} {st.text[a:b]!r} has blank ends")
    return st


# --------------------------------------------------------------------------
# speech: espeak-ng -> sox -> pocketsphinx
# --------------------------------------------------------------------------


def _phonemes(text: str, voice: str) -> str:
    out = subprocess.run(
        ["espeak-ng", "-v", voice, "-q", "-x", text], capture_output=True, text=True, check=True
    ).stdout
    # Compare phonemes, not prosody: drop stress, pause and word-boundary marks,
    # and two vowel variants espeak picks by context (O@/o@, 2i/i).
    out = re.sub(r"[',;_!\s]", "", out)
    return out.replace("O@", "o@").replace("2i", "i")


def decide_feed(stories: list[Story], voice: str) -> None:
    """Give espeak-ng the written form of a number when it says it exactly as
    the spoken form (e.g. 48, 2005, July 4th); else give it the spoken form
    (it reads 98-71 as 'ninety eight dash seventy one', $62 as 'dollar sixty two',
    1994 as 'nineteen hundred ninety four')."""
    for st in stories:
        for g in st.groups:
            g.fed_written = _phonemes(g.written, voice) == _phonemes(g.spoken, voice)


def feed_text(st: Story) -> str:
    parts = []
    for p in st.feed_parts:
        if isinstance(p, Group):
            parts.append(p.written if p.fed_written else p.spoken)
        else:
            parts.append(p)
    return "".join(parts).replace("\n", " ")


st_seconds: dict[str, float] = {}  # audio length per story, for the report


def synthesize_and_recognize(st: Story, voice: str, speed: int, tmp: str, decoder) -> str:
    raw = os.path.join(tmp, st.docno + ".espeak.wav")
    wav = os.path.join(tmp, st.docno + ".16k.wav")
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", raw, feed_text(st)], check=True)
    # -D: no dither (keeps the run repeatable); gain -n -1 avoids clipping in rate.
    subprocess.run(
        ["sox", "-D", "-V1", raw, "-c", "1", "-b", "16", wav, "gain", "-n", "-1", "rate", "16000"], check=True
    )
    with wave.open(wav, "rb") as w:
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (16000, 1, 2)
        pcm = w.readframes(w.getnframes())
        seconds = w.getnframes() / 16000
    decoder.start_utt()
    decoder.process_raw(pcm, full_utt=True)
    decoder.end_utt()
    hyp = decoder.hyp()
    words = hyp.hypstr.split() if hyp is not None else []
    st_seconds[st.docno] = seconds
    return " ".join(words).lower()


# --------------------------------------------------------------------------
# corpora
# --------------------------------------------------------------------------


def doc_head(docno: str) -> str:
    return f"<DOC>\n<DOCNO> {docno} </DOCNO>\n<TEXT>\n"


DOC_TAIL = "\n</TEXT>\n</DOC>\n"


def write_corpus(path: str, docs: list[tuple[str, str]]) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.writelines(doc_head(docno) + text + DOC_TAIL for docno, text in docs)


def read_asr_corpus(path: str) -> dict[str, str]:
    with open(path, encoding="utf-8") as f:
        data = f.read()
    docs = {}
    for m in re.finditer(r"<DOC>\n<DOCNO> (\S+) </DOCNO>\n<TEXT>\n(.*?)\n</TEXT>\n</DOC>\n", data, re.DOTALL):
        docs[m.group(1)] = m.group(2)
    return docs


# --------------------------------------------------------------------------
# word alignment (the costs of the spec, section 7.2)
# --------------------------------------------------------------------------


def _lev(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def _sub_cost(a: str, b: str) -> int:
    if a == b:
        return 0
    n = max(len(a), len(b))
    return 200 + (200 * _lev(a, b) * 2 + n) // (2 * n)  # round half up


def align(ref: list[str], hyp: list[str]) -> list[tuple]:
    """Minimum-cost alignment; returns columns (ref index|None, hyp index|None).
    Traceback from the end prefers deletion, then insertion, then diagonal."""
    n, m = len(ref), len(hyp)
    INF = float("inf")
    d = [[INF] * (m + 1) for _ in range(n + 1)]
    d[0][0] = 0
    for i in range(n + 1):
        for j in range(m + 1):
            if i == j == 0:
                continue
            best = INF
            if i and j:
                best = d[i - 1][j - 1] + _sub_cost(ref[i - 1], hyp[j - 1])
            if i:
                best = min(best, d[i - 1][j] + 300)
            if j:
                best = min(best, d[i][j - 1] + 300)
            d[i][j] = best
    cols = []
    i, j = n, m
    while i or j:
        if i and d[i][j] == d[i - 1][j] + 300:
            cols.append((i - 1, None))
            i -= 1
        elif j and d[i][j] == d[i][j - 1] + 300:
            cols.append((None, j - 1))
            j -= 1
        else:
            cols.append((i - 1, j - 1))
            i -= 1
            j -= 1
    cols.reverse()
    return cols


def wer_counts(ref: list[str], hyp: list[str], cols) -> dict:
    s = sum(1 for r, h in cols if r is not None and h is not None and ref[r] != hyp[h])
    dl = sum(1 for r, h in cols if h is None)
    ins = sum(1 for r, h in cols if r is None)
    return {"N": len(ref), "S": s, "D": dl, "I": ins}


# --------------------------------------------------------------------------
# templettes
# --------------------------------------------------------------------------


def _slot_key(slot: str):
    return (SLOT_ORDER.index(slot) if slot in SLOT_ORDER else len(SLOT_ORDER), slot)


def format_instances(docno: str, fills: list[tuple[str, str, int, int]], docno_extent: tuple[int, int]) -> str:
    """fills: (slot, content, start, end) with document-relative extents."""
    ev = f"<EVENT-{docno}-1>"
    out = [f"<TEMPLATE-{docno}-1> :=", f"    DOC_NR: {docno} ##{docno_extent[0]}#{docno_extent[1]}#"]
    by_slot: dict[str, list] = {}
    for slot, content, a, b in fills:
        by_slot.setdefault(slot, []).append((content, a, b))
    if by_slot:
        out.append(f"    EVENT: {ev}")
    out.append("")
    if by_slot:
        out.append(f"{ev} :=")
        for slot in sorted(by_slot, key=_slot_key):
            for k, (content, a, b) in enumerate(by_slot[slot]):
                assert '"' not in content and "\n" not in content
                head = f"    {slot}: " if k == 0 else " " * (len(slot) + 6)
                out.append(f'{head}"{content}" ##{a}#{b}#')
    return "\n".join(out).rstrip("\n") + "\n"


# --------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stories", default=os.path.join(HERE, "stories.txt"))
    ap.add_argument("--out", default=HERE, help="output directory (default: beside this script)")
    ap.add_argument(
        "--voice",
        default="en-us+f5",
        help="espeak-ng voice (default en-us+f5: pocketsphinx recognizes it much better than plain en-us)",
    )
    ap.add_argument("--speed", type=int, default=150, help="espeak-ng words per minute")
    ap.add_argument(
        "--asr-from", metavar="ASR.SGML", help="reuse this recognizer output instead of synthesizing and recognizing"
    )
    args = ap.parse_args()

    versions = check_tools(need_audio=args.asr_from is None)
    stories = read_stories(args.stories)
    os.makedirs(args.out, exist_ok=True)

    # 1. reference transcript
    write_corpus(os.path.join(args.out, "reference.sgml"), [(s.docno, s.text) for s in stories])

    # 2. speech and recognition
    if args.asr_from:
        old = read_asr_corpus(args.asr_from)
        asr = {s.docno: old[s.docno] for s in stories}
        for s in stories:
            for g in s.groups:
                g.fed_written = None
    else:
        from pocketsphinx import Decoder

        decide_feed(stories, args.voice)
        decoder = Decoder(samprate=16000, loglevel="FATAL")
        asr = {}
        with tempfile.TemporaryDirectory(prefix="asr_numbers_") as tmp:
            for s in stories:
                asr[s.docno] = synthesize_and_recognize(s, args.voice, args.speed, tmp, decoder)
                print(f"{s.docno}: {asr[s.docno]}", file=sys.stderr)
    write_corpus(os.path.join(args.out, "asr.sgml"), [(s.docno, asr[s.docno]) for s in stories])

    # 3./4. templettes
    ref_out = [
        "; Reference for the asr_numbers example (transcript: reference.sgml).",
        "; Offsets count from the '<' of each <DOC>. Made by make_example.py.",
        "",
    ]
    hyp_out = [
        "; Hypothesis of a perfect extractor on the recognizer output (asr.sgml):",
        "; each reference fill projected through a word alignment onto the",
        "; recognizer's words; offsets count from the '<' of each <DOC>.",
        "; Made by make_example.py.",
        "",
    ]
    report = []
    for s in stories:
        head = doc_head(s.docno)
        base = len(head)
        docno_ext = (len("<DOC>\n<DOCNO> "), len("<DOC>\n<DOCNO> ") + len(s.docno))
        ref_fills = [(slot, s.text[a:b], base + a, base + b) for slot, a, b in s.fills]
        ref_out.append(format_instances(s.docno, ref_fills, docno_ext))

        htext = asr[s.docno]
        htoks = [(m.group(), m.start(), m.end()) for m in re.finditer(r"\S+", htext)]
        rwords = [t[0] for t in s.tokens]
        hwords = [t[0] for t in htoks]
        cols = align(rwords, hwords)
        col_of_ref = {r: c for c, (r, h) in enumerate(cols) if r is not None}

        def project(a: int, b: int, s=s, cols=cols, col_of_ref=col_of_ref):
            """Hypothesis tokens aligned to the reference tokens inside [a, b)."""
            idx = [k for k, t in enumerate(s.tokens) if a <= t[1] and t[2] <= b]
            if not idx:
                return None
            c0, c1 = col_of_ref[idx[0]], col_of_ref[idx[-1]]
            hs = [cols[c][1] for c in range(c0, c1 + 1) if cols[c][1] is not None]
            return (hs[0], hs[-1]) if hs else None

        hyp_fills = []
        for slot, a, b in s.fills:
            p = project(a, b)
            if p is None:
                continue
            ha, hb = htoks[p[0]][1], htoks[p[1]][2]
            hyp_fills.append((slot, " ".join(htext[ha:hb].split()), base + ha, base + hb))
        hyp_out.append(format_instances(s.docno, hyp_fills, docno_ext))

        # what the recognizer did with each number
        numbers = []
        for gi, g in enumerate(s.groups):
            ks = [k for k, t in enumerate(s.tokens) if t[3] == gi]
            c0, c1 = col_of_ref[ks[0]], col_of_ref[ks[-1]]
            heard = " ".join(hwords[cols[c][1]] for c in range(c0, c1 + 1) if cols[c][1] is not None)
            numbers.append((g, heard))
        report.append((s, wer_counts(rwords, hwords, cols), numbers, ref_fills, hyp_fills))

    with open(os.path.join(args.out, "ref.tpl"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(ref_out))
    with open(os.path.join(args.out, "hyp.tpl"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(hyp_out))

    # 5. check every extent against the corpora
    verify(args.out)

    text = render_report(report, versions, args)
    print(text)
    if not args.asr_from:
        write_readme(os.path.join(args.out, "README.md"), text, versions, args)


def verify(out: str) -> None:
    """Every extent written must point at its content (hyp: up to whitespace)."""
    for tpl, corpus, exact in (("ref.tpl", "reference.sgml", True), ("hyp.tpl", "asr.sgml", False)):
        with open(os.path.join(out, corpus), encoding="utf-8") as f:
            data = f.read()
        docs = {}
        for m in re.finditer(r"<DOC>.*?</DOC>", data, re.DOTALL):
            docs[re.search(r"<DOCNO>\s*(\S+)\s*</DOCNO>", m.group()).group(1)] = m.group()
        docid = None
        with open(os.path.join(out, tpl), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                m = re.match(r"<[A-Z_]+-(.+)-\d+> :=", line)
                if m:
                    docid = m.group(1)
                    continue
                m = re.search(r'"(.*)" ##(\d+)#(\d+)#', line) or re.search(r":\s*(\S+) ##(\d+)#(\d+)#", line)
                if not m:
                    continue
                got = docs[docid][int(m.group(2)) : int(m.group(3))]
                want = m.group(1)
                ok = got == want if exact else " ".join(got.split()) == want
                if not ok:
                    sys.exit(f"{tpl}:{n}: extent gives {got!r}, content is {want!r}")


def render_report(report, versions, args) -> str:
    lines = []
    tot = {"N": 0, "S": 0, "D": 0, "I": 0}
    lines.append("| story | audio | words | sub | del | ins | WER |")
    lines.append("|---|---|---|---|---|---|---|")
    for s, w, _, _, _ in report:
        for k in tot:
            tot[k] += w[k]
        sec = f"{st_seconds[s.docno]:.1f} s" if s.docno in st_seconds else "?"
        lines.append(
            f"| {s.docno} | {sec} | {w['N']} | {w['S']} | {w['D']} | {w['I']} | "
            f"{100 * (w['S'] + w['D'] + w['I']) / w['N']:.0f}% |"
        )
    lines.append(
        f"| all | {sum(st_seconds.values()):.1f} s | {tot['N']} | {tot['S']} | {tot['D']} | {tot['I']} | "
        f"{100 * (tot['S'] + tot['D'] + tot['I']) / tot['N']:.0f}% |"
    )
    lines.append("")
    lines.append("| story | written | said | espeak-ng was given | recognized | right? |")
    lines.append("|---|---|---|---|---|---|")
    right = total = 0
    for s, _, numbers, _, _ in report:
        for g, heard in numbers:
            # letters said one by one are one word however they are spaced (`p m`, `pm`)
            ok = _letters_joined(heard) == _letters_joined(g.spoken.lower())
            right += ok
            total += 1
            fed = {True: "written", False: "spoken", None: "?"}[g.fed_written]
            lines.append(
                f"| {s.docno[-4:]} | `{g.written}` | {g.spoken} | {fed} | "
                f"{heard or '(nothing)'} | {'yes' if ok else 'no'} |"
            )
    lines.append("")
    lines.append(f"Numbers recognized exactly: {right} of {total}.")
    nref = sum(len(r[3]) for r in report)
    nhyp = sum(len(r[4]) for r in report)
    lines.append(
        f"Reference fills: {nref}; hypothesis fills kept: {nhyp} (dropped, words lost entirely: {nref - nhyp})."
    )
    return "\n".join(lines)


def _letters_joined(words: str) -> str:
    """``seven forty five p m`` -> ``seven forty five pm``: runs of one-letter words joined."""
    return re.sub(r"\b(\w)(?: (\w)\b)+", lambda m: m.group(0).replace(" ", ""), words)


def write_readme(path, results, versions, args) -> None:
    text = f"""# asr_numbers: numbers in real recognizer output

A small example made from real speech: six short broadcast-news stories full
of numbers (cardinals, years, ordinals, money, decimals, sports scores,
durations; the sixth with the forms real recognizer output showed next:
`34-year-old`, `Boeing 737`, `7:45 p.m.`, `$38.25`, `No. 1`, `N.C.A.A.`,
`9/11`, `Crans-Montana`), spoken by a speech synthesizer and recognized by a real speech
recognizer. The reference transcript writes numbers as a newspaper does
(`98-71`, `$3.5 million`, `July 4th`, `.47`); the recognizer writes what it heard
as lower-case words (`ninety eight to seventy one`). Scoring the hypothesis
templates against the reference ones therefore tests how the scorer treats
spoken and written forms of numbers on genuine recognition
errors, not hand-typed ones.

## Files

| file | what |
|---|---|
| `stories.txt` | the stories: written and spoken form of every number, reference fills marked |
| `reference.sgml` | reference transcript, one `<DOC>` per story, written forms |
| `asr.sgml` | raw recognizer output, segmented like the reference (same DOCNOs, a `<TEXT>` element), words exactly as pocketsphinx gave them |
| `ref.tpl` | reference templettes: a `TEMPLATE` per story pointing to one `EVENT` |
| `hyp.tpl` | hypothesis templettes of a *perfect extractor* on `asr.sgml` |
| `make_example.py` | regenerates all of the above |

Offsets are character offsets counted from the `<` of each `<DOC>`, end
exclusive. Slots of `EVENT`: WHO, AGAINST, SCORE, AMOUNT, COUNT,
RATE, CHANGE, RANK, DURATION, DATE, LOCATION (a slot may hold two fills);
`TEMPLATE` has DOC_NR (not scored) and the EVENT pointer.

## How it was made

```
apt-get install -y espeak-ng sox
pip install pocketsphinx
python3 make_example.py            # --voice, --speed, --out; --asr-from asr.sgml skips audio
```

1. `reference.sgml` and `ref.tpl` come from `stories.txt`; every extent is
   computed from the text, none is typed.
2. Each story is spoken by `espeak-ng -v {args.voice} -s {args.speed}`. A number is given to
   espeak-ng in its written form when espeak-ng pronounces that exactly like
   the spoken form (same phonemes from `espeak-ng -x`), otherwise in its spoken
   form: this espeak-ng reads `98-71` as "ninety eight dash seventy one",
   `$62` as "dollar sixty two", `1994` as "nineteen hundred ninety four",
   `.47` as "dot forty seven".
   The voice is the `f5` variant of espeak-ng's US English. Word error rates of
   pocketsphinx on the first five stories at 150 words a minute, by voice: `en-us`
   75%, `en-us+klatt` 53%, `en-us+klatt2` 51%, `en-us+f2` 44%, `en-us+f5` 38%
   (the default `en-us` turned the first story into "in college basketball hoop
   the north like a i really do but the one on saturday..."). Other voices:
   `make_example.py --voice en-us`.
3. `sox -D` converts to 16 kHz mono 16-bit (no dither, so a rerun gives the same
   audio); pocketsphinx's bundled US English model (acoustic model, CMU
   dictionary, `en-us.lm.bin`) decodes each story as one utterance. The audio
   is not kept.
4. `hyp.tpl`: the spoken rendering of each story (`forty eight` for `48`, each
   spoken word carrying the character span of its written number) is aligned
   with the recognizer's words by a minimum-cost word alignment with the costs
   of hub4eval's aligner. Each reference fill becomes the recognizer's words in the
   columns of its words (insertions between them included), content verbatim,
   extent in `asr.sgml`; a fill whose words were all deleted is dropped. This
   is the "ceiling" extractor (a perfect extractor on the recognizer output): every error it makes is the
   recognizer's (or the scorer's, if it cannot see that `forty eight` is `48`).

Tool versions: espeak-ng `{versions.get("espeak-ng", "?")}` (Debian package), sox `{versions.get("sox", "?")}`,
pocketsphinx `{versions.get("pocketsphinx", "?")}` (Python package, its bundled en-us model).

## What the recognizer did

Word error rate against the spoken rendering (numbers as words):

{results}

## Scoring

```
hub4eval check ref.tpl --text reference.sgml
hub4eval check hyp.tpl --text asr.sgml --hypothesis
hub4eval score ref.tpl hyp.tpl --ref-text reference.sgml --hyp-text asr.sgml
```

hub4eval brings spoken and written numbers to one form on both sides
(`--spoken-forms en`, the default; see docs/spoken-forms.md): every number
the recognizer got right, with the words around it in its fill, is correct in
content and in extent (`ninety eight to seventy one` against `98-71`,
`three point five million dollars` against `$3.5 million`, `boeing seven
thirty seven` against `Boeing 737`, `thirty eight dollars and twenty five
cents` against `$38.25`). F is 75.5 with it and 63.7 with `--spoken-forms
none`; the ceiling (the best any extractor can score on these words) is 77.2.
What is left is the recognizer's errors (`went to find` for `7-5`,
`nineteen ninety far` for `1994`, `loop` for `N.C.A.A.`).

## Caveats

- The speech is synthetic (espeak-ng, a formant synthesizer) and the acoustic
  model was trained on real speech, so the recognizer makes more, and
  stranger, errors than on broadcast audio; they are real recognizer errors
  all the same. The voice was chosen for the lowest word error rate among a
  dozen espeak-ng voices (above), on these very stories.
- The word error rate above is against the spoken rendering; the WER that
  hub4eval prints aligns the written reference after numbers are brought to
  one form, and it also counts the DOCNO words the recognizer never heard.
- Where the alignment has a tie, it follows hub4eval's tie rule
  (deletion, then insertion, then substitution, from the end): `twelve
  thousand` heard as `the whale thousand` aligns `the` to `twelve` and counts
  `whale` as an insertion, so the projected fill starts at `the`.
- Regenerating with other versions of espeak-ng or pocketsphinx (or another
  voice) gives other recognizer output; with the versions above a rerun gives
  byte-identical files.
"""
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


if __name__ == "__main__":
    main()
