"""hub4eval: scoring of HUB-4 templette information extraction from speech.

The library API (everything the CLI does, without the CLI)::

    import hub4eval
    result = hub4eval.score_files(
        "ref.tpl", "hyp.tpl", ref_text="ref.sgml", hyp_text="asr.sgml",
        config=hub4eval.ScoreConfig(compare="content"),      # what changes a score
        reading=hub4eval.ReadOptions(encoding="latin-1"),    # how the files are read
        output=hub4eval.OutputOptions(ceiling=False),        # what the result holds
    )
    ref = hub4eval.read_templates("ref.tpl")
    hyp = hub4eval.read_templates("hyp.tpl", role="hypothesis")
    corpus = hub4eval.read_corpus("text.sgml")
    result = hub4eval.score(ref, hyp)                        # template sets already read

Names are imported lazily so that ``hub4eval --help`` stays fast.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "score_files": "hub4eval.api",
    "score": "hub4eval.api",
    "project_files": "hub4eval.api",
    "score_entity_files": "hub4eval.api",
    "ReadOptions": "hub4eval.api",
    "OutputOptions": "hub4eval.api",
    "ScoreConfig": "hub4eval.config",
    "ScoreResult": "hub4eval.scoring.result",
    "read_templates": "hub4eval.io.templettes",
    "parse_templates": "hub4eval.io.templettes",
    "write_templates": "hub4eval.io.templettes",
    "read_corpus": "hub4eval.io.corpus",
    "parse_corpus": "hub4eval.io.corpus",
    "read_text_corpus": "hub4eval.io.formats",
    "corpus_text": "hub4eval.io.formats",
    "sclite_align": "hub4eval.text.align.sclite",
    "InputError": "hub4eval.errors",
    "InputWarning": "hub4eval.errors",
    "Hub4EvalError": "hub4eval.errors",
    "TemplateSet": "hub4eval.model",
    "InstanceSet": "hub4eval.model",
    "Instance": "hub4eval.model",
    "Slot": "hub4eval.model",
    "FillAlternative": "hub4eval.model",
    "PointerFill": "hub4eval.model",
    "TextFill": "hub4eval.model",
    "Extent": "hub4eval.model",
    "Corpus": "hub4eval.model",
    "Document": "hub4eval.model",
}

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'hub4eval' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
