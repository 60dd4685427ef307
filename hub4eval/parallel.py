"""Scoring in groups of documents: in parallel processes (``--jobs``), in bounded memory.

Instance sets pair by DOCID and are mapped one by one (§5), so a large
evaluation can be cut by document without changing any count.  The two
templette files are cut without parsing (:mod:`hub4eval.io.templettes.split`);
each group of documents is read, parsed, mapped and scored on its own, in a
worker process, and gives back a :class:`~hub4eval.scoring.result.Tally`
(counts and the mapping's pairs; the points only as JSON entries, or as the
HTML report's columns, in temporary files, when asked for).  The tallies are joined in the order of the
whole run: the reference's documents in file order, then the documents only
the hypothesis has.

Workers get byte ranges, not objects: each reads its own lines of the files.
Processes are forked where the platform can (the parser tables and imported
modules come with them), else spawned.

The result is the one of :func:`hub4eval.scoring.pipeline.score` on the whole files, or
the run is given up (:class:`Ungroupable`) and the caller scores the files
whole: when a file cannot be cut safely, when a part gives an error or a
warning (the whole file says which comes first, at its place), when the files
share no DOCID, or when a group's order of instance types is not the order of
the whole files.

A group whose first document has instances enough to be far too large is
refused, when it is, before anything is mapped: its hypothesis is read in a
forked child (when the run may use two processes and the group is scored in
this one), which sends back only the counts of its contents as written
(:mod:`hub4eval.scoring.refusal`), while this process reads the reference and
counts its own; see :func:`_refused_early` for why that is the error scoring
the group would give.

A group refused by the bound on candidate pairs
(:class:`~hub4eval.scoring.greedy.PairsRefused`, which depends on its document
only) is the whole files' error when every group before it was scored, every
group after it reads without an error or a warning (read only, not mapped: the
whole files are read before any document is mapped), and the checks of the
whole run pass: then it is raised as it is, without reading and mapping the
files again. With texts, the groups after it would also be checked against
them first: the run is given up unless the refused group is the last.
"""

from __future__ import annotations

import atexit
import dataclasses
import math
import multiprocessing
import operator
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hub4eval.config import ScoreConfig
from hub4eval.errors import InputError
from hub4eval.io.templettes.split import DocumentParts, Part, read_parts, runs, split_documents
from hub4eval.model import Corpus, Instance, PointerFill, TemplateSet
from hub4eval.scoring import mapping
from hub4eval.scoring.greedy import PairsRefused
from hub4eval.scoring.pipeline import RAW_OFFSETS, score
from hub4eval.scoring.refusal import (
    Counted,
    alike_with,
    may_be_refused,
    most_alike,
    pairs_alike,
    usual_counted,
    usual_written,
    written_contents,
)
from hub4eval.scoring.result import ScoreResult, Tally
from hub4eval.util.forked import Beside, available_cores

# Below this many bytes of templette files, one process scores them whole:
# starting workers costs more than they save (about 0.3 s of the sample's 0.25 s).
SMALL_INPUT = 4_000_000
# Documents per group at most: a group is what one process holds at a time.
MAX_GROUP_DOCUMENTS = 2000
_TYPE = operator.attrgetter("type")


class Ungroupable(Exception):
    """The files cannot be scored in groups as planned: score them whole."""


def input_size(paths: Sequence[str | Path]) -> int:
    size = 0
    for path in paths:
        try:
            size += os.path.getsize(path) if str(path) != "-" else 0
        except OSError:
            pass
    return size


def default_jobs(paths: Sequence[str | Path]) -> int:
    """The default of ``--jobs``: every available core, one for small inputs."""
    return available_cores() if input_size(paths) >= SMALL_INPUT else 1


@dataclass(frozen=True)
class _Group:
    index: int
    ref_parts: list[Part]
    hyp_parts: list[Part]
    ref_docids: tuple[str, ...]
    hyp_docids: tuple[str, ...]
    # the instances of the first reference document in each file, as the cut counts them
    first_sizes: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class _Job:
    """What every group shares (sent once per group: a few hundred bytes)."""

    ref_path: str
    hyp_path: str
    encoding: str
    config: ScoreConfig
    point_dir: str | None
    point_writer: Callable[[ScoreResult, str], None] | None
    ref_corpus: Corpus | None = None
    hyp_corpus: Corpus | None = None
    column_writer: Callable[[ScoreResult, str], None] | None = None
    read_only: bool = False  # read and check each group, map none (the groups after a refused one)


@dataclass(frozen=True)
class _Outcome:
    tally: Tally
    order: tuple[str, ...]
    ref_events: list[list[tuple[str, ...]]]  # per instance set: the type-order events of type_order
    hyp_events: list[list[tuple[str, ...]]]
    warnings: tuple[str, ...]
    instances: tuple[int, int]


@dataclass(frozen=True)
class _Refused:
    """A group refused by the bound on candidate pairs (``error``), or a group only read
    (``error`` None), with what the checks of the whole run need of it."""

    error: PairsRefused | None
    order: tuple[str, ...]
    ref_events: list[list[tuple[str, ...]]]
    hyp_events: list[list[tuple[str, ...]]]
    instances: tuple[int, int]


def plan(ref: DocumentParts, hyp: DocumentParts, jobs: int, size: int | None = None) -> list[_Group]:
    """Groups of consecutive reference documents (with their hypothesis parts),
    then groups of the documents only the hypothesis has."""
    hyp_rank = {docid: n for n, docid in enumerate(hyp.parts)}
    ref_ids = list(ref.parts)
    hyp_only = [docid for docid in hyp.parts if docid not in ref.parts]
    tail = small = 0
    if size is None:
        size = max(1, min(MAX_GROUP_DOCUMENTS, math.ceil((len(ref_ids) + len(hyp_only)) / (8 * jobs))))
        if jobs > 1:
            # the last reference documents in groups of half the size: the processes,
            # given groups as they become free, then end at about the same time
            tail, small = jobs * size, (size + 1) // 2
    bounds = []
    head = max(0, len(ref_ids) - tail)
    for n in range(0, head, size):
        bounds.append((n, min(n + size, head)))
    for n in range(head, len(ref_ids), small or size):
        bounds.append((n, n + (small or size)))
    groups: list[_Group] = []
    for start, end in bounds:
        docids = ref_ids[start:end]
        hyp_ids = sorted((d for d in docids if d in hyp_rank), key=hyp_rank.__getitem__)
        groups.append(
            _Group(
                len(groups),
                runs([p for d in docids for p in ref.parts[d]]),
                runs([p for d in hyp_ids for p in hyp.parts[d]]),
                tuple(docids),
                tuple(hyp_ids),
                (ref.counts[docids[0]], hyp.counts.get(docids[0], 0)),
            )
        )
    for n in range(0, len(hyp_only), size):
        docids = hyp_only[n : n + size]
        groups.append(_Group(len(groups), [], runs([p for d in docids for p in hyp.parts[d]]), (), tuple(docids)))
    return groups


def _events(tset: TemplateSet, pointers: Sequence[PointerFill]) -> list[list[tuple[str, ...]]]:
    """Per instance set, what :func:`~hub4eval.scoring.mapping.type_order` reads of it:
    each instance's type, then each type it points to (repeats left out).

    ``pointers``: every pointer fill of the set's instances in file order, as
    :func:`~hub4eval.io.templettes.split.read_parts` lists them, so that the
    fills are not walked.  A pointer is in an instance of its own document
    (the reader checks it), the last of that document whose header comes
    before it.
    """
    by_docid: dict[str, list[PointerFill]] = {}
    for fill in pointers:
        held = by_docid.get(fill.docid)
        if held is None:
            by_docid[fill.docid] = [fill]
        else:
            held.append(fill)
    out: list[list[tuple[str, ...]]] = []
    for iset in tset.instance_sets:
        held = by_docid.get(iset.docid)
        if held is None:  # no pointer: the instances' types
            out.append(list(dict.fromkeys([(inst.type,) for inst in iset.instances])))
            continue
        events: dict[tuple[str, ...], None] = {}  # an ordered set
        instances = iset.instances
        k, count = 0, len(held)
        for n, inst in enumerate(instances, start=1):
            name = inst.type
            events[(name,)] = None
            end = instances[n].line if n < len(instances) else math.inf  # where the next instance starts
            while k < count and held[k].line < end:
                events[(name, held[k].type)] = None
                k += 1
        out.append(list(events))
    return out


def _first_events(events: list[list[tuple[str, ...]]], seen: set[tuple[str, ...]]) -> list[list[tuple[str, ...]]]:
    """Per instance set, the events no set before it has (in ``events`` or ``seen``, which is
    given them): what :func:`global_type_order` reads of the others changes nothing.  The
    sets of a group come in the order of the whole files (reference, then hypothesis),
    other groups' sets between them or not, so the order of the whole files is the same
    with these events; and a group sends and the main process reads a few events, not
    those of every set."""
    out = []
    for set_events in events:
        new = [event for event in set_events if event not in seen]
        seen.update(new)
        out.append(new)
    return out


def global_type_order(events: Iterator[list[tuple[str, ...]]]) -> tuple[str, ...] | None:
    """:func:`~hub4eval.scoring.mapping.type_order` of the whole files from the
    events of their instance sets in file order (reference, then hypothesis);
    None on a cycle (the whole files give its error)."""
    edges: dict[str, list[str]] = {}
    for set_events in events:
        for event in set_events:
            if len(event) == 1:
                edges.setdefault(event[0], [])
            else:
                targets = edges[event[0]]
                if event[1] not in targets:
                    targets.append(event[1])
                    edges.setdefault(event[1], [])
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(node: str) -> bool:
        state[node] = 1
        for target in edges[node]:
            if state.get(target) == 1:
                return False
            if state.get(target) is None and not visit(target):
                return False
        state[node] = 2
        order.append(node)
        return True

    for node in edges:
        if state.get(node) is None and not visit(node):
            return None
    return tuple(order)


def _score_group(
    job: _Job, group: _Group, keep: list[Any] | None = None, fork: bool = False
) -> _Outcome | _Refused | None:
    """Read, map and score one group (in a worker); None: give up the groups.

    ``keep``: a list that is given the group's template sets and result, so
    that they are not freed when this returns (see :func:`_score_in_worker`
    and :func:`_outcomes`): also those of a refused group.
    ``fork``: a group whose first document may be too large to map
    (:func:`_may_be_refused`) has its hypothesis read in a forked child while
    this process reads the reference, for :func:`_refused_early`.
    """
    try:
        ref_pointers: list[PointerFill] = []
        hyp_pointers: list[PointerFill] = []
        early = _may_be_refused(job, group)
        beside = Beside(_read_hyp_side, job, group, [] if keep is None else keep, forked=fork) if early else None
        ref = read_parts(job.ref_path, job.encoding, group.ref_parts, "reference", ref_pointers)
        if keep is not None:
            keep.append(ref)
        ref_raw = _events(ref, ref_pointers)
        del ref_pointers
        hyp: TemplateSet | None = None
        ref_counts: dict[str, tuple[int, Counted]] | None = None
        if beside is not None:
            if beside.forked:
                if beside.running:  # counted while this process would wait for the child anyway
                    ref_counts = _ref_counts(job, ref)
                side = beside.result()
            else:  # read here, once: the hypothesis is scored from it unless the document is refused
                hyp = read_parts(job.hyp_path, job.encoding, group.hyp_parts, "hypothesis", hyp_pointers)
                if keep is not None:
                    keep.append(hyp)
                side = _hyp_side(job, group, hyp, hyp_pointers)
            del beside
            refused = _refused_early(job, group, ref, ref_raw, side, ref_counts) if side is not None else None
            if refused is not None:
                return refused
        if hyp is None:
            hyp = read_parts(job.hyp_path, job.encoding, group.hyp_parts, "hypothesis", hyp_pointers)
            if keep is not None:
                keep.append(hyp)
        if ref.warnings or hyp.warnings:
            return None
        if tuple(s.docid for s in ref.instance_sets) != group.ref_docids:
            return None
        if tuple(s.docid for s in hyp.instance_sets) != group.hyp_docids:
            return None
        seen: set[tuple[str, ...]] = set()
        ref_events = _first_events(ref_raw, seen)
        hyp_events = _first_events(_events(hyp, hyp_pointers), seen)
        del hyp_pointers
        # type_order(ref, hyp), from what it reads of the sets (None: a cycle, which the whole files report)
        order = global_type_order(iter(ref_events + hyp_events))
        if order is None:
            return None
        instances = (len(ref.instances), len(hyp.instances))
        if job.read_only:
            return _Refused(None, order, ref_events, hyp_events, instances)
        point_file = column_file = None
        if job.point_writer is not None and job.point_dir is not None:
            point_file = os.path.join(job.point_dir, f"{group.index:07d}.jsonl")
        # the points' entries written from the counts as each run is mapped, when the writer can
        runs = getattr(job.point_writer, "runs", None) if job.column_writer is None else None
        run_writer = runs(point_file) if runs is not None and point_file is not None else None
        try:
            result = score(
                ref,
                hyp,
                ref_corpus=job.ref_corpus,
                hyp_corpus=job.hyp_corpus,
                config=job.config,
                ceiling=False,
                # only the counts, unless the points are written from a result: most match records are never made
                counts_only=job.column_writer is None and (job.point_writer is None or run_writer is not None),
                point_runs=run_writer,
                order=order,  # type_order(ref, hyp), not worked out again
            )
        except PairsRefused as error:  # the whole run decides whether it is the whole files' error
            return _Refused(error, order, ref_events, hyp_events, instances)
        finally:
            if run_writer is not None:
                run_writer.close()
    except (InputError, UnicodeDecodeError, MemoryError):
        return None
    if point_file is not None and (run_writer is None or result.tally is None):
        job.point_writer(result, point_file)  # type: ignore[misc]  # a result with its match records
    if job.column_writer is not None and job.point_dir is not None:
        column_file = os.path.join(job.point_dir, f"{group.index:07d}.columns")
        job.column_writer(result, column_file)
    tally = Tally.of(result, point_file, column_file)
    head = getattr(job.point_writer, "head", None) if point_file is not None else None
    if head is not None:  # the group's by-document rows and mapping as JSON, made here
        tally = dataclasses.replace(tally, json_heads=(head(tally, job.config.beta),))
    outcome = _Outcome(
        tally,
        order,
        ref_events,
        hyp_events,
        tuple(str(w) for w in result.warnings),
        instances,
    )
    if keep is not None:
        keep.append(result)
    return outcome


# -- a document far too large, refused before anything is mapped ----------------------------


@dataclass(frozen=True)
class _HypSide:
    """What :func:`_refused_early` needs of a group's hypothesis: a few small values, sent
    back from the child that read it (the template set itself costs more to send than to read)."""

    docids: tuple[str, ...]
    warned: bool
    events: list[list[tuple[str, ...]]]  # of _events, per instance set
    instances: int
    # of the instances of the group's first reference document: per type, how many and
    # the counts of their contents as written (hub4eval.scoring.refusal.written_contents)
    types: dict[str, tuple[int, Counted]]


def _may_be_refused(job: _Job, group: _Group) -> bool:
    """Whether the group's first document might be refused by the bound on candidate pairs
    from the contents as written (as :func:`hub4eval.scoring.pairs._lower_bounds` counts it
    for a score without texts: with clean content compared, both sides normalize alike),
    judging by its instances in each file."""
    if job.read_only or job.ref_corpus is not None or job.hyp_corpus is not None or not group.ref_docids:
        return False
    if not job.config.compares_content or job.config.content == "noisy":
        return False
    return may_be_refused(*group.first_sizes, mapping.MAX_CANDIDATE_PAIRS)


def _read_hyp_side(job: _Job, group: _Group, keep: list[Any]) -> _HypSide | None:
    """:func:`_hyp_side` of the group's hypothesis parts, read here (in a child); None when
    they give an error (the hypothesis is read again, and the error given, as usual).

    ``keep`` is given the template set: a child's copy of the list keeps it until the child
    ends, so that its objects are not freed one by one before the result is sent (0.04 s for
    43,000 instances, which the caller would wait for)."""
    pointers: list[PointerFill] = []
    try:
        hyp = read_parts(job.hyp_path, job.encoding, group.hyp_parts, "hypothesis", pointers)
    except (InputError, UnicodeDecodeError, MemoryError):
        return None
    keep.append(hyp)
    return _hyp_side(job, group, hyp, pointers)


def _by_type(instances: Sequence[Instance]) -> dict[str, list[Instance]]:
    by_type: dict[str, list[Instance]] = {}
    for inst in instances:
        held = by_type.get(inst.type)
        if held is None:
            by_type[inst.type] = [inst]
        else:
            held.append(inst)
    return by_type


def _hyp_side(job: _Job, group: _Group, hyp: TemplateSet, pointers: Sequence[PointerFill]) -> _HypSide:
    """What the refusal needs of the group's hypothesis (``pointers``: its pointer fills, as
    :func:`_events` takes them)."""
    docid = group.ref_docids[0]
    index = next((k for k, iset in enumerate(hyp.instance_sets) if iset.docid == docid), None)
    unscored = frozenset(job.config.unscored_slots)
    types = None if index is None else usual_counted(hyp, index, unscored)
    if types is None:  # not listed by the reader: the walk
        first = () if index is None else hyp.instance_sets[index].instances
        types = {name: (len(held), written_contents(held, unscored, False)) for name, held in _by_type(first).items()}
    return _HypSide(
        tuple(iset.docid for iset in hyp.instance_sets),
        bool(hyp.warnings),
        _events(hyp, pointers),
        sum(len(iset.instances) for iset in hyp.instance_sets),
        types,
    )


def _ref_counts(job: _Job, ref: TemplateSet) -> dict[str, tuple[int, Counted]] | None:
    """Per type of the reference's first instance set: how many, and the counts of their
    contents as written, from the reader's lists (None without them: the walk is not made
    ahead of need)."""
    return usual_counted(ref, 0, frozenset(job.config.unscored_slots)) if ref.instance_sets else None


def _refused_early(
    job: _Job,
    group: _Group,
    ref: TemplateSet,
    ref_raw: list[list[tuple[str, ...]]],
    hyp: _HypSide,
    ref_counts: dict[str, tuple[int, Counted]] | None = None,
) -> _Refused | None:
    """The group's outcome when scoring it would refuse its first document by the bound from
    the contents as written, before any fill is prepared; None when it would not, or when
    something else might come first (then the group is scored as usual).

    Scoring the group maps its first pair of instance sets first in its run of pairs
    (:func:`hub4eval.scoring.mapping._chunks`; a run of its own when it is that large),
    type by type in the type order; nothing
    but a refusal or a cycle of types can stop a score without texts before the first type
    with instances on both sides is mapped, and that type is refused first when its bound
    passes the limit (:func:`hub4eval.scoring.pairs.map_groups`).  So that is the error
    whenever this group's reading and checks pass (as :func:`_score_group` checks them).

    ``ref_counts``: :func:`_ref_counts`, when counted already (while the child read); else
    the first type mapped alone has its bound counted, and only when it may pass the limit.
    """
    if ref.warnings or hyp.warned:
        return None
    if tuple(s.docid for s in ref.instance_sets) != group.ref_docids or hyp.docids != group.hyp_docids:
        return None
    seen: set[tuple[str, ...]] = set()
    ref_events = _first_events(ref_raw, seen)
    hyp_events = _first_events(hyp.events, seen)
    order = global_type_order(iter(ref_events + hyp_events))
    if order is None:
        return None
    max_pairs = mapping.MAX_CANDIDATE_PAIRS
    first = ref.instance_sets[0]
    unscored = frozenset(job.config.unscored_slots)
    usual = None if ref_counts is not None else usual_written(ref, 0, unscored)  # keys not read yet
    if ref_counts is not None:
        ref_sizes = {name: size for name, (size, _) in ref_counts.items()}
    elif usual is not None:
        ref_sizes = {name: size for name, (size, _) in usual.items()}
    else:
        ref_sizes = Counter(map(_TYPE, first.instances))
    for type_name in order:
        n_ref = ref_sizes.get(type_name, 0)
        n_hyp, hyp_counts = hyp.types.get(type_name, (0, {}))
        if not n_ref or not n_hyp:
            continue  # not mapped: each instance counted alone (which cannot fail)
        # the first type mapped: refused here by its bound, or not early
        if not may_be_refused(n_ref, n_hyp, max_pairs) or most_alike(n_ref, hyp_counts) <= max_pairs:
            return None  # its bound is not counted, or cannot pass the limit
        if ref_counts is not None:
            bound = pairs_alike(ref_counts[type_name][1], hyp_counts)
        elif usual is not None:
            bound = alike_with(usual[type_name][1], hyp_counts)
        else:  # not listed by the reader: the walk
            refs = [inst for inst in first.instances if inst.type == type_name]
            bound = pairs_alike(written_contents(refs, unscored, True), hyp_counts)
        if bound <= max_pairs:
            return None  # mapped, and maybe refused by the count of its prepared fills
        error = mapping.pairs_refused(first.docid, n_ref, n_hyp, type_name, bound, True)
        ref_instances = sum(len(iset.instances) for iset in ref.instance_sets)
        return _Refused(error, order, ref_events, hyp_events, (ref_instances, hyp.instances))
    return None


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


_JOB: list[_Job] = []  # a worker's job, given once when it starts (the corpora are not sent per group)


def _start_worker(job: _Job, stop: Any) -> None:
    _JOB[:] = [job]
    _STOP[:] = [stop]


_STOP: list[Any] = []  # a worker's stop flag (a multiprocessing Event): set, the groups not begun are skipped


# A worker's last group: its template sets and result, millions of small objects
# whose freeing took a tenth of a worker's time.  They are freed when the worker
# takes its next group, no longer between the end of a group and the sending of
# its outcome; the worker of a last group is stopped with them (Pool.terminate),
# not freeing them at all.
_KEPT: list[Any] = []


def _score_in_worker(group: _Group) -> _Outcome | _Refused | None:
    if _STOP[0].is_set():
        return None  # the run has ended: nobody reads this group's outcome
    _KEPT.clear()
    return _score_group(_JOB[0], group, _KEPT)


def _outcomes(
    job: _Job, groups: list[_Group], jobs: int, kept: list[Any] | None = None
) -> Generator[_Outcome | _Refused | None, None, None]:
    """The outcome of each group in order, ``jobs`` groups at a time.

    Groups scored in this process (one job, or one group) each leave their template sets
    and result in ``kept`` until the next group begins: the last one's are freed with the
    caller's frame, which a refusal's traceback holds (a refused document is millions of
    objects, which the command line never frees one by one: it ends the process).

    Closed before its end (a refused group, or an error that ends the run), it
    lets the workers finish the groups they are in and skip the others, and waits
    for them: stopping a worker by a signal (``Pool.terminate``) while it sends
    an outcome can leave the pool's result queue locked, and ``terminate`` then
    waits on that lock for ever. At the end, every worker is idle and is stopped
    so, without freeing its last group.
    """
    if jobs <= 1 or len(groups) <= 1:
        for group in groups:
            if kept is not None:
                kept.clear()
            yield _score_group(job, group, kept, fork=jobs > 1)
        return
    context = _context()
    stop = context.Event()
    pool = context.Pool(min(jobs, len(groups)), initializer=_start_worker, initargs=(job, stop))
    try:
        yield from pool.imap(_score_in_worker, groups, chunksize=1)
    except BaseException as error:
        if not isinstance(error, KeyboardInterrupt):
            stop.set()
            pool.close()
            pool.join()
        raise
    finally:
        pool.terminate()  # nothing left running (after a join), or every worker idle


def score_grouped(
    ref_path: str | Path,
    hyp_path: str | Path,
    *,
    config: ScoreConfig,
    encoding: str = "utf-8",
    jobs: int = 1,
    group_documents: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    point_writer: Callable[[ScoreResult, str], None] | None = None,
    ref_corpus: Corpus | None = None,
    hyp_corpus: Corpus | None = None,
    column_writer: Callable[[ScoreResult, str], None] | None = None,
) -> ScoreResult:
    """Score two templette files group by group, ``jobs`` groups at a time.

    The corpora, when given, must not need aligning (the same texts, or a
    reference text only): every group is checked against them and scored with
    them as :func:`hub4eval.scoring.pipeline.score` scores the whole files.

    The result keeps a :class:`~hub4eval.scoring.result.Tally`, not the
    mapping; with ``point_writer`` each group's points are written with it
    into a temporary file (removed with :meth:`Tally.discard_point_files`,
    or at exit); with ``column_writer`` likewise the points' columns for the
    HTML report.

    Raises:
        Ungroupable: the files must be scored whole (see the module's text).
    """
    # the two files are cut at once, the hypothesis in a forked child (the workers start after both)
    hyp_parts = Beside(split_documents, str(hyp_path), encoding, forked=jobs > 1)
    ref = split_documents(str(ref_path), encoding)
    hyp = hyp_parts.result() if ref is not None else None
    del hyp_parts  # a child not asked for its result is stopped
    if ref is None or hyp is None or ref.parts.keys().isdisjoint(hyp.parts):
        raise Ungroupable
    # the options' (and texts') warnings and signature, as scoring the whole files gives them
    try:
        empty = score(
            TemplateSet((), role="reference", path=str(ref_path)),
            TemplateSet((), role="hypothesis", path=str(hyp_path)),
            ref_corpus=ref_corpus,
            hyp_corpus=hyp_corpus,
            config=config,
            ceiling=False,
        )
    except InputError:
        raise Ungroupable from None  # the whole files report it, after their own errors
    expected_warnings = tuple(str(w) for w in empty.warnings)
    raw_offsets = str(RAW_OFFSETS)
    groups = plan(ref, hyp, jobs, group_documents)
    writes = point_writer is not None or column_writer is not None
    point_dir = tempfile.mkdtemp(prefix="hub4eval-points-") if writes else None
    job = _Job(
        str(ref_path), str(hyp_path), encoding, config, point_dir, point_writer, ref_corpus, hyp_corpus, column_writer
    )
    total = len(ref.parts)
    done = 0
    outcomes: list[_Outcome] = []
    refused: list[_Refused] = []  # the first refused group, then the groups after it, read only
    kept: list[Any] = []  # the objects of the last group scored in this process (see _outcomes)
    try:
        # closed on leaving, after a refusal or an error too, while the pool's threads run (a pool
        # left to the interpreter's exit could wait there for ever): the groups not begun are skipped
        with closing(_outcomes(job, groups, jobs, kept)) as running:
            for group, outcome in zip(groups, running, strict=True):
                if isinstance(outcome, _Refused):
                    refused.append(outcome)
                    break
                # the note that extents are raw offsets comes from the templates, which the empty score lacks
                if outcome is None or tuple(w for w in outcome.warnings if w != raw_offsets) != expected_warnings:
                    raise Ungroupable
                outcomes.append(outcome)
                done += len(group.ref_docids)
                if progress is not None and group.ref_docids:
                    progress(done, total)
        if refused:
            refused += _read_later(job, groups[len(outcomes) + 1 :], jobs)
        checked: list[_Outcome | _Refused] = [*outcomes, *refused]
        if sum(o.instances[0] for o in checked) != ref.instances:
            raise Ungroupable
        if sum(o.instances[1] for o in checked) != hyp.instances:
            raise Ungroupable
        order = global_type_order(
            events
            for role in ("ref_events", "hyp_events")
            for events in _in_file_order(checked, groups, role, ref if role == "ref_events" else hyp)
        )
        if order is None:
            raise Ungroupable
        for outcome in checked:
            local = set(outcome.order)
            if tuple(t for t in order if t in local) != outcome.order:
                raise Ungroupable
        if refused and refused[0].error is not None:
            raise refused[0].error  # the whole files' error: see the module's text
    except BaseException:
        if point_dir is not None:
            shutil.rmtree(point_dir, ignore_errors=True)
        raise
    if point_dir is not None:
        atexit.register(shutil.rmtree, point_dir, True)  # if not discarded before (the CLI does)
    if empty.alignment is not None:
        raise Ungroupable  # not reached: the caller gives only texts that need no aligning
    return ScoreResult(
        matches=(),
        config=config,
        signature=empty.signature,
        # as scoring the files whole gives it: the note before the options' warnings
        warnings=((RAW_OFFSETS,) if any(raw_offsets in o.warnings for o in outcomes) else ()) + empty.warnings,
        wer=empty.wer,
        tally=Tally.join(o.tally for o in outcomes),
    )


def _read_later(job: _Job, later: list[_Group], jobs: int) -> list[_Refused]:
    """The groups after a refused one, read and checked but not mapped (what the whole files
    would report before the refusal is an error or a warning in them).

    Raises:
        Ungroupable: a group gives an error or a warning, or texts are given (their checks
            of these groups would come first too).
    """
    if later and (job.ref_corpus is not None or job.hyp_corpus is not None):
        raise Ungroupable
    read: list[_Refused] = []
    with closing(_outcomes(dataclasses.replace(job, read_only=True), later, jobs)) as reading:
        for outcome in reading:
            if not isinstance(outcome, _Refused):
                raise Ungroupable
            read.append(outcome)
    return read


def _in_file_order(
    outcomes: Sequence[_Outcome | _Refused], groups: list[_Group], role: str, parts: DocumentParts
) -> Iterator[list[tuple[str, ...]]]:
    """The events of every instance set of one file, in the file's order of DOCIDs."""
    by_docid: dict[str, list[tuple[str, ...]]] = {}
    for outcome, group in zip(outcomes, groups, strict=True):
        docids = group.ref_docids if role == "ref_events" else group.hyp_docids
        by_docid.update(zip(docids, getattr(outcome, role), strict=True))
    for docid in parts.parts:
        yield by_docid[docid]
