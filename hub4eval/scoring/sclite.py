"""Word error rates scored exactly as NIST sclite scores them (``hub4eval sclite``).

Given sclite's inputs and options this module pairs the utterances as sclite
does, aligns each pair with sclite's network alignment
(:mod:`hub4eval.text.align.sclite_net`) and counts per speaker:

* **trn against trn**: every hypothesis line is scored against the reference
  line of the same utterance id (ids compared after sclite's case folding,
  unless case-sensitive), in hypothesis order; the speaker is read from the id
  as ``-i`` says (``spu_id``, ``rm``, ``swb``: the text before the first
  ``-``, else before the first ``_``; ``wsj``: the first three characters;
  ``sp``: the whole id). A hypothesis id with no reference is an error.
* **stm against ctm**: recordings and channels are taken in the order of the
  stm; a ctm channel is scored against the stm channel it is on (both in the
  same order, as sclite requires); each segment gets the ctm words whose
  middle (begin + duration / 2) falls before the segment's end, the last
  segment of a channel whatever is left; an alternation counts by its latest
  middle. The words of an ``IGNORE_TIME_SEGMENT_IN_SCORING`` segment are
  dropped. ``-m ref`` leaves out segments outside the time of the channel's
  ctm words; ``-m hyp`` leaves out ctm words outside the time of the
  segments. The speaker is the segment's speaker; utterances are numbered
  per speaker (``(spk-000)``).

Case folding (sclite lower-cases unless ``-s``): by default and with
``-e utf-8`` only ASCII letters; ``-e ext_ascii`` also the Latin-1 capitals;
``-e utf-8 PROFILE`` also the letters of that language (``babel_turkish``:
``I`` -> ``ı``, ``İ`` -> ``i``, ``Ç Ğ Ö Ş Ü``; the Latin-script profiles every
non-ASCII Latin capital, the Cyrillic ones every Cyrillic capital).

Why one module of about 900 lines: the three pairings (trn, stm against
ctm, ctm against ctm) share the scored records, sclite's case folding, the
word reader and the inputs read once per scoring; the ctm-against-ctm
chunking (a third of it) is the part to move out when it grows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hub4eval.errors import InputError, UsageError
from hub4eval.io.formats import CtmRecord, StmSegment, ctm_records, stm_segments, trn_utterances
from hub4eval.text.align.sclite_net import (
    CharAlignment,
    Item,
    NetWord,
    PathEntry,
    PlainPath,
    WordSegmentation,
    align_networks,
    align_plain_words,
    parse_items,
    word_of,
)
from hub4eval.text.csrfilt import Csrfilt

__all__ = [
    "ID_TYPES",
    "LANGUAGE_PROFILES",
    "SCliteOptions",
    "SCliteResult",
    "Speaker",
    "Utterance",
    "case_folder",
    "case_raiser",
    "comment_labels",
    "display_width",
    "score_sclite",
]

ID_TYPES = ("spu_id", "rm", "swb", "wsj", "sp", "atis")
ENCODINGS = ("ascii", "ext_ascii", "utf-8", "gb", "euc")
_CYRILLIC_PROFILES = ("ukrainian", "babel_kazakh", "babel_mongolian")
LANGUAGE_PROFILES = (
    "generic",
    "babel_turkish",
    "babel_vietnamese",
    "babel_lithuanian",
    "babel_kurmanji",
    "babel_cebuano",
    "babel_kazakh",
    "babel_mongolian",
    "babel_guarani",
    "ukrainian",
)


@dataclass(frozen=True)
class SCliteOptions:
    """What sclite's command line says about one scoring."""

    ref: str
    hyp: str
    ref_format: str = "trn"
    hyp_format: str = "trn"
    title: str | None = None
    id_type: str | None = None
    case_sensitive: bool = False
    frag_corr: bool = False
    opt_del: bool = False
    encoding: str = "ascii"
    profile: str | None = None
    reduce_ref: bool = False
    reduce_hyp: bool = False
    char_align: bool = False
    char_noascii: bool = False
    char_delete_hyphens: bool = False
    time_align: bool = False
    segmentation: int = 0  # -S algo1 (1) or algo2 (2)
    lexicon: str | None = None
    segment_ascii_too: bool = False
    csrfilt: Csrfilt | None = None  # both inputs filtered by a GLM first, as csrfilt.sh does

    def chars(self) -> CharAlignment | None:
        """The character alignment ``-c`` asks for, or None."""
        if not self.char_align:
            return None
        return CharAlignment(self.char_noascii, self.char_delete_hyphens, self.encoding)


@dataclass(frozen=True)
class Utterance:
    """One scored utterance (sclite's PATH): its id, its alignment, and for stm segments where it was."""

    id: str
    speaker: str
    path: Sequence[PathEntry]  # a tuple, or a PlainPath that makes its entries when read
    file: str | None = None
    channel: str | None = None
    begin: float | None = None
    end: float | None = None
    labels: str | None = None

    def count(self, op: str) -> int:
        if isinstance(self.path, PlainPath):
            return self.path.ops.count(op)
        return sum(1 for entry in self.path if entry.op == op)

    @property
    def counts(self) -> tuple[int, int, int, int]:
        """(correct, substitutions, deletions, insertions)."""
        if isinstance(self.path, PlainPath):
            ops = self.path.ops
            return ops.count("C"), ops.count("S"), ops.count("D"), ops.count("I")
        c = s = d = i = 0
        for entry in self.path:
            if entry.op == "C":
                c += 1
            elif entry.op == "S":
                s += 1
            elif entry.op == "D":
                d += 1
            else:
                i += 1
        return c, s, d, i


@dataclass(frozen=True)
class Speaker:
    """A speaker's utterances, in scoring order."""

    name: str
    utterances: tuple[Utterance, ...]

    @property
    def counts(self) -> tuple[int, int, int, int, int, int]:
        """(sentences, correct, substitutions, deletions, insertions, sentences with an error)."""
        c = s = d = i = errors = 0
        for utterance in self.utterances:
            uc, us, ud, ui = utterance.counts
            c, s, d, i = c + uc, s + us, d + ud, i + ui
            errors += 1 if us + ud + ui else 0
        return len(self.utterances), c, s, d, i, errors


@dataclass(frozen=True)
class SCliteResult:
    """A system scored as sclite scores it: its speakers in order of first appearance."""

    title: str
    ref_path: str
    hyp_path: str
    speakers: tuple[Speaker, ...]
    options: SCliteOptions
    warnings: tuple[str, ...] = field(default=())
    labels: tuple[tuple[str, str, str], ...] = ()  # ;; LABEL "id" "title" "desc" lines of the inputs
    categories: tuple[tuple[str, str, str], ...] = ()  # ;; CATEGORY lines
    ref_confidences: bool = False  # a ctm reference with confidences
    hyp_confidences: bool = False  # a ctm hypothesis with confidences

    def totals(self) -> tuple[int, int, int, int, int, int]:
        """(sentences, correct, substitutions, deletions, insertions, sentences with an error) summed."""
        sums = [0] * 6
        for speaker in self.speakers:
            for k, value in enumerate(speaker.counts):
                sums[k] += value
        return sums[0], sums[1], sums[2], sums[3], sums[4], sums[5]


# ------------------------------------------------------------------ case folding

_TURKISH = str.maketrans({"I": "ı", "İ": "i", "Ç": "ç", "Ğ": "ğ", "Ö": "ö", "Ş": "ş", "Ü": "ü"})
_ASCII = str.maketrans({chr(c): chr(c + 32) for c in range(ord("A"), ord("Z") + 1)})
_LATIN1 = str.maketrans({chr(c): chr(c + 32) for c in range(0xC0, 0xE0)})


def _profile_case(text: str, cyrillic: bool, change: Callable[[str], str]) -> str:
    """``change`` (str.lower or str.upper) applied as sclite's UTF-8 profiles apply it: to ASCII,
    and to the Cyrillic block or the Latin blocks; a character it would turn into two stays."""
    out = []
    for char in text:
        code = ord(char)
        if code < 128:
            out.append(change(char))
        elif (0x400 <= code < 0x530) if cyrillic else (0xC0 <= code < 0x250 or 0x1E00 <= code < 0x1F00):
            changed = change(char)
            out.append(changed if len(changed) == 1 else char)
        else:
            out.append(char)
    return "".join(out)


def case_folder(options: SCliteOptions) -> Callable[[str], str]:
    """The lower-casing sclite applies under these options (identity when case-sensitive)."""
    if options.case_sensitive:
        return lambda text: text
    if options.encoding == "ext_ascii":
        return lambda text: text.translate(_ASCII).translate(_LATIN1)
    if options.encoding == "utf-8" and options.profile not in (None, "generic"):
        if options.profile == "babel_turkish":
            return lambda text: text.translate(_TURKISH).translate(_ASCII)
        cyrillic = options.profile in _CYRILLIC_PROFILES
        return lambda text: _profile_case(text, cyrillic, str.lower)
    return _ascii_lower


def _ascii_lower(text: str) -> str:
    """Only the ASCII capitals lower-cased (``str.lower`` is that on an ASCII text, and quicker)."""
    return text.lower() if text.isascii() else text.translate(_ASCII)


_TURKISH_UP = str.maketrans({"ı": "I", "i": "İ", "ç": "Ç", "ğ": "Ğ", "ö": "Ö", "ş": "Ş", "ü": "Ü"})
_ASCII_UP = str.maketrans({chr(c): chr(c - 32) for c in range(ord("a"), ord("z") + 1)})
_LATIN1_UP = str.maketrans({chr(c): chr(c - 32) for c in range(0xE0, 0x100)})


def case_raiser(options: SCliteOptions) -> Callable[[str], str]:
    """The upper-casing sclite applies to the words of an error in its alignment reports."""
    if options.encoding == "ext_ascii":
        return lambda text: text.translate(_ASCII_UP).translate(_LATIN1_UP)
    if options.encoding == "utf-8" and options.profile not in (None, "generic"):
        if options.profile == "babel_turkish":
            return lambda text: text.translate(_TURKISH_UP).translate(_ASCII_UP)
        cyrillic = options.profile in _CYRILLIC_PROFILES
        return lambda text: _profile_case(text, cyrillic, str.upper)
    return lambda text: text.translate(_ASCII_UP)


def display_width(options: SCliteOptions) -> Callable[[str], int]:
    """How wide sclite takes a word to be when it lines up its reports: its length in bytes."""
    if options.encoding == "utf-8":
        return lambda text: len(text.encode("utf-8"))
    return len


def file_encoding(options: SCliteOptions) -> str:
    """How the input bytes are decoded: UTF-8 under ``-e utf-8``; otherwise byte for byte (sclite compares bytes)."""
    return "utf-8" if options.encoding == "utf-8" else "latin-1"


# ------------------------------------------------------------------ scoring


def _speaker_of(utterance_id: str, id_type: str | None, path: str, line: int) -> str:
    """sclite's speaker of a trn id written with its parentheses."""
    if id_type in (None, "sp"):
        return utterance_id
    if id_type in ("wsj", "atis"):
        return utterance_id[1:4]
    cut = utterance_id.find("-")
    if cut < 0:
        cut = utterance_id.find("_")
    if cut < 0:
        raise InputError(
            f"utterance id {utterance_id} has no '-' or '_' before which the speaker is written",
            path,
            line,
            hint=f"-i {id_type} reads the speaker up to the first '-' (else '_'); use -i sp to score each id alone",
        )
    return utterance_id[1:cut]


class _Groups:
    """Speakers in order of first appearance."""

    def __init__(self) -> None:
        self.utterances: dict[str, list[Utterance]] = {}

    def add(self, utterance: Utterance) -> None:
        self.utterances.setdefault(utterance.speaker, []).append(utterance)

    def count(self, speaker: str) -> int:
        return len(self.utterances.get(speaker, ()))

    def speakers(self) -> tuple[Speaker, ...]:
        return tuple(Speaker(name, tuple(utts)) for name, utts in self.utterances.items())


def _reader(options: SCliteOptions) -> Callable[..., NetWord]:
    opt_del, frag_corr = options.opt_del, options.frag_corr

    def make(token: str, **times: float | None) -> NetWord:
        if not times and not opt_del and not frag_corr and ";" not in token and token[-1:] != "*":
            return NetWord(token)
        return word_of(token, opt_del=opt_del, frag_corr=frag_corr, **times)  # type: ignore[arg-type]

    return make


def _plain_text(text: str) -> bool:
    """Whether a transcript is plain words that sclite reads as written (no alternation, NULL word,
    tag or trailing ``*``; optional words and fragments are plain unless -D or -F): words that
    :func:`align_plain_words` aligns as strings."""
    return "{" not in text and ";" not in text and "*" not in text and "@" not in text


# The files of the scoring under way (score_sclite empties it before and after): each is
# read, and a ctm parsed, once although the scoring, the labels and the confidences all look.
_FILES: dict[tuple[str, str, str | None], object] = {}


def _read(path: str, options: SCliteOptions, side: str | None = None) -> str:
    """A file's text; the reference (``side`` "ref") or hypothesis ("hyp") through csrfilt when asked."""
    from hub4eval.io.files import read_text

    key = ("text", path, side)
    if key not in _FILES:
        text = read_text(path, file_encoding(options))
        if options.csrfilt is not None and side is not None:
            form = options.ref_format if side == "ref" else options.hyp_format
            text = options.csrfilt.filter(text, form, side, path, ext_ascii=options.encoding == "ext_ascii")
        _FILES[key] = text
    return _FILES[key]  # type: ignore[return-value]  # stored by this function


def _ctm(path: str, options: SCliteOptions, side: str | None = None) -> list[CtmRecord]:
    key = ("ctm", path, side)
    if key not in _FILES:
        _FILES[key] = ctm_records(_read(path, options, side), path)
    return _FILES[key]  # type: ignore[return-value]  # stored by this function


def _score_trn(options: SCliteOptions) -> tuple[Speaker, ...]:
    fold = case_folder(options)
    make = _reader(options)
    references: dict[str, tuple[str, int]] = {}
    for utterance in trn_utterances(_read(options.ref, options, "ref"), options.ref):
        key = fold(utterance.id)
        text = fold(utterance.text)
        previous = references.get(key)
        if previous is not None and previous[0].strip() != text.strip():
            raise InputError(
                f"a second, different reference text for utterance ({utterance.id}) (first at line {previous[1]})",
                options.ref,
                utterance.line,
                hint="give each utterance one reference line",
            )
        references.setdefault(key, (text, utterance.line))
    groups = _Groups()
    segmentation = _segmentation(options)
    plain = segmentation is None and options.chars() is None and not options.opt_del and not options.frag_corr
    for utterance in trn_utterances(_read(options.hyp, options, "hyp"), options.hyp):
        key = fold(utterance.id)
        reference = references.get(key)
        if reference is None:
            raise InputError(
                f"no reference transcript for utterance ({utterance.id})",
                options.hyp,
                utterance.line,
                hint=f"every hypothesis id must be in {options.ref} (compared case-insensitively unless -s)",
            )
        speaker = _speaker_of(f"({key})", options.id_type, options.hyp, utterance.line)
        hyp_text = fold(utterance.text)
        if plain and _plain_text(reference[0]) and _plain_text(hyp_text):
            groups.add(Utterance(f"({key})", speaker, align_plain_words(reference[0].split(), hyp_text.split())))
            continue
        path = align_networks(
            parse_items(reference[0], make),
            parse_items(hyp_text, make),
            options.chars(),
            segmentation=segmentation,
        )
        groups.add(Utterance(f"({key})", speaker, tuple(path)))
    return groups.speakers()


def _runs(items: Sequence, key: Callable) -> list[list]:
    """Consecutive items with the same key."""
    runs: list[list] = []
    last: object = None
    for item in items:
        current = key(item)
        if runs and last == current:
            runs[-1].append(item)
        else:
            runs.append([item])
        last = current
    return runs


def _begin(record: CtmRecord) -> float:
    return record.begin if record.begin is not None else 0.0


def _end(record: CtmRecord) -> float:
    return _begin(record) + (record.duration or 0.0)


def _ctm_items(
    records: Sequence[CtmRecord], make: Callable[..., NetWord], fold: Callable[[str], str] | None = None
) -> tuple[Item, ...]:
    """The network items of ctm words (alternation lines become alternations; an empty alternative is ``@``).
    ``fold`` (no -D, no -F): a word without tags or trailing ``*`` is made here as ``make`` would."""
    items: list[Item] = []
    k = 0
    while k < len(records):
        record = records[k]
        marker = record.marker
        if marker is None and fold is not None:
            word = fold(record.word)
            if ";" not in word and word[-1:] != "*":
                begin = record.begin if record.begin is not None else 0.0
                items.append(NetWord(word, False, False, begin, begin + (record.duration or 0.0), record.confidence))
                k += 1
                continue
        if marker != "<ALT_BEGIN>":
            if marker is None:
                items.append(make(record.word, t1=_begin(record), t2=_end(record), conf=record.confidence))
            k += 1
            continue
        k += 1
        alternatives: list[tuple[Item, ...]] = []
        current: list[Item] = []
        while k < len(records) and records[k].marker != "<ALT_END>":
            if records[k].marker == "<ALT>":
                alternatives.append(tuple(current) or (make("@"),))
                current = []
            elif records[k].marker is None:
                w = records[k]
                current.append(make(w.word, t1=_begin(w), t2=_end(w), conf=w.confidence))
            k += 1
        alternatives.append(tuple(current) or (make("@"),))
        k += 1
        items.append(tuple(alternatives))
    return tuple(items)


def _middle(records: Sequence[CtmRecord], k: int) -> tuple[float, int]:
    """The middle time of the word (or alternation) at ``k`` and the index after it."""
    record = records[k]
    if record.marker != "<ALT_BEGIN>":
        return _begin(record) + (record.duration or 0.0) / 2.0, k + 1
    middle = 0.0
    j = k
    while j < len(records) and records[j].marker != "<ALT_END>":
        if records[j].marker is None:
            middle = max(middle, _begin(records[j]) + (records[j].duration or 0.0) / 2.0)
        j += 1
    return middle, min(j + 1, len(records))


def _reduce_hyp(segments: Sequence[StmSegment], words: list[CtmRecord]) -> list[bool]:
    """-m hyp: which ctm words lie outside the time of the (kept) segments and are left out; an
    alternation stays whole when one of its words is inside."""
    ignored = [False] * len(words)
    if not segments:
        return ignored
    begin = min(s.begin for s in segments)
    end = max(s.end for s in segments)
    ignored = [r.marker is None and (_begin(r) > end or _end(r) < begin) for r in words]
    k = 0
    while k < len(words):
        if words[k].marker == "<ALT_BEGIN>":
            j = k
            usable = 0
            while j < len(words) and words[j].marker != "<ALT_END>":
                if words[j].marker is None and not ignored[j]:
                    usable += 1
                j += 1
            for m in range(k, j):
                ignored[m] = usable == 0
            k = j
        k += 1
    return ignored


def _score_channel(
    segments: list[StmSegment],
    words: list[CtmRecord],
    options: SCliteOptions,
    groups: _Groups,
    fold: Callable[[str], str],
    segmentation: WordSegmentation | None = None,
) -> None:
    make = _reader(options)
    word_options = options.opt_del or options.frag_corr
    reducing = options.reduce_ref or options.reduce_hyp
    kept = [True] * len(segments)
    if options.reduce_ref and words:
        first, last = _begin(words[0]), _end(words[-1])
        kept = [not (first >= s.end or last <= s.begin) for s in segments]
    ignored = [False] * len(words)
    if options.reduce_hyp:
        ignored = _reduce_hyp([s for s, k in zip(segments, kept, strict=True) if k], words)
    position = 0
    for number, segment in enumerate(segments):
        if reducing and not kept[number]:
            continue
        start = position
        if number == len(segments) - 1:
            position = len(words)
        else:
            while position < len(words):
                middle, after = _middle(words, position)
                if middle >= segment.end:
                    break
                position = after
        if segment.ignored:
            continue
        speaker = fold(segment.speaker)
        utterance_id = f"({speaker}-{groups.count(speaker):03d})"
        chosen = [w for w, gone in zip(words[start:position], ignored[start:position], strict=True) if not gone]
        path = align_networks(
            parse_items(fold(segment.text), make),
            _ctm_items(chosen, lambda w, **times: make(fold(w), **times), None if word_options else fold),
            options.chars(),
            segmentation=segmentation,
        )
        groups.add(
            Utterance(
                utterance_id,
                speaker,
                tuple(path),
                fold(segment.file),
                fold(segment.channel),
                segment.begin,
                segment.end,
                None if segment.labels is None else fold(segment.labels),
            )
        )


def _score_stm_ctm(options: SCliteOptions) -> tuple[Speaker, ...]:
    fold = case_folder(options)
    segments = stm_segments(_read(options.ref, options, "ref"), options.ref)
    records = _ctm(options.hyp, options, "hyp")

    names: dict[str, str] = {}  # few recordings and channels, many lines

    def where(item: StmSegment | CtmRecord) -> tuple[str, str]:
        file, channel = names.get(item.file), names.get(item.channel)
        if file is None:
            file = names[item.file] = fold(item.file)
        if channel is None:
            channel = names[item.channel] = fold(item.channel)
        return file, channel

    channels = _runs(segments, where)
    hyp_channels = _runs(records, where)
    groups = _Groups()
    segmentation = _segmentation(options)
    h = 0
    for channel in channels:
        key = where(channel[0])
        words: list[CtmRecord] = []
        if h < len(hyp_channels) and where(hyp_channels[h][0]) == key:
            words = hyp_channels[h]
            h += 1
        _score_channel(channel, words, options, groups, fold, segmentation)
    if h < len(hyp_channels):
        extra = hyp_channels[h][0]
        raise InputError(
            f"the hypothesis has words for recording {extra.file} channel {extra.channel}, "
            "which the reference does not have at this point",
            options.hyp,
            extra.line,
            hint="the ctm must cover the stm's recordings and channels in the stm's order (sort both the same way)",
        )
    return groups.speakers()


# ------------------------------------------------------------------ ctm against ctm


@dataclass(frozen=True)
class _Timed:
    """A ctm line as sclite's ctm-to-ctm alignment sees it (1-based arrays; markers have no time)."""

    conv: str
    turn: str
    t1: float
    dur: float
    alternate: bool
    record: CtmRecord


def _timed(records: Sequence[CtmRecord], fold: Callable[[str], str]) -> list[_Timed]:
    out: list[_Timed] = []
    previous: _Timed | None = None
    for record in records:
        alternate = record.marker is not None or (
            previous is not None and previous.alternate and previous.record.marker != "<ALT_END>"
        )
        entry = _Timed(
            fold(record.file), fold(record.channel), _begin(record), record.duration or 0.0, alternate, record
        )
        out.append(entry)
        previous = entry
    return out


def _boundary(words: list[_Timed], start: int, by_turn: bool) -> int:
    """sclite's locate_boundary: the last index (1-based, ``words[0]`` unused) of the run that
    ``start`` begins, by conversation (and channel)."""
    n = len(words) - 1
    if start >= n:
        return start
    first = words[start]
    for w in range(start, n + 1):
        if words[w].conv != first.conv or (by_turn and words[w].turn != first.turn):
            return w - 1 if w - 1 != 0 else n
    return n


def _overlap(s1_t1: float, s1_t2: float, s2_t1: float, s2_t2: float) -> float:
    """sclite's overlap of two time spans (negative: apart)."""
    if s1_t1 < s2_t1:
        return s1_t2 - s2_t1 if s1_t2 < s2_t2 else s2_t2 - s2_t1
    return s1_t2 - s1_t1 if s1_t2 < s2_t2 else s2_t2 - s1_t1


def _chop(
    ref: list[_Timed], hyp: list[_Timed], r0: int, h0: int, r_last: int, h_last: int, max_words: int
) -> tuple[int, int] | None:
    """sclite's chop_WTOKE_2: the ends of the next chunk of both ctm files, cut where their words
    leave a common gap in time; None when no cut was found with ``max_words``."""

    def span(words: list[_Timed], k: int) -> tuple[float, float]:
        word = words[k]
        return word.t1, word.t1 + word.dur

    if r0 > r_last and h0 > h_last:
        return None
    if r_last - r0 < max_words and h_last - h0 < max_words:
        return r_last, h_last
    r_end = min(r0 + max_words, r_last)
    h_end = min(h0 + max_words, h_last)
    while r_end >= r0 and ref[r_end].alternate:
        r_end -= 1
    skipped = True
    while skipped:
        skipped = False
        if ref[r_end].t1 > hyp[h_end].t1:
            while (
                not skipped
                and r_end >= r0
                and ref[r_end].t1 > hyp[h_end].t1
                and _overlap(*span(ref, r_end), *span(hyp, h_end)) < 0.0
            ):
                r_end -= 1
                while r_end >= r0 and ref[r_end].alternate:
                    r_end -= 1
                    skipped = True
        elif ref[r_end].t1 < hyp[h_end].t1:
            while (
                h_end >= h0 and ref[r_end].t1 < hyp[h_end].t1 and _overlap(*span(ref, r_end), *span(hyp, h_end)) < 0.0
            ):
                h_end -= 1
    while r_end > r0 and h_end > h0:
        if r_end >= r0:
            r_gap = (ref[r_end].t1 + ref[r_end].dur, 999999.99 if r_end == r_last else ref[r_end + 1].t1)
        else:
            r_gap = (0.0, ref[r0].t1)
        if h_end >= h0:
            h_gap = (hyp[h_end].t1 + hyp[h_end].dur, 999999.99 if h_end == h_last else hyp[h_end + 1].t1)
        else:
            h_gap = (0.0, hyp[h0].t1)
        if _overlap(*r_gap, *h_gap) >= 0.0:
            return r_end, h_end
        skipped = True
        while skipped:
            skipped = False
            if ref[r_end].t1 > hyp[h_end].t1:
                if r_end > r0:
                    r_end -= 1
                    while r_end >= r0 and ref[r_end].alternate:
                        r_end -= 1
                        skipped = True
                while (
                    not skipped
                    and h_end >= h0
                    and ref[r_end].t1 < hyp[h_end].t1
                    and _overlap(*span(ref, r_end), *span(hyp, h_end)) < 0.0
                ):
                    h_end -= 1
            elif ref[r_end].t1 <= hyp[h_end].t1:
                if h_end > h0:
                    h_end -= 1
                while (
                    not skipped
                    and r_end >= r0
                    and ref[r_end].t1 > hyp[h_end].t1
                    and _overlap(*span(ref, r_end), *span(hyp, h_end)) < 0.0
                ):
                    r_end -= 1
                    while r_end >= r0 and ref[r_end].alternate:
                        r_end -= 1
                        skipped = True
    if r_end > r0 or h_end > h0:
        return r_end, h_end
    return None


def _sort_time_marks(path: list[PathEntry]) -> list[PathEntry]:
    """sclite's sort_PATH_time_marks: within each run of insertions and deletions, the words in the
    order of their begin times (a bubble sort, as sclite does it, so equal times keep their order)."""
    path = list(path)

    def begin(entry: PathEntry) -> float:
        word = entry.ref if entry.op == "D" else entry.hyp
        return word.t1 if word is not None else 0.0

    x, n = 0, len(path)
    while x < n:
        while x < n and path[x].op not in ("D", "I"):
            x += 1
        change = True
        while x < n and change:
            change = False
            tx = x + 1
            while tx < n and path[tx].op in ("D", "I"):
                if begin(path[tx - 1]) > begin(path[tx]):
                    path[tx - 1], path[tx] = path[tx], path[tx - 1]
                    change = True
                tx += 1
        while x < n and path[x].op in ("D", "I"):
            x += 1
    return path


def _score_ctm_ctm(options: SCliteOptions) -> tuple[Speaker, ...]:
    fold = case_folder(options)
    make = _reader(options)
    ref_records = _ctm(options.ref, options, "ref")
    hyp_records = _ctm(options.hyp, options, "hyp")
    dummy = _Timed("", "", 0.0, 0.0, False, CtmRecord("", "", 0.0, 0.0, "", None, 0))
    ref = [dummy, *_timed(ref_records, fold)]
    hyp = [dummy, *_timed(hyp_records, fold)]
    rn, hn = len(ref) - 1, len(hyp) - 1

    def mismatch(message: str, words: list[_Timed], k: int, path: str) -> InputError:
        line = words[min(k, len(words) - 1)].record.line
        return InputError(
            message, path, line or None, hint="both ctm files must hold the same conversations, in the same order"
        )

    def folded(token: str, **times: float | None) -> NetWord:
        return make(fold(token), **times)

    groups = _Groups()
    rs = hs = 1
    while hs <= hn or rs <= rn:
        if hs > hn:
            raise mismatch(f"the hypothesis has no words for conversation {ref[rs].record.file}", ref, rs, options.ref)
        if rs > rn:
            raise mismatch(f"the reference has no words for conversation {hyp[hs].record.file}", hyp, hs, options.hyp)
        ref_conv_end = _boundary(ref, rs, False)
        hyp_conv_end = _boundary(hyp, hs, False)
        if ref[rs].conv != hyp[hs].conv:
            raise mismatch(
                f"conversation {hyp[hs].record.file} of the hypothesis is where the reference has {ref[rs].record.file}",
                hyp,
                hs,
                options.hyp,
            )
        ref_chan1, hyp_chan1 = _boundary(ref, rs, True), _boundary(hyp, hs, True)
        channels = 1
        ref_chan2 = hyp_chan2 = -1
        if ref_chan1 + 1 < rn and ref[rs].conv == ref[ref_chan1 + 1].conv:
            ref_chan2, channels = _boundary(ref, ref_chan1 + 1, True), 2
        if hyp_chan1 + 1 < hn and hyp[hs].conv == hyp[hyp_chan1 + 1].conv:
            hyp_chan2, channels = _boundary(hyp, hyp_chan1 + 1, True), 2
        if channels == 2 and (ref_chan2 == -1 or hyp_chan2 == -1):
            raise mismatch(
                f"conversation {ref[rs].record.file} has two channels in one file only", ref, rs, options.ref
            )
        spans = [(rs, ref_chan1, hs, hyp_chan1)]
        if channels == 2:
            spans.append((ref_chan1 + 1, ref_chan2, hyp_chan1 + 1, hyp_chan2))
        for ref_begin, ref_end, hyp_begin, hyp_end in spans:
            chunk = 0
            while ref_begin <= ref_end or hyp_begin <= hyp_end:
                base = 50
                cut = _chop(ref, hyp, ref_begin, hyp_begin, ref_end, hyp_end, base)
                while cut is None:
                    base *= 2
                    cut = _chop(ref, hyp, ref_begin, hyp_begin, ref_end, hyp_end, base)
                ref_cut, hyp_cut = cut
                first = ref[min(ref_begin, rn)]
                speaker = f"{first.conv}-{first.turn}"
                ref_items = _ctm_items([w.record for w in ref[ref_begin : ref_cut + 1]], folded)
                hyp_items = _ctm_items([w.record for w in hyp[hyp_begin : hyp_cut + 1]], folded)
                path = _sort_time_marks(align_networks(ref_items, hyp_items, options.chars(), timed=options.time_align))
                groups.add(Utterance(f"({speaker}-{chunk:04d})", speaker, tuple(path), first.conv, first.turn))
                ref_begin, hyp_begin = ref_cut + 1, hyp_cut + 1
                chunk += 1
        hs, rs = hyp_conv_end + 1, ref_conv_end + 1
    return groups.speakers()


def _segmentation(options: SCliteOptions) -> WordSegmentation | None:
    """``-S``: the lexicon (the first field of every line; its longest word in characters)."""
    if not options.segmentation or options.lexicon is None:
        return None
    words = []
    for line in _read(options.lexicon, options).split("\n"):
        fields = line.split()
        words.append(fields[0] if fields else "")
    if words and words[-1] == "":
        words.pop()
    split = CharAlignment(encoding=options.encoding)
    longest = max([1, *(len(split._characters(word)) for word in words)])
    return WordSegmentation(
        options.segmentation, frozenset(words), longest, options.segment_ascii_too, options.encoding
    )


def comment_labels(text: str) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]]]:
    """The ``;; LABEL "id" "title" "desc"`` and ``;; CATEGORY ...`` lines of a file, without repeats."""
    labels: list[tuple[str, str, str]] = []
    categories: list[tuple[str, str, str]] = []
    for line in text.split("\n"):
        if line.startswith(";; LABEL "):
            target = labels
        elif line.startswith(";; CATEGORY "):
            target = categories
        else:
            continue
        quoted = line.split('"')
        if len(quoted) >= 7:
            entry = (quoted[1], quoted[3], quoted[5])
            if entry not in target:
                target.append(entry)
    return labels, categories


def score_sclite(options: SCliteOptions) -> SCliteResult:
    """Score ``options.hyp`` against ``options.ref`` as sclite does.

    Raises:
        UsageError: a pair of formats sclite does not score, or options it does not combine.
        InputError: a malformed file, a hypothesis utterance without a reference.
    """
    _FILES.clear()
    try:
        return _score(options)
    finally:
        _FILES.clear()


def _score(options: SCliteOptions) -> SCliteResult:
    formats = (options.ref_format, options.hyp_format)
    if formats == ("trn", "trn"):
        if options.id_type is None:
            raise UsageError("trn transcripts need an utterance id type (-i)", hint="e.g. -i spu_id, -i wsj, -i sp")
        speakers = _score_trn(options)
    elif formats == ("stm", "ctm"):
        if options.time_align:
            raise UsageError("time-mediated alignment (-T) needs a ctm reference", hint="give -r REF.ctm ctm")
        speakers = _score_stm_ctm(options)
    elif formats == ("ctm", "ctm"):
        speakers = _score_ctm_ctm(options)
    else:
        raise UsageError(
            f"scoring a {options.hyp_format} hypothesis against a {options.ref_format} reference is not supported",
            hint="hub4eval sclite scores trn against trn, ctm against stm and ctm against ctm",
        )
    labels: list[tuple[str, str, str]] = []
    categories: list[tuple[str, str, str]] = []
    # sclite reads the hypothesis's comment lines first for trn, the reference's first otherwise
    paths = (options.hyp, options.ref) if formats == ("trn", "trn") else (options.ref, options.hyp)
    confidences = {}
    for path in paths:
        text = _read(path, options)
        more_labels, more_categories = comment_labels(text)
        labels += [entry for entry in more_labels if entry not in labels]
        categories += [entry for entry in more_categories if entry not in categories]
    for path, form, side in ((options.ref, options.ref_format, "ref"), (options.hyp, options.hyp_format, "hyp")):
        confidences[path] = form == "ctm" and any(r.confidence is not None for r in _ctm(path, options, side))
    return SCliteResult(
        options.title or options.hyp,
        options.ref,
        options.hyp,
        speakers,
        options,
        labels=tuple(labels),
        categories=tuple(categories),
        ref_confidences=confidences[options.ref],
        hyp_confidences=confidences[options.hyp],
    )
