"""The kinds of the ceiling's errors in each reference slot, read from a count without match records.

The causes of the system's errors ask the ceiling (:mod:`hub4eval.scoring.attribution`):
an INC or MIS point of a misrecognized reference fill is lost to recognition only when
the ceiling's points of that reference slot have an error of the same kind too. A
ceiling scored as counts (``Mapper.count_template_sets``) keeps no match record;
:func:`counted_slot_errors` reads those kinds from the signatures of its instance
matches, each slot's when the causes ask for it (:class:`SlotErrors`). Used by
:mod:`hub4eval.scoring.pipeline`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Any

from hub4eval.scoring.mapping import CountedMatch, CountedSet, Signature

_NONE: frozenset[str] = frozenset()  # the kinds of a slot without an error
_INSTANCES, _KEY, _REF = attrgetter("instances"), attrgetter("key"), itemgetter(0)


def counted_slot_errors(
    sets: Sequence[CountedSet], signatures: Sequence[Signature], unscored: Sequence[str]
) -> Mapping[tuple[str, str], frozenset[str]]:
    """:func:`hub4eval.scoring.attribution.ceiling_errors` of a count without match records
    (``Mapper.count_template_sets``): (reference instance key, slot) -> the kinds of the
    INC and MIS points of that slot, for every slot of every reference instance mapped to
    an instance or, when not optional, to nothing.

    A match record has a slot for each scored slot of its two instances (a hypothesis's
    first alternative has the slots of the others), and the signature of its points names
    the slot, kind and category of each of them, in order.

    The causes read it only for the reference slots of the system's error points that the
    recognizer may have caused (a few in ten): it is worked out for the slots read, when
    read (:class:`SlotErrors`), not for every slot of every instance.
    """
    return SlotErrors(sets, signatures, unscored)


class SlotErrors(Mapping[tuple[str, str], frozenset[str]]):
    """:func:`counted_slot_errors`, each entry worked out when it is read: the counted
    instance matches are indexed by their reference instance's key on the first read, and a
    slot's kinds are read from its match's signature (once per signature). Iterated (or
    compared, or counted), it is made whole first, as :meth:`whole` makes it."""

    def __init__(self, sets: Sequence[CountedSet], signatures: Sequence[Signature], unscored: Sequence[str]) -> None:
        self._sets = sets
        self._signatures = signatures
        self._skip = frozenset(unscored)
        self._by_signature: dict[int, dict[str, frozenset[str]]] = {}
        self._names: dict[int, tuple[Any, tuple[str, ...]]] = {}  # by id() of the instance, which it keeps alive
        self._index: tuple[dict[str, CountedMatch], dict[str, list[CountedMatch]]] | None = None
        self._whole: dict[tuple[str, str], frozenset[str]] | None = None

    def _errors(self, number: int) -> dict[str, frozenset[str]]:
        """The kinds of the INC and MIS points of each slot of signature ``number``."""
        errors = self._by_signature.get(number)
        if errors is None:
            kinds: dict[str, set[str]] = {}
            for slot, kind, category in self._signatures[number]:
                if category == "INC" or category == "MIS":
                    kinds.setdefault(slot, set()).add(kind)
            shared: dict[frozenset[str], frozenset[str]] = {}
            errors = self._by_signature[number] = {
                slot: shared.setdefault(frozenset(k), frozenset(k)) for slot, k in kinds.items()
            }
        return errors

    def _slots(self, inst: Any) -> tuple[str, ...]:
        """The scored slot names of an instance, each once, in order."""
        found = self._names.get(id(inst))
        if found is None:
            skip = self._skip
            found = self._names[id(inst)] = (
                inst,
                tuple(dict.fromkeys(s.name for s in inst.slots if s.name not in skip)),
            )
        return found[1]

    def _matches(self) -> list[CountedMatch]:
        """Every match that has slots of a reference instance, in order (a list made in one
        pass over the sets' matches: the index of :meth:`_indexed` reads them all)."""
        return [
            match
            for match in chain.from_iterable(map(_INSTANCES, self._sets))
            # (not a hypothesis instance alone, nor an optional one left out: those have no slots)
            if (ref := match[0]) is not None and (match[1] is not None or not ref.optional)
        ]

    def whole(self) -> dict[tuple[str, str], frozenset[str]]:
        """Every entry, in the order of the matches and of their slots (the reference's, then the hypothesis's)."""
        if self._whole is None:
            none: frozenset[str] = frozenset()
            out: dict[tuple[str, str], frozenset[str]] = {}
            for ref, hyp, _, number in self._matches():
                assert ref is not None  # (the matches of a reference instance only)
                errors = self._errors(number)
                key = ref.key
                for name in self._slots(ref):
                    out[key, name] = errors.get(name, none)
                if hyp is not None:
                    for name in self._slots(hyp):
                        out[key, name] = errors.get(name, none)
            self._whole = out
        return self._whole

    def _indexed(self) -> tuple[dict[str, CountedMatch], dict[str, list[CountedMatch]]]:
        """The matches of each reference instance key (:meth:`_matches`), made on the first read:
        (the match of each key that has one, the matches of each key that has several, in order).
        A reference instance is mostly in one match: the first dictionary, made at once."""
        index = self._index
        if index is None:
            matches = self._matches()
            keys = list(map(_KEY, map(_REF, matches)))
            single = dict(zip(keys, matches, strict=True))
            several: dict[str, list[CountedMatch]] = {}
            if len(single) < len(matches):  # a key in more than one match: those apart, in order
                for key, match in zip(keys, matches, strict=True):
                    several.setdefault(key, []).append(match)
                several = {key: found for key, found in several.items() if len(found) > 1}
                for key in several:
                    del single[key]
            index = self._index = (single, several)
        return index

    def get(self, key: tuple[str, str], default: Any = None) -> Any:
        if self._whole is not None:
            return self._whole.get(key, default)
        return self.get_many((key,), default)[0]

    def get_many(
        self, keys: Iterable[tuple[str, str]], default: Any = None, *, of_reference: bool = False
    ) -> list[Any]:
        """:meth:`get` of each key, in one pass (the causes read a few thousand).

        ``of_reference``: each key's slot is known to be a slot of its reference instance
        (the causes ask of the slots of the reference fills): a key of one match then has
        the kinds of its match's signature (none when it has no error there), without a
        look at the instances' slots."""
        if self._whole is not None:
            whole = self._whole.get
            return [whole(key, default) for key in keys]
        single, several = self._indexed()
        one_of, several_of = single.get, several.get
        skip = self._skip
        by_signature = self._by_signature
        out: list[Any] = []
        add = out.append
        for ref_key, name in keys:
            found = default
            if name not in skip:  # else not a scored slot: no entry
                match = one_of(ref_key)
                if of_reference and match is not None:
                    number = match[3]
                    errors = by_signature.get(number)
                    if errors is None:
                        errors = self._errors(number)
                    found = errors.get(name, _NONE)
                else:
                    for ref, hyp, _, number in (match,) if match is not None else several_of(ref_key, ()):
                        # the last match of this key with this slot writes the whole's entry (a slot
                        # of the signature's points is a slot of one of its instances: no need to look)
                        errors = by_signature.get(number)
                        if errors is None:
                            errors = self._errors(number)
                        kinds = errors.get(name)
                        if kinds is not None:
                            found = kinds
                        elif _has_slot(ref, name) or (hyp is not None and _has_slot(hyp, name)):
                            found = _NONE
            add(found)
        return out

    def __getitem__(self, key: tuple[str, str]) -> frozenset[str]:
        found = self.get(key, None)
        if found is None:
            raise KeyError(key)
        return found

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self.whole())

    def __len__(self) -> int:
        return len(self.whole())


def _has_slot(inst: Any, name: str) -> bool:
    """Whether ``inst`` has a slot named ``name``."""
    for slot in inst.slots:
        if slot.name == name:
            return True
    return False


__all__ = ["SlotErrors", "counted_slot_errors"]
