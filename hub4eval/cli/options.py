"""Options shared by the commands that score (score, explain, compare)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from hub4eval.config import (
    DEFAULT_FILLERS,
    DEFAULT_NON_EXTRACTABLE,
    DEFAULT_PREMODIFIERS,
    DEFAULT_UNSCORED_SLOTS,
    ScoreConfig,
)

RefText = typer.Option(
    None,
    "--ref-text",
    help="Reference text corpus (SGML, ctm, trn or stm); validates extents, needed for --hyp-text.",
)
HypText = typer.Option(
    None,
    "--hyp-text",
    help="Hypothesis text corpus (e.g. ASR output). When it differs from --ref-text, extents are "
    "normalized by word alignment and content is compared as noisy data (§6, §7).",
)
Unsegmented = typer.Option(
    None,
    "--unsegmented/--segmented",
    help="Treat the hypothesis text as one unsegmented stream (default: automatic, "
    "unsegmented when it has no document tags).",
)
Compare = typer.Option("both", "--compare", help="Aspects of text fills that give points: both, content or extent.")
Content = typer.Option(
    "auto", "--content", help="Content comparison: clean, noisy, or auto (noisy when the texts differ)."
)
Glm = typer.Option(
    "default",
    "--glm",
    help="Spelling-normalization (GLM) file applied when texts differ: a path, 'default' "
    "(the shipped mapping_files/en.glm) or 'none'.",
)
Beta = typer.Option(1.0, "--beta", help="Weight of recall against precision in F (1: equal weight).")
MinMapF = typer.Option(
    None,
    "--min-map-f",
    help="Map instances only when the pair's F is greater than this (MUC-style threshold). "
    "Default: map every pair, F = 0 included, as the procedure does.",
)
UnscoredSlot = typer.Option(
    None,
    "--unscored-slot",
    help=f"Slot that gives no points; repeatable, replaces the default ({' '.join(DEFAULT_UNSCORED_SLOTS)}).",
)
Premodifiers = typer.Option(
    " ".join(DEFAULT_PREMODIFIERS),
    "--premodifiers",
    help="Leading words removed from fills before comparison (space separated; '' for none).",
)
KeepPunctuation = typer.Option(False, "--keep-punctuation", help="Do not white out punctuation in fills and texts.")
CaseSensitive = typer.Option(False, "--case-sensitive", help="Compare case-sensitively.")
NonExtractable = typer.Option(
    None,
    "--non-extractable",
    help=f"SGML element whose content is not text; repeatable (default: {' '.join(DEFAULT_NON_EXTRACTABLE)}).",
)
Fillers = typer.Option(
    " ".join(DEFAULT_FILLERS),
    "--fillers",
    help="Filler words, optional in the reference and dropped from the hypothesis in noisy comparison.",
)
DocTag = typer.Option("DOC", "--doc-tag", help="Generic identifier of the document tags in the corpora.")
DocnoTag = typer.Option("DOCNO", "--docno-tag", help="Generic identifier of the document-identifier element.")
TextFormat = typer.Option(
    None,
    "--text-format",
    help="Format of the text corpora: sgml, ctm, trn, stm or txt (default: by file extension, "
    ".ctm .trn .stm .txt; any other extension is SGML). See docs/text-formats.md.",
)
HypTextFormat = typer.Option(
    None,
    "--hyp-text-format",
    help="Format of the hypothesis text only, when it differs from the reference's: sgml, ctm, trn, stm or txt.",
)
Encoding = typer.Option("utf-8", "--encoding", help="Encoding of every input file (e.g. latin-1 for old NIST data).")
Quiet = typer.Option(False, "--quiet", "-q", help="Print no warnings and no progress.")


def build_config(
    *,
    compare: str,
    content: str,
    glm: str,
    beta: float,
    min_map_f: Optional[float],
    unscored_slot: Optional[list[str]],
    premodifiers: str,
    keep_punctuation: bool,
    case_sensitive: bool,
    non_extractable: Optional[list[str]],
    fillers: str,
    unsegmented: Optional[bool],
) -> ScoreConfig:
    """Turn CLI option values into a :class:`ScoreConfig` (raises UsageError on bad values)."""
    return ScoreConfig(
        compare=compare,  # type: ignore[arg-type]
        content=content,  # type: ignore[arg-type]
        beta=beta,
        min_map_f=min_map_f,
        unscored_slots=tuple(unscored_slot) if unscored_slot else DEFAULT_UNSCORED_SLOTS,
        premodifiers=tuple(premodifiers.split()),
        keep_punctuation=keep_punctuation,
        case_sensitive=case_sensitive,
        non_extractable=tuple(non_extractable) if non_extractable else DEFAULT_NON_EXTRACTABLE,
        fillers=tuple(fillers.split()),
        glm=glm,
        unsegmented=unsegmented,
    )


def existing(path: Optional[Path]) -> Optional[str]:
    return None if path is None else str(path)
