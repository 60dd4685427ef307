"""sclite's report files, in sclite's layout, from a :class:`~hub4eval.scoring.sclite.SCliteResult`.

* ``sum`` (``.sys``): the summary by speaker in percent of reference words;
* ``rsum`` (``.raw``): the same in counts;
* ``pra`` (``.pra``): every utterance's alignment, errors in capitals;
* ``dtl`` (``.dtl``): the counts and the lists of confused, deleted and inserted words;
* ``sgml`` (``.sgml``): the alignments in sclite's SGML form.

The tables are laid out as sclite lays them out (same columns, widths,
separators and centring on an 80-column page), so scripts written to read
sclite's reports read these.
"""

from __future__ import annotations

import math
import struct
import time
from collections.abc import Callable, Sequence

from hub4eval.scoring.sclite import SCliteResult, Utterance, case_raiser, display_width
from hub4eval.text.align.sclite_net import NetWord, PathEntry

__all__ = ["dtl_report", "pra_report", "sgml_report", "summary_report"]

SCREEN_WIDTH = 80
_FLOAT = struct.Struct("f")


def _center(text: str, width: int) -> str:
    pad = max(0, width - len(text))
    left = pad // 2
    return " " * left + text + " " * (pad - left)


def _f_round(value: float, precision: int) -> float:
    """sclite's F_ROUND: round half away from zero at ``precision`` decimals, through a float."""
    scale = 10.0**precision
    scaled = value * scale + (0.5 if value > 0.0 else -0.5)
    # C's (int) of NaN or of a value out of range is INT_MIN on the machines sclite runs on
    whole = int(scaled) if -(2.0**31) <= scaled < 2.0**31 else -(2**31)
    return _FLOAT.unpack(_FLOAT.pack(float(whole)))[0] / scale


def _pct(numerator: float, denominator: float) -> float:
    return 0.0 if denominator == 0 else numerator / denominator * 100.0


def _stats(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, standard deviation with n - 1, median) as sclite computes them; zeros for no values."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if any(v != v for v in values):  # a NaN (an NCE sclite cannot compute) makes every statistic NaN
        return mean, float("nan"), float("nan")
    ordered = sorted(values)
    median = ordered[0] if n == 1 else (ordered[n // 2] + ordered[n // 2 - 1]) / 2 if n % 2 == 0 else ordered[n // 2]
    squares = sum((v - mean) * (v - mean) for v in values)
    sd = math.sqrt(squares / (n - 1)) if squares != 0.0 else 0.0
    return mean, sd, median


class _Table:
    """sclite's report table: groups of columns between bars, a centred title, row separators."""

    def __init__(self, title: str, groups: Sequence[int], width_of: Callable[[str], int] = len) -> None:
        self.width_of = width_of
        self.title = title
        self.groups = list(groups)  # columns per group
        self.rows: list[tuple[str, list[str], str] | str] = []  # (justification, cells) or a separator char

    def row(self, cells: list[str], first: str = "l") -> None:
        self.rows.append((first, cells, ""))

    def separator(self, char: str) -> None:
        self.rows.append(char)

    def render(self) -> str:
        ncols = sum(self.groups)
        widths = [0] * ncols
        for entry in self.rows:
            if isinstance(entry, tuple):
                for k, cell in enumerate(entry[1]):
                    widths[k] = max(widths[k], self.width_of(cell))
        spans: list[tuple[int, int]] = []
        start = 0
        for count in self.groups:
            spans.append((start, start + count))
            start += count
        group_widths = [sum(widths[a:b]) + (b - a - 1) for a, b in spans]
        inner = sum(group_widths) + len(group_widths) - 1
        title_width = self.width_of(self.title)
        if title_width > inner:  # a long title widens the last group
            group_widths[-1] += title_width - inner
            a, b = spans[-1]
            widths[b - 1] += title_width - inner
            inner = title_width
        indent = " " * max(0, (SCREEN_WIDTH - (inner + 2)) // 2)
        pad = max(0, inner - title_width)
        title = " " * (pad // 2) + self.title + " " * (pad - pad // 2)
        lines = [indent + "," + "-" * inner + ".", indent + "|" + title + "|"]
        first_row = True
        for entry in self.rows:
            if isinstance(entry, str):
                if first_row or entry == "=":
                    lines.append(indent + "|" + entry * inner + "|")
                else:
                    lines.append(indent + "|" + "+".join(entry * w for w in group_widths) + "|")
                continue
            first_row = False
            justification, cells, _ = entry
            parts = []
            for g, (a, b) in enumerate(spans):
                texts = []
                for k in range(a, b):
                    cell = cells[k] if k < len(cells) else ""
                    pad = widths[k] - self.width_of(cell)
                    if k == 0 and justification == "l":
                        texts.append(cell + " " * pad)
                    else:
                        texts.append(" " * (pad // 2) + cell + " " * (pad - pad // 2))
                joined = " ".join(texts)
                parts.append(joined + " " * (group_widths[g] - self.width_of(joined)))
            lines.append(indent + "|" + "|".join(parts) + "|")
        lines.append(indent + "`" + "-" * inner + "'")
        return "\n".join(lines) + "\n"


def _log2(value: float) -> float:
    return math.log2(value) if value > 0.0 else float("-inf")


def _nce(utterances: Sequence[Utterance], correct: int, wrong: int) -> tuple[float, float, float]:
    """(NCE, sum over correct words, sum over wrong words) of the hypothesis words' confidences:
    sclite's normalized cross-entropy, [H(C) + sum log2 p(correct) + sum log2 (1 - p(wrong))] / H(C)."""
    sum_c = sum_i = 0.0
    words = 0
    for utterance in utterances:
        for entry in utterance.path:
            if entry.op == "D" or entry.hyp is None or entry.hyp.value == "":
                continue
            conf = entry.hyp.conf if entry.hyp.conf is not None else 0.0
            conf = min(max(conf, 0.0000001), 0.9999999)
            words += 1
            if entry.op == "C":
                sum_c += _log2(conf)
            else:
                sum_i += _log2(1.0 - conf)
    if words == 0:
        return 0.0, sum_c, sum_i
    return _entropy_ratio(correct, wrong, sum_c + sum_i), sum_c, sum_i


def _entropy_ratio(correct: int, wrong: int, sums: float) -> float:
    """(H(C) + sums) / H(C), H(C) the entropy of correct/wrong over the hypothesis words (NaN when it is 0)."""
    total = correct + wrong
    if total == 0:
        return float("nan")
    p = correct / total
    entropy = -(correct * _log2(p) if correct else 0.0) - (wrong * _log2(1.0 - p) if wrong else 0.0)
    if entropy == 0.0:
        return float("nan")
    return (entropy + sums) / entropy


def summary_report(result: SCliteResult, raw: bool) -> str:
    """The ``.sys`` (percentages, ``raw=False``) or ``.raw`` (counts) summary by speaker."""
    speakers = result.speakers
    nsent = [sp.counts[0] for sp in speakers]
    counts = [sp.counts for sp in speakers]
    words = [c + s + d for _, c, s, d, _, _ in counts]
    pct_fmt = "{:5.0f} " if raw else "{:5.1f} "
    precision = 0 if raw else 1
    confidences = result.hyp_confidences
    table = _Table(result.title, (1, 2, 6, 1) if confidences else (1, 2, 6), display_width(result.options))
    table.separator("-")
    words_column = "# Chr" if result.options.char_align else "# Wrd"
    header = [" SPKR", " # Snt", words_column, "Corr", " Sub", " Del", " Ins", " Err", "S.Err"]
    table.row([*header, *(["NCE"] if confidences else [])])
    nces: list[float] = []
    sum_c = sum_i = 0.0
    columns: list[list[float]] = [[], [], [], [], []]  # corr sub del ins err per speaker
    serr_column: list[float] = []
    zero = 0
    for speaker, (n, c, s, d, i, e), w in zip(speakers, counts, words, strict=True):
        table.separator("-")
        reference = c + s + d
        values: list[float] = [float(c), float(s), float(d), float(i), float(s + d + i)]
        if not raw and reference:
            values = [_pct(v, reference) for v in values]
        for column, value in zip(columns, values, strict=True):
            column.append(float(value))
        serr = float(e) if raw else _pct(e, n)
        serr_column.append(serr)
        cells = [f" {speaker.name} ", f"{n:5d}", f"{w:5d}"]
        if raw or w > 0:
            cells += [pct_fmt.format(_f_round(v, precision)) for v in values]
        else:
            cells += [f"{_f_round(v, 0):5.0f}*" for v in values]
            zero += 1
        cells.append(pct_fmt.format(_f_round(serr, precision)))
        if confidences:
            nce, speaker_c, speaker_i = _nce(speaker.utterances, c, s + i)
            nces.append(nce)
            sum_c, sum_i = sum_c + speaker_c, sum_i + speaker_i
            cells.append(f"{_f_round(nce, 3):7.3f} " if w > 0 else "# ")
        table.row(cells)
    table.separator("=")
    tn, tc, ts, td, ti, te = result.totals()
    tw = sum(words)
    system = [f"{_f_round(_entropy_ratio(tc, ts + ti, sum_c + sum_i), 3):7.3f} "] if confidences else []
    if raw:
        totals = [tc, ts, td, ti, ts + td + ti, te]
        sums = [pct_fmt.format(_f_round(float(v), 0)) for v in totals]
        table.row([" Sum", f"{tn:5d}", f"{tw:5d}", *sums, *system])
    else:
        ref_total = tc + ts + td
        totals_pct = [_pct(v, ref_total) for v in (tc, ts, td, ti, ts + td + ti)] + [_pct(te, tn)]
        table.row([" Sum/Avg", f"{tn:5d}", f"{tw:5d}", *(f"{_f_round(v, 1):5.1f} " for v in totals_pct), *system])
    table.separator("=")
    if zero:  # sclite's shift of the speakers without reference words (kept as it is)
        for index, w in enumerate(words):
            if w == 0:
                for column in columns:
                    del column[index]
                    column.append(-1000.0)
    kept = len(speakers) - zero
    stats = [_stats([float(v) for v in nsent]), _stats([float(v) for v in words])]
    stats += [_stats(column[:kept]) for column in columns]
    stats.append(_stats(serr_column))
    marked = "{:5.1f}+" if zero else "{:5.1f} "
    for label, which in ((" Mean ", 0), (" S.D. ", 1), ("Median", 2)):
        cells = [label]
        cells += [f"{_f_round(stats[k][which], 1):5.1f} " for k in (0, 1)]
        cells += [marked.format(_f_round(stats[k][which], 1)) for k in range(2, 7)]
        cells.append(f"{_f_round(stats[7][which], 1):5.1f} ")
        if confidences:
            cells.append(("{:7.3f}#" if zero else "{:7.3f} ").format(_f_round(_stats(nces)[which], 3)))
        table.row(cells, first="c")
    text = "\n\n\n" + _center("SYSTEM SUMMARY PERCENTAGES by SPEAKER", SCREEN_WIDTH) + "\n\n" + table.render()
    if zero and not raw:
        text += (
            "\n* No Reference words for this/these speaker(s).  Word counts supplied\n"
            "  rather than percents.\n"
            "# No Reference words for this/these speaker(s).  NCE not computable.\n"
            "+ Speaker(s) with no reference data is ignored\n"
        )
    return text


def _alignment_lines(
    path: Sequence[PathEntry], raise_case: Callable[[str], str], width_of: Callable[[str], int]
) -> tuple[str, str, str]:
    refs, hyps, evals = [], [], []
    for entry in path:
        error = entry.op != "C"
        ref = "" if entry.ref is None else (raise_case(entry.ref.value) if error else entry.ref.value)
        hyp = "" if entry.hyp is None else (raise_case(entry.hyp.value) if error else entry.hyp.value)
        # the column is as wide as the words as stored (lower case); the shown (raised) word is padded to it
        width = max(
            width_of(entry.ref.value) if entry.ref is not None else 0,
            width_of(entry.hyp.value) if entry.hyp is not None else 0,
            1,
        )
        if entry.ref is None:
            ref = "*" * width
        if entry.hyp is None:
            hyp = "*" * width
        refs.append(ref + " " * max(0, width - width_of(ref)))
        hyps.append(hyp + " " * max(0, width - width_of(hyp)))
        evals.append(("" if entry.op == "C" else entry.op).ljust(width))
    return (
        "REF:  " + "".join(r + " " for r in refs),
        "HYP:  " + "".join(h + " " for h in hyps),
        "Eval: " + "".join(e + " " for e in evals),
    )


def _utterance_block(utterance: Utterance, raise_case: Callable[[str], str], width_of: Callable[[str], int]) -> str:
    lines = [f"id: {utterance.id}"]
    if utterance.labels is not None:
        lines.append(f"Labels: {utterance.labels}")
    if utterance.file is not None:
        lines.append(f"File: {utterance.file}")
        lines.append(f"Channel: {utterance.channel}")
    c, s, d, i = utterance.counts
    lines.append(f"Scores: (#C #S #D #I) {c} {s} {d} {i}")
    if utterance.path:  # sclite writes no alignment lines for an empty one
        lines.extend(_alignment_lines(utterance.path, raise_case, width_of))
    return "\n".join(lines) + "\n\n"


def pra_report(result: SCliteResult) -> str:
    """The ``.pra`` file: each speaker's utterances with their alignments."""
    raise_case, width_of = case_raiser(result.options), display_width(result.options)
    out = ["\n\n\t\tDUMP OF SYSTEM ALIGNMENT STRUCTURE\n\n", f"System name:   {result.title}\n\n", "Speakers: \n"]
    for k, speaker in enumerate(result.speakers):
        out.append(f"    {k}:  {speaker.name}\n")
    out.append("\n")
    for k, speaker in enumerate(result.speakers):
        out.append(f"Speaker sentences {k:3d}:  {speaker.name}   #utts: {len(speaker.utterances)}\n")
        for utterance in speaker.utterances:
            out.append(_utterance_block(utterance, raise_case, width_of))
    out.append("\n")
    return "".join(out)


def dtl_report(result: SCliteResult) -> str:
    """The ``.dtl`` file: sentence and word totals, then the confusion pairs, insertions, deletions,
    substituted and falsely recognized words, most frequent first (ties in alphabetical order)."""
    tn, tc, ts, td, ti, te = result.totals()
    reference = tc + ts + td
    with_sub = with_del = with_ins = 0
    confusions: dict[str, int] = {}
    deleted: dict[str, int] = {}
    inserted: dict[str, int] = {}
    substituted: dict[str, int] = {}
    falsely: dict[str, int] = {}
    for speaker in result.speakers:
        for utterance in speaker.utterances:
            _, us, ud, ui = utterance.counts
            with_sub += us > 0
            with_del += ud > 0
            with_ins += ui > 0
            for entry in utterance.path:
                if entry.op == "S" and entry.ref is not None and entry.hyp is not None:
                    pair = f"{entry.ref.value} ==> {entry.hyp.value}"
                    confusions[pair] = confusions.get(pair, 0) + 1
                    substituted[entry.ref.value] = substituted.get(entry.ref.value, 0) + 1
                    falsely[entry.hyp.value] = falsely.get(entry.hyp.value, 0) + 1
                elif entry.op == "D" and entry.ref is not None:
                    deleted[entry.ref.value] = deleted.get(entry.ref.value, 0) + 1
                elif entry.op == "I" and entry.hyp is not None:
                    inserted[entry.hyp.value] = inserted.get(entry.hyp.value, 0) + 1
    errors = ts + td + ti
    lines = [
        f"DETAILED OVERALL REPORT FOR THE SYSTEM: {result.title}",
        "",
        "SENTENCE RECOGNITION PERFORMANCE",
        "",
        f" sentences{tn:>44d}",
        f" with errors{_pct(te, tn):>33.1f}%   ({te:4d})",
        "",
        f"   with substitutions{_pct(with_sub, tn):>24.1f}%   ({with_sub:4d})",
        f"   with deletions{_pct(with_del, tn):>28.1f}%   ({with_del:4d})",
        f"   with insertions{_pct(with_ins, tn):>27.1f}%   ({with_ins:4d})",
        "",
        "",
        "WORD RECOGNITION PERFORMANCE",
        "",
        f"Percent Total Error       = {_pct(errors, reference):6.1f}%   ({errors:4d})",
        "",
        f"Percent Correct           = {_pct(tc, reference):6.1f}%   ({tc:4d})",
        "",
        f"Percent Substitution      = {_pct(ts, reference):6.1f}%   ({ts:4d})",
        f"Percent Deletions         = {_pct(td, reference):6.1f}%   ({td:4d})",
        f"Percent Insertions        = {_pct(ti, reference):6.1f}%   ({ti:4d})",
        f"Percent Word Accuracy     = {100.0 - _pct(errors, reference):6.1f}%",
        "",
        "",
        f"Ref. words                =           ({reference:4d})",
        f"Hyp. words                =           ({tc + ts + ti:4d})",
        f"Aligned words             =           ({tc + ts + td + ti:4d})",
        "",
    ]

    def ranked(table: dict[str, int], title: str) -> list[str]:
        out = [
            f"{title:<33s}Total                 ({len(table)})",
            f"{'':33s}With >=  1 occurrences ({len(table)})",
            "",
        ]
        ordered = sorted(table.items(), key=lambda kv: (-kv[1], kv[0]))
        for k, (key, count) in enumerate(ordered, 1):
            out.append(f"{k:4d}:{count:5d}  ->  {key}")
        out += ["     -------", f"{sum(table.values()):10d}", ""]
        return out

    lines += ranked(confusions, "CONFUSION PAIRS")
    lines += ["", ""]
    lines += ranked(inserted, "INSERTIONS")
    lines += ["", ""]
    lines += ranked(deleted, "DELETIONS")
    lines += ["", ""]
    lines += ranked(substituted, "SUBSTITUTIONS")
    lines += [
        "",
        "* NOTE: The 'Substitution' words are those reference words",
        "        for which the recognizer supplied an incorrect word.",
        "",
        "",
    ]
    lines += ranked(falsely, "FALSELY RECOGNIZED")
    lines += [
        "",
        "* NOTE: The 'Falsely Recognized' words are those hypothesis words",
        "        which the recognizer incorrectly substituted for a reference word.",
        "",
    ]
    return "\n".join(lines) + "\n"


def _sgml_text(word: NetWord | None) -> str:
    if word is None:
        return ""
    text = word.value.replace(";", "\\;")
    if word.tag1 is not None or word.tag2 is not None:
        text += ";" + (word.tag1 or "").replace(";", "\\;") + ";" + (word.tag2 or "").replace(";", "\\;")
    return f'"{text}"'


def _aux(word: NetWord | None, absent: bool, what: str) -> str:
    if absent or word is None:
        return ","
    if what == "times":
        return f",{word.t1:.3f}+{word.t2:.3f}"
    return f",{word.conf if word.conf is not None else 0.0:f}"


def sgml_report(result: SCliteResult) -> str:
    """The ``.sgml`` file: every utterance's alignment as sclite's ``<PATH>`` elements."""
    options = result.options
    formats = (options.ref_format, options.hyp_format)
    ref_times = formats == ("ctm", "ctm")
    hyp_times = formats[1] == "ctm"
    aux_names = [
        name
        for name, on in (
            ("r_t1+t2", ref_times),
            ("h_t1+t2", hyp_times),
            ("r_conf", result.ref_confidences and formats == ("ctm", "ctm")),
            ("h_conf", result.hyp_confidences),
        )
        if on
    ]
    out = [
        f'<SYSTEM title="{result.title}" ref_fname="{result.ref_path}" hyp_fname="{result.hyp_path}" '
        f'creation_date="{time.ctime()}" format="2.4" frag_corr="{"TRUE" if options.frag_corr else "FALSE"}" '
        f'opt_del="{"TRUE" if options.opt_del else "FALSE"}" weight_ali="FALSE" weight_filename="">'
    ]
    for label in result.labels:
        out.append(f'<LABEL id="{label[0]}" title="{label[1]}" desc="{label[2]}">\n</LABEL>')
    for category in result.categories:
        out.append(f'<CATEGORY id="{category[0]}" title="{category[1]}" desc="{category[2]}">\n</CATEGORY>')
    sequence = 0
    for speaker in result.speakers:
        out.append(f'<SPEAKER id="{speaker.name}">')
        for utterance in speaker.utterances:
            attributes = f'id="{utterance.id}" word_cnt="{len(utterance.path)}"'
            if utterance.labels is not None:
                attributes += f' labels="{utterance.labels}"'
            if utterance.file is not None:
                attributes += f' file="{utterance.file}" channel="{utterance.channel}"'
            attributes += f' sequence="{sequence}"'
            sequence += 1
            if utterance.begin is not None:
                attributes += f' R_T1="{utterance.begin:.3f}" R_T2="{utterance.end:.3f}"'
            if options.char_align:
                attributes += ' char_align="1"'
            if options.case_sensitive:
                attributes += ' case_sense="1"'
            if aux_names:
                attributes += f' word_aux="{",".join(aux_names)}"'
            out.append(f"<PATH {attributes}>")
            words = []
            for entry in utterance.path:
                text = f"{entry.op},{_sgml_text(entry.ref)},{_sgml_text(entry.hyp)}"
                if entry.op == "I":
                    text = f"I,,{_sgml_text(entry.hyp)}"
                elif entry.op == "D":
                    text = f"D,{_sgml_text(entry.ref)},"
                if ref_times:
                    text += _aux(entry.ref, entry.op == "I", "times")
                if hyp_times:
                    text += _aux(entry.hyp, entry.op == "D", "times")
                if "r_conf" in aux_names:
                    text += _aux(entry.ref, entry.op == "I", "conf")
                if "h_conf" in aux_names:
                    text += _aux(entry.hyp, entry.op == "D", "conf")
                words.append(text)
            out.append(":".join(words))
            out.append("</PATH>")
        out.append("</SPEAKER>")
    out.append("</SYSTEM>")
    return "\n".join(out) + "\n"
