"""Hypothesis strategies: random valid template sets (model objects).

Sets have TEMPLATE instances pointing to EV instances of the same document,
text fills from a small vocabulary (so that partial matches happen), extents,
and for references: alternatives, minimal strings, optional slots and
optional instances.
"""

from __future__ import annotations

from hypothesis import strategies as st

from hub4eval.model import (
    Extent,
    FillAlternative,
    Instance,
    InstanceSet,
    PointerFill,
    Slot,
    TemplateSet,
    TextFill,
)

WORDS = (
    "egypt",
    "south",
    "africa",
    "the",
    "cup",
    "2-0",
    "egypt's",
    "uh",
)  # a possessive and a filler: noisy content reads them
DOCIDS = ("D1", "D2", "D3")
SLOTS = ("WINNER", "LOSER", "SCORE")


@st.composite
def text_fills(draw, reference: bool) -> TextFill:
    words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))
    content = " ".join(words)
    spans = ((0, len(content)),)
    bracketed = False
    if reference and len(words) > 1 and draw(st.booleans()):
        first = len(words[0]) + 1
        spans = ((first, len(content)),)
        bracketed = True
    extents: tuple[Extent, ...] = ()
    minimal_extents: tuple[Extent, ...] = ()
    if draw(st.booleans()):
        start = draw(st.integers(0, 40))
        extent = Extent(start, start + len(content))
        extents = (extent,)
        minimal_extents = tuple(Extent(start + a, start + b) for a, b in spans)
    return TextFill(content, spans, extents, minimal_extents, bracketed=bracketed)


@st.composite
def template_sets(
    draw, reference: bool = True, max_events: int = 3, pointers: bool = True, plain: bool = False
) -> TemplateSet:
    """Random template sets; ``plain``: every slot of an event holds one fill
    (one alternative), as most slots of real templettes do, and AGENT
    instances point to single events (one pointer a slot)."""
    role = "reference" if reference else "hypothesis"
    sets = []
    for docid in draw(st.lists(st.sampled_from(DOCIDS), min_size=0, max_size=3, unique=True)):
        events = []
        for number in range(1, draw(st.integers(0, max_events)) + 1):
            slots = []
            for name in draw(st.lists(st.sampled_from(SLOTS), min_size=1, max_size=3, unique=True)):
                n_alternatives = draw(st.integers(1, 2)) if reference and not plain else 1
                most = 1 if plain else 2
                alternatives = tuple(
                    FillAlternative(tuple(draw(st.lists(text_fills(reference), min_size=1, max_size=most))))
                    for _ in range(n_alternatives)
                )
                optional = reference and draw(st.integers(0, 4)) == 0
                slots.append(Slot(name, alternatives, optional))
            if reference and draw(st.integers(0, 4)) == 0:
                status = TextFill("OPTIONAL", ((0, 8),), quoted=False)
                slots.append(Slot("OBJ_STATUS", (FillAlternative((status,)),)))
            events.append(Instance("EV", docid, number, tuple(slots)))
        instances = []
        if pointers and (events or draw(st.booleans())):
            pointers = tuple(PointerFill("EV", docid, e.number) for e in events)
            chosen = tuple(p for p in pointers if draw(st.booleans()) or reference)
            slots = ()
            if chosen:
                slots = (Slot("EVENT", (FillAlternative(chosen),)),)
            instances.append(Instance("TEMPLATE", docid, 1, slots))
        agents = []
        if plain and events:
            for number in range(1, draw(st.integers(0, max_events)) + 1):
                target = PointerFill("EV", docid, draw(st.integers(1, len(events))))
                slots = (Slot("OF", (FillAlternative((target,)),)),)
                if draw(st.booleans()):
                    slots += (Slot("WINNER", (FillAlternative((draw(text_fills(reference)),)),)),)
                agents.append(Instance("AGENT", docid, number, slots))
        sets.append(InstanceSet(docid, tuple(instances + events + agents)))
    return TemplateSet(tuple(sets), role=role)


def as_hypothesis(tset: TemplateSet) -> TemplateSet:
    """The same set as a hypothesis would write it: first alternative, no brackets."""
    sets = []
    for iset in tset.instance_sets:
        instances = []
        for inst in iset.instances:
            slots = []
            for slot in inst.slots:
                fills = []
                for fill in slot.alternatives[0].fills:
                    if isinstance(fill, TextFill):
                        fill = TextFill(
                            fill.content,
                            ((0, len(fill.content)),),
                            fill.extents[:1],
                            fill.extents[:1],
                            quoted=fill.quoted,
                        )
                    fills.append(fill)
                slots.append(Slot(slot.name, (FillAlternative(tuple(fills)),)))
            instances.append(Instance(inst.type, inst.docid, inst.number, tuple(slots)))
        sets.append(InstanceSet(iset.docid, tuple(instances)))
    return TemplateSet(tuple(sets), role="hypothesis")
