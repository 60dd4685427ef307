"""Options shared by the commands that score (score, explain, compare).

They are declared once, in ``_SCORING_OPTIONS``: ``@scoring_options`` puts them
in a command's signature, where its ``scoring`` parameter stands, and hands
their values to the command as one :class:`ScoringOptions`, which makes the
library's option records: the ``ScoreConfig`` and the ``ReadOptions``.

Conventions of every command: an option with fixed choices lists them (an
unknown value is a usage error that names them); a list option is repeated,
one value each time (``--premodifiers a --premodifiers the``), replaces its
default, and ``''`` given alone means an empty list; ``-`` as a file name
reads standard input (for one input at most).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from hub4eval.config import (
    DEFAULT_FILLERS,
    DEFAULT_NON_EXTRACTABLE,
    DEFAULT_PREMODIFIERS,
    DEFAULT_SPOKEN_ELEMENT,
    DEFAULT_UNSCORED_SLOTS,
    ScoreConfig,
)

if TYPE_CHECKING:
    from hub4eval.api import ReadOptions


class CompareChoice(str, Enum):
    both = "both"
    content = "content"
    extent = "extent"


class ContentChoice(str, Enum):
    auto = "auto"
    clean = "clean"
    noisy = "noisy"


class TextFormatChoice(str, Enum):
    sgml = "sgml"
    ctm = "ctm"
    trn = "trn"
    stm = "stm"
    txt = "txt"


class LevelChoice(str, Enum):
    document = "document"
    type = "type"


# --sort: a metric (worst first) or a count (largest first); same names as the table columns.
SortChoice = Enum(  # type: ignore[misc]
    "SortChoice",
    {
        name: name
        for name in (
            "F",
            "REC",
            "PRE",
            "UND",
            "OVG",
            "SUB",
            "ERR",
            "SER",
            "POS",
            "ACT",
            "COR",
            "INC",
            "MIS",
            "SPU",
            "OPT",
            "REM",
        )
    },
    type=str,
)
CategoryChoice = Enum(  # type: ignore[misc]
    "CategoryChoice", {name: name for name in ("COR", "INC", "MIS", "SPU", "OPT", "REM")}, type=str
)


RefText = typer.Option(
    None,
    "--ref-text",
    help="Reference text corpus (SGML, ctm, trn or stm; '-' for standard input); validates "
    "extents, needed for --hyp-text.",
)
HypText = typer.Option(
    None,
    "--hyp-text",
    help="Hypothesis text corpus (e.g. ASR output; '-' for standard input). When it differs from --ref-text, extents are "
    "normalized by word alignment and content is compared as noisy data.",
)
Unsegmented = typer.Option(
    None,
    "--unsegmented/--segmented",
    help="Treat the hypothesis text as one unsegmented stream (default: automatic, "
    "unsegmented when it has no document tags).",
)
SplitSets = typer.Option(
    False,
    "--split-sets",
    help="Extension: with an unsegmented hypothesis text, cut each hypothesis instance set at the reference "
    "documents' boundaries before sets are mapped (an instance goes, with the instances its pointers tie it "
    "to, to the document holding most of its fills' words). For an extractor that writes one set for a "
    "whole recording. Recorded in the signature.",
)
Force = typer.Option(
    False,
    "--force",
    help="Score even when most text fills of a file do not fit their text (offsets counted in another "
    "text, CRLF line ends, texts swapped), with a warning per fill. Without it that is an error.",
)
Compare = typer.Option(
    CompareChoice.both.value,
    "--compare",
    case_sensitive=False,
    help="Aspects of text fills that give points: content, extent, or both.",
)
Content = typer.Option(
    ContentChoice.auto.value,
    "--content",
    case_sensitive=False,
    help="Content comparison: clean (substrings), noisy (tokens, fillers optional), or auto (noisy when the "
    "texts differ).",
)
Glm = typer.Option(
    None,
    "--glm",
    help="Spelling-normalization (GLM) file applied when texts differ: a path, 'default' "
    "(the shipped mapping_files/en.glm) or 'none'; repeatable, the files apply in the order "
    "given (--glm default --glm mine.glm). Default: default.",
)
SpokenForms = typer.Option(
    "en",
    "--spoken-forms",
    help="When texts differ, bring spoken and written numbers to one form on both sides "
    "(fifty eight = 58, $12,500 = twelve thousand five hundred dollars): en, or none.",
)
Beta = typer.Option(1.0, "--beta", help="Weight of recall against precision in F (1: equal weight).")
MinMapF = typer.Option(
    None,
    "--min-map-f",
    help="Map instance pairs only when their F is greater than this (MUC-style threshold; "
    "instance pairs only, not fills or instance sets). Default (and 0): map every pair, "
    "F = 0 included, as the procedure does.",
)
UnscoredSlot = typer.Option(
    None,
    "--unscored-slot",
    metavar="SLOT",
    help=f"Slot that gives no points; repeatable, replaces the default ({' '.join(DEFAULT_UNSCORED_SLOTS)}; "
    "'' for none).",
)
Premodifiers = typer.Option(
    list(DEFAULT_PREMODIFIERS),
    "--premodifiers",
    metavar="WORD",
    help="Leading word removed from fills before comparison; repeatable, replaces the default ('' for none).",
)
KeepPunctuation = typer.Option(False, "--keep-punctuation", help="Do not white out punctuation in fills and texts.")
CaseSensitive = typer.Option(False, "--case-sensitive", help="Compare case-sensitively.")
NonExtractable = typer.Option(
    None,
    "--non-extractable",
    metavar="ELEMENT",
    help=f"SGML element whose content is not text; repeatable, replaces the default "
    f"({' '.join(DEFAULT_NON_EXTRACTABLE)}; '' for none).",
)
SpokenElement = typer.Option(
    DEFAULT_SPOKEN_ELEMENT,
    "--spoken-element",
    help="In a document that has this element, only the text inside it is spoken: aligned and "
    "counted in WER (header elements such as DOCNO and DATE_TIME are not). A document without "
    "it is all spoken.",
)
Fillers = typer.Option(
    list(DEFAULT_FILLERS),
    "--fillers",
    metavar="WORD",
    help="Filler word, optional in the reference and dropped from the hypothesis in noisy comparison; "
    "repeatable, replaces the default ('' for none).",
)
DocTag = typer.Option("DOC", "--doc-tag", help="Generic identifier of the document tags in the corpora.")
DocnoTag = typer.Option("DOCNO", "--docno-tag", help="Generic identifier of the document-identifier element.")
TextFormat = typer.Option(
    None,
    "--text-format",
    case_sensitive=False,
    help="Format of the text corpora: sgml, ctm, trn, stm or txt (default: by file extension, "
    ".ctm .trn .stm .txt; any other extension is SGML). See docs/text-formats.md.",
)
HypTextFormat = typer.Option(
    None,
    "--hyp-text-format",
    case_sensitive=False,
    help="Format of the hypothesis text only, when it differs from the reference's: sgml, ctm, trn, stm or txt.",
)
Encoding = typer.Option("utf-8", "--encoding", help="Encoding of every input file (e.g. latin-1 for old NIST data).")
Quiet = typer.Option(
    False,
    "--quiet",
    "-q",
    help="Print no progress and no warnings, except those that change what the score means (a set-up mistake).",
)
Jobs = typer.Option(
    None,
    "--jobs",
    "-j",
    min=1,
    metavar="N",
    help="Score groups of documents in N processes at once (default: every core; one for templette files "
    "under 4 MB; at most 4 per core or 32, whichever is more). When the texts differ, align them in N processes "
    "at once instead (one for texts under 20,000 words). The result is the same for every N.",
)

AlignJobs = typer.Option(
    None,
    "--jobs",
    "-j",
    min=1,
    metavar="N",
    help="Align in N processes at once: sclite's alignment beside the weighted one, a segmented hypothesis's "
    "documents several at a time (default: every core; one for texts under 20,000 words). The result is the "
    "same for every N.",
)

TextJobs = typer.Option(
    None,
    "--jobs",
    "-j",
    min=1,
    metavar="N",
    help="When the texts differ, align them in N processes at once (default: every core; one for texts under "
    "20,000 words; at most 4 per core or 32, whichever is more). The result is the same for every N.",
)

# The options of every command that scores (score, explain, compare), in --help order:
# (parameter name, annotation, option). `scoring_options` puts them in a command's signature.
_SCORING_OPTIONS: tuple[tuple[str, Any, Any], ...] = (
    ("ref_text", Optional[Path], RefText),
    ("hyp_text", Optional[Path], HypText),
    ("unsegmented", Optional[bool], Unsegmented),
    ("split_sets", bool, SplitSets),
    ("compare", CompareChoice, Compare),
    ("content", ContentChoice, Content),
    ("glm", Optional[list[str]], Glm),
    ("spoken_forms", str, SpokenForms),
    ("beta", float, Beta),
    ("min_map_f", Optional[float], MinMapF),
    ("unscored_slot", Optional[list[str]], UnscoredSlot),
    ("premodifiers", list[str], Premodifiers),
    ("keep_punctuation", bool, KeepPunctuation),
    ("case_sensitive", bool, CaseSensitive),
    ("non_extractable", Optional[list[str]], NonExtractable),
    ("spoken_element", str, SpokenElement),
    ("fillers", list[str], Fillers),
    ("doc_tag", str, DocTag),
    ("docno_tag", str, DocnoTag),
    ("encoding", str, Encoding),
    ("text_format", Optional[TextFormatChoice], TextFormat),
    ("hyp_text_format", Optional[TextFormatChoice], HypTextFormat),
    ("force", bool, Force),
)


@dataclass(frozen=True)
class ScoringOptions:
    """The values of the options every scoring command takes, as the command line gave them."""

    ref_text: Path | None
    hyp_text: Path | None
    unsegmented: bool | None
    split_sets: bool
    compare: str | Enum
    content: str | Enum
    glm: list[str] | None
    spoken_forms: str
    beta: float
    min_map_f: float | None
    unscored_slot: list[str] | None
    premodifiers: list[str]
    keep_punctuation: bool
    case_sensitive: bool
    non_extractable: list[str] | None
    spoken_element: str
    fillers: list[str]
    doc_tag: str
    docno_tag: str
    encoding: str
    text_format: str | None
    hyp_text_format: str | None
    force: bool

    def config(self) -> ScoreConfig:
        """The options that change a score (raises UsageError on bad values)."""
        return build_config(
            compare=self.compare,
            content=self.content,
            glm=self.glm,
            beta=self.beta,
            min_map_f=self.min_map_f,
            unscored_slot=self.unscored_slot,
            premodifiers=self.premodifiers,
            keep_punctuation=self.keep_punctuation,
            case_sensitive=self.case_sensitive,
            non_extractable=self.non_extractable,
            fillers=self.fillers,
            unsegmented=self.unsegmented,
            split_sets=self.split_sets,
            spoken_forms=self.spoken_forms,
            spoken_element=self.spoken_element,
        )

    def reading(self) -> ReadOptions:
        """The options that say how to read the input files."""
        from hub4eval.api import ReadOptions

        return ReadOptions(
            encoding=self.encoding,
            doc_tag=self.doc_tag,
            docno_tag=self.docno_tag,
            text_format=choice(self.text_format) if self.text_format is not None else None,
            hyp_text_format=choice(self.hyp_text_format) if self.hyp_text_format is not None else None,
            force=self.force,
        )

    def inputs(self) -> dict[str, Any]:
        """Every file these options read, by option name (for :func:`hub4eval.cli.outputs.check_outputs`)."""
        return {"--ref-text": self.ref_text, "--hyp-text": self.hyp_text, "--glm": self.glm}

    def text_files(self) -> dict[str, Path | None]:
        """The text corpora by option name (for :func:`one_from_stdin`)."""
        return {"--ref-text": self.ref_text, "--hyp-text": self.hyp_text}


# The default of a command's ``scoring`` parameter, which scoring_options replaces
# by the options themselves (a parameter after typer's arguments needs a default).
SCORING: Any = None


def scoring_options(function: Callable[..., None]) -> Callable[..., None]:
    """Give a command the options of :class:`ScoringOptions` in place of its
    ``scoring`` parameter: typer sees (and ``--help`` lists) each option there,
    and the command receives their values as one ``ScoringOptions``."""
    signature = inspect.signature(function)
    parameters: list[inspect.Parameter] = []
    for parameter in signature.parameters.values():
        if parameter.name != "scoring":
            parameters.append(parameter)
            continue
        parameters += [
            inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=option, annotation=annotation)
            for name, annotation, option in _SCORING_OPTIONS
        ]
    if len(parameters) == len(signature.parameters):
        raise TypeError(f"{function.__qualname__} has no 'scoring' parameter")

    @functools.wraps(function)
    def command(**values: Any) -> None:
        shared = {name: values.pop(name) for name, _, _ in _SCORING_OPTIONS}
        function(scoring=ScoringOptions(**shared), **values)

    annotations = {name: hint for name, hint in function.__annotations__.items() if name != "scoring"}
    annotations.update({name: annotation for name, annotation, _ in _SCORING_OPTIONS})
    command.__annotations__ = annotations
    command.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    return command


def build_config(
    *,
    compare: str | Enum,
    content: str | Enum,
    glm: Optional[list[str]],
    beta: float,
    min_map_f: Optional[float],
    unscored_slot: Optional[list[str]],
    premodifiers: str | list[str],
    keep_punctuation: bool,
    case_sensitive: bool,
    non_extractable: Optional[list[str]],
    fillers: str | list[str],
    unsegmented: Optional[bool],
    spoken_forms: str = "en",
    split_sets: bool = False,
    spoken_element: str = DEFAULT_SPOKEN_ELEMENT,
) -> ScoreConfig:
    """Turn CLI option values into a :class:`ScoreConfig` (raises UsageError on bad values)."""
    return ScoreConfig(
        compare=choice(compare),  # type: ignore[arg-type]
        content=choice(content),  # type: ignore[arg-type]
        beta=beta,
        min_map_f=min_map_f,
        unscored_slots=words("--unscored-slot", unscored_slot, DEFAULT_UNSCORED_SLOTS),
        premodifiers=words("--premodifiers", premodifiers),
        keep_punctuation=keep_punctuation,
        case_sensitive=case_sensitive,
        non_extractable=words("--non-extractable", non_extractable, DEFAULT_NON_EXTRACTABLE),
        spoken_element=spoken_element,
        fillers=words("--fillers", fillers),
        glm=tuple(glm) if glm else ("default",),
        spoken_forms=spoken_forms,
        unsegmented=unsegmented,
        split_sets=split_sets,
    )


def existing(path: Optional[Path]) -> Optional[str]:
    return None if path is None else str(path)


def choice(value: str | Enum) -> str:
    """The plain value of a choice option (typer passes an Enum member)."""
    return value.value if isinstance(value, Enum) else value


def words(option: str, values: str | list[str] | None, default: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The values of a repeatable list option; None (not given) is ``default``.

    ``''`` alone is the empty list. The old form, one value holding several
    space-separated words (``--premodifiers "a an the"``), is still read, word
    by word, with a deprecation warning on stderr (not with ``--quiet``).
    """
    if values is None:
        return default
    if isinstance(values, str):
        values = [values]
    out: list[str] = []
    for value in values:
        parts = value.split()
        if len(parts) > 1:
            _deprecated(option, value)
        out.extend(parts)
    return tuple(out)


def _deprecated(option: str, value: str) -> None:
    from hub4eval.cli.app import current_params, warn_when_done

    if current_params().get("quiet"):
        return
    repeated = " ".join(f"{option} {word}" for word in value.split())
    warn_when_done(f"warning: {option} {value!r}: a space-separated list is deprecated; repeat the option: {repeated}")


def one_from_stdin(**paths: object) -> None:
    """Standard input can be read once: at most one of ``paths`` may be ``-``.

    Raises:
        UsageError: two or more inputs are ``-``.
    """
    from hub4eval.errors import UsageError

    named = [name for name, path in paths.items() if path is not None and str(path) == "-"]
    if len(named) > 1:
        raise UsageError(
            f"{' and '.join(named)} both read standard input ('-')",
            hint="standard input can be read once: give all but one of them as files",
        )
