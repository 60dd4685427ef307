"""Locate files shipped with hub4eval (the grammar, the mapping files).

In a wheel they live inside the package (``hub4eval/grammars``,
``hub4eval/mapping_files``); in a source checkout or an editable install they
live at the top of the repository. Both places are tried, in that order.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent.parent  # hub4eval/


def data_path(folder: str, name: str) -> Path:
    """Return the path of shipped data file ``folder/name``.

    Raises:
        FileNotFoundError: neither the installed nor the checkout copy exists.
    """
    for base in (_PACKAGE_DIR / folder, _PACKAGE_DIR.parent / folder):
        candidate = base / name
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"hub4eval data file {folder}/{name} is missing from the installation")
