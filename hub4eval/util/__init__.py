"""Plumbing with no knowledge of templettes or scoring.

Locating the files shipped with the package, quick constructors for frozen
records, pausing the garbage collector during bulk work, keeping derived
data in the user's cache directory, and computing a function in a forked
child process while the caller goes on. Imports nothing from hub4eval; anything
may import it.
"""
