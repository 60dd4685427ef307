"""Mutation testing of the scoring core (issue #21): do the tests notice a small change?

Each *mutant* is the package with one small change to one module: a comparison
operator (``<`` -> ``<=``, ``==`` -> ``!=``, ``in`` -> ``not in``, ...), an
arithmetic operator (``+`` -> ``-``, ``*`` -> ``/``, ...), ``and`` <-> ``or``,
a ``not`` removed, a condition negated (``if``, ``while``, conditional
expressions, comprehension filters), a unary minus removed, a constant changed
(0 -> 1, 1 -> 0, n -> n + 1, ``True`` <-> ``False``, a point category such as
``"COR"`` -> ``"INC"``, a short word-like string ``"ok"`` -> ``"okX"``).
Docstrings, type annotations, ``assert`` statements and the text of messages
(strings with spaces, f-strings) are not mutated.

A mutant is *killed* when its module's test subset fails or runs past the
timeout; it *survives* when every test passes. The score of a module is
killed / (mutants - equivalent), where the equivalent survivors are listed,
each with the reason, in ``EQUIVALENT`` below and in docs/testing.md.

Usage (from the repository root; niced, one process at a time)::

    nice -n 10 python tools/mutate.py                    # every module
    nice -n 10 python tools/mutate.py metrics normalize  # some modules
    python tools/mutate.py --list metrics                # the mutants only
    nice -n 10 python tools/mutate.py --only 'f_key' metrics  # mutants whose id contains f_key
    nice -n 10 python tools/mutate.py --only 'a -> b' --only 'c -> d' spoken  # either text
    nice -n 10 python tools/mutate.py --ids survivors.txt spoken  # mutants with these exact ids

To add a module, add an entry to ``MODULES``: its file and the fast tests
that should kill its mutants.

How it runs: the package, tests, examples and docs are copied once to a temporary
directory (no ``__pycache__``); for each mutant the mutated module (made with
``ast.unparse``) is written there and a forked child of this process, which
has already imported pytest, hypothesis and the heavy libraries, runs
``pytest -x`` on the module's tests in the copy. Hypothesis runs derandomized
(the same examples every run) without its example database. Nothing in the
working tree is modified.
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import re
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# module name -> (file, tests run against each of its mutants, fastest killers first).
# Docstring examples of the module are run too (pytest --doctest-modules on the file).
# the spoken-forms subpackage, one entry per module with the same tests; not
# scoring/test_spoken_forms.py nor end_to_end/test_asr_numbers_example.py: through the scorer and
# subprocesses they take ten times as long, paid again by every surviving mutant
_SPOKEN_TESTS = [
    "tests/text/test_spoken.py",
    "tests/text/test_spoken_glue.py",
]

MODULES: dict[str, tuple[str, list[str]]] = {
    "metrics": (
        "hub4eval/scoring/metrics.py",
        [
            "tests/scoring/test_metrics.py",
            "tests/scoring/test_rules.py",
        ],
    ),
    "greedy": (
        "hub4eval/scoring/greedy.py",
        [
            "tests/scoring/test_greedy.py",
            "tests/scoring/test_fast_paths.py",
            "tests/scoring/test_mapping.py",
            "tests/scoring/test_rules.py",
            "tests/scoring/test_candidates.py",
        ],
    ),
    "mapping": (
        "hub4eval/scoring/mapping.py",
        [
            "tests/scoring/test_fast_paths.py",
            "tests/scoring/test_mapping.py",
            "tests/scoring/test_verdicts.py",
            "tests/scoring/test_rules.py",
            "tests/end_to_end/test_clean_example.py",
            "tests/scoring/test_candidates.py",
            "tests/end_to_end/test_asr_example.py",
        ],
    ),
    "verdicts": (
        "hub4eval/scoring/verdicts.py",
        [
            "tests/scoring/test_fast_paths.py",
            "tests/scoring/test_verdicts.py",
            "tests/scoring/test_rules.py",
            "tests/end_to_end/test_clean_example.py",
            "tests/report/test_explain.py",
        ],
    ),
    "noisy": (
        "hub4eval/scoring/noisy.py",
        [
            "tests/scoring/test_noisy.py",
            "tests/scoring/test_verdicts.py",
            "tests/end_to_end/test_asr_example.py",
        ],
    ),
    "normalize": (
        "hub4eval/text/normalize.py",
        ["tests/text/test_normalize.py", "tests/scoring/test_rules.py"],
    ),
    "fills": (
        "hub4eval/scoring/fills.py",
        [
            "tests/scoring/test_fast_paths.py",
            "tests/scoring/test_fills.py",
            "tests/scoring/test_verdicts.py",
            "tests/scoring/test_rules.py",
            "tests/end_to_end/test_clean_example.py",
            "tests/end_to_end/test_asr_example.py",
            "tests/scoring/test_spoken_forms.py",
        ],
    ),
    "candidates": (
        "hub4eval/scoring/candidates.py",
        [
            "tests/scoring/test_fast_paths.py",
            "tests/scoring/test_candidates.py",
            "tests/scoring/test_mapping.py",
            "tests/scoring/test_rules.py",
            "tests/end_to_end/test_asr_example.py",
        ],
    ),
    "spoken.language": (
        "hub4eval/text/spoken/language.py",
        _SPOKEN_TESTS,
    ),
    "spoken.lexing": (
        "hub4eval/text/spoken/lexing.py",
        _SPOKEN_TESTS,
    ),
    "spoken.glue": (
        "hub4eval/text/spoken/glue.py",
        _SPOKEN_TESTS,
    ),
    "spoken.window": (
        "hub4eval/text/spoken/window.py",
        _SPOKEN_TESTS,
    ),
    "spoken.forms": (
        "hub4eval/text/spoken/forms.py",
        _SPOKEN_TESTS,
    ),
    "spoken.letters": (
        "hub4eval/text/spoken/letters.py",
        _SPOKEN_TESTS + ["tests/text/test_number_and_word_forms.py"],
    ),
    "wer": (
        # sclite's counts (corpus_wer and its helpers): every function left here counts;
        # the aligner and its numba kernels moved to text/align/sclite.py, which is not
        # mutated, so the kernels are compiled once per run, not once per mutant
        "hub4eval/text/wer.py",
        ["tests/text/test_token_arrays.py", "tests/text/test_sclite_wer.py", "tests/cli/test_align.py"],
    ),
    "attribution": (
        "hub4eval/scoring/attribution.py",
        [
            "tests/scoring/test_attribution.py",
            "tests/end_to_end/test_asr_example.py",
        ],
    ),
}

# Survivors that no test can kill because the mutant behaves exactly like the
# original: module -> {mutant id: why}. Ids are printed by the run (see
# Mutant.ident); they name the function and the change, not a line number, so
# they survive edits elsewhere in the file. docs/testing.md explains each one.
EQUIVALENT: dict[str, dict[str, str]] = {
    "metrics": {
        "Counts.f: self.cor == 0 -> False": (
            "the short cut for COR = 0 skipped: the formula then gives 0 / (p POS + q ACT) = 0.0, "
            "the denominator being > 0 since POS + ACT > 0 was checked before"
        ),
        "_beta_squared: 16 -> 17": "lru_cache size: a cache holds results, never changes them",
    },
    "greedy": {
        "greedy_map: len(ranked) == 1 and threshold is None -> False": (
            "the lone-pair short cut never taken: without a threshold the loop maps a lone pair anyway"
        ),
        "greedy_by_class: errors is not None -> True": (
            "class_errors never returns None for the classes asked: both have a free object, and a free "
            "pair with a COR would have been mapped by the greedy over COR pairs, so a pair without COR exists"
        ),
        "<module>: 'T' -> 'TX'": "the name given to TypeVar is only shown by type checkers",
        "greedy_by_class: members[k] < best -> members[k] <= best": (
            "best and members[k] are first free hypotheses of two different classes: an object is in "
            "one class only, so they are never equal"
        ),
        "greedy_map: 1 -> 0 #3": (
            "`len(ranked) == 0` instead of `== 1` in the lone-pair short cut: the loop maps a lone "
            "pair without a threshold anyway, and an empty list gives [] both ways"
        ),
    },
    "mapping": {
        "_overlapping: known[k][1] <= known[k + 1][0] -> known[k][1] < known[k + 1][0]": (
            "touching reference extents then take the full scan instead of the bisection: same pairs"
        ),
        "_overlapping: 1 -> 0 #2": (
            "`known[k][1] <= known[k][0]` holds only for empty extents: the full scan is taken, same pairs"
        ),
        "_overlapping: k + 1 -> k - 1": (
            "compares each extent with the one before: false for sorted extents, so the full scan is taken, same pairs"
        ),
        "_overlapping: 0 -> 1": (
            "`ordered` then means the ends are sorted, which is all the bisection needs: same pairs"
        ),
        "Mapper._view: 1 -> 0 #5": (
            "`len(alternatives[0].fills) == 0` in the one-fill short cut: an alternative always holds "
            "a fill (an empty slot has no alternative), so the general branch runs, with the same result"
        ),
        "Mapper._view: len(alternatives) > 1 -> len(alternatives) >= 1": (
            "a hypothesis slot with one alternative is then cut to its first alternative: the same tuple"
        ),
        "Mapper._view: 1 -> 0 #2": (
            "`len(alternatives) > 0`: a hypothesis slot with one alternative is then cut to its first "
            "alternative, the same tuple (an empty slot has no alternative: cutting () gives ())"
        ),
        "_counts: 2 -> 3": (
            "`len(verdicts) == 3`: a fill has two points at most (content, extent), so the general "
            "branch makes the key of two verdicts, the same tuple of their categories"
        ),
        "<module>: 1 -> 0": (
            "_indices = itemgetter(0, 0): chosen fill pairs sorted by (reference, reference) instead of "
            "(reference, hypothesis); each reference fill is in one pair at most, so the order is the same"
        ),
        "type_order.visit: 2 -> 3": "the 'done' mark is only ever compared with 1 (visiting) and None",
        "Mapper.match_fills: not ref_items or not hyp_items -> not ref_items and (not hyp_items)": (
            "with one side empty the other branches choose no pair either (no candidates, no pointer pairs)"
        ),
        "Mapper.match_slot: 1 -> 0 #4": (
            "`len(alternatives) == 0` in the one-alternative short cut: the loop over alternatives "
            "gives the same result for one alternative"
        ),
        "Mapper.match_slot: 0 -> 1 #5": (
            "the hypothesis index in the key ranking a slot's alternatives is the same constant for all"
        ),
        "Mapper.match_slot: key < best[0] -> key <= best[0]": (
            "keys of alternatives hold their index k, so two keys are never equal"
        ),
    },
    "verdicts": {
        "unpaired_text: optional_slot and reference -> optional_slot": (
            "a hypothesis fill is SPU whatever the flag: only the key of the shared verdicts differs"
        ),
        "unpaired_text: shared is not None -> False": (
            "the shared verdicts are made again on every call: equal verdicts, only slower"
        ),
        "compare_text: how.extent and (ref.has_extent or hyp.has_extent) -> ref.has_extent or hyp.has_extent #2": (
            "reached only when content is not compared, and then extents are (--compare is both, content "
            "or extent), so how.extent is true there"
        ),
        "_extent_reason: status == 'ok' and ref.minimals == (ref.maximal,) -> False": (
            "the short cut for a fill without minimal strings of its own skipped: the general branch "
            "names its one minimal extent, the maximal one, the same text"
        ),
        "_extent_reason: status == 'ok' and ref.minimals == (ref.maximal,) -> ref.minimals == (ref.maximal,)": (
            "the short cut also for status 'no-minimal', which a fill without minimal strings of its own "
            "cannot have (an enclosed extent overlaps the maximal one): the same as the entries above"
        ),
        "_noisy_content: [m.noisy_words(fillers) for m in ref.minimals] or [ref_max] -> [m.noisy_words(fillers) for m in ref.minimals]": (
            "a prepared reference fill always has a minimal string (its maximal one when it has none "
            "of its own), so the list is never empty"
        ),
        "_extent_reason: status == 'ok' -> status != 'ok'": (
            "a short cut for a fill without brackets: its only minimal extent is its maximal one, so "
            "an enclosed extent always overlaps it (status 'no-minimal' cannot occur) and the general "
            "branch names the same extent"
        ),
        "_extent_reason: 'ok' -> 'okX'": "the same short cut never taken: the general branch gives the same text",
    },
    "noisy": {
        "_is_filler: form in fillers or form.lower() in fillers -> form.lower() in fillers": (
            "the fillers are lower case, so a form in them is its own lower case: the first test is a short cut"
        ),
        "_runs_into: True -> False": (
            "zip(strict=True): the pattern and its optional flags are made from the same tokens, one each, "
            "so the lengths always match"
        ),
        "_is_run_of: 1 -> 0": "at[n] is never read before it is replaced (the loop reads at[0..n-1])",
        "noisy_content_correct: True -> False": (
            "zip(strict=True): the optional flags are made from the reference tokens, one each, "
            "so the lengths always match"
        ),
    },
    "fills": {
        "FillPreparer._normalize: 'none' -> 'noneX'": (
            "spoken_forms(..., lang='none') returns the tokens unchanged: the call the test skips is the identity"
        ),
        "FillPreparer.prepare: len(spans) == 1 -> len(spans) != 1": (
            "the no-brackets short cut: one whole-content span is the only way in; with the general "
            "branch taken instead, the one minimal string is prepared from the same text and extent, "
            "an equal PreparedString"
        ),
        "FillPreparer.prepare: 1 -> 0": "the same short cut never taken: the general branch gives an equal minimal",
        "FillPreparer.prepare: 0 -> 1 #3": "the same short cut never taken: the general branch gives an equal minimal",
        "FillPreparer.prepare: 1 -> 0 #2": (
            "`fill.minimal_extents == ()`: the short cut is then taken only without extents, where both "
            "branches give the maximal string; elsewhere the general branch gives an equal minimal"
        ),
        "FillPreparer.prepare: False -> True": (
            "zip(strict=True): a fill read from a file has one minimal extent per minimal string or none "
            "(then one None each), so the lengths always match"
        ),
    },
    "candidates": {
        "sharing_pairs: 1 -> 0": (
            "`holders[0] != j`: a hypothesis holding one key twice may then be listed twice among its "
            "holders; the pairs are a set, so the same pairs (and the same count for the limit)"
        ),
    },
    "spoken": {
        "<module>: 21 -> 22": (
            "year heads are one-word cardinals, and no single English number word is 21 (twenty-one "
            "is two words to the library), so adding 21 to the heads changes nothing"
        ),
        "<module>: 'cents' -> 'centsX'": (
            "the currency symbol entry for the cent sign is never read: a written number takes its "
            "currency symbol only from $ £ € ¥ before the digits; a cent sign after them gives cents "
            "through the suffix rule"
        ),
        "_Words.word_class: 0 -> 1 #2": (
            "threshold=1 instead of 0 for the stem of a plural in -ies: the threshold keeps numbers up "
            "to 1 as words, and a decade stem is 20 to 90"
        ),
        "_Words.trigger: cls in (_NUMBER, _SECOND, _DECADE, _DIGITS) -> cls not in (_NUMBER, _SECOND, _DECADE, _DIGITS)": (
            "the truth value trigger returns is never used: every caller reads the class it stores"
        ),
        "<module>: 2 -> 3": (
            "_X then equals _P: no code compares a kind with either; the only test naming _X "
            "(`kind in (_W, _X)`) sees lexed parts, and _P is never a lexed kind"
        ),
        "<module>: 6 -> 7 #2": "_G = 7: the kinds are labels, and 7 is still distinct from the others",
        "_Item.__init__: False -> True #2": (
            "the default ordinal flag of an item is read only for written numbers (_N), which are "
            "always made with an explicit flag"
        ),
        "_lex_core: 65536 -> 65537": "lru_cache size: a cache holds results, never changes them",
        "_items: len(group) == 1 -> len(group) != 1": (
            "the short cut for a raw word that is one alphabetic token: skipped, the general branch makes "
            "the same item (no outer punctuation, one simple word, the token's own text lower-cased, the "
            "same token kept); taken for several tokens, its length test fails and the general branch runs"
        ),
        "_items: 1 -> 0": "the same short cut never taken: the general branch makes the same item",
        "_items: token.end - token.start -> token.end + token.start": (
            "the same short cut, then taken only for a token at 0 (where the sum is the length): "
            "elsewhere the general branch makes the same item"
        ),
        "_lex_core: False -> True #2": (
            "the ordinal flag of a respelled plural (_FIX, `1990's`) is never read: only written numbers (_N) use it"
        ),
        "_lex_hyphenated: False -> True #2": (
            "the ordinal flag of a number-word part (_W) is never read: only written numbers (_N) use it"
        ),
        "_lex_hyphenated.flush: False -> True": (
            "the ordinal flag of a glue-phrase word in a hyphenated number (_G, `per` of `five-per-cent`) is "
            "never read: only written numbers (_N) use it"
        ),
        "_lex_hyphenated.flush: False -> True #2": (
            "the ordinal flag of a word part (_W, `to` of `7-to-5`) is never read: only written numbers (_N) use it"
        ),
        "_lex_hyphenated.flush: False -> True #3": (
            "the ordinal flag of a non-number part (_X, `year-old`) is never read: only written numbers (_N) use it"
        ),
        "_lex_hyphenated: False -> True #3": (
            "the ordinal flag of a glue-phrase word (_G, `per-cent`) is never read: only written numbers (_N) use it"
        ),
        "_lex_core: False -> True": (
            "the ordinal flag of a simple word (_W) is never read: only written numbers (_N) use it"
        ),
        "_same_word: True -> False": (
            "two tokens with nothing between them never occur: the tokenizer whites out punctuation and "
            "splits on whitespace, so neighbouring tokens are at least one character apart"
        ),
        "_items: trail > lead -> trail >= lead": (
            "the extra step is taken only for a raw word without a letter or digit: it becomes an opaque "
            "item, which no reading crosses, and the mark it may then see after itself is read only by "
            "rules about the word after a number or a month, never after an opaque item"
        ),
        "_items: 1 -> 0 #8": (
            "the end of an opaque item (a raw word left as the tokenizer cut it) is never read: it is "
            "never part of a number, and its tokens come out with their own spans"
        ),
        "_second_allowed: 1 -> 0": (
            "the search back then starts at `second` itself, a number word that the loop steps over: "
            "the same position as starting before it"
        ),
        "_second_allowed: j >= 0 -> j > 0": (
            "the search back stops at the first item instead of before it only when every item before "
            "`second` is a number word; the first item is then a number word, not a month, so the test "
            "after the loop is false both ways"
        ),
        "_second_allowed: 0 -> 1": "`j >= 1` in the loop: the same as `j > 0` (see the entry above)",
        "_window: start > 0 -> start >= 0": (
            "the window's start may then reach -1, and the raw-word search from -1 starts at 0: the same words"
        ),
        "_window: 1 -> 0 #2": (
            "the window's start then stops on the space before its first raw word instead of on the word; "
            "the raw-word search from there finds the same words"
        ),
        "_window: 1 -> 0 #3": (
            "the window's start then stops on a `<` instead of after it; the raw-word search skips `<`: the same words"
        ),
        "_window: after > end -> after >= end": (
            "after equals end only when no whitespace follows the window's last raw word: the text there "
            "is `<`, `>` or its end, never a percent sign"
        ),
        "_window: False -> True": (
            "the first raw word of a window has no word of the window before it: whether a mark comes "
            "before it is read by no rule (each looks at a mark between two words of the window)"
        ),
        "_window: tokens[g].start - offset < we -> tokens[g].start - offset <= we": (
            "no token starts where a raw word ends: that position is whitespace, `<`, `>` or the end, "
            "and a token cannot start on `<` or `>` right after a non-space character (tokens split "
            "at whitespace only)"
        ),
        "_glue.num_at: 0 <= e < len(elements) -> 0 < e < len(elements)": (
            "num_at is only called with e + 1 or e + 2 for an index e >= 0, so its argument is never 0 and `0 <= e` and `0 < e` are both true."
        ),
        "_glue.num_at: 0 -> 1": (
            "num_at is only called with e + 1 or e + 2 for an index e >= 0, so its argument is at least 1 and `1 <= e` holds whenever `0 <= e` does."
        ),
        "_glue: True -> False #3": (
            "the `lib` flag of a decade year (nineteen nineties) is read only by the scale rules, where the year is never the scale (its first word is below 100) and as the number before a scale `1990s` cannot be multiplied (_times gives None) nor is it digits for `and a half`; the emitted tokens do not carry `lib`."
        ),
        "_glue: True -> False #4": (
            "the `lib` flag of a lone spoken decade (nineties): as for a decade year, the scale rules cannot multiply `90s` (not a number) and never take it as the scale (its item is a decade, not a word); the emitted tokens do not carry `lib`."
        ),
        "_glue: 1 -> 0 #18": (
            'a day after a month is tested `isdigit()` and `not startswith("0")` first, so its value is at least 1 and `0 <= n` and `1 <= n` agree.'
        ),
        "_glue: True -> False #7": (
            "after a month the day's `ordinal` is read only by the unit and range rules, and for a day none applies either way: a unit word or pair right after it was excluded when it was made a day, and `nil` and ranges need digits (`4th` is not); a day never follows `to` directly (a month is before it)."
        ),
        "_glue: False -> True #9": (
            "`lib` of the `percent` made from `per cent`: `lib` is read only by the year and scale rules, which have all run before units are read, and the emitted tokens do not carry it."
        ),
        "_glue: False -> True #11": (
            "`lib` of the 0 made from `nil` after a number: read only by the year and scale rules, which have run before; the emitted tokens do not carry it."
        ),
        "_glue: False -> True #13": (
            "`lib` of the unit made from a unit word (dollar -> dollars): read only by the year and scale rules, which have run before; the emitted tokens do not carry it."
        ),
        "_glue: False -> True #15": (
            "`lib` of the 0 made from `to nothing`: read only by the year and scale rules, which have run before; the emitted tokens do not carry it."
        ),
        "number_windows: 1 -> 0": (
            "`h += 0`: the hit that opened the window is then taken again by the merging loop right after, which adds nothing to the window and moves on: the same windows"
        ),
        "_window: it.cls == _SECOND -> it.cls != _SECOND": (
            "the number parser then also reads windows without a number word; every word there is one it reads as no number (that is how a word's class is found), so it finds none, and the written numbers and decades are read as before"
        ),
        "_library_numbers: True -> False": (
            "the opaque text `_` is no number word in any language: the library reads no number in it "
            "whether or not it is also marked as not a number part"
        ),
        "_lex_hyphenated: a + s -> a - s": (
            "s is always 0: a part between hyphens has no hyphen, so _lex_core makes one item from its start"
        ),
    },
    "attribution": {
        "entity_wer: space is None -> False": (
            "a reference document without a column space has no side in the alignment either, so "
            "ref_extent finds no columns for its fills and they are left out the same way"
        ),
        "attributed_points: hyp_fill is not None and hyp is not None -> hyp_fill is not None": (
            "a hypothesis fill always comes with its hypothesis instance"
        ),
        "attributed_points: attributor is not None -> True": (
            "ScoreResult.points calls it only when the result has an alignment, and the attributor is "
            "None exactly when the alignment is"
        ),
        "Attributor.cause: ref_inst is not None and self.misrecognition(ref_inst.docid, ref_fill) -> self.misrecognition(ref_inst.docid, ref_fill)": (
            "an INC or MIS point always has a reference instance (a missed fill is a fill of one)"
        ),
        "Attributor.cause: hyp_inst is not None and self.hallucination(hyp_inst.docid, hyp_fill) is not None -> self.hallucination(hyp_inst.docid, hyp_fill) is not None": (
            "an SPU point always has a hypothesis instance (a spurious fill is a fill of one)"
        ),
        "Attributor.note: rows -> True": "describe(()) is '' too: the same empty note",
        "attributed_points: ref_fill is not None and ref is not None -> ref_fill is not None": (
            "a reference fill always comes with its reference instance"
        ),
        "Attributor.misrecognition: found is None -> True": (
            "the remembered rows are made again on every call: the same rows, only slower"
        ),
        "Attributor.hallucination: key in self._hyp -> False": (
            "the remembered rows are made again on every call: the same rows, only slower"
        ),
        "Attributor.misrecognition: columns is not None and self.alignment.column_space(docid, reference=True) is not None -> columns is not None": (
            "columns are found only for a document with a side in the alignment, and every such "
            "document has a column space (a reference document without hypothesis words is aligned "
            "against none)"
        ),
        "Attributor.hallucination: columns is not None and self.alignment.column_space(docid, reference=False) is not None -> columns is not None": (
            "columns are found only for a document with a side in the alignment, and every such "
            "document has a column space (a hypothesis document the reference lacks is aligned "
            "against no reference words)"
        ),
        "Attributor.misrecognition: (kinds != MATCH).any() -> True": (
            "the short cut for a fill whose columns all match skipped: the rows without a match are then "
            "none, the same empty tuple"
        ),
        "Attributor.misrecognition: row[2] != MATCH -> True": (
            "matching rows are then kept too, only when some column does not match: the result is "
            "non-empty either way (the cause), and the note describes only substitutions, deletions "
            "and insertions"
        ),
    },
    "wer": {
        "_counts: 4 -> 5": "np.bincount(minlength=5)[:4]: the first four counts are the same",
        "<module>: TYPE_CHECKING -> True": (
            "the names imported under it (CorpusAlignment, TokenizedCorpora) are only in annotations,"
            " which `from __future__ import annotations` leaves as strings: importing them at load "
            "time too changes nothing (hub4eval.text.columns does not import this module at load "
            "time)"
        ),
        "<module>: TYPE_CHECKING -> False": (
            "the names imported under it are only in annotations, strings never evaluated at run time"
        ),
        "sclite_counts: tokenized.unsegmented and tokenized.spans -> tokenized.spans": (
            "`spans` is set only for an unsegmented corpus (tokenize_corpora leaves it () for a "
            "segmented one), so `spans` alone is true exactly when `unsegmented and spans` is"
        ),
        "_alignment_counts: alignment.unsegmented and alignment._spans -> alignment._spans": (
            "`_spans` is set only for an unsegmented alignment (corpus_alignment leaves it () for a "
            "segmented one), so `_spans` alone is true exactly when `unsegmented and _spans` is"
        ),
        "corpus_wer: alignment.unsegmented and alignment._spans -> alignment._spans": (
            "`_spans` is set only for an unsegmented alignment (corpus_alignment leaves it () for a "
            "segmented one), so `_spans` alone is true exactly when `unsegmented and _spans` is"
        ),
        "corpus_wer: counts is None -> True": (
            "the counts given are sclite_counts of the tokens the alignment was made from: counting "
            "them again from its tokens gives the same (a test checks corpus_wer(alignment, counts) "
            "== corpus_wer(alignment)), only slower"
        ),
        "_codes: not (isinstance(ref, TokenArray) and isinstance(hyp, TokenArray)) -> True": (
            "every pair is then coded from its words by _encode (first seen, reference first) instead"
            " of taken or renumbered from its ids: equal words get equal codes either way, and the "
            "alignment depends only on which codes are equal (checked on 4,000-word pairs with codes "
            "mapped to sparse large values: the same operations), so the same counts, only slower"
        ),
        "_codes: shared or (len(a) + 1) * (len(b) + 1) <= _sclite._BASE_AREA or (not len(a)) or (not len(b) -> False": (
            "a pair is renumbered (first seen, reference first) in more cases than the original: the "
            "codes then differ in value only, equal words still equal, and the alignment depends only"
            " on which codes are equal (the full matrix compares them; the chunked path keys bigrams "
            "by code * V + code and looks them up by equality; checked on 4,000-word pairs with codes"
            " mapped to sparse large values: the same operations): the same counts, only slower"
        ),
        "_codes: shared or (len(a) + 1) * (len(b) + 1) <= _sclite._BASE_AREA or (not len(a)) or (not len(b) -> (len(a) + 1) * (len(b) + 1) <= _sclite._BASE_AREA or not len(a) or (not len(b))": (
            "a pair is renumbered (first seen, reference first) in more cases than the original: the "
            "codes then differ in value only, equal words still equal, and the alignment depends only"
            " on which codes are equal (the full matrix compares them; the chunked path keys bigrams "
            "by code * V + code and looks them up by equality; checked on 4,000-word pairs with codes"
            " mapped to sparse large values: the same operations): the same counts, only slower"
        ),
        "_codes: shared or (len(a) + 1) * (len(b) + 1) <= _sclite._BASE_AREA or (not len(a)) or (not len(b) -> shared or not len(a) or (not len(b))": (
            "a pair is renumbered (first seen, reference first) in more cases than the original: the "
            "codes then differ in value only, equal words still equal, and the alignment depends only"
            " on which codes are equal (the full matrix compares them; the chunked path keys bigrams "
            "by code * V + code and looks them up by equality; checked on 4,000-word pairs with codes"
            " mapped to sparse large values: the same operations): the same counts, only slower"
        ),
        "_codes: shared or (len(a) + 1) * (len(b) + 1) <= _sclite._BASE_AREA or (not len(a)) or (not len(b) -> shared or (len(a) + 1) * (len(b) + 1) <= _sclite._BASE_AREA or (not len(b))": (
            "a pair is renumbered (first seen, reference first) in more cases than the original: the "
            "codes then differ in value only, equal words still equal, and the alignment depends only"
            " on which codes are equal (the full matrix compares them; the chunked path keys bigrams "
            "by code * V + code and looks them up by equality; checked on 4,000-word pairs with codes"
            " mapped to sparse large values: the same operations): the same counts, only slower"
        ),
        "_codes: shared or (len(a) + 1) * (len(b) + 1) <= _sclite._BASE_AREA or (not len(a)) or (not len(b) -> shared or (len(a) + 1) * (len(b) + 1) <= _sclite._BASE_AREA or (not len(a))": (
            "a pair is renumbered (first seen, reference first) in more cases than the original: the "
            "codes then differ in value only, equal words still equal, and the alignment depends only"
            " on which codes are equal (the full matrix compares them; the chunked path keys bigrams "
            "by code * V + code and looks them up by equality; checked on 4,000-word pairs with codes"
            " mapped to sparse large values: the same operations): the same counts, only slower"
        ),
        "_counts_by_span: ops[first:first + len(owner)] -> ops[first:first + len(owner) + 1]": (
            "the spans cover every column from 0 (_owned_columns: the last ends at the column count),"
            " so first + len(owner) is the length of ops and a stop one past the end takes the same "
            "elements"
        ),
    },
    "normalize": {
        "strip_premodifiers: not first or first[0].lower() not in words -> not first": (
            "the short cut then only for an empty text: a first word that is no premodifier stops the "
            "loop at position 0, the same text, 0"
        ),
        "strip_premodifiers: match is None or match.group(1).lower() not in words -> match.group(1).lower() not in words": (
            "the loop never reaches the end of the text: a text made only of premodifiers was returned "
            "before it, so a word that is no premodifier always stops it first"
        ),
        "_punctuation_pattern: cached is not None -> False": (
            "the class is scanned from the Unicode database every time instead of read from the disk "
            "cache: the same class, only slower"
        ),
        "whiteout_punctuation: text.replace(' ', '').isalnum() -> False": (
            "the short cut for letters and digits only skipped: the pattern finds no punctuation in them"
        ),
        "strip_premodifiers: not first or first[0].lower() not in words -> False": (
            "the short cut skipped: an empty text is then returned by the all() test (all of nothing), "
            "and a first word that is no premodifier stops the loop at position 0: the same text, 0"
        ),
        "_element_pattern: 16 -> 17": "lru_cache size: a cache holds results, never changes them",
        "_word_set: 16 -> 17": "lru_cache size: a cache holds results, never changes them",
        "_punctuation_pattern: sys.maxunicode + 1 -> sys.maxunicode - 1": (
            "leaves out U+10FFFE and U+10FFFF, noncharacters, which are not punctuation"
        ),
        "_punctuation_pattern: 1 -> 0": "leaves out U+10FFFF, a noncharacter, which is not punctuation",
        "_punctuation_pattern: 1 -> 0 #2": (
            "lru_cache(maxsize=0): the class is read again from the disk cache on every call, the same class"
        ),
    },
}

CATEGORY_NEXT = {"COR": "INC", "INC": "COR", "MIS": "SPU", "SPU": "MIS", "OPT": "MIS", "REM": "MIS"}
_WORD = re.compile(r"[A-Za-z][\w-]{0,24}\Z")

_CMP_SWAP = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_BIN_SWAP = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Div,
    ast.Mod: ast.FloorDiv,
    ast.Pow: ast.Mult,
    ast.BitOr: ast.BitAnd,
    ast.BitAnd: ast.BitOr,
}


@dataclass
class Mutant:
    module: str
    index: int  # position in the walk, to find the node again in a fresh tree
    where: str  # enclosing function or class, dotted
    line: int
    before: str
    after: str
    kind: str
    occurrence: int = 0  # same where/before/after earlier in the file

    @property
    def ident(self) -> str:
        suffix = f" #{self.occurrence + 1}" if self.occurrence else ""
        return f"{self.where}: {self.before} -> {self.after}{suffix}"


def _skipped_nodes(tree: ast.AST) -> set[int]:
    """ids of nodes never mutated: docstrings, annotations, asserts, __all__."""
    skip: set[int] = set()

    def cover(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                cover(body[0])
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            cover(node)  # attribute docstrings
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            cover(node.returns)
            for a in (
                *node.args.posonlyargs,
                *node.args.args,
                *node.args.kwonlyargs,
                node.args.vararg,
                node.args.kwarg,
            ):
                if a is not None:
                    cover(a.annotation)
        if isinstance(node, ast.AnnAssign):
            cover(node.annotation)
            if isinstance(node.target, ast.Name) and node.target.id[:1].isupper():
                cover(node.value)  # type aliases
        if isinstance(node, ast.Assert):
            cover(node)
        if isinstance(node, ast.JoinedStr):
            cover(node)  # message text
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            cover(node)
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id
            in (
                "tuple",
                "dict",
                "list",
                "Union",
                "Literal",
                "set",
                "frozenset",
                "Callable",
                "Iterable",
                "Sequence",
            )
        ):
            cover(node)  # a type expression outside an annotation
    return skip


def _mutations(node: ast.AST, skip: set[int]) -> list[tuple[str, ast.AST]]:
    """(kind, replacement node) of each mutation of ``node`` itself."""
    if id(node) in skip:
        return []
    out: list[tuple[str, ast.AST]] = []
    if isinstance(node, ast.Compare):
        for k, op in enumerate(node.ops):
            swap = _CMP_SWAP.get(type(op))
            if swap is not None:
                new = copy.deepcopy(node)
                new.ops[k] = swap()
                out.append(("compare", new))
    elif isinstance(node, ast.BinOp):
        swap = _BIN_SWAP.get(type(node.op))
        if swap is not None:
            new = copy.deepcopy(node)
            new.op = swap()
            out.append(("arith", new))
    elif isinstance(node, ast.AugAssign):
        swap = _BIN_SWAP.get(type(node.op))
        if swap is not None:
            new = copy.deepcopy(node)
            new.op = swap()
            out.append(("arith", new))
    elif isinstance(node, ast.BoolOp):
        new = copy.deepcopy(node)
        new.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        out.append(("boolop", new))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
        out.append(("unary", copy.deepcopy(node.operand)))
    elif isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            out.append(("constant", ast.Constant(not value)))
        elif isinstance(value, int):
            out.append(("constant", ast.Constant(1 if value == 0 else 0 if value == 1 else value + 1)))
        elif isinstance(value, float):
            out.append(("constant", ast.Constant(1.0 if value == 0 else 0.0 if value == 1 else value + 1)))
        elif isinstance(value, str) and value in CATEGORY_NEXT:
            out.append(("category", ast.Constant(CATEGORY_NEXT[value])))
        elif isinstance(value, str) and _WORD.match(value):
            out.append(("string", ast.Constant(value + "X")))
    return out


def _conditions(node: ast.AST, skip: set[int]) -> list[ast.AST]:
    """Condition expressions of ``node`` that may be negated."""
    if isinstance(node, (ast.If, ast.While, ast.IfExp)):
        tests = [node.test]
    elif isinstance(node, ast.comprehension):
        tests = list(node.ifs)
    else:
        return []
    # negating `a == b` or `not a` is the same mutant as `a != b` or dropping the `not`
    return [
        t
        for t in tests
        if id(t) not in skip
        and not (isinstance(t, ast.UnaryOp) and isinstance(t.op, ast.Not))
        and not (
            isinstance(t, ast.Compare)
            and len(t.ops) == 1
            and not isinstance(t.ops[0], (ast.Lt, ast.LtE, ast.Gt, ast.GtE))
        )
    ]


def _walk(tree: ast.AST):
    """Nodes in a fixed order with their enclosing function/class name."""
    stack: list[tuple[ast.AST, str]] = [(tree, "<module>")]
    while stack:
        node, where = stack.pop()
        yield node, where
        inner = where
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            inner = node.name if where == "<module>" else f"{where}.{node.name}"
        stack.extend((child, inner) for child in reversed(list(ast.iter_child_nodes(node))))


def _dropped_operands(node: ast.AST, skip: set[int]) -> list[ast.AST]:
    """``a and b`` -> ``a``, ``b`` (each operand of an ``and``/``or`` left out in turn)."""
    if not isinstance(node, ast.BoolOp) or id(node) in skip:
        return []
    out: list[ast.AST] = []
    for k in range(len(node.values)):
        rest = [copy.deepcopy(v) for i, v in enumerate(node.values) if i != k]
        out.append(rest[0] if len(rest) == 1 else ast.BoolOp(op=copy.deepcopy(node.op), values=rest))
    return out


def _forced_conditions(node: ast.AST, skip: set[int]) -> list[tuple[ast.AST, bool]]:
    """(condition, value) of each condition forced ``True`` or ``False``: ``if``, conditional
    expressions, comprehension filters; a ``while`` only ``False`` (``True`` never ends)."""
    if isinstance(node, (ast.If, ast.IfExp)):
        tests, values = [node.test], (True, False)
    elif isinstance(node, ast.While):
        tests, values = [node.test], (False,)
    elif isinstance(node, ast.comprehension):
        tests, values = list(node.ifs), (True, False)
    else:
        return []
    # a condition that is a constant already is changed by the constant operator
    return [(t, v) for t in tests if id(t) not in skip and not isinstance(t, ast.Constant) for v in values]


def _shifted_slices(node: ast.AST, skip: set[int]) -> list[ast.AST]:
    """Off by one on slices: ``x[a:b]`` -> ``x[a + 1:b]``, ``x[a - 1:b]``, ``x[a:b + 1]``,
    ``x[a:b - 1]``; an absent bound becomes ``1`` (start) or ``-1`` (end). A bound that is
    an integer constant is left to the constant operator."""
    if not isinstance(node, ast.Subscript) or not isinstance(node.slice, ast.Slice) or id(node) in skip:
        return []
    out: list[ast.AST] = []
    for bound in ("lower", "upper"):
        value = getattr(node.slice, bound)
        if isinstance(value, ast.Constant) and isinstance(value.value, int):
            continue
        if value is None:
            shifted: list[ast.expr] = [
                ast.Constant(1) if bound == "lower" else ast.UnaryOp(ast.USub(), ast.Constant(1))
            ]
        else:
            shifted = [ast.BinOp(copy.deepcopy(value), op(), ast.Constant(1)) for op in (ast.Add, ast.Sub)]
        for new_bound in shifted:
            new = copy.deepcopy(node)
            setattr(new.slice, bound, new_bound)
            out.append(new)
    return out


def _options(node: ast.AST, skip: set[int]) -> list[tuple[str, ast.AST, ast.AST]]:
    """(kind, node replaced, replacement) of every mutant made at ``node``. The operators of
    the first version come first, in their order, so their mutants keep their names."""
    out: list[tuple[str, ast.AST, ast.AST]] = [(kind, node, new) for kind, new in _mutations(node, skip)]
    out += [("condition", t, ast.UnaryOp(ast.Not(), t)) for t in _conditions(node, skip)]
    out += [("operand", node, new) for new in _dropped_operands(node, skip)]
    out += [("forced", t, ast.Constant(value)) for t, value in _forced_conditions(node, skip)]
    out += [("slice", node, new) for new in _shifted_slices(node, skip)]
    return out


def _apply(tree: ast.Module, index: int, sub: int) -> ast.Module:
    """A copy of ``tree`` with mutation ``sub`` of the ``index``-th node applied."""
    tree = copy.deepcopy(tree)
    skip = _skipped_nodes(tree)
    for k, (node, _) in enumerate(_walk(tree)):
        if k != index:
            continue
        _, old, new = _options(node, skip)[sub]
        _replace(tree, old, new)
        return ast.fix_missing_locations(tree)
    raise IndexError(index)


def _replace(tree: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return
            if isinstance(value, list):
                for k, item in enumerate(value):
                    if item is old:
                        value[k] = new
                        return
    raise LookupError("node not found")


def _equivalent(module: str) -> dict[str, str]:
    """The equivalent mutants listed for ``module``; those of the spoken-forms
    subpackage are listed together under ``spoken`` and split here by the file
    that defines the function a mutant id names (``<module>`` is the language data)."""
    if not module.startswith("spoken."):
        return EQUIVALENT.get(module, {})
    tree = ast.parse((ROOT / MODULES[module][0]).read_text(encoding="utf-8"))
    names = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    if module == "spoken.language":
        names.add("<module>")
    return {ident: why for ident, why in EQUIVALENT["spoken"].items() if ident.split(":")[0].split(".")[0] in names}


def mutants(module: str) -> tuple[ast.Module, list[tuple[Mutant, int]]]:
    path = ROOT / MODULES[module][0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _skipped_nodes(tree)
    found: list[tuple[Mutant, int]] = []
    seen: dict[str, int] = {}
    for index, (node, where) in enumerate(_walk(tree)):
        for sub, (kind, old, new) in enumerate(_options(node, skip)):
            before, after = ast.unparse(old), ast.unparse(new)
            before, after = before.splitlines()[0][:90], after.splitlines()[0][:90]
            m = Mutant(module, index, where, getattr(node, "lineno", 0), before, after, kind)
            key = f"{where}: {before} -> {after}"
            m.occurrence = seen.get(key, 0)
            seen[key] = m.occurrence + 1
            found.append((m, sub))
    return tree, found


def _prepare_copy() -> Path:
    work = Path(tempfile.mkdtemp(prefix="hub4eval-mutants-"))
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")
    for name in ("hub4eval", "tests", "examples", "grammars", "mapping_files", "docs"):
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, work / name, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", work / "pyproject.toml")
    return work


def _run_tests(work: Path, files: list[str], module_file: str, timeout: float, verbose: bool) -> str:
    """'killed', 'survived' or 'timeout' for the tree as it is in ``work``."""
    pid = os.fork()
    if pid == 0:  # child
        try:
            os.chdir(work)
            sys.path.insert(0, str(work))
            sys.dont_write_bytecode = True
            if not verbose:
                fd = os.open(os.devnull, os.O_WRONLY)
                os.dup2(fd, 1)
                os.dup2(fd, 2)
            import hypothesis
            import pytest

            hypothesis.settings.register_profile("mutation", database=None, derandomize=True, deadline=None)
            hypothesis.settings.load_profile("mutation")
            args = [
                "-x",
                "-q",
                "-p",
                "no:cacheprovider",
                "-m",
                "not fuzz",  # slow tests of a module's list run too: the list was chosen with them
                "--doctest-modules",
                module_file,
                *files,
            ]
            code = pytest.main(args)
        except BaseException:
            code = 99
        os._exit(int(code))
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            if code == 0:
                return "survived"
            if code == 5:
                return "no-tests"
            return "killed" if code in (1, 2) else f"error({code})"
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout"
        time.sleep(0.05)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help=f"modules to mutate (default: all of {', '.join(MODULES)})")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument(
        "--only",
        action="append",
        help="only the mutants whose id contains this text (repeat the option for several texts)",
    )
    parser.add_argument(
        "--ids",
        type=Path,
        help="only the mutants whose id is a line of this file (for example the survivors of an earlier run)",
    )
    parser.add_argument(
        "--kinds",
        help="only the mutants of these operators, comma-separated: compare, arith, boolop, unary, constant, "
        "category, string, condition (negated), operand (one operand of and/or dropped), forced (a "
        "condition made True or False), slice (a slice bound off by one)",
    )
    parser.add_argument("--verbose", action="store_true", help="show pytest's output")
    args = parser.parse_args(argv)
    modules = args.modules or list(MODULES)
    # a package name stands for its modules (`spoken` is spoken.language, spoken.lexing, ...)
    modules = [
        m
        for name in modules
        for m in ([name] if name in MODULES else [k for k in MODULES if k.startswith(name + ".")] or [name])
    ]
    for module in modules:
        if module not in MODULES:
            parser.error(f"unknown module {module!r}; known: {', '.join(MODULES)}")
    # the libraries every child needs, imported once here
    import hypothesis  # noqa: F401
    import numpy  # noqa: F401
    import pytest  # noqa: F401

    # a terminated run still removes its copy (the finally below)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = None if args.list else _prepare_copy()
    if work is not None:
        os.environ["NUMBA_CACHE_DIR"] = str(work / ".numba")
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
    summary = []
    try:
        for module in modules:
            module_file, files = MODULES[module]
            files = [f for f in files if (ROOT / f).exists() and (work is None or (work / f).exists())]
            tree, found = mutants(module)
            if args.only:
                found = [(m, s) for m, s in found if any(text in m.ident for text in args.only)]
            if args.kinds:
                kinds = set(args.kinds.split(","))
                found = [(m, s) for m, s in found if m.kind in kinds]
            if args.ids:
                wanted = set(args.ids.read_text(encoding="utf-8").splitlines())
                found = [(m, s) for m, s in found if m.ident in wanted]
            if args.list:
                for m, _ in found:
                    print(f"{module}:{m.line}: [{m.kind}] {m.ident}")
                continue
            target = work / module_file
            original = target.read_text(encoding="utf-8")
            started = time.monotonic()
            target.write_text(ast.unparse(tree), encoding="utf-8")
            baseline = _run_tests(work, files, module_file, 900, args.verbose)
            base_time = time.monotonic() - started
            if baseline != "survived":
                line = f"{module}: the unmutated module does not pass its tests ({baseline}); skipped"
                print(line, flush=True)
                summary.append(line)
                target.write_text(original, encoding="utf-8")
                continue
            timeout = max(30.0, 5 * base_time)
            print(f"== {module}: {len(found)} mutants, tests {base_time:.1f} s unmutated", flush=True)
            equivalent = _equivalent(module)
            idents = {m.ident for m, _ in mutants(module)[1]}  # every mutant, not only those selected
            for ident in sorted(set(equivalent) - idents):
                print(f"   listed as equivalent but no such mutant (the code changed?): {ident}", flush=True)
            killed = survived = equiv = 0
            for m, sub in found:
                target.write_text(ast.unparse(_apply(tree, m.index, sub)), encoding="utf-8")
                outcome = _run_tests(work, files, module_file, timeout, args.verbose)
                if outcome in ("killed", "timeout") or outcome.startswith("error"):
                    killed += 1
                    if m.ident in equivalent:
                        print(f"   listed as equivalent but killed: {m.ident}", flush=True)
                elif m.ident in equivalent:
                    equiv += 1
                    print(f"  equivalent {module}:{m.line}: {m.ident}", flush=True)
                else:
                    survived += 1
                    print(f"  SURVIVED {module}:{m.line}: [{m.kind}] {m.ident}", flush=True)
            target.write_text(original, encoding="utf-8")
            total = killed + survived
            score = 100.0 * killed / total if total else 100.0
            elapsed = time.monotonic() - started
            line = (
                f"{module}: {len(found)} mutants, {killed} killed, {survived} survived, "
                f"{equiv} equivalent: {score:.1f} % of non-equivalent mutants killed ({elapsed:.0f} s)"
            )
            print(line, flush=True)
            summary.append(line)
    finally:
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
    if summary:
        print("\n".join(["", "Summary:", *summary]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
