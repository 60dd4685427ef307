"""Every bad input gets one clear line and exit 2 (or a warning and a score).

One test per row of ``docs/input-errors.md``: each case writes its files into
a fresh directory, runs the CLI there (so messages name the bare file names)
and checks the exit status, the exact one-line ``FILE:LINE:COL: message``
and that no traceback was printed.  Warnings must also be in the JSON under
``"warnings"``.  ``test_the_table_matches_the_code`` keeps the documentation
honest: every message below must appear in the table, word for word.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hub4eval.cli import app
from hub4eval.scoring.pipeline import RAW_OFFSETS
from tests.support import ROOT

DOC = ROOT / "docs" / "input-errors.md"
SAMPLE = ROOT / "examples" / "sample"

HAS_CORPUS = importlib.util.find_spec("hub4eval.io.corpus") is not None
needs_corpus = pytest.mark.skipif(not HAS_CORPUS, reason="hub4eval.io.corpus (text corpora) has not landed yet")

OK = "<T-D-1> :=\n  X: a\n"
SAMPLE_REF = (SAMPLE / "ref.tpl").read_text(encoding="utf-8")
SAMPLE_HYP = (SAMPLE / "hyp.tpl").read_text(encoding="utf-8")
SAMPLE_TEXT = (SAMPLE / "text.sgml").read_text(encoding="utf-8")


@dataclass
class Case:
    """One row of the table: files to write, CLI arguments, what must come out."""

    files: dict[str, str | bytes]
    args: list[str]
    message: str  # the exact line on stderr
    exit_code: int = 2
    setup: Callable[[Path], None] | None = field(default=None)

    @property
    def warning(self) -> bool:
        return self.exit_code == 0


def score(ref: str = "ref.tpl", hyp: str = "hyp.tpl", *more: str) -> list[str]:
    return ["score", ref, hyp, *more]


# ------------------------------------------------------------------ the rows

TEMPLATE_CASES: dict[str, Case] = {
    "syntax error": Case(
        {"ref.tpl": '<T-D-1> :=\n  X: "a" ##1#x#\n', "hyp.tpl": OK},
        score(),
        "ref.tpl:2:14: unexpected fill 'x#'; expected an integer offset or the end of the line "
        "(hint: an extent part is '##' then integers each followed by '#', e.g. ##10#20#)",
    ),
    "slot before any header": Case(
        {"ref.tpl": "  X: a\n<T-D-1> :=\n", "hyp.tpl": OK},
        score(),
        "ref.tpl:1:3: slot 'X' before any instance header "
        "(hint: start each instance with a header line such as <TYPE-DOCID-1> :=)",
    ),
    "header without :=": Case(
        {"ref.tpl": "<T-D-1>\n  X: a\n", "hyp.tpl": OK},
        score(),
        "ref.tpl:1:8: instance header <T-D-1> lacks ':=' (hint: write '<T-D-1> :='; without it the line "
        "reads as a pointer fill, and the slots below as slots of the instance before)",
    ),
    "unterminated quote": Case(
        {"ref.tpl": '<T-D-1> :=\n  X: "abc\n', "hyp.tpl": OK},
        score(),
        "ref.tpl:2:6: unterminated quoted fill (hint: end the content with '\"' on the same line)",
    ),
    "CR-only line ends": Case(
        {"ref.tpl": b'<T-D-1> :=\r  X: "a"\r', "hyp.tpl": OK},
        score(),
        "ref.tpl:1:11: unexpected character '\\r'; expected the end of the line "
        "(hint: one header, slot or fill per line; a line is a header '<TYPE-DOCID-N> :=', a slot 'NAME: fill', "
        "one more fill of that slot, '/ fill' to start another alternative, or a comment starting with ';')",
    ),
    "malformed pointer": Case(
        {"ref.tpl": "<T-D> :=\n  X: a\n", "hyp.tpl": OK},
        score(),
        "ref.tpl:1:1: malformed pointer <T-D> "
        "(hint: a pointer is <TYPE-DOCID-N>: a type, a document id and a number joined by hyphens)",
    ),
    "duplicate header": Case(
        {"ref.tpl": "<T-D-1> :=\n  X: a\n<T-D-1> :=\n  X: b\n", "hyp.tpl": OK},
        score(),
        "ref.tpl:3:1: duplicate instance header <T-D-1> "
        "(hint: the same header is already on line 1; renumber one of them)",
    ),
    "type name with a dot": Case(
        {"ref.tpl": '<.A-D-1> :=\n  X: "a"\n', "hyp.tpl": OK},
        score(),
        "ref.tpl:1:1: type name '.A' of <.A-D-1> contains '.' (hint: a type name has no '.': the outputs "
        "name a slot TYPE.SLOT, split at the dot; write the type with letters, digits and '_')",
    ),
    "duplicate slot": Case(
        {"ref.tpl": "<T-D-1> :=\n  X: a\n  X: b\n", "hyp.tpl": OK},
        score(),
        "ref.tpl:3:3: duplicate slot X in instance <T-D-1> "
        "(hint: the slot is already on line 2; put every fill of a slot under one name)",
    ),
    "dangling pointer": Case(
        {"ref.tpl": OK, "hyp.tpl": "<T-D-1> :=\n  X: <E-D-2>\n<E-D-1> :=\n  Y: a\n"},
        score(),
        "hyp.tpl:2:6: pointer <E-D-2> refers to no instance of this file (hint: did you mean <E-D-1> or <T-D-1>?)",
    ),
    "pointer into another instance set": Case(
        {"ref.tpl": OK, "hyp.tpl": "<T-D1-1> :=\n  EV: <E-D2-1>\n<E-D2-1> :=\n  Y: a\n"},
        score(),
        "hyp.tpl:2:7: pointer <E-D2-1> in <T-D1-1> points into the instance set of document D2, "
        "not into its own (D1) (hint: a pointer names an instance of the same document: write <TYPE-D1-N>)",
    ),
    "pointer-type cycle": Case(
        {"ref.tpl": "<A-D-1> :=\n  X: <B-D-1>\n<B-D-1> :=\n  Y: <A-D-1>\n", "hyp.tpl": OK},
        score(),
        "ref.tpl:4:6: instance types point to each other in a cycle (A -> B -> A); pointer points cannot "
        "be decided (hint: a type may only point to types that do not point back to it)",
    ),
    "slash in hypothesis": Case(
        {"ref.tpl": OK, "hyp.tpl": "<T-D-1> :=\n  X: a\n   / b\n"},
        score(),
        "hyp.tpl:3:4: '/' (a second fill-alternative) in hypothesis slot X (hint: a hypothesis slot has "
        "exactly one fill-alternative; list its fills one per line without '/')",
    ),
    "odd extent count": Case(
        {"ref.tpl": '<T-D-1> :=\n  X: "a" ##1#2#3#\n', "hyp.tpl": OK},
        score(),
        "ref.tpl:2:10: odd number of extent offsets (3) "
        "(hint: extents come in pairs: ##start#end# (more pairs for minimal extents))",
    ),
    "extent part without numbers": Case(
        {"ref.tpl": '<T-D-1> :=\n  X: "a" ##\n', "hyp.tpl": OK},
        score(),
        "ref.tpl:2:12: unexpected end of the line; expected an integer offset "
        "(hint: an extent part is '##' then integers each followed by '#', e.g. ##10#20#)",
    ),
    "negative extent": Case(
        {"ref.tpl": '<T-D-1> :=\n  X: "a" ##-1#2#\n', "hyp.tpl": OK},
        score(),
        "ref.tpl:2:12: negative extent offset -1 (hint: offsets count characters from 0 at the document's '<')",
    ),
    "reversed extent": Case(
        {"ref.tpl": OK, "hyp.tpl": '<T-D-1> :=\n  X: "a" ##5#2#\n'},
        score(),
        "hyp.tpl:2:12: reversed extent 5..2 (start after end) (hint: write the start offset first: ##start#end#)",
    ),
    "too many extents, no brackets": Case(
        {"ref.tpl": '<T-D-1> :=\n  X: "a" ##1#2#3#4#\n', "hyp.tpl": OK},
        score(),
        "ref.tpl:2:10: reference fill without [minimal] brackets has 2 extents; expected 1 "
        "(hint: mark the minimal strings with [...] or keep only the maximal extent)",
    ),
    "extent count vs bracket groups": Case(
        {"ref.tpl": '<T-D-1> :=\n  X: "a [b] c" ##1#5#1#2#3#4#\n', "hyp.tpl": OK},
        score(),
        "ref.tpl:2:16: reference fill with 1 bracket group has 3 extents; expected 1 or 2 (hint: give the "
        "maximal extent only, or the maximal extent followed by one extent per [...] group)",
    ),
    "nested brackets": Case(
        {"ref.tpl": '<T-D-1> :=\n  X: "a [b [c]]"\n', "hyp.tpl": OK},
        score(),
        "ref.tpl:2:12: nested '[' in reference content "
        "(hint: close the group opened at column 9 first; minimal strings do not nest)",
    ),
    "unmatched bracket": Case(
        {"ref.tpl": '<T-D-1> :=\n  X: "a b]"\n', "hyp.tpl": OK},
        score(),
        "ref.tpl:2:10: ']' without a matching '[' in reference content (hint: mark each minimal string as [text])",
    ),
    "empty minimal string": Case(
        {"ref.tpl": '<T-D-1> :=\n  X: "a []"\n', "hyp.tpl": OK},
        score(),
        "ref.tpl:2:10: empty minimal string '[]' in reference content "
        "(hint: put the minimal string between the brackets, or remove them)",
    ),
    "hypothesis fill with several extents": Case(
        {"ref.tpl": OK, "hyp.tpl": '<T-D-1> :=\n  X: "a" ##1#2#3#4#\n'},
        score(),
        "hyp.tpl:2:10: warning: hypothesis fill has 2 extents; only the first is used",
        exit_code=0,
    ),
    "? in hypothesis": Case(
        {"ref.tpl": OK, "hyp.tpl": '<T-D-1> :=\n  X: ? "a"\n'},
        score(),
        "hyp.tpl:2:6: warning: '?' (optional slot) means nothing in a hypothesis; ignored for X",
        exit_code=0,
    ),
    "empty hypothesis file": Case(
        {"ref.tpl": OK, "hyp.tpl": ""},
        score(),
        "hyp.tpl: warning: no instances in the file",
        exit_code=0,
    ),
    "empty reference file": Case(
        {"ref.tpl": "; only a comment\n\n", "hyp.tpl": OK},
        score(),
        "ref.tpl: warning: no instances in the file",
        exit_code=0,
    ),
    "hypothesis for other documents": Case(
        {"ref.tpl": OK, "hyp.tpl": "<T-E-1> :=\n  X: a\n"},
        score(),
        "hyp.tpl: warning: no DOCID of the hypothesis is in the reference (e.g. E vs D): every reference "
        "instance is missing and every hypothesis instance spurious",
        exit_code=0,
    ),
    "non-UTF-8 bytes": Case(
        {"ref.tpl": OK, "hyp.tpl": '<T-D-1> :=\n  X: "caf\u00e9"\n'.encode("latin-1")},
        score(),
        "hyp.tpl:2:10: byte 0xe9 at byte offset 20 is not valid utf-8 "
        "(hint: give the file's real encoding with --encoding (e.g. latin-1))",
    ),
    "text corpus given as a templette file": Case(
        {"ref.tpl": OK, "text.sgml": SAMPLE_TEXT},
        score("ref.tpl", "text.sgml"),
        "text.sgml:1:1: pointer <DOC> before any instance header (hint: this looks like a text corpus (SGML), "
        "not a templette file; give it with --ref-text or --hyp-text)",
    ),
    "missing file": Case(
        {"hyp.tpl": OK},
        score(),
        "ref.tpl: no such file (hint: check the path and the current directory)",
    ),
    "directory instead of a file": Case(
        {"ref.tpl": OK},
        score("ref.tpl", "."),
        ".: is a directory, not a file (hint: give the path of a file)",
    ),
}

OPTION_CASES: dict[str, Case] = {
    "two inputs from standard input": Case(
        {},
        score("-", "-"),
        "REF and HYP both read standard input ('-') (hint: standard input can be read once: give all but one of "
        "them as files)",
    ),
    "two outputs to standard output": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--json", "-", "--csv", "-"),
        "--json and --csv both write to standard output ('-') (hint: standard output holds one output: write the "
        "others to files)",
    ),
    "unknown --compare": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--compare", "words"),
        "invalid value for '--compare': 'words' is not one of 'both', 'content', 'extent' (hint: see hub4eval score --help)",
    ),
    "unknown --content": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--content", "dirty"),
        "invalid value for '--content': 'dirty' is not one of 'auto', 'clean', 'noisy' (hint: see hub4eval score --help)",
    ),
    "unknown --by": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--by", "slot"),
        "invalid value for '--by': 'slot' is not one of 'document', 'type' (hint: see hub4eval score --help)",
    ),
    "unknown --sort": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--by", "type", "--sort", "X"),
        "invalid value for '--sort': 'X' is not one of "
        "'f', 'rec', 'pre', 'und', 'ovg', 'sub', 'err', 'ser', 'pos', 'act', 'cor', 'inc', 'mis', 'spu', 'opt', 'rem' (hint: see hub4eval score --help)",
    ),
    "--beta not positive": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--beta", "0"),
        "--beta must be positive and finite, got 0.0 (hint: e.g. --beta 1)",
    ),
    "--beta infinite": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--beta", "inf"),
        "--beta must be positive and finite, got inf (hint: e.g. --beta 1)",
    ),
    "--spoken-element not an element name": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--spoken-element", "<TEXT>"),
        "--spoken-element '<TEXT>' is not an SGML element name "
        "(hint: give the name without brackets, e.g. --spoken-element TEXT)",
    ),
    "--min-map-f out of range": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--min-map-f", "1"),
        "--min-map-f must be in [0, 1), got 1.0",
    ),
    "unknown --encoding": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--encoding", "utf-9"),
        "ref.tpl: unknown text encoding 'utf-9' (hint: use a Python codec name such as utf-8 or latin-1)",
    ),
    "--encoding not a text encoding": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--encoding", "rot13"),
        "ref.tpl: 'rot13' is not a text encoding (hint: use a Python text codec name such as utf-8 or latin-1)",
    ),
    "--encoding that cannot decode the file": Case(
        {"ref.tpl": '<T-D-1> :=\n  X: "caf\u00e9"\n'.encode("latin-1"), "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--encoding", "punycode"),
        "ref.tpl: the file cannot be decoded as punycode "
        "(hint: give the file's real encoding with --encoding (e.g. utf-8 or latin-1))",
    ),
    "bad --doc-tag": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--doc-tag", "<DOC>"),
        "--doc-tag '<DOC>' is not an SGML element name (hint: give the name without brackets, e.g. --doc-tag DOC)",
    ),
    "--doc-tag equals --docno-tag": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--doc-tag", "DOC", "--docno-tag", "doc"),
        "--doc-tag and --docno-tag are both 'DOC' (hint: they name different elements)",
    ),
    "--hyp-text without --ref-text": Case(
        {"ref.tpl": OK, "hyp.tpl": OK, "hyp.sgml": "<DOC>\n<DOCNO> D </DOCNO>\na\n</DOC>\n"},
        score("ref.tpl", "hyp.tpl", "--hyp-text", "hyp.sgml"),
        "--hyp-text needs --ref-text (hint: give the reference text too)",
    ),
    "--unsegmented without --hyp-text": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--unsegmented"),
        "--unsegmented needs the hypothesis text (hint: add --hyp-text)",
    ),
    "unwritable --json": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--json", "no/such/dir/out.json"),
        "no/such/dir/out.json: cannot write the --json output: No such file or directory "
        "(hint: check that the directory exists and is writable)",
    ),
    "unwritable --csv": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--csv", "no/such/dir/out.csv"),
        "no/such/dir/out.csv: cannot write the --csv output: No such file or directory "
        "(hint: check that the directory exists and is writable)",
    ),
    "missing --glm file": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--glm", "en.glm"),
        "en.glm: cannot read the GLM file: No such file or directory (hint: give an existing mapping file, or --glm none)",
    ),
    "GLM rule without =>": Case(
        {"ref.tpl": OK, "hyp.tpl": OK, "bad.glm": ";; spelling\ncolour color\n"},
        score("ref.tpl", "hyp.tpl", "--glm", "bad.glm", "--content", "noisy"),
        "bad.glm:2:1: warning: a rule needs `=>`: rule skipped (write LHS => RHS / [ ] __ [ ])",
        exit_code=0,
    ),
    "GLM rule with an empty right-hand side": Case(
        {"ref.tpl": OK, "hyp.tpl": OK, "bad.glm": "colour => \n"},
        score("ref.tpl", "hyp.tpl", "--glm", "bad.glm", "--content", "noisy"),
        "bad.glm:1:10: warning: empty right-hand side: rule skipped (write the replacement, or @ to delete)",
        exit_code=0,
    ),
    "GLM rule with an alternation in its context": Case(
        {"ref.tpl": OK, "hyp.tpl": OK, "ctx.glm": "colour => color / [ { the / a } ] __ [ ]\n"},
        score("ref.tpl", "hyp.tpl", "--glm", "ctx.glm", "--content", "noisy"),
        "ctx.glm:1:21: warning: `{` in a context: rule skipped (write / [ ] __ [ ])",
        exit_code=0,
    ),
    "GLM header line that cannot be read": Case(
        {"ref.tpl": OK, "hyp.tpl": OK, "bad.glm": "* case_sensitive = 'maybe'\n"},
        score("ref.tpl", "hyp.tpl", "--glm", "bad.glm"),
        "bad.glm:1:21: expected 'T' or 'F', not 'maybe' (hint: header flags are 'T' (true) or 'F' (false))",
    ),
    "unknown --spoken-forms": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--spoken-forms", "klingon"),
        "unknown --spoken-forms value 'klingon' (hint: use en or none)",
    ),
    "--glm none with another file": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--glm", "none", "--glm", "default"),
        "--glm none cannot be combined with other mapping files (hint: give --glm none alone, or only files)",
    ),
    "an output that is an input": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--json", "ref.tpl"),
        "ref.tpl: the --json output is the input REF (ref.tpl); writing it would destroy that input "
        "(hint: write the output to another file)",
    ),
    "two outputs on one file": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--json", "out", "--csv", "out"),
        "out: --json and --csv both write to this file (hint: give each output its own file)",
    ),
    "an empty output path": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--csv", ""),
        "the --csv path is empty (hint: give the path of a file (or '-' for standard output))",
    ),
    "an empty --glm path": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        ["explain", "ref.tpl", "hyp.tpl", "--glm", ""],
        "the --glm path is empty (hint: give a mapping file, 'default' or 'none')",
    ),
    "negative --seed": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--bootstrap", "10", "--seed", "-1"),
        "--seed must be 0 or more, got -1 (hint: e.g. --seed 12345)",
    ),
    "too many --bootstrap resamples": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--bootstrap", "100000000000"),
        "--bootstrap 100,000,000,000 is more than 10,000,000 resamples: more change no interval at the "
        "precision printed and take hours (hint: e.g. --bootstrap 10000)",
    ),
    "a comma in --unscored-slot": Case(
        {"ref.tpl": OK, "hyp.tpl": OK},
        score("ref.tpl", "hyp.tpl", "--unscored-slot", "WINNER,LOSER"),
        "--unscored-slot 'WINNER,LOSER' is not a slot name (letters, digits, '_' and '-') "
        "(hint: repeat the option, one slot each: --unscored-slot WINNER --unscored-slot LOSER)",
    ),
    "GLM file that is not used": Case(
        {"ref.tpl": OK, "hyp.tpl": OK, "good.glm": "colour => color\n"},
        score("ref.tpl", "hyp.tpl", "--glm", "good.glm"),
        "good.glm: warning: --glm is not used: spelling normalization applies only when the texts "
        "differ (--hyp-text) or with --content noisy",
        exit_code=0,
    ),
}

DOCID = "PRI19980302.2000.2923"
ONE_DOC = f"<DOC>\n<DOCNO> {DOCID} </DOCNO>\n<TEXT>\nEgypt won.\n</TEXT>\n</DOC>\n"
ONE_DOC_TPL = f'<E-{DOCID}-1> :=\n  WINNER: "Egypt" ##52#57#\n'
assert ONE_DOC[52:57] == "Egypt"


def with_text(*more: str, ref: str = "ref.tpl", hyp: str = "hyp.tpl") -> list[str]:
    return ["score", ref, hyp, "--ref-text", "text.sgml", *more]


CORPUS_CASES: dict[str, Case] = {
    "DOCID not in the corpus": Case(
        {"ref.tpl": "<T-X-1> :=\n  X: a\n", "hyp.tpl": SAMPLE_HYP, "text.sgml": SAMPLE_TEXT},
        with_text(),
        "ref.tpl:1:1: document X (of <T-X-1>) is not in the text corpus text.sgml (hint: the corpus has 3 "
        "documents, e.g. ABC19980307.1830.1415; is this the right text file?)",
    ),
    "DOCID with a typo": Case(
        {
            "ref.tpl": SAMPLE_REF,
            "hyp.tpl": SAMPLE_HYP.replace("2923-1> :=", "2932-1> :=").replace("2923-1>\n", "2932-1>\n"),
            "text.sgml": SAMPLE_TEXT,
        },
        with_text(),
        "hyp.tpl:7:1: document PRI19980302.2000.2932 (of <TEMPLATE-PRI19980302.2000.2932-1>) is not in the text "
        "corpus text.sgml (hint: did you mean PRI19980302.2000.2923 or PRI19980317.2000.2025?)",
    ),
    "extent outside its document": Case(
        {"ref.tpl": SAMPLE_REF.replace("##332#337#", "##332#937#"), "hyp.tpl": SAMPLE_HYP, "text.sgml": SAMPLE_TEXT},
        with_text(),
        "ref.tpl:18:13: extent 332..937 of 'Egypt' lies outside document PRI19980302.2000.2923 (length 593) "
        "(hint: offsets count characters from 0 at the '<' of the document's opening tag)",
    ),
    "content does not match the text": Case(
        {
            "ref.tpl": SAMPLE_REF,
            "hyp.tpl": SAMPLE_HYP.replace('"Egypt" ##332#337#', '"Egypy" ##332#337#'),
            "text.sgml": SAMPLE_TEXT,
        },
        with_text(),
        "hyp.tpl:13:13: warning: content 'Egypy' does not match the text at 332..337: 'Egypt'",
        exit_code=0,
    ),
    "minimal string does not match the text": Case(
        {
            "ref.tpl": SAMPLE_REF.replace("##295#326#314#326#", "##295#326#313#325#"),
            "hyp.tpl": SAMPLE_HYP,
            "text.sgml": SAMPLE_TEXT,
        },
        with_text(),
        "ref.tpl:19:12: warning: minimal string 'south Africa' does not match the text at its minimal extent "
        "313..325: 'south Afric'",
        exit_code=0,
    ),
    "unsegmented reference text": Case(
        {"ref.tpl": OK, "hyp.tpl": OK, "text.sgml": "egypt won the cup\n"},
        with_text(),
        "text.sgml:1:1: the reference text has no document tags; reference offsets count from each document's "
        "opening tag (hint: is this the hypothesis (ASR) text? give it with --hyp-text; or set "
        "--doc-tag/--docno-tag)",
    ),
    "empty reference text": Case(
        {"ref.tpl": OK, "hyp.tpl": OK, "text.sgml": "\n"},
        with_text(),
        "text.sgml:1:1: the reference text is empty (hint: give the reference corpus with --ref-text)",
    ),
    "hypothesis text of other documents": Case(
        {
            "ref.tpl": ONE_DOC_TPL,
            "hyp.tpl": ONE_DOC_TPL,
            "text.sgml": ONE_DOC,
            "hyp.sgml": ONE_DOC.replace(DOCID, "OTHER"),
        },
        with_text("--hyp-text", "hyp.sgml"),
        "hyp.sgml:1: no document of the hypothesis text is in the reference text text.sgml (e.g. OTHER vs "
        f"{DOCID}) (hint: check that --ref-text and --hyp-text belong to the same documents; give "
        "--unsegmented to align by words instead of DOCNO)",
    ),
    "hypothesis text lacks a document": Case(
        {
            "ref.tpl": ONE_DOC_TPL,
            "hyp.tpl": ONE_DOC_TPL,
            "text.sgml": ONE_DOC + ONE_DOC.replace(DOCID, "D2"),
            "hyp.sgml": ONE_DOC.replace("won", "one"),
        },
        with_text("--hyp-text", "hyp.sgml"),
        "text.sgml: warning: document D2 of the reference text is not in the hypothesis text",
        exit_code=0,
    ),
    "duplicate DOCNO": Case(
        {
            "ref.tpl": SAMPLE_REF,
            "hyp.tpl": SAMPLE_HYP,
            "text.sgml": SAMPLE_TEXT + SAMPLE_TEXT[: SAMPLE_TEXT.index("</DOC>") + 7],
        },
        with_text(),
        "text.sgml:72:1: duplicate DOCNO ABC19980307.1830.1415 (first at line 2) "
        "(hint: every document of a corpus needs its own identifier)",
    ),
    "document without DOCNO": Case(
        {
            "ref.tpl": SAMPLE_REF,
            "hyp.tpl": SAMPLE_HYP,
            "text.sgml": SAMPLE_TEXT.replace("<DOCNO> ABC19980307.1830.1415 </DOCNO>", ""),
        },
        with_text(),
        "text.sgml:1:1: document has no <DOCNO> element "
        "(hint: every document needs <DOCNO> ID </DOCNO> (or set --docno-tag))",
    ),
    "empty DOCNO": Case(
        {
            "ref.tpl": SAMPLE_REF,
            "hyp.tpl": SAMPLE_HYP,
            "text.sgml": SAMPLE_TEXT.replace("<DOCNO> ABC19980307.1830.1415 </DOCNO>", "<DOCNO>  </DOCNO>"),
        },
        with_text(),
        "text.sgml:2:1: empty <DOCNO> element (hint: the identifier is the element's non-blank characters)",
    ),
    "two DOCNOs in a document": Case(
        {
            "ref.tpl": SAMPLE_REF,
            "hyp.tpl": SAMPLE_HYP,
            "text.sgml": SAMPLE_TEXT.replace("1415 </DOCNO>", "1415 </DOCNO><DOCNO> X </DOCNO>"),
        },
        with_text(),
        "text.sgml:2:39: document has two <DOCNO> elements (hint: a document has exactly one identifier)",
    ),
    "unclosed DOCNO": Case(
        {"ref.tpl": SAMPLE_REF, "hyp.tpl": SAMPLE_HYP, "text.sgml": SAMPLE_TEXT.replace("1415 </DOCNO>", "1415")},
        with_text(),
        "text.sgml:2:1: <DOCNO> element is not closed (hint: write <DOCNO> ID </DOCNO>)",
    ),
    "unclosed document": Case(
        {"ref.tpl": SAMPLE_REF, "hyp.tpl": SAMPLE_HYP, "text.sgml": SAMPLE_TEXT[: SAMPLE_TEXT.rindex("</DOC>")]},
        with_text(),
        "text.sgml:44:1: document <DOC> is not closed (hint: add </DOC> at the end of the document)",
    ),
    "document opened inside a document": Case(
        {
            "ref.tpl": SAMPLE_REF,
            "hyp.tpl": SAMPLE_HYP,
            "text.sgml": SAMPLE_TEXT.replace("</DOC>\n<DOC>\n<DOCNO> PRI19980302", "<DOC>\n<DOCNO> PRI19980302", 1),
        },
        with_text(),
        "text.sgml:24:1: <DOC> opened before the document opened at line 1 is closed "
        "(hint: close every document with </DOC>)",
    ),
    "stray closing tag": Case(
        {"ref.tpl": SAMPLE_REF, "hyp.tpl": SAMPLE_HYP, "text.sgml": "</DOC>\n" + SAMPLE_TEXT},
        with_text(),
        "text.sgml:1:1: </DOC> without an open document (hint: every </DOC> closes an earlier <DOC>)",
    ),
    "unclosed tag": Case(
        {
            "ref.tpl": SAMPLE_REF,
            "hyp.tpl": SAMPLE_HYP,
            "text.sgml": SAMPLE_TEXT.replace("Egypt has won", "Egypt < has won"),
        },
        with_text(),
        "text.sgml:32:15: '<' opens a tag that is never closed with '>' (hint: SGML tags look like <NAME> or "
        "</NAME>; a literal '<' in text must be escaped as &lt;)",
    ),
    "unclosed non-extractable element": Case(
        {
            "ref.tpl": SAMPLE_REF,
            "hyp.tpl": SAMPLE_HYP,
            "text.sgml": SAMPLE_TEXT.replace("<ANNOTATION>  (on camera)  </ANNOTATION>", "<ANNOTATION>  (on camera)"),
        },
        with_text(),
        "text.sgml:15:1: <ANNOTATION> element is not closed (hint: add </ANNOTATION> before the end of its document)",
    ),
    "spoken element not closed": Case(
        {"ref.tpl": SAMPLE_REF, "hyp.tpl": SAMPLE_HYP, "text.sgml": SAMPLE_TEXT.replace("</TEXT>", "", 1)},
        with_text(),
        "text.sgml:6:1: <TEXT> element is not closed (hint: add </TEXT> after the spoken text of the document)",
    ),
    "stray closing tag of the spoken element": Case(
        {"ref.tpl": SAMPLE_REF, "hyp.tpl": SAMPLE_HYP, "text.sgml": SAMPLE_TEXT.replace("<TEXT>", "", 1)},
        with_text(),
        "text.sgml:21:1: </TEXT> without an open <TEXT> "
        "(hint: every </TEXT> closes an earlier <TEXT> (the spoken text of the document))",
    ),
    "stray closing tag of a non-extractable element": Case(
        {
            "ref.tpl": SAMPLE_REF,
            "hyp.tpl": SAMPLE_HYP,
            "text.sgml": SAMPLE_TEXT.replace("<ANNOTATION>  (on camera)", "<ANOTATION>  (on camera)"),
        },
        with_text(),
        "text.sgml:15:27: </ANNOTATION> without an open <ANNOTATION> (hint: check the spelling of the opening "
        "<ANNOTATION> tag: without it the element's content would be read as text)",
    ),
    "non-UTF-8 text": Case(
        {
            "ref.tpl": SAMPLE_REF,
            "hyp.tpl": SAMPLE_HYP,
            "text.sgml": SAMPLE_TEXT.replace("Egypt has", "\u00c9gypt has").encode("latin-1"),
        },
        with_text(),
        "text.sgml:32:9: byte 0xc9 at byte offset 896 is not valid utf-8 "
        "(hint: give the file's real encoding with --encoding (e.g. latin-1))",
    ),
    "text outside any document": Case(
        {"ref.tpl": SAMPLE_REF, "hyp.tpl": SAMPLE_HYP, "text.sgml": "junk\n" + SAMPLE_TEXT},
        with_text(),
        "text.sgml:1:1: warning: text outside any document is ignored",
        exit_code=0,
    ),
    "empty hypothesis text": Case(
        {"ref.tpl": ONE_DOC_TPL, "hyp.tpl": OK, "text.sgml": ONE_DOC, "hyp.sgml": ""},
        with_text("--hyp-text", "hyp.sgml"),
        "hyp.sgml: warning: the hypothesis text is empty: every reference word is deleted",
        exit_code=0,
    ),
}

FORMAT_CASES: dict[str, Case] = {
    "ctm line with a missing field": Case(
        {"hyp.ctm": "rec1 1 0.00 0.30 in\nrec1 1 0.30 soccer\n"},
        ["text", "hyp.ctm"],
        "hyp.ctm:2:19: a ctm line has 5 or 6 fields, found 4 "
        "(hint: a line reads FILE CHANNEL BEGIN DURATION WORD [CONFIDENCE], separated by blanks)",
    ),
    "ctm time that is not a number": Case(
        {"hyp.ctm": "rec1 1 0,30 0.30 in\n"},
        ["text", "hyp.ctm"],
        "hyp.ctm:1:8: BEGIN time '0,30' is not a number "
        "(hint: a line reads FILE CHANNEL BEGIN DURATION WORD [CONFIDENCE])",
    ),
    "two recordings with one name": Case(
        {"hyp.ctm": "a 1 0 1 hello\na 2 0 1 world\na-1 1 0 1 other\n"},
        ["text", "hyp.ctm"],
        "hyp.ctm:3:1: two recordings would both be document a-1: FILE a CHANNEL 1 (line 1) and FILE a-1 "
        "CHANNEL 1 (line 3) (hint: a recording on several channels is named FILE-CHANNEL; rename one of the "
        "two recordings)",
    ),
    "NUL byte in a line format": Case(
        {"hyp.stm": "rec\x001 1 spk1 0.0 1.0 in soccer\n"},
        ["text", "hyp.stm"],
        "hyp.stm:1:4: a NUL byte (\\x00) in a stm file (hint: is this a text file? remove the NUL bytes, "
        "or give the right file)",
    ),
    "trn line without its id": Case(
        {"ref.trn": "in soccer (s1)\n", "hyp.trn": "in soccer\n"},
        ["align", "ref.trn", "hyp.trn"],
        "hyp.trn:1:10: a trn line ends with its utterance id in parentheses "
        "(hint: write the words, then the id: 'the words here (speaker1-utt001)')",
    ),
    "trn id that comes back": Case(
        {"ref.trn": "a (s1)\nb (s2)\nc (s1)\n"},
        ["text", "ref.trn"],
        "ref.trn:3:3: utterance id s1 comes back after other ids (first at line 1) "
        "(hint: keep the lines of one utterance together, or give each its own id)",
    ),
    "stm segment ending before it begins": Case(
        {"ref.stm": "rec1 1 spk1 2.0 1.0 in soccer\n"},
        ["text", "ref.stm"],
        "ref.stm:1:17: segment ends (1.0) before it begins (2.0) "
        "(hint: END is the time the segment ends, not its duration)",
    ),
    "unknown text format": Case(
        {"ref.trn": "a (s1)\n"},
        ["text", "ref.trn", "--text-format", "ctn"],
        "invalid value for '--text-format': 'ctn' is not one of 'sgml', 'ctm', 'trn', 'stm', 'txt' "
        "(hint: see hub4eval text --help)",
    ),
}

ALL_CASES = {**TEMPLATE_CASES, **OPTION_CASES, **CORPUS_CASES, **FORMAT_CASES}


# ------------------------------------------------------------------ running


def write_files(directory: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = directory / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def run_case(case: Case, directory: Path, monkeypatch: pytest.MonkeyPatch, extra: list[str] = ()):  # type: ignore[assignment]
    write_files(directory, case.files)
    if case.setup is not None:
        case.setup(directory)
    monkeypatch.chdir(directory)
    return CliRunner().invoke(app, [*case.args, *extra])


def assert_one_line(case: Case, result) -> None:  # noqa: ANN001
    assert result.exit_code == case.exit_code, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    if case.warning:
        assert case.message in lines, result.stderr
    else:
        assert lines == [case.message], result.stderr
        assert result.stdout == ""


def corpus_marks(names):
    return [pytest.param(name, marks=needs_corpus) if name in CORPUS_CASES else name for name in names]


@pytest.mark.parametrize("name", corpus_marks(ALL_CASES))
def test_row(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    case = ALL_CASES[name]
    result = run_case(case, tmp_path, monkeypatch)
    assert_one_line(case, result)


@pytest.mark.parametrize("name", corpus_marks(name for name, case in ALL_CASES.items() if case.warning))
def test_warnings_are_in_the_json(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    case = ALL_CASES[name]
    result = run_case(case, tmp_path, monkeypatch, ["--json", "-"])
    assert result.exit_code == 0, result.output
    assert case.message in json.loads(result.stdout)["warnings"]
    assert case.message in result.stderr.splitlines()


@pytest.mark.parametrize("name", corpus_marks(name for name, case in ALL_CASES.items() if case.warning))
def test_quiet_hides_warnings_but_keeps_them_in_the_json(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = ALL_CASES[name]
    result = run_case(case, tmp_path, monkeypatch, ["--quiet", "--json", "-"])
    assert result.exit_code == 0, result.output
    warnings = json.loads(result.stdout)["warnings"]
    assert case.message in warnings
    # --quiet keeps only the warnings that change what the score means (a set-up mistake)
    assert bool(result.stderr) == (name in CHANGES_THE_SCORE), result.stderr
    assert all(line in warnings for line in result.stderr.splitlines())


# The warnings --quiet keeps: the score would mean something else than the user thinks.
CHANGES_THE_SCORE = {
    "hypothesis for other documents",  # no DOCID in common: everything missing and spurious
    "content does not match the text",  # the count of fills that do not fit their text
    "hypothesis text lacks a document",  # its reference instances all missing
    "empty hypothesis text",
}


def test_encoding_option_reads_the_latin1_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fix the non-UTF-8 message suggests works."""
    case = TEMPLATE_CASES["non-UTF-8 bytes"]
    result = run_case(case, tmp_path, monkeypatch, ["--encoding", "latin-1", "--json", "-"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["summary"]["INC"] == 1  # 'a' vs 'café'


def test_bad_number_for_an_option_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """typer's own checks: exit 2, a message naming the option, no traceback."""
    write_files(tmp_path, {"ref.tpl": OK, "hyp.tpl": OK})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["score", "ref.tpl", "hyp.tpl", "--beta", "abc"])
    assert result.exit_code == 2
    assert result.stderr.startswith("invalid value for '--beta': ") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name", ["duplicate slot", "slash in hypothesis", "reversed extent", "non-UTF-8 bytes"])
def test_check_command_gives_the_same_line(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`hub4eval check` on the bad file reports exactly what `score` reports."""
    case = TEMPLATE_CASES[name]
    bad = case.message.split(":", 1)[0]
    role = "--hypothesis" if bad == "hyp.tpl" else "--reference"
    result = run_case(Case(case.files, ["check", bad, role], case.message), tmp_path, monkeypatch)
    assert_one_line(Case(case.files, [], case.message), result)


# ---------------------------------------------------------- huge files


def _limit_memory() -> None:  # runs in the child before exec
    import resource

    limit = 2 * 2**30
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


HUGE_MESSAGE = (
    "huge.tpl: the file is too large to read into memory (8,589,934,592 bytes) "
    "(hint: check that this is the right file; score a large corpus in parts)"
)


@pytest.mark.skipif(sys.platform != "linux", reason="needs RLIMIT_AS and sparse files")
@pytest.mark.parametrize("command", [["score", "huge.tpl", "ok.tpl"], ["check", "huge.tpl"]])
def test_huge_file_is_one_line_not_a_memory_error(command: list[str], tmp_path: Path) -> None:
    """A file far larger than memory (a sparse 8 GiB file, memory capped at 2 GiB)."""
    with open(tmp_path / "huge.tpl", "wb") as handle:
        handle.truncate(8 * 2**30)
    (tmp_path / "ok.tpl").write_text(OK, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "hub4eval", *command],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        preexec_fn=_limit_memory,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [HUGE_MESSAGE]
    assert "Traceback" not in proc.stderr


def test_large_file_is_scored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Large but sane inputs are not refused: 2,000 instances, one 1 MB fill line."""
    blocks = [f'<E-D{d}-1> :=\n  WINNER: "egypt" ##{d}#{d + 5}#\n' for d in range(2000)]
    blocks.append('<E-LONG-1> :=\n  WINNER: "' + "a" * 1_000_000 + '"\n')
    write_files(tmp_path, {"ref.tpl": "".join(blocks), "hyp.tpl": "".join(blocks)})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["score", "ref.tpl", "hyp.tpl", "--json", "-"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)["summary"]
    assert summary["POS"] == summary["COR"] == 2001 * 2 - 1  # the long fill has no extent


# ------------------------------------------------ numbers too long to be offsets


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('<T-D-1> :=\n  X: "a" ##1#' + "9" * 5000 + "#\n", 2),  # an extent offset
        ("<T-D-" + "9" * 5000 + "> :=\n  X: a\n", 1),  # a one-up number
    ],
    ids=["extent offset", "one-up number"],
)
def test_absurdly_long_number_is_a_positioned_error(
    text: str, line: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = Case({"ref.tpl": text, "hyp.tpl": OK}, score(), "")
    result = run_case(case, tmp_path, monkeypatch)
    assert result.exit_code == 2, result.output
    assert re.match(rf"ref\.tpl:{line}:\d+: (extent offset|one-up number) has 5000 digits; at most 18", result.stderr)


def test_internal_error_is_one_line_and_exit_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug (here: simulated in the scoring call) is exit 1 and one line, never a traceback, never exit 2."""
    import hub4eval.api

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(hub4eval.api, "score_files", broken)
    case = Case({"ref.tpl": OK, "hyp.tpl": OK}, score(), "")
    result = run_case(case, tmp_path, monkeypatch)
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.startswith("hub4eval: internal error: ")
    assert "HUB4EVAL_DEBUG=1" in line


# -------------------------------------------------------- real subprocesses


def run_module(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hub4eval", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["duplicate header", "non-UTF-8 bytes", "unknown --compare", "GLM header line that cannot be read"]
)
def test_subprocess_error_is_one_line(name: str, tmp_path: Path) -> None:
    case = ALL_CASES[name]
    write_files(tmp_path, case.files)
    proc = run_module(*case.args, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [case.message]
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr


def test_subprocess_warning_is_printed_and_scored(tmp_path: Path) -> None:
    case = ALL_CASES["hypothesis fill with several extents"]
    write_files(tmp_path, case.files)
    proc = run_module(*case.args, "--json", "-", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    # then the note that no texts were given (the templettes carry extents)
    assert proc.stderr.splitlines() == [case.message, str(RAW_OFFSETS)]
    assert json.loads(proc.stdout)["warnings"] == [case.message, str(RAW_OFFSETS)]


def test_subprocess_internal_error_shows_traceback_only_when_asked(tmp_path: Path) -> None:
    write_files(tmp_path, {"ref.tpl": OK, "hyp.tpl": OK})
    # a simulated bug inside the scoring call, in a real process
    program = (
        "import sys, hub4eval.api as api\n"
        "def broken(*a, **k): raise ZeroDivisionError('simulated bug')\n"
        "api.score_files = broken\n"
        "from hub4eval.cli import main\n"
        "sys.argv = ['hub4eval', 'score', 'ref.tpl', 'hyp.tpl']\n"
        "main()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("HUB4EVAL_DEBUG", None)
    quiet = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, cwd=tmp_path, check=False, env=env
    )
    assert quiet.returncode == 1 and "Traceback" not in quiet.stderr
    assert quiet.stderr.startswith("hub4eval: internal error: ZeroDivisionError: simulated bug")
    debug = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
        env={**env, "HUB4EVAL_DEBUG": "1"},
    )
    assert debug.returncode == 1 and "Traceback" in debug.stderr


# ------------------------------------------------------- the documentation


def _documented_messages() -> str:
    return DOC.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", list(ALL_CASES))
def test_the_table_matches_the_code(name: str) -> None:
    """Each exact message is in docs/input-errors.md (as `code`, `|` escaped)."""
    message = ALL_CASES[name].message.replace("|", "\\|")
    assert f"`{message}`" in _documented_messages() or f"``{message}``" in _documented_messages(), name


def test_the_huge_file_row_matches_the_code() -> None:
    assert f"`{HUGE_MESSAGE}`" in _documented_messages()


OUT_OF_MEMORY = (
    "out of memory: the input files are too large for this machine "
    "(hint: check that the right files were given; score a large corpus in parts)"
)


def test_out_of_memory_while_scoring_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory running out after the files were read (in the mapping, say)."""
    import hub4eval.api

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(hub4eval.api, "score", exhausted)
    result = run_case(Case({"ref.tpl": OK, "hyp.tpl": OK}, score(), OUT_OF_MEMORY), tmp_path, monkeypatch)
    assert_one_line(Case({}, [], OUT_OF_MEMORY), result)
    assert OUT_OF_MEMORY in " ".join(_documented_messages().split())


def test_unsegmented_option_aligns_texts_of_other_documents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hint of "hypothesis text of other documents" works: --unsegmented aligns by words."""
    case = CORPUS_CASES["hypothesis text of other documents"]
    other = case.files["hyp.sgml"]
    assert isinstance(other, str) and other[36:41] == "Egypt"  # offsets from the start of the file
    files = {**case.files, "hyp.tpl": ONE_DOC_TPL.replace("##52#57#", "##36#41#")}
    result = run_case(Case(files, case.args, ""), tmp_path, monkeypatch, ["--unsegmented", "--json", "-"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["summary"]["COR"] == 2


def test_every_row_of_the_table_is_a_test_case() -> None:
    """The other direction: each message in the table comes from a case above."""
    known = {case.message for case in ALL_CASES.values()} | {HUGE_MESSAGE}
    rows = [line for line in _documented_messages().splitlines() if line.startswith("| ") and "`" in line]
    assert len(rows) >= len(ALL_CASES)
    for row in rows:
        cell = row.rstrip().rstrip("|").rstrip().rsplit(" | ", 1)[1]
        message = cell.strip("`").replace("\\|", "|")
        assert message in known, f"row without a test case: {row[:100]}"


@pytest.mark.parametrize(
    "args",
    [
        ["score", "ref.tpl", "hyp.tpl", "--json", "no/such/dir/out.json"],
        ["score", "ref.tpl", "hyp.tpl", "--html", "."],
        ["score", "ref.tpl", "hyp.tpl", "--csv", "no/out.csv", "--json", "out.json"],
        ["compare", "ref.tpl", "hyp.tpl", "hyp.tpl", "--json", "no/such/dir/c.json"],
    ],
)
def test_an_unwritable_output_is_reported_before_scoring(args, tmp_path, monkeypatch):
    """A long evaluation must not end on a typo in an output path: the path is checked first,
    and nothing is scored (the scorer would fail this test if it ran)."""
    import hub4eval.api

    def no_scoring(*args, **kwargs):
        raise AssertionError("scored before the output path was checked")

    monkeypatch.setattr(hub4eval.api, "score_files", no_scoring)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ref.tpl").write_text(OK, encoding="utf-8")
    (tmp_path / "hyp.tpl").write_text(OK, encoding="utf-8")
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "cannot write the" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out.json").exists()
