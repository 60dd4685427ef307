"""Metamorphic tests: changes to the input that must not change the score.

* reordering the instance sets of either file,
* adding blank lines and comment lines,
* renumbering instances consistently (headers and the pointers to them),
* swapping reference and hypothesis swaps REC and PRE (for sets that either
  side can hold: no alternatives, no minimal strings, no optional markers),
* determinism: the same inputs give byte-identical JSON across runs and
  across ``PYTHONHASHSEED`` values.

Everything goes through the CLI (``score --json -``) so that the reading,
the mapping and the JSON writer are all covered.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hub4eval.cli import app
from hub4eval.io.templettes import write_templates
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
from tests.support import ROOT
from tests.support.strategies import as_hypothesis, template_sets

EXAMPLES = ROOT / "examples"
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

LEVELS = ("summary", "by_slot", "by_type", "by_document", "by_kind")
runner = CliRunner()


@contextmanager
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="hub4eval-inv-") as name:
        yield Path(name)


def score_texts(ref_text: str, hyp_text: str, *options: str) -> dict:
    """Score two templette texts through the CLI; the parsed JSON."""
    with workdir() as directory:
        (directory / "ref.tpl").write_text(ref_text, encoding="utf-8")
        (directory / "hyp.tpl").write_text(hyp_text, encoding="utf-8")
        result = runner.invoke(
            app, ["score", str(directory / "ref.tpl"), str(directory / "hyp.tpl"), *options, "--json", "-"]
        )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def score_sets(ref: TemplateSet, hyp: TemplateSet, *options: str) -> dict:
    return score_texts(write_templates(ref), write_templates(hyp), *options)


def counts(data: dict) -> dict:
    return {level: data[level] for level in LEVELS}


def points_without_lines(data: dict) -> Counter:
    """The points as a multiset, ignoring file lines and order."""

    def strip(side):
        return None if side is None else {k: v for k, v in side.items() if k != "line"}

    return Counter(
        json.dumps({**point, "ref": strip(point["ref"]), "hyp": strip(point["hyp"])}, sort_keys=True)
        for point in data["points"]
    )


def mapping_as_sets(data: dict) -> tuple[frozenset, frozenset]:
    mapping = data["mapping"]
    return (
        frozenset(tuple(pair) for pair in mapping["instance_sets"]),
        frozenset(tuple(pair) for pair in mapping["instances"]),
    )


hypotheses = st.one_of(template_sets(reference=False), template_sets(reference=True).map(as_hypothesis))
compare_modes = st.sampled_from(["both", "content", "extent"])


# ------------------------------------------------------------ reordering


def reordered(tset: TemplateSet, order: list[int]) -> TemplateSet:
    sets = tset.instance_sets
    return TemplateSet(tuple(sets[i] for i in order), role=tset.role)


@st.composite
def reorderings(draw):
    ref = draw(template_sets(reference=True))
    hyp = draw(hypotheses)
    ref_order = draw(st.permutations(range(len(ref.instance_sets))))
    hyp_order = draw(st.permutations(range(len(hyp.instance_sets))))
    return ref, hyp, list(ref_order), list(hyp_order), draw(compare_modes)


@pytest.mark.slow
@PROPERTY
@given(reorderings())
def test_reordering_instance_sets_changes_nothing(case) -> None:
    ref, hyp, ref_order, hyp_order, compare = case
    before = score_sets(ref, hyp, "--compare", compare)
    after = score_sets(reordered(ref, ref_order), reordered(hyp, hyp_order), "--compare", compare)
    assert counts(after) == counts(before)
    assert mapping_as_sets(after) == mapping_as_sets(before)
    assert points_without_lines(after) == points_without_lines(before)


def test_reordering_the_clean_example() -> None:
    """The hand-written example, its documents in reverse order in both files."""

    def reverse_blocks(text: str) -> str:
        blocks, current = [], []
        for line in text.splitlines():
            if line.startswith("<TEMPLATE-") and current:
                blocks.append(current)
                current = []
            current.append(line)
        blocks.append(current)
        return "\n".join(line for block in reversed(blocks) for line in block) + "\n"

    ref = (EXAMPLES / "clean" / "ref.tpl").read_text(encoding="utf-8")
    hyp = (EXAMPLES / "clean" / "hyp.tpl").read_text(encoding="utf-8")
    assert reverse_blocks(ref) != ref
    before, after = score_texts(ref, hyp), score_texts(reverse_blocks(ref), reverse_blocks(hyp))
    assert counts(after) == counts(before)
    assert mapping_as_sets(after) == mapping_as_sets(before)


# ------------------------------------------------- blank lines and comments

FILLER_LINES = ["", "   ", "\t", "; a comment", "   ;; indented comment", ";", "; <T-D-9> := X: y ##1#2#"]


@st.composite
def with_noise(draw, text: str) -> str:
    lines = text.splitlines()
    out: list[str] = []
    for line in [*lines, None]:
        out.extend(draw(st.lists(st.sampled_from(FILLER_LINES), max_size=2)))
        if line is not None:
            out.append(line)
    return "\n".join(out) + "\n"


@st.composite
def noisy_files(draw):
    ref = write_templates(draw(template_sets(reference=True)))
    hyp = write_templates(draw(hypotheses))
    return ref, hyp, draw(with_noise(ref)), draw(with_noise(hyp))


@pytest.mark.slow
@PROPERTY
@given(noisy_files())
def test_blank_lines_and_comments_change_nothing(case) -> None:
    ref, hyp, noisy_ref, noisy_hyp = case
    before = score_texts(ref, hyp)
    after = score_texts(noisy_ref, noisy_hyp)
    assert counts(after) == counts(before)
    assert mapping_as_sets(after) == mapping_as_sets(before)
    assert points_without_lines(after) == points_without_lines(before)


def test_noise_in_the_sample() -> None:
    ref = (EXAMPLES / "sample" / "ref.tpl").read_text(encoding="utf-8")
    hyp = (EXAMPLES / "sample" / "hyp.tpl").read_text(encoding="utf-8")
    noisy = "; header comment\n\n" + ref.replace("\n", "\n\n  ; note\n") + "\n\n;\n"
    before, after = score_texts(ref, hyp), score_texts(noisy, hyp)
    assert after["summary"]["COR"] == 13
    assert counts(after) == counts(before)


# ------------------------------------------------------------ renumbering


def renumbered(tset: TemplateSet, new_number: dict[tuple[str, str, int], int]) -> TemplateSet:
    """Every header and pointer number replaced through ``new_number``."""

    def fill(f):
        if isinstance(f, PointerFill):
            return PointerFill(f.type, f.docid, new_number[(f.type, f.docid, f.number)])
        return f

    sets = []
    for iset in tset.instance_sets:
        instances = []
        for inst in iset.instances:
            slots = tuple(
                Slot(
                    slot.name,
                    tuple(FillAlternative(tuple(fill(f) for f in alt.fills)) for alt in slot.alternatives),
                    slot.optional,
                )
                for slot in inst.slots
            )
            instances.append(Instance(inst.type, inst.docid, new_number[(inst.type, inst.docid, inst.number)], slots))
        sets.append(InstanceSet(iset.docid, tuple(instances)))
    return TemplateSet(tuple(sets), role=tset.role)


@st.composite
def numberings(draw, tset: TemplateSet) -> dict[tuple[str, str, int], int]:
    keys = [(inst.type, inst.docid, inst.number) for inst in tset.instances]
    numbers = draw(st.lists(st.integers(1, 10**6), min_size=len(keys), max_size=len(keys), unique=True))
    return dict(zip(keys, numbers, strict=False))


@st.composite
def renumberings(draw):
    ref = draw(template_sets(reference=True))
    hyp = draw(hypotheses)
    return ref, hyp, draw(numberings(ref)), draw(numberings(hyp)), draw(compare_modes)


@pytest.mark.slow
@PROPERTY
@given(renumberings())
def test_consistent_renumbering_changes_nothing(case) -> None:
    ref, hyp, ref_numbers, hyp_numbers, compare = case
    before = score_sets(ref, hyp, "--compare", compare)
    after = score_sets(renumbered(ref, ref_numbers), renumbered(hyp, hyp_numbers), "--compare", compare)
    assert counts(after) == counts(before)

    def rename(pair, table):
        ref_key, hyp_key = pair
        return (table["ref"].get(ref_key, ref_key), table["hyp"].get(hyp_key, hyp_key))

    table = {
        "ref": {f"<{t}-{d}-{n}>": f"<{t}-{d}-{m}>" for (t, d, n), m in ref_numbers.items()},
        "hyp": {f"<{t}-{d}-{n}>": f"<{t}-{d}-{m}>" for (t, d, n), m in hyp_numbers.items()},
    }
    renamed = frozenset(rename(pair, table) for pair in mapping_as_sets(before)[1])
    assert mapping_as_sets(after)[1] == renamed


def test_renumbering_the_sample() -> None:
    ref = (EXAMPLES / "sample" / "ref.tpl").read_text(encoding="utf-8")
    hyp = (EXAMPLES / "sample" / "hyp.tpl").read_text(encoding="utf-8")
    moved = ref.replace("2923-1>", "2923-77>")
    assert moved.count("2923-77>") == 3  # two headers and the EVENT pointer
    assert score_texts(moved, hyp)["summary"]["COR"] == 13


# -------------------------------------------------------------- swapping


def plain(tset: TemplateSet) -> TemplateSet:
    """A set both sides can hold: first alternatives, no brackets, no '?', no OBJ_STATUS."""
    hyp = as_hypothesis(tset)
    sets = []
    for iset in hyp.instance_sets:
        instances = tuple(
            Instance(inst.type, inst.docid, inst.number, tuple(s for s in inst.slots if s.name != "OBJ_STATUS"))
            for inst in iset.instances
        )
        sets.append(InstanceSet(iset.docid, instances))
    return TemplateSet(tuple(sets), role="hypothesis")


def as_role(tset: TemplateSet, role: str) -> TemplateSet:
    return TemplateSet(tset.instance_sets, role=role)  # type: ignore[arg-type]


def canonical_extents(tset: TemplateSet) -> TemplateSet:
    """Each distinct content gets its own extent, disjoint from the others.

    Extent points are not symmetric in general (the reference maximal extent
    must enclose the hypothesis extent, not the other way round); with one
    extent per content, two extents are equal or disjoint, which is.
    """

    def fill(f):
        if isinstance(f, TextFill) and f.extents:
            start = 1000 * (sum(map(ord, f.content)) % 97) + len(f.content)
            extent = Extent(start, start + len(f.content))
            return TextFill(f.content, f.minimal_spans, (extent,), (extent,), quoted=f.quoted)
        return f

    sets = []
    for iset in tset.instance_sets:
        instances = tuple(
            Instance(
                inst.type,
                inst.docid,
                inst.number,
                tuple(
                    Slot(s.name, tuple(FillAlternative(tuple(fill(f) for f in a.fills)) for a in s.alternatives))
                    for s in inst.slots
                ),
            )
            for inst in iset.instances
        )
        sets.append(InstanceSet(iset.docid, instances))
    return TemplateSet(tuple(sets), role=tset.role)


SWAPPED = {
    "POS": "ACT",
    "ACT": "POS",
    "COR": "COR",
    "INC": "INC",
    "MIS": "SPU",
    "SPU": "MIS",
    "REC": "PRE",
    "PRE": "REC",
    "F": "F",
    "UND": "OVG",
    "OVG": "UND",
}


def assert_swapped(forward: dict, backward: dict) -> None:
    for key, other in SWAPPED.items():
        assert forward["summary"][key] == pytest.approx(backward["summary"][other], nan_ok=True), (
            key,
            forward["summary"],
            backward["summary"],
        )


@st.composite
def swappable(draw):
    a = plain(draw(template_sets(reference=True)))
    b = plain(draw(template_sets(reference=True)))
    return a, b, draw(st.sampled_from(["content", "both"]))


@pytest.mark.slow
@PROPERTY
@given(swappable())
def test_swapping_reference_and_hypothesis_swaps_recall_and_precision(case) -> None:
    a, b, compare = case
    if compare == "both":
        a, b = canonical_extents(a), canonical_extents(b)
    # Premodifier stripping is not symmetric: it moves the start of "the africa"
    # but not of "africa the", so an extent that encloses the other one way round
    # does not the other way (a counterexample hypothesis found). Without
    # premodifiers, content and extents compare alike both ways.
    options = ("--compare", compare, "--premodifiers", "")
    forward = score_sets(as_role(a, "reference"), as_role(b, "hypothesis"), *options)
    backward = score_sets(as_role(b, "reference"), as_role(a, "hypothesis"), *options)
    assert_swapped(forward, backward)


def test_swapping_the_clean_example() -> None:
    """The clean example's reference has alternatives; its first alternatives do not."""
    hyp = (EXAMPLES / "clean" / "hyp.tpl").read_text(encoding="utf-8")
    forward = score_texts(hyp, hyp.replace("Martinez", "Martina"))
    backward = score_texts(hyp.replace("Martinez", "Martina"), hyp)
    assert forward["summary"]["INC"] == 1
    assert_swapped(forward, backward)


# ----------------------------------------------------------- determinism


def run_subprocess(args: list[str], hash_seed: str) -> bytes:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "hub4eval", "score", *args, "--json", "-"],
        capture_output=True,
        cwd=ROOT,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout


def random_pair(seed: int) -> tuple[str, str]:
    """A larger pair of files drawn from a seeded generator (many ties to break)."""
    import random

    rng = random.Random(seed)
    words = ("egypt", "south", "africa", "the", "cup", "2-0")

    def fills(n: int) -> list[str]:
        out = []
        for _ in range(n):
            content = " ".join(rng.choice(words) for _ in range(rng.randint(1, 3)))
            start = rng.randint(0, 50)
            out.append(f'"{content}" ##{start}#{start + len(content)}#')
        return out

    def file(hypothesis: bool) -> str:
        blocks = []
        for d in range(12):
            events = rng.randint(0, 4)
            blocks.append(
                f"<TEMPLATE-D{d}-1> :=\n"
                + "".join(f"    EVENT: <EV-D{d}-{n}>\n" for n in range(1, events + 1)[:1])
                + "".join(f"           <EV-D{d}-{n}>\n" for n in range(2, events + 1))
            )
            for n in range(1, events + 1):
                lines = [f"<EV-D{d}-{n}> :="]
                for slot in ("WINNER", "LOSER", "SCORE"):
                    first, *rest = fills(rng.randint(1, 2))
                    lines.append(f"    {slot}: {first}")
                    lines += [f"            {fill}" for fill in rest]
                    if not hypothesis and rng.random() < 0.3:
                        lines.append("          / " + fills(1)[0])
                blocks.append("\n".join(lines) + "\n")
        return "\n".join(blocks)

    return file(False), file(True)


@pytest.mark.slow
@pytest.mark.parametrize("example", ["sample", "clean", "random", "aligned"])
def test_json_is_byte_identical_across_hash_seeds(example: str, tmp_path: Path) -> None:
    if example == "aligned":
        # A hypothesis text with misrecognized words (same lengths, so the
        # sample's offsets still fit): alignment, GLM and noisy content run.
        text = (EXAMPLES / "sample" / "text.sgml").read_text(encoding="utf-8")
        asr = text.replace("Egypt", "Egipt").replace("tournament", "turn a men").replace("Beating", "Beeting")
        (tmp_path / "hyp.sgml").write_text(asr, encoding="utf-8")
        args = [
            "examples/sample/ref.tpl",
            "examples/sample/hyp.tpl",
            "--ref-text",
            "examples/sample/text.sgml",
            "--hyp-text",
            str(tmp_path / "hyp.sgml"),
        ]
    elif example == "random":
        ref, hyp = random_pair(7)
        (tmp_path / "ref.tpl").write_text(ref, encoding="utf-8")
        (tmp_path / "hyp.tpl").write_text(hyp, encoding="utf-8")
        args = [str(tmp_path / "ref.tpl"), str(tmp_path / "hyp.tpl")]
    else:
        args = [f"examples/{example}/ref.tpl", f"examples/{example}/hyp.tpl"]
    outputs = {seed: run_subprocess(args, seed) for seed in ("0", "1", "4242")}
    assert len(set(outputs.values())) == 1
    data = json.loads(outputs["0"])
    assert data["summary"]["POS"] > 0
    if example == "aligned":
        assert data["signature"].split("|")[1] == "texts:aligned"
        assert 0 < data["summary"]["COR"] < data["summary"]["POS"]


@pytest.mark.slow
@PROPERTY
@given(template_sets(reference=True), hypotheses)
def test_json_is_byte_identical_across_runs(ref, hyp) -> None:
    with workdir() as directory:
        (directory / "ref.tpl").write_text(write_templates(ref), encoding="utf-8")
        (directory / "hyp.tpl").write_text(write_templates(hyp), encoding="utf-8")
        args = ["score", str(directory / "ref.tpl"), str(directory / "hyp.tpl"), "--json", "-"]
        first, second = runner.invoke(app, args), runner.invoke(app, args)
    assert first.exit_code == second.exit_code == 0
    assert first.stdout_bytes == second.stdout_bytes


# ----------------------------------------------------------------- identity


@pytest.mark.slow
@PROPERTY
@given(template_sets(reference=True), st.sampled_from(["both", "content"]))
def test_a_hypothesis_copying_the_reference_is_perfect(ref, compare) -> None:
    """A plain reference (one alternative, no brackets, no '?') copied as the hypothesis is all COR.

    With alternatives or minimal strings, or with ``--compare extent`` (fills
    without extents give no points), the greedy mapping may legitimately pair
    an instance with a copy of another one first (fuzzing found such cases),
    so the property is stated for plain sets.
    """
    ref = as_role(plain(ref), "reference")
    data = score_sets(ref, plain(ref), "--compare", compare)
    summary = data["summary"]
    assert summary["COR"] == summary["POS"] == summary["ACT"], summary
    assert summary["OPT"] == summary["REM"] == 0


# ------------------------------------------------------- text documents order


def _documents(text: str) -> list[str]:
    return [block + "</DOC>\n" for block in text.split("</DOC>\n") if block.strip()]


@pytest.mark.parametrize("aligned", [False, True])
def test_reordering_text_documents_changes_nothing(aligned: bool, tmp_path: Path) -> None:
    """Offsets count per document (§1), so document order in the corpora does not matter."""
    text = (EXAMPLES / "sample" / "text.sgml").read_text(encoding="utf-8")
    assert len(_documents(text)) == 3 and "".join(_documents(text)) == text
    asr = text.replace("Egypt", "Egipt").replace("tournament", "turn a men").replace("Beating", "Beeting")

    def run(order: list[int]) -> dict:
        ref_text, hyp_text = tmp_path / f"ref{order}.sgml", tmp_path / f"hyp{order}.sgml"
        ref_text.write_text("".join(_documents(text)[i] for i in order), encoding="utf-8")
        hyp_text.write_text("".join(_documents(asr)[i] for i in order), encoding="utf-8")
        args = [
            "score",
            str(EXAMPLES / "sample" / "ref.tpl"),
            str(EXAMPLES / "sample" / "hyp.tpl"),
            "--ref-text",
            str(ref_text),
            "--json",
            "-",
        ]
        if aligned:
            args += ["--hyp-text", str(hyp_text)]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    before, after = run([0, 1, 2]), run([2, 0, 1])
    assert counts(after) == counts(before)
    assert mapping_as_sets(after) == mapping_as_sets(before)
    if aligned:
        assert before["summary"]["COR"] < before["summary"]["POS"]
        assert after["wer"] == before["wer"]
