"""numba's on-disk cache of compiled kernels, made so that it cannot break a run.

numba caches compiled code beside the source (or in ``NUMBA_CACHE_DIR``) and
trusts what it finds there: a damaged file made every call fail until the
user deleted it, and a flipped bit in compiled code would crash the process.
:func:`cached_njit` compiles a kernel with a cache that checks its files
against checksums written with them, removes a damaged entry (with one
warning, :class:`KernelCacheWarning`) and compiles afresh, and runs without a
cache where none can be written. Used by the word aligner's kernels
(:mod:`hub4eval.text.align.kernels`), sclite's (:mod:`hub4eval.text.wer`) and the loop
that finds extents in the aligned tokens (:mod:`hub4eval.text.column_extents`; its cache
warnings, like theirs, speak of the alignment kernels).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class KernelCacheWarning(RuntimeWarning):
    """numba's on-disk cache of the kernels could not be used; they are compiled afresh."""


class KernelCompileNotice(UserWarning):
    """The kernels are not in numba's on-disk cache yet: they are compiled now, once (the CLI
    says so on stderr, as progress, not as a warning)."""


COMPILE_NOTICE = "compiling the aligner (once, about 10 s; numba keeps it in its cache for later runs)"
_announced_compile = False


def _announce_compile() -> None:
    """Say once per process that kernels are compiled before the first one is."""
    global _announced_compile
    if _announced_compile:
        return
    _announced_compile = True
    import warnings

    warnings.warn(COMPILE_NOTICE, KernelCompileNotice, stacklevel=3)


class CompiledOnce(Generic[T]):
    """What ``make`` returns, made on the first call and kept for the process: kernels compiled by
    numba (or loaded from its on-disk cache) once, when first needed, not when their module is
    imported (``hub4eval --help`` must stay fast). A lock makes threads that ask at once wait
    for the one that makes them."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._lock = threading.Lock()
        self._made: list[T] = []

    def __call__(self) -> T:
        with self._lock:
            if not self._made:
                self._made.append(self._make())
            return self._made[0]


_BLAS = "scipy.linalg.cython_blas"
_alone = False  # set by runs_nothing_else (the command line's process, and the children it forks)


def runs_nothing_else() -> None:
    """Say that this process runs nothing but hub4eval (the command line does, first thing):
    then numba starts without asking scipy for a BLAS (:func:`start_without_blas`) when the
    first kernel is made (:func:`cached_njit`), here and in the children forked from here.
    A program that imports hub4eval as a library, and may compile its own code with numba,
    never says so: numba starts there as usual."""
    global _alone
    _alone = True


def start_without_blas() -> None:
    """Import numba and its array functions without asking scipy for a BLAS: for a process
    of ours that only runs the kernels (a forked child of :mod:`hub4eval.text.aligned_texts`,
    or the command line's process, :func:`runs_nothing_else`).

    When scipy is installed, numba's array functions import ``scipy.linalg`` when they are
    first loaded, to know whether ``np.dot`` and the like can be compiled: about 0.2 s of a
    start, for kernels that use no BLAS (they are loaded from numba's cache, or
    compiled, the same without it; a kernel that used one would fail to compile, in every
    test that runs the command line). Elsewhere (a program that uses hub4eval as a library,
    and may compile its own code with numba) numba starts as usual: this is only for a
    process that does nothing else.
    """
    import sys

    if "numba.np.arraymath" in sys.modules or _BLAS in sys.modules:
        return  # loaded already, or scipy's BLAS is at hand anyway
    sys.modules[_BLAS] = None  # type: ignore[assignment]  # ``import`` of it raises ImportError
    try:
        import numba.np.arraymath  # noqa: F401  # asks for it once, when imported
    finally:
        if sys.modules.get(_BLAS, 0) is None:
            del sys.modules[_BLAS]


_warned_about_cache = False


def _warn_cache(what: str, error: BaseException) -> None:
    """Warn once per process (the CLI prints it as one line on stderr)."""
    global _warned_about_cache
    if _warned_about_cache:
        return
    _warned_about_cache = True
    import warnings

    detail = " ".join(f"{type(error).__name__}: {error}".split())[:200]
    warnings.warn(
        f"{what} ({detail}); the alignment kernels are compiled afresh, which takes a few seconds",
        KernelCacheWarning,
        stacklevel=2,
    )


def cached_njit(numba: Any, function: Any, cache: bool, announce: bool = True) -> Any:
    """``numba.njit(cache=cache, nogil=True)(function)``, with a cache that cannot break a run.

    ``announce``: whether a compile for want of a cached entry says so (:data:`COMPILE_NOTICE`,
    once a process): the aligners' kernels take seconds; a loop compiled in a fraction of one
    is compiled without a word (the notice, which names the aligner, would be wrong there).

    A damaged cache (garbage or a truncated file in the ``.nbi`` index or a
    ``.nbc`` data file) made every call fail until the user deleted it: now
    its entries for this kernel are removed, a warning is given once, and the
    kernel is compiled and cached again. A cache directory that cannot be used
    at all means no cache.
    """
    if _alone:
        start_without_blas()  # before any kernel is loaded (once: then numba's array functions are)
    try:
        dispatcher = numba.njit(cache=cache, nogil=True)(function)
    except Exception as error:  # no usable cache directory (NUMBA_CACHE_DIR unwritable, ...)
        if not cache:
            raise
        _warn_cache("numba's cache directory cannot be used", error)
        return numba.njit(cache=False, nogil=True)(function)
    store: Any = getattr(dispatcher, "_cache", None)
    load, save = getattr(store, "load_overload", None), getattr(store, "save_overload", None)
    if not cache or load is None or save is None:
        return dispatcher

    def load_overload(*args: Any, **kwargs: Any) -> Any:
        verdict = _verify_cache_files(store)
        if verdict == "damaged":
            _drop_cache_files(store)
            _warn_cache(
                "numba's cache of the alignment kernels is damaged and was removed",
                ValueError("its files do not match the checksums written with them"),
            )
            return None
        if verdict == "unverified":  # written without checksums (an older hub4eval): compile afresh
            _drop_cache_files(store)
            return None
        if verdict == "empty":  # nothing cached: numba compiles now (seconds), once
            if announce:
                _announce_compile()
            return None
        try:
            return load(*args, **kwargs)
        except Exception as error:  # MemoryError too: garbage unpickled as a huge object
            _drop_cache_files(store)
            _warn_cache("numba's cache of the alignment kernels is damaged and was removed", error)
            return None  # a cache miss: numba compiles, then saves a fresh entry

    def save_overload(*args: Any, **kwargs: Any) -> None:
        try:
            save(*args, **kwargs)
            _write_checksums(store)
        except MemoryError:
            raise
        except Exception as error:
            _drop_cache_files(store)
            _warn_cache("numba's cache of the alignment kernels cannot be written", error)

    store.load_overload = load_overload
    store.save_overload = save_overload
    return dispatcher


def _cache_files(store: Any) -> tuple[str, str, list[str]]:
    """The cache directory, the index file name and the names of one kernel's cache files."""
    import os

    files = store._cache_file
    directory, index = files._cache_path, files._index_name
    stem = index[: -len(".nbi")]
    try:
        names = sorted(
            name
            for name in os.listdir(directory)
            if name == index or (name.startswith(stem + ".") and name.endswith(".nbc"))
        )
    except OSError:
        names = []
    return directory, index, names


def _checksums(directory: str, names: list[str]) -> dict[str, str]:
    import hashlib
    import os

    sums = {}
    for name in names:
        with open(os.path.join(directory, name), "rb") as handle:
            sums[name] = hashlib.sha256(handle.read()).hexdigest()
    return sums


def _write_checksums(store: Any) -> None:
    """Record the checksums of a kernel's cache files next to them (``.nbi.sha256``).

    numba does not check its cached files: a flipped bit in compiled code
    would crash the process. The checksums let the next run tell.
    """
    import json
    import os

    directory, index, names = _cache_files(store)
    target = os.path.join(directory, index + ".sha256")
    temporary = f"{target}.{os.getpid()}.tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump(_checksums(directory, names), handle)
    os.replace(temporary, target)


def _verify_cache_files(store: Any) -> str:
    """ "sound", "empty" (nothing cached yet), "unverified" (no checksums) or "damaged"."""
    import json
    import os

    try:
        directory, index, names = _cache_files(store)
        if index not in names:
            return "empty"
        try:
            with open(os.path.join(directory, index + ".sha256"), encoding="utf-8") as handle:
                recorded = json.load(handle)
        except FileNotFoundError:
            return "unverified"
        except (OSError, ValueError):
            return "damaged"
        return "sound" if recorded == _checksums(directory, names) else "damaged"
    except (AttributeError, OSError, TypeError):
        return "sound"  # numba's internals changed: leave the cache to numba


def _drop_cache_files(store: Any) -> None:
    """Remove one kernel's cache files (its index and data files), as far as possible."""
    import os

    try:
        files = store._cache_file
        directory, index = files._cache_path, files._index_name
        stem = index[: -len(".nbi")]
        for name in os.listdir(directory):
            if name in (index, index + ".sha256") or (name.startswith(stem + ".") and name.endswith(".nbc")):
                try:
                    os.remove(os.path.join(directory, name))
                except OSError:
                    pass
    except (AttributeError, OSError, TypeError):
        pass
