"""Plumbing with no knowledge of templettes or scoring.

Locating the files shipped with the package, quick constructors for frozen
records, and pausing the garbage collector during bulk work. Imports nothing
from hub4eval; anything may import it.
"""
