"""Every option that changes a score, in one frozen dataclass.

The CLI builds a :class:`ScoreConfig` from its options and the library API
takes one; :meth:`ScoreConfig.signature` makes a score self-describing (it is
printed under every table and stored in the JSON).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Literal

from hub4eval.errors import UsageError

CompareMode = Literal["both", "content", "extent"]
ContentMode = Literal["auto", "clean", "noisy"]

DEFAULT_NON_EXTRACTABLE = ("ANNOTATION",)
DEFAULT_SPOKEN_ELEMENT = "TEXT"
DEFAULT_PREMODIFIERS = ("a", "an", "the", "and")
DEFAULT_UNSCORED_SLOTS = ("COMMENT", "DOC_NR", "OBJ_STATUS")
SPOKEN_FORMS = ("en", "none")  # hub4eval.text.spoken.LANGUAGES, and none
DEFAULT_FILLERS = ("uh", "um", "er", "ah", "eh", "hm", "hmm", "mm", "uhm", "%hesitation")
# The options that change a word alignment and its WER (`hub4eval align`).
# What the templette grammar accepts as a slot name (grammars/templette.lark, SLOT_NAME).
_SLOT_NAME = re.compile(r"[A-Za-z0-9_-]+")
ALIGNMENT_FIELDS = (
    "keep_punctuation",
    "case_sensitive",
    "non_extractable",
    "spoken_element",
    "glm",
    "spoken_forms",
    "unsegmented",
)


@dataclass(frozen=True)
class ScoreConfig:
    """Scoring options (docs/scoring-rules.md); the defaults are the procedure's.

    Attributes:
        compare: which aspects of a text fill give points.
        content: clean or noisy content comparison; ``auto`` is noisy exactly
            when the two text corpora differ.
        beta: weight of recall against precision in F.
        min_map_f: when set above 0, instance pairs (only instance pairs: not
            instance sets, alternatives or single fills) are mapped only if
            their F is greater than this (MUC-style threshold); None, and 0
            given explicitly, map every pair, as the procedure does, F = 0
            included. 0 is stored as None, so both sign the same.
        unscored_slots: slot names that give no points.
        premodifiers: leading words removed from fills.
        keep_punctuation: turn off the punctuation whiteout.
        case_sensitive: compare case-sensitively.
        non_extractable: SGML elements whose content is not text.
        spoken_element: in a document that has this element, only the text
            inside it is spoken (aligned and counted in WER); a document
            without it is all spoken.
        fillers: reference filler words, optional in noisy comparison.
        glm: spelling-normalization files used when texts differ, applied in
            this order: ``default`` (the shipped ``mapping_files/en.glm``) or a
            path each; ``("none",)`` for none. A single string is read
            as a one-file tuple.
        spoken_forms: language whose spoken and written number forms are
            brought to one form when texts differ (``en``), or ``none``
            (docs/spoken-forms.md).
        unsegmented: treat the hypothesis corpus as unsegmented; None decides
            automatically (no document tags).
        split_sets: an extension (``--split-sets``): with an unsegmented
            hypothesis, cut each hypothesis instance set at the reference
            documents' boundaries before sets are mapped
            (:mod:`hub4eval.scoring.split_sets`).
    """

    compare: CompareMode = "both"
    content: ContentMode = "auto"
    beta: float = 1.0
    min_map_f: float | None = None
    unscored_slots: tuple[str, ...] = DEFAULT_UNSCORED_SLOTS
    premodifiers: tuple[str, ...] = DEFAULT_PREMODIFIERS
    keep_punctuation: bool = False
    case_sensitive: bool = False
    non_extractable: tuple[str, ...] = DEFAULT_NON_EXTRACTABLE
    spoken_element: str = DEFAULT_SPOKEN_ELEMENT
    fillers: tuple[str, ...] = DEFAULT_FILLERS
    glm: tuple[str, ...] = ("default",)
    spoken_forms: str = "en"
    unsegmented: bool | None = None
    split_sets: bool = False

    def __post_init__(self) -> None:
        if self.compare not in ("both", "content", "extent"):
            raise UsageError(f"unknown --compare value {self.compare!r}", hint="use both, content or extent")
        if self.content not in ("auto", "clean", "noisy"):
            raise UsageError(f"unknown --content value {self.content!r}", hint="use auto, clean or noisy")
        # math.isfinite: inf would pass "> 0" and then break the exact F
        # arithmetic (Fraction('inf')) with a traceback.
        if not (isinstance(self.beta, (int, float)) and math.isfinite(self.beta) and self.beta > 0):
            raise UsageError(f"--beta must be positive and finite, got {self.beta}", hint="e.g. --beta 1")
        if not (isinstance(self.spoken_element, str) and re.fullmatch(r"[A-Za-z][\w.:-]*", self.spoken_element)):
            raise UsageError(
                f"--spoken-element {self.spoken_element!r} is not an SGML element name",
                hint="give the name without brackets, e.g. --spoken-element TEXT",
            )
        if self.min_map_f is not None and not 0 <= self.min_map_f < 1:
            raise UsageError(f"--min-map-f must be in [0, 1), got {self.min_map_f}")
        if isinstance(self.glm, str):
            object.__setattr__(self, "glm", (self.glm,))
        elif not isinstance(self.glm, tuple):  # a list from a library caller
            object.__setattr__(self, "glm", tuple(self.glm))
        if not self.glm:
            object.__setattr__(self, "glm", ("none",))
        if any(not name for name in self.glm):
            raise UsageError("the --glm path is empty", hint="give a mapping file, 'default' or 'none'")
        if "none" in self.glm and len(self.glm) > 1:
            raise UsageError(
                "--glm none cannot be combined with other mapping files",
                hint="give --glm none alone, or only files",
            )
        if self.spoken_forms not in SPOKEN_FORMS:
            raise UsageError(
                f"unknown --spoken-forms value {self.spoken_forms!r}",
                hint=f"use {' or '.join(SPOKEN_FORMS)}",
            )
        for slot in self.unscored_slots:
            if not _SLOT_NAME.fullmatch(slot):
                raise UsageError(
                    f"--unscored-slot {slot!r} is not a slot name (letters, digits, '_' and '-')",
                    hint="repeat the option, one slot each: "
                    + " ".join(f"--unscored-slot {part}" for part in re.split(r"[,\s]+", slot) if part)
                    if "," in slot
                    else "give a slot name as the templette files write it",
                )
        if self.min_map_f == 0:
            # §5 (v1.1): 0 always means the procedure (every pair mapped);
            # one value for it keeps the signature and the mapping the same.
            object.__setattr__(self, "min_map_f", None)

    @property
    def beta_squared(self) -> Fraction:
        """beta**2 as an exact fraction, so F ties are exact."""
        beta = Fraction(str(self.beta))
        return beta * beta

    @property
    def compares_content(self) -> bool:
        return self.compare in ("both", "content")

    @property
    def compares_extent(self) -> bool:
        return self.compare in ("both", "extent")

    @property
    def glm_files(self) -> tuple[str, ...]:
        """The mapping files to apply, in order (empty for ``none``)."""
        return () if self.glm == ("none",) else self.glm

    def signature(
        self,
        *,
        texts: str = "none",
        version: str | None = None,
        glm_digest: str | tuple[str, ...] | None = None,
        only: tuple[str, ...] | None = None,
    ) -> str:
        """A one-line description of every option, e.g. for the report footer.

        Args:
            texts: how texts were used: ``none``, ``same`` or ``aligned``.
            version: hub4eval's version (default: the installed one).
            glm_digest: digest of the GLM rules actually applied, one per
                file when several are stacked (see :func:`_glm_signature`):
                by its rules, never its path, so the same file elsewhere gives
                the same signature and two different files never share one.
            only: the fields to show (default: all), e.g. ``ALIGNMENT_FIELDS``.
        """
        if version is None:
            from hub4eval import __version__ as version
        parts = [f"hub4eval {version}", f"texts:{texts}"]
        for field in fields(self):
            if only is not None and field.name not in only:
                continue
            value = getattr(self, field.name)
            if isinstance(value, tuple):
                value = ",".join(map(signed, value)) if value else "-"
            elif isinstance(value, str):
                value = signed(value)
            elif value is None:
                value = "auto" if field.name == "unsegmented" else "none"
            if field.name == "glm":
                value = _glm_signature(self.glm, glm_digest)
            if field.name == "spoken_forms" and value != "none":
                value = f"{value}@text2num-{_text2num_version()}"
            parts.append(f"{field.name}:{value}")
        return "|".join(parts)


def signed(value: str) -> str:
    """``value`` as a signature shows it: ``|`` and ``,`` written ``%7C`` and
    ``%2C``, a ``%`` that two hex digits follow ``%25``, a lone ``-`` (an empty
    list's mark) ``%2D``; everything else as it is.

    A ``|`` separates the options of a signature and a ``,`` the values of a
    list option; escaped, no two different option values give the same
    signature (``--premodifiers 'a|b'`` is ``premodifiers:a%7Cb``), and a
    value without these characters (``%hesitation``) reads as it is.

    >>> signed("a|b,c"), signed("%2C"), signed("%hesitation"), signed("-")
    ('a%7Cb%2Cc', '%252C', '%hesitation', '%2D')
    """
    if value == "-":
        return "%2D"
    return _ESCAPED.sub(lambda match: f"%{ord(match.group()[0]):02X}", value)


# What signed() escapes: '|', ',' and a '%' before two hex digits.
_ESCAPED = re.compile(r"[|,]|%(?=[0-9A-Fa-f]{2})")


def _text2num_version() -> str:
    """The installed text2num's version: it parses the number words (§8.2)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("text2num")
    except PackageNotFoundError:  # pragma: no cover - a declared dependency
        return "?"


def _glm_signature(glm: tuple[str, ...], digest: str | tuple[str, ...] | None) -> str:
    """The GLM part of a signature: each file by its rules' digest, never by its path.

    The shipped file shows as ``default@sha1:XXXXXXXX``, another as
    ``sha1:XXXXXXXX``, stacked files joined by ``+`` in the order they apply;
    without digests (the texts do not differ, so no file was applied) the
    shipped file shows as ``default`` and another as ``unused``.
    """
    if glm == ("none",):
        return "none"
    if not digest:
        return "+".join("default" if name == "default" else "unused" for name in glm)
    digests = (digest,) if isinstance(digest, str) else digest
    return "+".join(
        f"default@sha1:{d[:8]}" if name == "default" else f"sha1:{d[:8]}" for name, d in zip(glm, digests, strict=True)
    )
