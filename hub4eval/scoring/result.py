"""The outcome of scoring: the mapping, its points, and counts at every level."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from hub4eval.config import ScoreConfig
from hub4eval.errors import InputWarning
from hub4eval.scoring.mapping import (
    CountedSet,
    FillPair,
    SetMatch,
    Signature,
    iter_fill_pairs,
    iter_points,
    point_keys,
    points_of,
)
from hub4eval.scoring.metrics import CATEGORIES, Counts
from hub4eval.scoring.points import Point

# where a point's key sits in the tuples of mapping.point_keys: (docid, type, slot, kind, category)
LEVELS: dict[str, Callable[[tuple[str, str, str, str, str]], str]] = {
    "slot": lambda key: f"{key[1]}.{key[2]}",
    "type": lambda key: key[1],
    "document": lambda key: key[0],
    "kind": lambda key: key[3],
}


def group_counts(
    keys: Iterable[tuple[str, str, str, str, str]], levels: dict[str, Callable] = LEVELS
) -> dict[str, dict[str, Counts]]:
    """Summed counts per group of every level, groups in order of first appearance.

    Equal keys are counted first (a C loop; a Counter keeps first-appearance
    order), then the far fewer distinct keys are added into each level.
    """
    return counted_groups(Counter(keys), levels)


def counted_groups(
    counted: Mapping[tuple[str, str, str, str, str], int], levels: dict[str, Callable] = LEVELS
) -> dict[str, dict[str, Counts]]:
    """:func:`group_counts` of keys counted before (``key -> times``, in order of first appearance)."""
    index: dict[str, int] = {category: k for k, category in enumerate(CATEGORIES)}
    tallies: dict[str, dict[str, list[int]]] = {level: {} for level in levels}
    total = [0] * len(CATEGORIES)
    for key, times in counted.items():
        position = index[key[4]]
        total[position] += times
        for level, name_of in levels.items():
            groups = tallies[level]
            name = name_of(key)
            tally = groups.get(name)
            if tally is None:
                tally = groups[name] = [0] * len(CATEGORIES)
            tally[position] += times
    out = {level: {name: Counts(*tally) for name, tally in groups.items()} for level, groups in tallies.items()}
    out["all"] = {"": Counts(*total)}
    return out


_NO_F = object()  # not yet computed (None is an F: undefined)

InstancePair = tuple[str | None, str | None, float | None]
"""(reference pointer, hypothesis pointer, pair F) of an instance of a mapping."""


class CountedPairs(Sequence[InstancePair]):
    """The instance pairs of a count without match records (:meth:`Tally.counted`), made from
    its sets when first read: the tables never read them (only the JSON, the HTML report and
    ``--show-mapping`` do), and their pointers are a string each to make. Equal to the list
    of the same pairs; pickled as that list."""

    __slots__ = ("_beta", "_pairs", "_sets")

    def __init__(self, sets: Sequence[CountedSet], beta: float) -> None:
        self._sets: Sequence[CountedSet] | None = sets
        self._beta = beta
        self._pairs: list[InstancePair] | None = None

    def _made(self) -> list[InstancePair]:
        pairs = self._pairs
        if pairs is None:
            pairs = self._pairs = _counted_pairs(self._sets or (), self._beta)
            self._sets = None
        return pairs

    def __len__(self) -> int:
        return len(self._made())

    def __getitem__(self, index: Any) -> Any:
        return self._made()[index]

    def __iter__(self) -> Iterator[InstancePair]:
        return iter(self._made())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CountedPairs):
            other = other._made()
        return isinstance(other, list) and self._made() == other

    __hash__ = None  # type: ignore[assignment]  # as a list's

    def __repr__(self) -> str:
        return repr(self._made())

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (self._made(),))


def _counted_pairs(sets: Sequence[CountedSet], beta: float) -> list[InstancePair]:
    """(reference pointer, hypothesis pointer, pair F) of every instance of ``sets``, in order."""
    instance_pairs: list[InstancePair] = []
    append = instance_pairs.append
    f_of: dict[int, float | None] = {}  # by id() of the counts, which the sets keep alive (many are shared)
    for set_match in sets:
        for ref, hyp, counts, _ in set_match.instances:
            if ref is None:
                append((None, hyp.key, None))  # type: ignore[union-attr]
            elif hyp is None:
                append((ref.key, None, None))
            else:
                f = f_of.get(id(counts), _NO_F)
                if f is _NO_F:
                    f = f_of[id(counts)] = counts.f(beta)
                append((ref.key, hyp.key, f))  # type: ignore[arg-type]
    return instance_pairs


class CountedLevels(Mapping[str, dict[str, Counts]]):
    """The counts of every level of a count without match records (:meth:`Tally.counted`),
    as :func:`group_counts` gives them of the records: the documents' and the total from
    the sets' counts, the slots', types' and kinds' from the matches' signatures when one of
    them is first read (the ceiling's tally is read for its total alone). Equal to the dict
    of the same levels; pickled as that dict."""

    __slots__ = ("_documents", "_grouped", "_sets", "_signatures", "_total")

    def __init__(self, sets: Sequence[CountedSet], signatures: Sequence[Signature], documents: dict[str, Counts]):
        self._sets: Sequence[CountedSet] | None = sets
        self._signatures = signatures
        self._documents = documents
        self._total = {"": Counts.total(documents.values())}
        self._grouped: dict[str, dict[str, Counts]] | None = None

    def _levels(self) -> dict[str, dict[str, Counts]]:
        grouped = self._grouped
        if grouped is None:
            # The points of the instance matches of one type and signature have the same (type,
            # slot, kind, category) in the same order, so counting such matches (far fewer than
            # points), then each one's points, gives the count of every group of those levels,
            # groups in order of first appearance.
            times = Counter(
                (hyp.type if ref is None else ref.type, signature)  # type: ignore[union-attr]
                for set_match in self._sets or ()
                for ref, hyp, _, signature in set_match.instances
            )
            signatures = self._signatures
            counted: dict[tuple[str, str, str, str, str], int] = {}
            for (type_name, signature), n in times.items():
                for slot, kind, category in signatures[signature]:
                    point = ("", type_name, slot, kind, category)
                    counted[point] = counted.get(point, 0) + n
            grouped = self._grouped = counted_groups(
                counted, {level: name_of for level, name_of in LEVELS.items() if level != "document"}
            )
            self._sets = None
        return grouped

    def __getitem__(self, level: str) -> dict[str, Counts]:
        if level == "document":
            return self._documents
        if level == "all":
            return self._total
        if level not in LEVELS:
            raise KeyError(level)
        return self._levels()[level]

    def __iter__(self) -> Iterator[str]:
        return iter((*LEVELS, "all"))

    def __len__(self) -> int:
        return len(LEVELS) + 1

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self.items()),))


@dataclass(frozen=True)
class Tally:
    """What a result scored in groups of documents keeps instead of its mapping:
    counts and the mapping's pairs, not the points (see :mod:`hub4eval.parallel`).

    Made per group with :meth:`of` and joined, in the order of the result's
    instance sets, with :meth:`join`; the groups hold different documents.
    """

    levels: Mapping[str, dict[str, Counts]]
    """The counts of every group of every level (:func:`group_counts`), groups in order of first
    appearance (a dict, or the :class:`CountedLevels` of a count, made when read)."""
    instance_pairs: Sequence[tuple[str | None, str | None, float | None]]
    """(reference pointer, hypothesis pointer, pair F) of every instance, in order (a list, or
    the :class:`CountedPairs` of a count, made when read)."""
    set_pairs: list[tuple[str | None, str | None]]
    set_counts: list[tuple[str, Counts]]  # (DOCID, counts) of every instance set
    point_files: tuple[str, ...] = ()
    """Files holding the points as JSON entries, one file per group (see
    :func:`hub4eval.report.export.point_entries`), when they were asked for."""
    column_files: tuple[str, ...] = ()
    """Files holding the points as the HTML report's columns, one file per group (see
    :func:`hub4eval.report.page_data.write_point_columns`), when they were asked for."""
    json_heads: tuple[Any, ...] | None = None
    """The by-document rows and the mapping of each group as JSON, made in its worker with
    its point file (see :class:`hub4eval.report.export.HeadPieces`); None when a group has none."""
    causes: Any = None
    """When the texts differ: the error points by cause
    (:class:`hub4eval.scoring.attribution.CountedCauses`), which the result's causes read."""
    reference_sets: tuple[Any, ...] | None = None
    """When the texts differ: the reference instance sets of the mapping, in order, whose
    fills the entity WER reads (:func:`hub4eval.scoring.entity_wer.entity_wer`)."""
    reference_table: Any = None
    """When the texts differ: the reference's fill table the count read
    (:class:`hub4eval.scoring.fill_tables.FillTable`), whose fills' columns the entity WER
    reads for the instances it holds whole, instead of their fills (None: none)."""

    @classmethod
    def of(cls, result: ScoreResult, point_file: str | None = None, column_file: str | None = None) -> Tally:
        # the counts per group of each level are made here, in the group's process: the
        # process that joins the groups only adds up a few counts per group of a level
        return cls(
            result._levels,
            result.instance_pairs(),
            result.instance_set_pairs(),
            result.set_counts(),
            () if point_file is None else (point_file,),
            () if column_file is None else (column_file,),
        )

    @classmethod
    def counted(cls, sets: Sequence[CountedSet], signatures: Sequence[Signature], beta: float) -> Tally:
        """The tally of a count without match records (``Mapper.count_template_sets``):
        what :meth:`of` gives of the result with every record."""
        # a document's counts are its sets' counts (the other levels: CountedLevels, when read)
        documents: dict[str, Counts] = {}
        for set_match in sets:
            total = set_match.counts
            if total.pos + total.spu + total.opt + total.rem:  # the set has points
                known = documents.get(set_match.docid)
                documents[set_match.docid] = total if known is None else known + total
        return cls(
            CountedLevels(sets, signatures, documents),
            CountedPairs(sets, beta),
            [(m.ref.docid if m.ref is not None else None, m.hyp.docid if m.hyp is not None else None) for m in sets],
            [(m.docid, m.counts) for m in sets],
        )

    @classmethod
    def join(cls, tallies: Iterable[Tally]) -> Tally:
        levels: dict[str, dict[str, Counts]] = {}
        instance_pairs: list[tuple[str | None, str | None, float | None]] = []
        set_pairs: list[tuple[str | None, str | None]] = []
        set_counts: list[tuple[str, Counts]] = []
        point_files: list[str] = []
        column_files: list[str] = []
        json_heads: list[Any] | None = []
        for tally in tallies:
            for level, groups in tally.levels.items():
                joined = levels.setdefault(level, {})
                for name, counts in groups.items():
                    known = joined.get(name)
                    joined[name] = counts if known is None else known + counts
            instance_pairs += tally.instance_pairs
            set_pairs += tally.set_pairs
            set_counts += tally.set_counts
            point_files += tally.point_files
            column_files += tally.column_files
            if json_heads is not None and tally.json_heads is not None:
                json_heads += tally.json_heads
            else:
                json_heads = None
        if not levels:
            levels = counted_groups({})
        return cls(
            levels,
            instance_pairs,
            set_pairs,
            set_counts,
            tuple(point_files),
            tuple(column_files),
            tuple(json_heads) if json_heads else None,
        )

    @property
    def points(self) -> int:
        """How many points the groups counted."""
        total = self.levels["all"][""]
        return total.pos + total.spu + total.opt + total.rem

    def discard_point_files(self) -> None:
        """Remove the point files and column files (and their directory, once empty)."""
        import os

        files = self.point_files + self.column_files
        for path in files:
            try:
                os.remove(path)
            except OSError:
                pass
        for directory in {os.path.dirname(path) for path in files}:
            try:
                os.rmdir(directory)
            except OSError:
                pass


@dataclass(frozen=True)
class ScoreResult:
    """Everything a report needs; built by :func:`hub4eval.scoring.pipeline.score`."""

    matches: tuple[SetMatch, ...]
    config: ScoreConfig
    signature: str
    warnings: tuple[InputWarning, ...] = ()
    wer: dict[str, Any] | None = None  # word error rate of the hypothesis text, when texts differ
    alignment: Any = field(default=None, compare=False)  # textalign.CorpusAlignment or None
    ceiling: ScoreResult | None = field(default=None, compare=False)
    """The ceiling: the reference projected onto the hypothesis text, scored (when asked for and texts differ)."""
    projection: Any = field(default=None, compare=False)
    """On a ceiling result: the projected hypothesis template set it scored."""
    tally: Tally | None = field(default=None, compare=False)
    """Set when the result was scored in groups of documents and keeps counts,
    not points: then ``matches`` is empty, and the points (and fill pairs) are
    not available (only their JSON entries, when asked for)."""
    slot_errors: Mapping[tuple[str, str], frozenset[str]] | None = field(default=None, compare=False)
    """On a ceiling result scored as counts (``tally`` set): (reference instance key, slot)
    -> the kinds of the INC and MIS points of that slot, which the causes read
    (:func:`hub4eval.scoring.attribution.ceiling_errors`)."""

    @cached_property
    def attributor(self) -> Any:
        """The §11 cause of error points (:class:`hub4eval.scoring.attribution.Attributor`);
        None when the texts are the same or not given."""
        if self.alignment is None:
            return None
        from hub4eval.scoring.attribution import Attributor

        return Attributor(self.alignment, self.ceiling)  # causes agree with the ceiling (§11, v1.2)

    @cached_property
    def causes(self) -> dict[str, dict[str, dict[str, dict[str, int]]]]:
        """Error points by cause at every level (see :func:`hub4eval.scoring.attribution.cause_counts`)."""
        from hub4eval.scoring.attribution import cause_counts

        return cause_counts(self)

    @cached_property
    def entity_wer(self) -> dict[str, Any] | None:
        """WER inside the reference fills, overall and per slot (texts differ), else None."""
        from hub4eval.scoring.entity_wer import entity_wer

        return entity_wer(self)

    def ceiling_summary(self) -> dict[str, Any] | None:
        """System F, ceiling F and their ratio (None when undefined), or None without a ceiling."""
        if self.ceiling is None:
            return None
        beta = self.config.beta
        system_f = self.total.metrics(beta)["F"]
        ceiling_f = self.ceiling.total.metrics(beta)["F"]
        ratio = None if system_f is None or not ceiling_f else system_f / ceiling_f
        return {
            "F": system_f,
            "ceiling_F": ceiling_f,
            "fraction_of_ceiling": ratio,
            "ceiling": self.ceiling.total.as_dict(beta),
        }

    @cached_property
    def points(self) -> tuple[Point, ...]:
        """Every point with its fills and reason (made on first use: reports
        that need only counts never pay for a million point objects)."""
        self._need_matches("points")
        if self.alignment is not None:
            from hub4eval.scoring.attribution import attributed_points

            return tuple(attributed_points(self))
        return points_of(self.matches)

    def _need_matches(self, what: str) -> None:
        if self.tally is not None:
            raise ValueError(
                f"the {what} of a result scored in groups of documents are not kept "
                "(score with keep='matches' to have them)"
            )

    @cached_property
    def _levels(self) -> Mapping[str, dict[str, Counts]]:
        if self.tally is not None:
            return self.tally.levels
        return group_counts(point_keys(self.matches))

    @property
    def total(self) -> Counts:
        return self._levels["all"][""]

    def by(self, level: str) -> dict[str, Counts]:
        """Counts per ``slot`` (TYPE.SLOT), ``type``, ``document`` or ``kind``."""
        return dict(self._levels[level])

    def instance_pairs(self) -> list[tuple[str | None, str | None, float | None]]:
        """(reference pointer, hypothesis pointer, pair F) for every instance."""
        if self.tally is not None:
            return list(self.tally.instance_pairs)
        pairs = []
        beta = self.config.beta
        for set_match in self.matches:
            for inst in set_match.instances:
                f = inst.counts.f(beta) if inst.ref and inst.hyp else None
                pairs.append(
                    (
                        inst.ref.key if inst.ref is not None else None,
                        inst.hyp.key if inst.hyp is not None else None,
                        f,
                    )
                )
        return pairs

    def instance_set_pairs(self) -> list[tuple[str | None, str | None]]:
        if self.tally is not None:
            return list(self.tally.set_pairs)
        return [
            (
                m.ref.docid if m.ref is not None else None,
                m.hyp.docid if m.hyp is not None else None,
            )
            for m in self.matches
        ]

    def set_counts(self) -> list[tuple[str, Counts]]:
        """(DOCID, counts) of every instance set, in mapping order (a set with no point has zero counts)."""
        if self.tally is not None:
            return list(self.tally.set_counts)
        return [(m.docid, m.counts) for m in self.matches]

    def iter_points(self) -> Iterator[Point]:
        """The points one at a time: the cached tuple if made, else made on the fly."""
        self._need_matches("points")
        cached = self.__dict__.get("points")
        if cached is not None:
            return iter(cached)
        if self.alignment is not None:
            from hub4eval.scoring.attribution import attributed_points

            return attributed_points(self)
        return iter_points(self.matches)

    def iter_fill_pairs(self) -> Iterator[FillPair]:
        """The fill pairs behind the points, each with its verdicts (see :func:`hub4eval.scoring.mapping.iter_fill_pairs`)."""
        self._need_matches("fill pairs")
        return iter_fill_pairs(self.matches)

    def to_json(self, points: bool = True, *, left_out: Collection[str] = ()) -> dict[str, Any]:
        """The JSON object of docs/json-output.md (``points=False``: without the "points" list;
        ``left_out``: top-level keys, "by_document" or "mapping", kept in their place with
        None as their value, for a caller that has them as JSON already)."""
        beta = self.config.beta
        out: dict[str, Any] = {
            "signature": self.signature,
            "summary": self.total.as_dict(beta),
        }
        for level, name in (
            ("slot", "by_slot"),
            ("type", "by_type"),
            ("document", "by_document"),
            ("kind", "by_kind"),
        ):
            if name in left_out:
                out[name] = None
                continue
            out[name] = {key: counts.as_dict(beta) for key, counts in self.by(level).items()}
        if "mapping" in left_out:
            out["mapping"] = None
        else:
            instance_pairs = self.instance_pairs()
            out["mapping"] = {
                "instance_sets": [list(pair) for pair in self.instance_set_pairs()],
                "instances": [[r, h] for r, h, _ in instance_pairs if r and h],
                "instance_f": [[r, h, f] for r, h, f in instance_pairs],
            }
        if points:
            out["points"] = [p.as_dict() for p in self.iter_points()]
        out["warnings"] = [str(w) for w in self.warnings]
        if self.wer is not None:
            out["wer"] = self.wer
        if self.attributor is not None:
            causes = self.causes
            out["by_cause"] = {
                "summary": causes["all"][""],
                **{
                    name: causes[level]
                    for level, name in (
                        ("slot", "by_slot"),
                        ("type", "by_type"),
                        ("document", "by_document"),
                        ("kind", "by_kind"),
                    )
                },
            }
            out["entity_wer"] = self.entity_wer
        ceiling = self.ceiling_summary()
        if ceiling is not None:
            out["ceiling"] = ceiling
        return out
