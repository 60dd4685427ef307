#!/usr/bin/env python3
"""Regenerate tests/data/sclite/sclite_cases.json by running the real NIST sclite.

    python benchmarks/make_sclite_fixtures.py /path/to/sclite
        [--out tests/data/sclite/sclite_cases.json] [--sctk-commit HASH]

sclite is built from SCTK's own source with its stock makefiles (public
repository usnistgov/SCTK; the fixtures come from commit 9688a26): in
src/sclite, `sh config.sh` then `make sclite`. Nothing of SCTK is kept here.

Cases are generated deterministically (fixed seeds), written as sclite `trn`
files (`words (spk_utt)` per line), scored with

    sclite -r ref.trn trn -h hyp.trn trn -i rm -o sgml stdout -f 0

and sclite's SGML alignment (one `OP,"ref","hyp"` item per aligned word) is
parsed into per-utterance counts and an op string ("C", "S", "D", "I" per
aligned position, in order).  Only plain tokens are generated (lower-case
letters, digits and apostrophes), i.e. nothing sclite's trn reader treats
specially ("@", "{...}", "(...)", ":", trailing "*", leading ";;").
Group "case" uses mixed-case words: sclite's default is case-insensitive,
so its expectations hold for the lower-cased words.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

DEFAULT_SCTK_COMMIT = "9688a26882a688132a5e414cadcb4c19b6fffaba"

# ---------------------------------------------------------------- generators
COMMON = (
    "the a an and or but of to in on at for with from by about as into like "
    "through after over between out against during without before under "
    "around among i you he she it we they me him her us them my your his its "
    "our their this that these those is are was were be been being have has "
    "had do does did will would shall should can could may might must not no "
    "yes so very just also only then than now here there when where why how "
    "what which who all any both each few more most other some such own same "
    "too again once people time year day way man woman child world life hand "
    "part place case week company system program question work government "
    "number night point home water room mother area money story fact month "
    "lot right study book eye job word business issue side kind head house "
    "service friend father power hour game line end member law car city "
    "community name president team minute idea kid body information back "
    "parent face others level office door health person art war history party "
    "result change morning reason research girl guy moment air teacher force "
    "education say get make go know take see come think look want give use "
    "find tell ask seem feel try leave call good new first last long great "
    "little old big high different small large next early young important "
    "public bad able don't it's that's i'm we're they're can't won't "
    "one two three four five six seven eight nine ten hundred thousand"
).split()

CONFUSE = {
    "the": ["a", "that", "this"],
    "a": ["the", "uh", "an"],
    "and": ["in", "an", "then"],
    "in": ["and", "on", "an"],
    "to": ["two", "too", "the"],
    "two": ["to", "too"],
    "for": ["four", "from"],
    "four": ["for"],
    "their": ["there", "they're"],
    "there": ["their", "they're"],
    "it's": ["its", "is"],
    "its": ["it's"],
    "was": ["is", "were"],
    "were": ["where", "we're"],
    "we're": ["were"],
    "then": ["than", "when"],
    "than": ["then"],
    "would": ["could", "should"],
    "can": ["can't", "could"],
    "won't": ["want", "will"],
    "want": ["won't", "wanted"],
}
FILLERS = ["uh", "um", "the", "a", "and", "so", "you", "know", "i", "mean"]


def rand_words(rng: random.Random, vocab: list[str], n: int) -> list[str]:
    return [rng.choice(vocab) for _ in range(n)]


def corrupt(rng: random.Random, ref: list[str], p_sub: float, p_del: float, p_ins: float) -> list[str]:
    hyp: list[str] = []
    for w in ref:
        if rng.random() < p_ins:
            hyp.append(rng.choice(FILLERS + COMMON[:60]))
        x = rng.random()
        if x < p_del:
            continue
        if x < p_del + p_sub:
            alts = CONFUSE.get(w)
            if alts and rng.random() < 0.7:
                hyp.append(rng.choice(alts))
            else:
                hyp.append(rng.choice(COMMON))
        else:
            hyp.append(w)
    if rng.random() < p_ins:
        hyp.append(rng.choice(FILLERS))
    return hyp


def make_cases() -> list[dict]:
    cases: list[dict] = []

    def add(group: str, ref: list[str], hyp: list[str]):
        cases.append({"group": group, "ref": ref, "hyp": hyp})

    # edge cases
    add("edge", [], [])
    add("edge", [], ["hello"])
    add("edge", [], ["a", "b", "c"])
    add("edge", ["hello"], [])
    add("edge", ["a", "b", "c", "d"], [])
    add("edge", ["one"], ["one"])
    add("edge", ["one"], ["two"])
    add("edge", ["one"], ["one", "one"])
    add("edge", ["one"], ["two", "one"])
    add("edge", ["one"], ["two", "three"])
    add("edge", ["one", "two"], ["two"])
    add("edge", ["one", "two"], ["three"])
    add("edge", ["a", "a", "b"], ["a", "b", "a"])
    add("edge", ["a", "b"], ["b", "a"])
    add("edge", ["a", "b", "c"], ["c", "b", "a"])
    add("edge", ["x", "y"], ["y", "x", "y"])

    # exhaustive tiny cases over {a, b}: every ref/hyp with len <= 3
    import itertools

    seqs = [[]]
    for L in range(1, 4):
        seqs += [list(t) for t in itertools.product("ab", repeat=L)]
    for r in seqs:
        for h in seqs:
            if r or h:
                add("exhaustive_ab", r, h)

    rng = random.Random(20240611)
    # random small-vocabulary utterances: lots of equal-cost ties
    for _k in range(420):
        V = rng.choice(["ab", "abc", "abc", "abcd", "abcde"])
        n = rng.randint(0, 14)
        m = rng.randint(0, 14) if rng.random() < 0.5 else max(0, n + rng.randint(-3, 3))
        add("random_small_vocab", [rng.choice(V) for _ in range(n)], [rng.choice(V) for _ in range(m)])

    # realistic sentences with recognition-like errors
    for _k in range(160):
        n = rng.randint(3, 40)
        ref = rand_words(rng, COMMON, n)
        rate = rng.choice([0.05, 0.1, 0.2, 0.35, 0.6])
        hyp = corrupt(rng, ref, rate * 0.6, rate * 0.2, rate * 0.2)
        add("realistic", ref, hyp)

    # sclite default is case-insensitive: mixed-case words
    for _k in range(20):
        n = rng.randint(2, 12)
        ref = rand_words(rng, COMMON[:80], n)
        hyp = corrupt(rng, ref, 0.15, 0.05, 0.05)
        ref = [w.upper() if rng.random() < 0.3 else w.capitalize() if rng.random() < 0.3 else w for w in ref]
        hyp = [w.upper() if rng.random() < 0.3 else w.capitalize() if rng.random() < 0.3 else w for w in hyp]
        add("case", ref, hyp)

    # long utterances (~2000 words)
    ref = rand_words(rng, COMMON, 2000)
    add("long", ref, corrupt(rng, ref, 0.08, 0.03, 0.03))
    ref = rand_words(rng, COMMON, 2100)
    add("long", ref, corrupt(rng, ref, 0.2, 0.08, 0.06))
    ref = [rng.choice("abc") for _ in range(1800)]
    add("long", ref, corrupt_small(rng, ref, "abc", 0.25))
    ref = [rng.choice("ab") for _ in range(1500)]
    add("long", ref, [rng.choice("ab") for _ in range(1450)])
    return cases


def corrupt_small(rng: random.Random, ref: list[str], V: str, rate: float) -> list[str]:
    hyp: list[str] = []
    for w in ref:
        x = rng.random()
        if x < rate / 3:
            continue
        if x < 2 * rate / 3:
            hyp.append(rng.choice(V))
        else:
            hyp.append(w)
        if rng.random() < rate / 3:
            hyp.append(rng.choice(V))
    return hyp


# ---------------------------------------------------------------- sclite run
SCLITE_ARGS = ["-i", "rm", "-o", "sgml", "stdout", "-f", "0"]
ITEM_RE = re.compile(r'^([CSDI]),("(?:[^"]*)"|),("(?:[^"]*)"|)$')


def run_sclite(sclite: str, cases: list[dict], workdir: str) -> tuple[dict[str, list[tuple[str, str, str]]], list[str]]:
    ref_path = os.path.join(workdir, "ref.trn")
    hyp_path = os.path.join(workdir, "hyp.trn")
    with open(ref_path, "w") as fr, open(hyp_path, "w") as fh:
        for c in cases:
            fr.write(" ".join(c["ref"]) + " (" + c["id"] + ")\n")
            fh.write(" ".join(c["hyp"]) + " (" + c["id"] + ")\n")
    cmd = [sclite, "-r", ref_path, "trn", "-h", hyp_path, "trn"] + SCLITE_ARGS
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=workdir)
    if p.returncode != 0:
        raise SystemExit(f"sclite failed ({p.returncode}):\n{p.stderr}\n{p.stdout[:2000]}")
    paths: dict[str, list[tuple[str, str, str]]] = {}
    cur = None
    for line in p.stdout.splitlines():
        m = re.match(r'<PATH id="\(([^)]*)\)"', line)
        if m:
            cur = m.group(1)
            paths[cur] = []
            continue
        if line.startswith("</PATH>"):
            cur = None
            continue
        if cur is not None and line.strip():
            for item in line.strip().split(":"):
                mm = ITEM_RE.match(item)
                if not mm:
                    raise SystemExit(f"unparsable sgml item {item!r} in {cur}")
                paths[cur].append((mm.group(1), mm.group(2).strip('"'), mm.group(3).strip('"')))
    display = ["sclite"] + ["-r", "ref.trn", "trn", "-h", "hyp.trn", "trn"] + SCLITE_ARGS
    return paths, display


def sclite_version(sclite: str) -> str:
    p = subprocess.run([sclite], capture_output=True, text=True)
    for line in (p.stdout + p.stderr).splitlines():
        if "Version" in line:
            return line.strip()
    return "unknown"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sclite", help="path to the sclite executable")
    ap.add_argument(
        "--out",
        default=os.path.join(
            os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "data", "sclite", "sclite_cases.json"
        ),
    )
    ap.add_argument("--sctk-commit", default=DEFAULT_SCTK_COMMIT)
    args = ap.parse_args(argv)
    # sclite runs in a temporary folder: a relative path (or a name on the PATH) is made absolute here
    args.sclite = os.path.abspath(shutil.which(args.sclite) or args.sclite)

    cases = make_cases()
    for k, c in enumerate(cases):
        c["id"] = f"spk{k // 100:02d}_{k:05d}"
    with tempfile.TemporaryDirectory() as td:
        paths, display = run_sclite(args.sclite, cases, td)

    out_cases = []
    for c in cases:
        items = paths.get(c["id"].lower())
        if items is None:
            raise SystemExit(f"no sclite alignment for {c['id']}")
        ref_l = [w.lower() for w in c["ref"]]
        hyp_l = [w.lower() for w in c["hyp"]]
        ops = []
        i = j = 0
        for op, rw, hw in items:
            ops.append(op)
            if op in "CS":
                assert rw == ref_l[i] and hw == hyp_l[j], (c["id"], op, rw, hw)
                assert (rw == hw) == (op == "C"), (c["id"], op, rw, hw)
                i += 1
                j += 1
            elif op == "D":
                assert rw == ref_l[i] and hw == "", (c["id"], op, rw, hw)
                i += 1
            else:
                assert hw == hyp_l[j] and rw == "", (c["id"], op, rw, hw)
                j += 1
        assert i == len(ref_l) and j == len(hyp_l), c["id"]
        opstr = "".join(ops)
        out_cases.append(
            {
                "id": c["id"],
                "group": c["group"],
                "ref": " ".join(c["ref"]),
                "hyp": " ".join(c["hyp"]),
                "counts": [opstr.count("C"), opstr.count("S"), opstr.count("D"), opstr.count("I")],
                "ops": opstr,
            }
        )

    doc = {
        "description": "Per-utterance word alignments produced by NIST sclite (SCTK) for "
        "generated trn inputs. counts = [C, S, D, I]; ops = sclite's alignment, "
        "one letter per aligned position. ref/hyp are space-separated words. "
        "sclite compares case-insensitively by default: group 'case' expectations "
        "hold for lower-cased words.",
        "sclite_command": " ".join(display),
        "sclite_version": sclite_version(args.sclite),
        "sctk_repository": "https://github.com/usnistgov/SCTK",
        "sctk_commit": args.sctk_commit,
        "generator": "benchmarks/make_sclite_fixtures.py (deterministic seeds)",
        "cases": out_cases,
    }
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, separators=(",", ":"), ensure_ascii=False)
        f.write("\n")
    print(f"wrote {len(out_cases)} cases to {args.out} ({os.path.getsize(args.out)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
