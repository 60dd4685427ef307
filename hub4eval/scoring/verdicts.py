"""§6: comparing single fills, giving verdicts (kind, category, reason).

Pure functions over prepared fills (see :mod:`hub4eval.scoring.fills`). A verdict
says in words why a point is what it is; the mapping layer attaches the
instance, slot and fills to make it a :class:`hub4eval.scoring.points.Point`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from json.encoder import encode_basestring
from typing import Literal

from hub4eval.config import ScoreConfig
from hub4eval.model import Extent, PointerFill
from hub4eval.scoring.fills import PreparedFill
from hub4eval.scoring.metrics import Category
from hub4eval.scoring.noisy import filler_set, noisy_content_correct, noisy_correct

Kind = Literal["pointer", "content", "extent"]
KINDS: tuple[Kind, ...] = ("pointer", "content", "extent")


Reason = tuple[str, tuple[str, ...]]
"""A reason as a template and its fields: ``template.format(*fields)`` is the text.

The template is one of this module's constants, with ``{0}``, ``{1}``... where
the fields go (and no other braces); the fields are texts from the input. A
reason given as a plain string is its own template, without fields: it is never
formatted. The HTML report sends the templates once and the fields apart (most
of a large evaluation's reason text is a few templates said a million times).
"""


def format_reason(template: str, fields: tuple[str, ...]) -> str:
    """The text of a reason given as a template and its fields."""
    return template.format(*fields) if fields else template


class Verdict:
    """One point before it is placed: its kind, category and the reason.

    The reason may be given as a function and its arguments, which make the
    reason (a :data:`Reason`: template and fields) when it is first read: a
    large evaluation has a million verdicts, many of them never read (or read
    only by the reports that show reasons), and a function with an argument
    tuple is smaller and quicker to make than the formatted text or a closure.
    """

    __slots__ = ("kind", "category", "_reason", "_args", "_text")

    def __init__(self, kind: Kind, category: Category, reason: str | Callable[..., Reason], *args: object) -> None:
        self.kind = kind
        self.category = category
        self._reason = reason
        self._args = args
        self._text: str | None = reason if isinstance(reason, str) else None

    @property
    def reason(self) -> str:
        """The reason in words (made once, then kept; its parts stay as they were)."""
        if self._text is None:
            self._text = format_reason(*self._reason(*self._args))  # type: ignore[operator]
        return self._text

    def reason_parts(self) -> Reason:
        """The reason as a template and its fields (see :data:`Reason`), without formatting it."""
        if isinstance(self._reason, str):
            return self._reason, ()
        return self._reason(*self._args)

    @staticmethod
    def parts_of(verdicts: Iterable[Verdict]) -> list[Reason]:
        """:meth:`reason_parts` of each verdict (one loop: the HTML report asks for a million)."""
        parts: list[Reason] = []
        append = parts.append
        for verdict in verdicts:
            reason = verdict._reason
            append((reason, ()) if reason.__class__ is str else reason(*verdict._args))  # type: ignore[operator]
        return parts

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Verdict):
            return NotImplemented
        return (self.kind, self.category, self.reason) == (other.kind, other.category, other.reason)

    def __hash__(self) -> int:
        return hash((self.kind, self.category, self.reason))

    def __repr__(self) -> str:
        return f"Verdict({self.kind!r}, {self.category!r}, {self.reason!r})"


def _q(text: str) -> str:
    return f"`{text}`"


def _extents(extents: tuple[Extent | None, ...]) -> str:
    return ", ".join(str(e) for e in extents if e is not None) or "none"


# The rules of §6 are the *_status functions; verdicts add the reason in words.


def clean_content_status(ref: PreparedFill, hyp: PreparedFill) -> str:
    """``ok``, ``outside`` (not inside the maximal string) or ``no-minimal``."""
    hyp_text = hyp.maximal.text
    if hyp_text not in ref.maximal.text:
        return "outside"
    for minimal in ref.minimals:
        if minimal.text in hyp_text:
            return "ok"
    return "no-minimal"


def _clean_reason(status: str, ref: PreparedFill, hyp: PreparedFill) -> Reason:
    hyp_text, ref_text = hyp.maximal.text, ref.maximal.text
    if status == "outside":
        return "hypothesis `{0}` is not inside the reference maximal string `{1}`", (hyp_text, ref_text)
    if status == "no-minimal":
        wanted = " or ".join(_q(m.text) for m in ref.minimals)
        return "hypothesis `{0}` does not contain any minimal string: {1}", (hyp_text, wanted)
    for minimal in ref.minimals:  # a loop, not next(generator): this runs for every correct point
        if minimal.text in hyp_text:
            break
    return "hypothesis `{0}` is inside `{1}` and contains the minimal string `{2}`", (hyp_text, ref_text, minimal.text)


def _clean_content(ref: PreparedFill, hyp: PreparedFill) -> Verdict:
    status = clean_content_status(ref, hyp)
    return Verdict("content", "COR" if status == "ok" else "INC", _clean_reason, status, ref, hyp)


def noisy_content_ok(ref: PreparedFill, hyp: PreparedFill, fillers: frozenset[str]) -> bool:
    """Whether the noisy content point of the pair is COR, from each string's words
    (read once, with its tokens)."""
    ref_max = ref.maximal.noisy_words(fillers)
    minimals = [m.noisy_words(fillers) for m in ref.minimals] or [ref_max]
    return noisy_correct(ref_max, minimals, hyp.maximal.noisy_words(fillers))


def _noisy_content(ref: PreparedFill, hyp: PreparedFill, fillers: frozenset[str], correct: bool | None) -> Verdict:
    # the verdict alone now (unless known already); its reason in words when it is read
    if correct is None:
        correct = noisy_content_ok(ref, hyp, fillers)
    return Verdict("content", "COR" if correct else "INC", _noisy_reason, ref, hyp, fillers)


def _noisy_reason(ref: PreparedFill, hyp: PreparedFill, fillers: frozenset[str]) -> Reason:
    _, reason = noisy_content_correct(ref.maximal.tokens, [m.tokens for m in ref.minimals], hyp.maximal.tokens, fillers)
    return reason, ()  # a text of its own: a template without fields


def extent_status(ref: PreparedFill, hyp: PreparedFill) -> str:
    """``ok`` or why not: ``no-hyp-extent``, ``no-ref-extent``, ``hyp-unaligned``,
    ``ref-unaligned``, ``not-enclosed``, ``no-minimal``."""
    if not hyp.has_extent:
        return "no-hyp-extent"
    if not ref.has_extent:
        return "no-ref-extent"
    hyp_extent = hyp.maximal.extent
    ref_extent = ref.maximal.extent
    if hyp_extent is None:
        return "hyp-unaligned"
    if ref_extent is None:
        return "ref-unaligned"
    if ref.enclosure is not None:  # widened over inserted words at its edges (§7.3)
        ref_extent = ref.enclosure
    # ref_extent.encloses(hyp_extent), written out (it runs for every extent pair)
    start, end = ref_extent.start, ref_extent.end
    if not (start <= hyp_extent.start <= end and start <= hyp_extent.end <= end):
        return "not-enclosed"
    for minimal in ref.minimals:
        if minimal.extent is not None and minimal.extent.overlaps(hyp_extent):
            return "ok"
    return "no-minimal"


_EXTENT_REASONS = {
    "no-hyp-extent": "the hypothesis fill has no extent",
    "no-ref-extent": "the reference fill has no extent",
    "hyp-unaligned": "the hypothesis extent touches no aligned word",
    "ref-unaligned": "the reference extent touches no aligned word",
}


def _extent_reason(status: str, ref: PreparedFill, hyp: PreparedFill) -> Reason:
    if status in _EXTENT_REASONS:
        return _EXTENT_REASONS[status], ()
    hyp_extent, ref_extent = str(hyp.maximal.extent), str(ref.maximal.extent)
    if ref.enclosure is not None:  # the enclosure test took the inserted words at its edges too
        enclosing = f"{ref_extent} (with the inserted words at its edges {ref.enclosure})"
        if status == "not-enclosed":
            return "extent {0} not enclosed in {1}", (hyp_extent, enclosing)
        if status == "ok" and ref.minimals == (ref.maximal,):
            return "extent {0} enclosed in {1}, overlaps minimal {2}", (hyp_extent, enclosing, ref_extent)
        ref_extent = enclosing
    if status == "not-enclosed":
        return "extent {0} not enclosed in {1}", (hyp_extent, ref_extent)
    if status == "ok" and ref.minimals == (ref.maximal,):  # no minimal string of its own
        return "extent {0} enclosed in {1}, overlaps minimal {1}", (hyp_extent, ref_extent)
    minimal_extents = tuple(m.extent for m in ref.minimals)
    if status == "no-minimal":
        return (
            "extent {0} enclosed in {1} but overlaps no minimal extent ({2})",
            (hyp_extent, ref_extent, _extents(minimal_extents)),
        )
    hyp_span = hyp.maximal.extent
    found = next(e for e in minimal_extents if e is not None and e.overlaps(hyp_span))  # type: ignore[arg-type]
    return "extent {0} enclosed in {1}, overlaps minimal {2}", (hyp_extent, ref_extent, str(found))


def _extent(ref: PreparedFill, hyp: PreparedFill) -> Verdict:
    status = extent_status(ref, hyp)
    return Verdict("extent", "COR" if status == "ok" else "INC", _extent_reason, status, ref, hyp)


@dataclass(frozen=True)
class TextComparison:
    """What to compare in text fills: the options of §6, resolved once."""

    content: bool = True
    extent: bool = True
    noisy: bool = False
    fillers: frozenset[str] = frozenset()  # lower case
    exact_extent: bool = False  # named entities: an extent is correct only when it is the reference's

    @classmethod
    def of(cls, config: ScoreConfig, noisy: bool) -> TextComparison:
        return cls(config.compares_content, config.compares_extent, noisy, filler_set(config.fillers))


def exact_extent_status(ref: PreparedFill, hyp: PreparedFill) -> str:
    """Named entities (MUC): ``exact`` when the two extents are equal, else why not
    (the reasons of :func:`extent_status`, or ``not-equal``)."""
    status = extent_status(ref, hyp)
    if status in _EXTENT_REASONS:
        return status
    return "exact" if ref.maximal.extent == hyp.maximal.extent else "not-equal"


def _exact_extent_reason(status: str, ref: PreparedFill, hyp: PreparedFill) -> Reason:
    if status in _EXTENT_REASONS:
        return _EXTENT_REASONS[status], ()
    if status == "exact":
        return "extent {0} is the reference extent", (str(hyp.maximal.extent),)
    return "extent {0} is not the reference extent {1}", (str(hyp.maximal.extent), str(ref.maximal.extent))


def _exact_extent(ref: PreparedFill, hyp: PreparedFill) -> Verdict:
    status = exact_extent_status(ref, hyp)
    return Verdict("extent", "COR" if status == "exact" else "INC", _exact_extent_reason, status, ref, hyp)


def compare_text(
    ref: PreparedFill, hyp: PreparedFill, how: TextComparison, noisy_ok: bool | None = None
) -> tuple[Verdict, ...]:
    """The points of a reference/hypothesis text fill pair (one per aspect); ``noisy_ok``:
    whether the noisy content point is COR, when it was worked out before
    (:func:`noisy_content_ok` of the pair; None: worked out here)."""
    extent = _exact_extent if how.exact_extent else _extent
    if how.content:
        content = _noisy_content(ref, hyp, how.fillers, noisy_ok) if how.noisy else _clean_content(ref, hyp)
        if how.extent and (ref.has_extent or hyp.has_extent):
            return (content, extent(ref, hyp))
        return (content,)
    if how.extent and (ref.has_extent or hyp.has_extent):
        return (extent(ref, hyp),)
    return ()


_UNPAIRED: dict[tuple[bool, bool, bool, bool, bool], tuple[Verdict, ...]] = {}
_OPTIONAL_LEFT = "reference fill in an optional slot left unmatched"
_NO_HYPOTHESIS = "no hypothesis fill for this reference fill"
_NO_REFERENCE = "no reference fill for this hypothesis fill"
# the JSON of the reasons of the shared verdicts (said a hundred thousand times)
_SHARED_JSON = {text: encode_basestring(text) for text in (_OPTIONAL_LEFT, _NO_HYPOTHESIS, _NO_REFERENCE)}


def unpaired_text(
    fill: PreparedFill, config: ScoreConfig, *, reference: bool, optional_slot: bool = False
) -> tuple[Verdict, ...]:
    """MIS (OPT in an optional slot) or SPU for each point the fill would have had.

    These verdicts depend on five facts only, so each combination is made once
    and shared (a verdict is never changed once made): an evaluation has
    hundreds of thousands of fills left over.
    """
    optional_slot = optional_slot and reference
    key = (reference, optional_slot, config.compares_content, config.compares_extent, fill.has_extent)
    shared = _UNPAIRED.get(key)
    if shared is not None:
        return shared
    if reference:
        category: Category = "OPT" if optional_slot else "MIS"
        reason = _OPTIONAL_LEFT if optional_slot else _NO_HYPOTHESIS
    else:
        category, reason = "SPU", _NO_REFERENCE
    verdicts = []
    if config.compares_content:
        verdicts.append(Verdict("content", category, reason))
    if config.compares_extent and fill.has_extent:
        verdicts.append(Verdict("extent", category, reason))
    shared = _UNPAIRED[key] = tuple(verdicts)
    return shared


def _pointer_reason(ref: PointerFill, hyp: PointerFill, mapped: str | None) -> Reason:
    if mapped == hyp.key:
        return "{0} is mapped to {1}", (ref.key, hyp.key)
    if mapped is None:
        return "pointer: reference instance {0} is mapped to nothing, hypothesis points to {1}", (ref.key, hyp.key)
    return "pointer: reference instance {0} mapped to {1}, hypothesis points to {2}", (ref.key, mapped, hyp.key)


def compare_pointer(ref: PointerFill, hyp: PointerFill, instance_mapping: Mapping[str, str]) -> Verdict:
    """COR iff the two pointed-to instances are mapped to each other."""
    mapped = instance_mapping.get(ref.key)
    return Verdict("pointer", "COR" if mapped == hyp.key else "INC", _pointer_reason, ref, hyp, mapped)


def unpaired_pointer(
    fill: PointerFill,
    *,
    reference: bool,
    optional_slot: bool = False,
    removed: bool = False,
) -> Verdict:
    """A left-over pointer: SPU (hypothesis), or MIS / OPT / REM (reference)."""
    category: Category = "SPU" if not reference else "OPT" if optional_slot else "REM" if removed else "MIS"
    return Verdict("pointer", category, _UNPAIRED_POINTER[category].format(fill.key))


# The reason of a left-over pointer by its category ({0}: the pointer).
_UNPAIRED_POINTER: dict[str, str] = {
    "SPU": "no reference pointer for {0}",
    "OPT": "{0} in an optional slot left unmatched",
    "REM": "{0} points to an optional instance that no hypothesis instance matched",
    "MIS": "no hypothesis pointer for {0}",
}


# The JSON of a reason, for the million points of a large --json: the usual reasons
# written out (an f-string is several times quicker than str.format of the template,
# and escaping the fields quicker than escaping the whole text), the others formatted
# from their parts. Each returns None where its reason is not one of those written
# out. They say what the templates above say (a test compares them with
# format_reason on every status).


def _clean_json(status: str, ref: PreparedFill, hyp: PreparedFill) -> str | None:
    text = hyp.maximal.text
    shown = encode_basestring(text)[1:-1]  # the text as it stands inside a JSON string
    reference = ref.maximal.text
    shown_reference = shown if reference == text else encode_basestring(reference)[1:-1]
    if status == "ok":
        minimals = ref.minimals
        if len(minimals) != 1:
            return None
        minimal = minimals[0].text  # the one minimal string: the one the hypothesis text contains
        shown_minimal = shown_reference if minimal == reference else encode_basestring(minimal)[1:-1]
        return f'"hypothesis `{shown}` is inside `{shown_reference}` and contains the minimal string `{shown_minimal}`"'
    if status == "outside":
        return f'"hypothesis `{shown}` is not inside the reference maximal string `{shown_reference}`"'
    return None


def _extent_json(status: str, ref: PreparedFill, hyp: PreparedFill) -> str | None:
    # the extents are numbers: nothing to escape
    if ref.enclosure is not None or (status != "ok" and status != "not-enclosed"):
        return None
    hyp_extent = hyp.maximal.extent
    ref_extent = ref.maximal.extent
    reference = f"{ref_extent.start}..{ref_extent.end}"  # type: ignore[union-attr]
    shown = reference if hyp_extent == ref_extent else f"{hyp_extent.start}..{hyp_extent.end}"  # type: ignore[union-attr]
    if status == "not-enclosed":
        return f'"extent {shown} not enclosed in {reference}"'
    minimals = ref.minimals
    if len(minimals) == 1 and minimals[0] is ref.maximal:  # the usual fill's: no minimal of its own
        return f'"extent {shown} enclosed in {reference}, overlaps minimal {reference}"'
    return None


def _pointer_json(ref: PointerFill, hyp: PointerFill, mapped: str | None) -> str | None:
    key = hyp.key
    if mapped == key:
        return encode_basestring(f"{ref.key} is mapped to {key}")
    return None


_JSON_WRITERS: dict[object, Callable[..., str | None]] = {
    _clean_reason: _clean_json,
    _extent_reason: _extent_json,
    _pointer_reason: _pointer_json,
}


def reason_json(verdict: Verdict) -> str:
    """``verdict.reason`` as a JSON string (as ``json.dumps(verdict.reason, ensure_ascii=False)``),
    made without keeping the text in the verdict (the --json writer asks once per point)."""
    reason = verdict._reason
    if reason.__class__ is str:
        shared = _SHARED_JSON.get(reason)
        return encode_basestring(reason) if shared is None else shared
    text = verdict._text
    if text is None:
        writer = _JSON_WRITERS.get(reason)
        if writer is not None:
            written = writer(*verdict._args)
            if written is not None:
                return written
        text = format_reason(*reason(*verdict._args))  # type: ignore[operator]
    return encode_basestring(text)


# The JSON of the reason of a point given by its kind and category, without its verdict:
# the points of a count without match records (hub4eval.scoring.counted_points), whose
# reasons are made when they are written. Each says what reason_json says of the verdict
# the comparison above would give (the same status functions decide; a test compares them).

_UNPAIRED_TEXT_JSON = {
    "MIS": _SHARED_JSON[_NO_HYPOTHESIS],
    "OPT": _SHARED_JSON[_OPTIONAL_LEFT],
    "SPU": _SHARED_JSON[_NO_REFERENCE],
}


def text_reason_json(kind: str, correct: bool, ref: PreparedFill, hyp: PreparedFill, how: TextComparison) -> str:
    """The JSON of the reason of the ``kind`` point (content or extent) of a compared text
    fill pair, COR when ``correct`` (as :func:`compare_text` decides it)."""
    if kind == "content":
        if how.noisy:
            return encode_basestring(format_reason(*_noisy_reason(ref, hyp, how.fillers)))
        status = "ok" if correct else clean_content_status(ref, hyp)
        return _clean_json(status, ref, hyp) or encode_basestring(format_reason(*_clean_reason(status, ref, hyp)))
    if how.exact_extent:
        status = exact_extent_status(ref, hyp)
        return encode_basestring(format_reason(*_exact_extent_reason(status, ref, hyp)))
    status = "ok" if correct else extent_status(ref, hyp)
    return _extent_json(status, ref, hyp) or encode_basestring(format_reason(*_extent_reason(status, ref, hyp)))


def pointer_reason_json(ref: PointerFill, hyp: PointerFill, mapped: str | None) -> str:
    """The JSON of the reason of a compared pointer pair (:func:`compare_pointer`), ``mapped``
    the hypothesis instance the reference pointer's target is mapped to."""
    return _pointer_json(ref, hyp, mapped) or encode_basestring(format_reason(*_pointer_reason(ref, hyp, mapped)))


def unpaired_reason_json(category: str, fill: PointerFill | None = None) -> str:
    """The JSON of the reason of a left-over fill's point of ``category`` (MIS, OPT, REM or
    SPU): of a text fill (:func:`unpaired_text`), or of the pointer ``fill`` (:func:`unpaired_pointer`)."""
    if fill is None:
        return _UNPAIRED_TEXT_JSON[category]
    return encode_basestring(_UNPAIRED_POINTER[category].format(fill.key))
