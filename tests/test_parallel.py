"""Scoring in groups of documents (``--jobs``): the same output as scoring the files whole.

Unit tests of the cut (:mod:`hub4eval.io.templettes.split`), of the grouped
scoring (:mod:`hub4eval.parallel`) against :func:`hub4eval.api.score_files`
whole, and the CLI through typer's runner and a real process.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import hub4eval.api as api
from hub4eval import parallel
from hub4eval.cli import app
from hub4eval.config import ScoreConfig
from hub4eval.errors import InputError
from hub4eval.io.templettes import parse_templates
from hub4eval.io.templettes.split import read_parts, runs, split_documents
from hub4eval.model import FillAlternative, Instance, InstanceSet, PointerFill, Slot, TemplateSet, TextFill
from hub4eval.report import export
from hub4eval.report.confidence import bootstrap_intervals, document_counts
from hub4eval.report.html import join_columns, point_columns, to_html, write_point_columns
from hub4eval.scoring.mapping import type_order
from hub4eval.scoring.refusal import written_contents
from tests.support import EXAMPLES, ROOT

runner = CliRunner()


def _generator():
    spec = importlib.util.spec_from_file_location("gen_templates", ROOT / "benchmarks" / "gen_templates.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> tuple[str, str]:
    """40 documents with errors; the hypothesis lacks some documents and has
    two of its own (one before, one after the shared ones); a comment first."""
    ref_text, hyp_text = _generator().generate(40, 400, seed=7, error=0.2)
    hyp_text = (
        '<TEMPLATE-ONLYHYP.0001-1> :=\n    EVENT: <EV-ONLYHYP.0001-1>\n<EV-ONLYHYP.0001-1> :=\n    WINNER: "w1" ##1#3#\n'
        + "\n<".join(
            instance
            for instance in hyp_text.split("\n<")
            if "SYN0000003" not in instance.split(">", 1)[0] and "SYN0000017" not in instance.split(">", 1)[0]
        )
        + "\n"
        + '\n<TEMPLATE-ONLYHYP.0002-1> :=\n    EVENT: <EV-ONLYHYP.0002-1>\n<EV-ONLYHYP.0002-1> :=\n    LOSER: "w2" ##1#3#\n'
    )
    folder = tmp_path_factory.mktemp("parallel")
    (folder / "ref.tpl").write_text("; generated\n\n" + ref_text, encoding="utf-8")
    (folder / "hyp.tpl").write_text(hyp_text, encoding="utf-8")
    return str(folder / "ref.tpl"), str(folder / "hyp.tpl")


def _json(result) -> str:
    return export.to_json_text(result)


def _grouped(ref: str, hyp: str, jobs: int, size: int | None = 3, **options):
    output = api.OutputOptions(keep="counts", jobs=jobs, group_documents=size, point_writer=export.write_point_file)
    result = api.score_files(ref, hyp, output=output, **options)
    return result


# -- the cut ---------------------------------------------------------------------


def test_the_parts_of_every_document_read_as_the_whole_file_reads_them(files):
    for path, role in ((files[0], "reference"), (files[1], "hypothesis")):
        whole = parse_templates(Path(path).read_text(encoding="utf-8"), path, role)  # type: ignore[arg-type]
        parts = split_documents(path)
        assert parts is not None
        assert list(parts.parts) == [iset.docid for iset in whole.instance_sets]
        assert parts.instances == len(whole.instances)
        for iset in whole.instance_sets:
            one = read_parts(path, "utf-8", runs(parts.parts[iset.docid]), role)
            assert one.instance_sets == (iset,)
            # the positions are those of the whole file (equality leaves them out)
            assert [i.line for i in one.instances] == [i.line for i in iset.instances]
            fills = [f for i in one.instances for s in i.slots for a in s.alternatives for f in a.fills]
            whole_fills = [f for i in iset.instances for s in i.slots for a in s.alternatives for f in a.fills]
            assert [(f.line, f.column) for f in fills] == [(f.line, f.column) for f in whole_fills]


def test_documents_in_several_places_are_read_from_each(tmp_path):
    text = (
        '<A-D1-1> :=\n    S: "a" ##0#1#\n'
        '<A-D2-1> :=\n    S: "b" ##0#1#\n'
        "\n; between\n<B-D1-2> :=\n    P: <A-D1-1>\n"
        '<A-D2-2> :=\n    S: "c" ##2#3#\n'
    )
    path = tmp_path / "t.tpl"
    path.write_text(text, encoding="utf-8")
    parts = split_documents(str(path))
    assert parts is not None
    assert [len(runs(p)) for p in parts.parts.values()] == [2, 2]
    whole = parse_templates(text, str(path))
    both = read_parts(str(path), "utf-8", runs(parts.parts["D1"] + parts.parts["D2"]), "reference")
    assert both.instance_sets == whole.instance_sets
    assert [i.line for i in both.instances] == [i.line for i in whole.instances] == [1, 7, 3, 9]
    # a header repeated in another part of the same document is still an error, at its line
    path.write_text(text + '<A-D1-1> :=\n    S: "d" ##0#1#\n', encoding="utf-8")
    parts = split_documents(str(path))
    with pytest.raises(InputError, match="duplicate instance header") as error:
        read_parts(str(path), "utf-8", runs(parts.parts["D1"]), "reference")  # type: ignore[union-attr]
    assert error.value.line == 11


@pytest.mark.parametrize(
    "text",
    ['junk before\n<A-D1-1> :=\n    S: "a" ##0#1#\n', "; only a comment\n", '<A-1> :=\n    S: "a" ##0#1#\n'],
    ids=["text before the first header", "no header", "a header without a DOCID"],
)
def test_what_cannot_be_cut_is_left_whole(tmp_path, text):
    path = tmp_path / "t.tpl"
    path.write_text(text, encoding="utf-8")
    assert split_documents(str(path)) is None
    assert split_documents(str(path), "utf-16") is None
    assert split_documents("-") is None


def _cut_line_by_line(text: str) -> tuple[dict[str, list[tuple[int, int, int]]], int, dict[str, int]] | None:
    """The cut of split_documents, found the slow way: each line read on its own (and the
    headers of each DOCID)."""
    import re

    parts: dict[str, list[list[int]]] = {}
    headers: dict[str, int] = {}
    offset, previous, count = 0, None, 0
    for number, line in enumerate(text.encode("utf-8").splitlines(keepends=True), 1):
        header = re.match(rb"[ \t]*<([^<>\s]+)>[ \t]*:=", line)
        if header is None:
            if not parts and not re.fullmatch(rb"[ \t\r]*(;[^\n]*)?\n?", line):
                return None  # text before the first header
        else:
            name = header[1]
            first, last = name.find(b"-"), name.rfind(b"-")
            if first < 0 or last <= first or not name[last + 1 :].isdigit():
                return None
            docid = name[first + 1 : last].decode("utf-8")
            if docid != previous:
                if previous is not None:
                    parts[previous][-1][1] = offset
                parts.setdefault(docid, []).append([offset, offset, number])
            previous, count = docid, count + 1
            headers[docid] = headers.get(docid, 0) + 1
        offset += len(line)
    if previous is None:
        return None
    parts[previous][-1][1] = offset
    return {docid: [(a, b, n) for a, b, n in found] for docid, found in parts.items()}, count, headers


def test_the_cut_is_the_one_a_line_by_line_reading_finds(tmp_path):
    pieces = [
        '<A-D1-1> :=\n', '<A-D1-2> :=\n', '<B-D2-1> :=\n', ' <C-D-2-3>:=\n', '<A--1> :=\n', '<A-1> :=\n',
        '<A-B-1x> :=\n', '    S: "a" ##0#1#\n', '           <A-D1-1>\n', '; c\n', '\n', '\t<E-D3-4> :=\r\n',
        '<A-é-1> :=\n', '<A-D1-1-2> :=\n', 'x <A-D9-1> :=\n', '    S: "a:=b" ##0#1#\n', '<A:=-D4-1> :=\n',
    ]  # fmt: skip
    rnd = random.Random(7)
    path = tmp_path / "t.tpl"
    for _ in range(500):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 12)))
        path.write_text(text, encoding="utf-8")
        parts = split_documents(str(path))
        assert (None if parts is None else (parts.parts, parts.instances, parts.counts)) == _cut_line_by_line(text), (
            text
        )


# -- the result ----------------------------------------------------------------


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_every_number_of_jobs_gives_the_json_of_the_whole_files(files, jobs):
    whole = api.score_files(*files)
    grouped = _grouped(*files, jobs)
    assert grouped.tally is not None and not grouped.matches
    # the by-document rows and the mapping come as each group's worker wrote them
    assert grouped.tally.json_heads is not None and len(grouped.tally.json_heads) > 1
    assert _json(grouped) == _json(whole)
    assert export.to_csv_text(grouped) == export.to_csv_text(whole)
    assert document_counts(grouped) == document_counts(whole)
    assert bootstrap_intervals(list(document_counts(grouped).values()), 200, 1, 1.0) == bootstrap_intervals(
        list(document_counts(whole).values()), 200, 1, 1.0
    )
    grouped.tally.discard_point_files()
    assert not any(Path(p).exists() for p in grouped.tally.point_files)


def test_the_head_of_groups_is_encoded_whole_when_their_rows_add_up(files):
    # a document in two groups (not a plan's, whose groups hold different documents) has its
    # rows added up by the join: the groups' own JSON would list it twice
    grouped = _grouped(*files, 2)
    assert grouped.tally is not None and grouped.tally.json_heads is not None
    expected = _json(grouped)
    heads = grouped.tally.json_heads
    twice = dataclasses.replace(grouped, tally=dataclasses.replace(grouped.tally, json_heads=(*heads, heads[0])))
    assert export._group_heads(twice, None) is None
    assert _json(twice) == expected
    # nor when an extra key of the caller's takes their place
    assert export._group_heads(grouped, {"mapping": {}}) is None
    assert export._group_heads(grouped, None) == heads
    grouped.tally.discard_point_files()


def _points_of_a_result(result, path: str) -> None:
    """A point writer of a result with its match records only (no ``runs``)."""
    export.write_point_file(result, path)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_point_writer_of_results_only_gives_the_same_json(files, jobs):
    # a writer the mapper cannot call with counted runs: each group keeps its match records for it
    output = api.OutputOptions(keep="counts", jobs=jobs, group_documents=3, point_writer=_points_of_a_result)
    grouped = api.score_files(*files, output=output)
    assert grouped.tally is not None and grouped.tally.point_files
    assert grouped.tally.json_heads is None  # nor the head's JSON: the main process encodes it
    assert _json(grouped) == _json(api.score_files(*files))
    grouped.tally.discard_point_files()


@pytest.mark.slow
def test_options_and_their_warnings_are_those_of_the_whole_files(files):
    config = ScoreConfig(min_map_f=0.3, beta=2.0, glm=("default",), content="noisy")
    whole = api.score_files(*files, config=config)
    grouped = _grouped(*files, 2, config=config)
    assert grouped.tally is not None
    assert _json(grouped) == _json(whole)
    assert grouped.warnings == whole.warnings and grouped.signature == whole.signature


def test_a_result_of_groups_has_no_points_to_give(files):
    grouped = api.score_files(*files, output=api.OutputOptions(keep="counts", jobs=2, group_documents=5))
    assert grouped.tally is not None and grouped.tally.point_files == ()
    with pytest.raises(ValueError, match="not kept"):
        grouped.points  # noqa: B018
    with pytest.raises(ValueError, match="not kept"):
        next(grouped.iter_points())


def test_small_inputs_with_one_job_are_scored_whole(files):
    assert api.score_files(*files, output=api.OutputOptions(keep="counts", jobs=1)).tally is None
    assert api.score_files(*files, output=api.OutputOptions(keep="counts", jobs=2)).tally is not None
    assert api.score_files(*files, output=api.OutputOptions(jobs=2)).tally is None  # keep="matches": the whole mapping


def test_a_group_is_mapped_in_the_order_its_events_give(files, monkeypatch):
    """A worker maps its group in the type order it worked out from the events it sends,
    without walking every slot again for it: the counts and the JSON stay those of the
    whole files."""
    whole = api.score_files(*files)
    from hub4eval.scoring import mapping

    def walked(ref, hyp):
        if ref.instances or hyp.instances:  # (the main process's score of no templates asks for its order)
            raise AssertionError("type_order walked the fills of a group")
        return ()

    monkeypatch.setattr(mapping, "type_order", walked)
    for writer in (export.write_point_file, None):  # the records path (--json) and the counting one
        output = api.OutputOptions(keep="counts", jobs=1, group_documents=3, point_writer=writer)
        grouped = api.score_files(*files, output=output)
        assert grouped.tally is not None
        assert export.to_csv_text(grouped) == export.to_csv_text(whole)
        if writer is not None:
            assert _json(grouped) == _json(whole)
        grouped.tally.discard_point_files()


def test_a_type_order_that_differs_by_group_is_scored_whole(tmp_path):
    # D1 meets type Z before Y, D2 meets Y before Z: the whole files map Z first
    # in every document, D2 alone would map Y first (and list its points so)
    ref = (
        '<Z-D1-1> :=\n    S: "a" ##0#1#\n<Y-D1-1> :=\n    S: "b" ##0#1#\n'
        '<Y-D2-1> :=\n    S: "c" ##0#1#\n<Z-D2-1> :=\n    S: "d" ##0#1#\n'
    )
    (tmp_path / "ref.tpl").write_text(ref, encoding="utf-8")
    (tmp_path / "hyp.tpl").write_text(ref.replace('"d"', '"e"'), encoding="utf-8")
    paths = (str(tmp_path / "ref.tpl"), str(tmp_path / "hyp.tpl"))
    with pytest.raises(parallel.Ungroupable):
        parallel.score_grouped(*paths, config=ScoreConfig(), group_documents=1)
    grouped = _grouped(*paths, 2, size=1)
    assert grouped.tally is None  # given up: scored whole
    assert _json(grouped) == _json(api.score_files(*paths))
    assert parallel.global_type_order(iter([[("Z",), ("Y",)], [("Y",), ("Z",)]])) == ("Z", "Y")
    assert parallel.global_type_order(iter([[("A",), ("A", "B"), ("B",), ("B", "A")]])) is None


@st.composite
def _typed_sets(draw, role: str) -> TemplateSet:
    """Instance sets of types A, B and C whose fills point to any type (cycles included)."""
    sets = []
    for docid in draw(st.lists(st.sampled_from(["D1", "D2", "D3"]), max_size=3, unique=True)):
        instances = []
        for number, type_name in enumerate(draw(st.lists(st.sampled_from("ABC"), max_size=4)), start=1):
            fills = [
                PointerFill(target, docid, draw(st.integers(1, 3))) if target != "text" else TextFill("x", ((0, 1),))
                for target in draw(st.lists(st.sampled_from(["A", "B", "C", "text"]), max_size=3))
            ]
            slots = (Slot("S", (FillAlternative(tuple(fills)),)),) if fills else ()
            instances.append(Instance(type_name, docid, number, slots))
        sets.append(InstanceSet(docid, tuple(instances)))
    return TemplateSet(tuple(sets), role=role)  # type: ignore[arg-type]


def _walked_events(tset: TemplateSet) -> list[list[tuple[str, ...]]]:
    """What ``parallel._events`` gives, from a walk over every fill of every instance: per
    instance set, each instance's type, then each type it points to (repeats left out)."""
    out = []
    for iset in tset.instance_sets:
        events: dict[tuple[str, ...], None] = {}  # an ordered set
        for inst in iset.instances:
            events[(inst.type,)] = None
            for slot in inst.slots:
                for alternative in slot.alternatives:
                    for fill in alternative.fills:
                        if type(fill) is PointerFill:
                            events[(inst.type, fill.type)] = None
        out.append(list(events))
    return out


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(_typed_sets("reference"), _typed_sets("hypothesis"))
def test_the_type_order_from_the_events_is_the_mappers(ref: TemplateSet, hyp: TemplateSet) -> None:
    # The whole files' order is made from the groups' events; it must be the order
    # the mapper would work out on the same sets, and a cycle must fail both.
    from_events = parallel.global_type_order([*_walked_events(ref), *_walked_events(hyp)])
    try:
        expected = type_order(ref, hyp)
    except InputError:
        assert from_events is None
    else:
        assert from_events == expected


@settings(max_examples=300, deadline=None)
@given(_typed_sets("reference"), _typed_sets("hypothesis"), st.randoms(use_true_random=False))
def test_the_first_events_of_each_group_give_the_order_of_all_the_events(
    ref: TemplateSet, hyp: TemplateSet, rnd: random.Random
) -> None:
    # groups of consecutive reference sets; each hypothesis set in any group, in file order there
    ref_events, hyp_events = _walked_events(ref), _walked_events(hyp)
    cuts = sorted(rnd.sample(range(len(ref_events) + 1), min(2, len(ref_events) + 1)))
    ref_group = [sum(n >= cut for cut in cuts) for n in range(len(ref_events))]
    hyp_group = [rnd.randrange(3) for _ in hyp_events]
    sent_ref: list[list[tuple[str, ...]]] = [[] for _ in ref_events]
    sent_hyp: list[list[tuple[str, ...]]] = [[] for _ in hyp_events]
    for group in range(3):
        seen: set[tuple[str, ...]] = set()
        mine = [n for n, g in enumerate(ref_group) if g == group]
        for n, events in zip(mine, parallel._first_events([ref_events[n] for n in mine], seen), strict=True):
            sent_ref[n] = events
        mine = [n for n, g in enumerate(hyp_group) if g == group]
        for n, events in zip(mine, parallel._first_events([hyp_events[n] for n in mine], seen), strict=True):
            sent_hyp[n] = events
    assert parallel.global_type_order(iter(sent_ref + sent_hyp)) == parallel.global_type_order(
        iter(ref_events + hyp_events)
    )


@st.composite
def _pointing_files(draw) -> tuple[str, str]:
    """A templette file (and its role) whose instances of types A, B and C point to
    instances of their own document; documents come back after others, fills are
    pointers or texts, slots have one or (in a reference) two alternatives, lines
    are usual or not (a tab, a comment)."""
    role = draw(st.sampled_from(["reference", "hypothesis"]))
    headers = draw(
        st.lists(
            st.tuples(st.sampled_from(["D1", "D2", "D3"]), st.sampled_from("ABC"), st.integers(1, 3)),
            min_size=1,
            max_size=8,
            unique=True,
        )
    )
    lines = []
    for docid, type_name, number in headers:
        lines.append(f"<{type_name}-{docid}-{number}> :=")
        own = [f"<{t}-{d}-{n}>" for d, t, n in headers if d == docid]
        for slot in range(draw(st.integers(0, 3))):
            fills = draw(st.lists(st.sampled_from([*own, '"x" ##0#1#']), min_size=1, max_size=3))
            cut = draw(st.integers(1, len(fills))) if role == "reference" else len(fills)
            for k, fill in enumerate(fills):
                lead = f"    S{slot}: " if k == 0 else ("      / " if k == cut else "        ")
                lines.append(lead + fill + draw(st.sampled_from(["", "", "\t"])))
            if draw(st.booleans()):
                lines.append("  ; a comment")
    return "\n".join(lines) + "\n", role


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_pointing_files())
def test_the_events_from_the_pointers_the_reader_lists_are_those_of_the_fills(file: tuple[str, str]) -> None:
    text, role = file
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "t.tpl")
        Path(path).write_text(text, encoding="utf-8")
        parts = split_documents(path)
        assert parts is not None
        pointers: list[PointerFill] = []
        # each document's parts, as a group reads them (several parts when a document comes back)
        for docid in parts.parts:
            tset = read_parts(path, "utf-8", runs(parts.parts[docid]), role, pointers)
            walked = [
                fill
                for inst in tset.instances
                for slot in inst.slots
                for alt in slot.alternatives
                for fill in alt.fills
                if type(fill) is PointerFill
            ]
            assert sorted(pointers, key=lambda fill: fill.line) == pointers
            assert sorted(map(id, pointers)) == sorted(map(id, walked))
            assert parallel._events(tset, pointers) == _walked_events(tset)
            pointers.clear()
        whole = read_parts(
            path, "utf-8", runs([p for docid in parts.parts for p in parts.parts[docid]]), role, pointers
        )
        assert parallel._events(whole, pointers) == _walked_events(whole)


def test_a_bad_document_is_reported_as_the_whole_file_reports_it(files, tmp_path):
    lines = Path(files[1]).read_text(encoding="utf-8").splitlines(keepends=True)
    header = next(n for n, line in enumerate(lines) if line.startswith("<EV-SYN0000020"))
    bad = next(n for n in range(header, len(lines)) if "WINNER" in lines[n])
    lines[bad] = "".join(lines[bad].rsplit('"', 1))  # an unterminated quoted fill
    (tmp_path / "hyp.tpl").write_text("".join(lines), encoding="utf-8")
    with pytest.raises(InputError) as whole:
        api.score_files(files[0], str(tmp_path / "hyp.tpl"))
    with pytest.raises(InputError) as grouped:
        _grouped(files[0], str(tmp_path / "hyp.tpl"), 2)
    assert str(grouped.value) == str(whole.value)
    assert grouped.value.line == bad + 1


def test_a_bad_document_stops_the_workers_at_once(files, tmp_path):
    """The pool is stopped when a group's error ends the run, not left suspended until the
    interpreter exits (where stopping it could wait for minutes)."""
    lines = Path(files[1]).read_text(encoding="utf-8").splitlines(keepends=True)
    header = next(n for n, line in enumerate(lines) if line.startswith("<EV-SYN0000002"))
    bad = next(n for n in range(header, len(lines)) if "WINNER" in lines[n])
    lines[bad] = "".join(lines[bad].rsplit('"', 1))  # an unterminated quoted fill, in the second group
    (tmp_path / "hyp.tpl").write_text("".join(lines), encoding="utf-8")
    with pytest.raises(parallel.Ungroupable) as stopped:
        parallel.score_grouped(files[0], str(tmp_path / "hyp.tpl"), config=ScoreConfig(), jobs=2, group_documents=1)
    assert stopped.value is not None  # the traceback, and every frame of the run, still held here
    assert multiprocessing.active_children() == []


@pytest.mark.slow
def test_warnings_of_a_part_are_those_of_the_whole_file(files, tmp_path):
    text = Path(files[1]).read_text(encoding="utf-8")
    # '?' in a hypothesis is ignored with a warning (§2)
    text = text.replace("    EVENT: <EV-SYN0000030", "    EVENT: ? <EV-SYN0000030", 1)
    (tmp_path / "hyp.tpl").write_text(text, encoding="utf-8")
    whole = api.score_files(files[0], str(tmp_path / "hyp.tpl"))
    grouped = _grouped(files[0], str(tmp_path / "hyp.tpl"), 2)
    assert whole.warnings and grouped.warnings == whole.warnings
    assert _json(grouped) == _json(whole)


def test_files_without_a_common_document_keep_their_warning(files, tmp_path):
    (tmp_path / "hyp.tpl").write_text(
        Path(files[1]).read_text(encoding="utf-8").replace("SYN", "OTHER"), encoding="utf-8"
    )
    whole = api.score_files(files[0], str(tmp_path / "hyp.tpl"))
    grouped = _grouped(files[0], str(tmp_path / "hyp.tpl"), 2)
    assert any("no DOCID" in str(w) for w in grouped.warnings)
    assert _json(grouped) == _json(whole)


# -- the command line ------------------------------------------------------------


def _cli(*args: str) -> str:
    result = runner.invoke(app, ["score", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.slow
def test_the_cli_prints_and_writes_the_same_for_every_number_of_jobs(files, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the groups' point files go
    outputs = []
    for jobs in ("1", "2", "3"):
        table = _cli(*files, "--jobs", jobs, "--by", "document", "--show-mapping", "--bootstrap", "50", "-q")
        data = _cli(*files, "-j", jobs, "--json", "-")
        csv_text = _cli(*files, "-j", jobs, "--csv", "-")
        outputs.append((table, data, csv_text))
    assert outputs[0] == outputs[1] == outputs[2]
    assert '"points": [' in outputs[0][1] and "SYN0000039.0000" in outputs[0][0]
    assert not list(tmp_path.glob("hub4eval-points-*"))  # removed once written


def test_a_bad_number_of_jobs_is_a_usage_error(files):
    result = runner.invoke(app, ["score", *files, "--jobs", "0"])
    assert result.exit_code == 2
    assert "--jobs" in result.output


@pytest.mark.slow
def test_a_real_process_with_jobs_writes_the_json_of_one_process(files, tmp_path):
    out = []
    for jobs in ("1", "2"):
        path = tmp_path / f"out{jobs}.json"
        subprocess.run(
            [sys.executable, "-m", "hub4eval", "score", *files, "-j", jobs, "--json", str(path), "-q"],
            check=True,
            capture_output=True,
            cwd=ROOT,
        )
        out.append(path.read_bytes())
    assert out[0] == out[1]
    assert out[0] == export.to_json_text(api.score_files(*files)).encode("utf-8")


def test_the_default_is_every_core_for_large_inputs_only():
    sample = [EXAMPLES / "sample" / "ref.tpl", EXAMPLES / "sample" / "hyp.tpl"]
    assert parallel.default_jobs(sample) == 1
    assert parallel.input_size(sample) < parallel.SMALL_INPUT


@pytest.mark.slow
def test_a_hypothesis_in_another_order_than_the_reference_gives_the_same_json(files, tmp_path):
    # every instance of the hypothesis in reverse order: documents reversed and
    # each document's instances too, so every group reads many parts of the file
    instances = Path(files[1]).read_text(encoding="utf-8").rstrip("\n").split("\n<")
    reversed_text = "\n".join(
        (text if text.startswith("<") else "<" + text).rstrip("\n") for text in reversed(instances)
    )
    (tmp_path / "hyp.tpl").write_text(reversed_text + "\n", encoding="utf-8")
    hyp = str(tmp_path / "hyp.tpl")
    whole = api.score_files(files[0], hyp)
    for jobs, size in ((1, 4), (2, 3), (3, 7)):
        grouped = _grouped(files[0], hyp, jobs, size)
        assert grouped.tally is not None
        assert _json(grouped) == _json(whole)


@pytest.mark.slow
@pytest.mark.parametrize("example", ["sample", "clean"])
def test_the_same_texts_are_scored_in_groups_with_the_same_json(example):
    ref, hyp, text = (str(EXAMPLES / example / name) for name in ("ref.tpl", "hyp.tpl", "text.sgml"))
    for texts in ({"ref_text": text, "hyp_text": text}, {"ref_text": text}):
        whole = api.score_files(ref, hyp, **texts)
        for jobs in (1, 2, 3):
            grouped = _grouped(ref, hyp, jobs, size=1, **texts)
            assert grouped.tally is not None
            assert _json(grouped) == _json(whole)
            assert grouped.signature == whole.signature


def test_texts_that_differ_are_scored_whole_in_one_process():
    asr = EXAMPLES / "asr"
    files = (str(asr / "ref.tpl"), str(asr / "hyp.tpl"))
    texts = {"ref_text": str(asr / "reference.sgml"), "hyp_text": str(asr / "asr_unsegmented.sgml")}
    grouped = _grouped(*files, 2, size=1, **texts)
    assert grouped.tally is None and grouped.ceiling is not None
    assert _json(grouped) == _json(api.score_files(*files, **texts))


@pytest.mark.slow
def test_spawned_workers_give_the_same_json(files, monkeypatch):
    # where fork is missing (Windows) the workers are spawned: everything they get and give is pickled
    import multiprocessing

    monkeypatch.setattr(parallel, "_context", lambda: multiprocessing.get_context("spawn"))
    grouped = _grouped(*files, 2, size=10)
    assert grouped.tally is not None
    assert _json(grouped) == _json(api.score_files(*files))


# -- the HTML report of groups ---------------------------------------------------------


def _html_of_groups(ref: str, hyp: str, jobs: int, size: int | None, **options) -> str:
    output = api.OutputOptions(keep="counts", jobs=jobs, group_documents=size, column_writer=write_point_columns)
    result = api.score_files(ref, hyp, output=output, **options)
    assert result.tally is not None and len(result.tally.column_files) > 1
    try:
        return to_html(result)
    finally:
        result.tally.discard_point_files()
        assert not any(Path(path).exists() for path in result.tally.column_files)


@pytest.mark.slow
def test_the_html_report_of_groups_is_the_report_of_the_whole_files(files):
    """Each group writes its points' columns; joined, they make the same report, byte for byte
    (documents only the hypothesis has, instances named by the mapping only, reasons and fields
    met in several groups)."""
    whole = to_html(api.score_files(*files))
    for jobs, size in ((1, 1), (2, 3), (3, 7)):
        assert _html_of_groups(*files, jobs, size) == whole


@pytest.mark.parametrize("example", ["sample", "clean"])
def test_the_html_report_of_an_example_in_groups(example):
    ref, hyp, text = (str(EXAMPLES / example / name) for name in ("ref.tpl", "hyp.tpl", "text.sgml"))
    assert _html_of_groups(ref, hyp, 2, 1, ref_text=text) == to_html(api.score_files(ref, hyp, ref_text=text))


def test_a_result_of_groups_without_columns_has_no_html_report(files):
    grouped = api.score_files(*files, output=api.OutputOptions(keep="counts", jobs=2, group_documents=5))
    with pytest.raises(ValueError, match="only when asked"):
        to_html(grouped)


def test_columns_of_aligned_texts_are_not_joined():
    asr = EXAMPLES / "asr"
    result = api.score_files(
        str(asr / "ref.tpl"),
        str(asr / "hyp.tpl"),
        ref_text=str(asr / "reference.sgml"),
        hyp_text=str(asr / "asr_unsegmented.sgml"),
    )
    with pytest.raises(ValueError, match="never scored in groups"):
        join_columns([point_columns(result)])


@pytest.mark.slow
def test_score_html_with_jobs_through_the_cli(files, tmp_path, monkeypatch):
    """`score --html --json --jobs 2` writes the report and the JSON of the whole files, and
    leaves no temporary file behind."""
    # a folder of its own: other runs on the machine make and remove theirs in the shared one
    points = tmp_path / "tmp"
    points.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(points))
    out = runner.invoke(
        app,
        ["score", *files, "-q", "--jobs", "2", "--html", str(tmp_path / "r.html"), "--json", str(tmp_path / "r.json")],
    )
    assert out.exit_code == 0, out.output
    whole = api.score_files(*files)
    assert (tmp_path / "r.html").read_text(encoding="utf-8") == to_html(whole)
    assert (tmp_path / "r.json").read_text(encoding="utf-8") == _json(whole)
    assert not list(points.glob("hub4eval-points-*"))


# -- a document refused by the bound on candidate pairs ------------------------------


def _with_dense(small: int = 4, dense: int = 50, *, after: str = "") -> tuple[str, str]:
    """``small`` usual documents, one of ``dense`` x ``dense`` EVENT instances with the same
    content (all dense ** 2 pairs can score a COR: 2,500 at 50), ``small`` usual documents;
    ``after`` is added to the hypothesis's last document."""

    def document(docid: str, words: tuple[str, ...]) -> str:
        return "".join(f'<EVENT-{docid}-{k}> :=\n    NAME: "{word}"\n' for k, word in enumerate(words, 1))

    before = [document(f"A{n}", ("one", "two")) for n in range(small)]
    later = [document(f"B{n}", ("three", "four")) for n in range(small)]
    middle = document("DENSE", ("same",) * dense)
    return "".join([*before, middle, *later]), "".join([*before, middle, *later]) + after


def _refusal_files(tmp_path: Path, ref: str, hyp: str) -> tuple[str, str]:
    (tmp_path / "ref.tpl").write_text(ref, encoding="utf-8")
    (tmp_path / "hyp.tpl").write_text(hyp, encoding="utf-8")
    return str(tmp_path / "ref.tpl"), str(tmp_path / "hyp.tpl")


@pytest.fixture
def low_bound(monkeypatch):
    """A bound of 1,000 candidate pairs (forked workers inherit it)."""
    from hub4eval.scoring import mapping

    monkeypatch.setattr(mapping, "MAX_CANDIDATE_PAIRS", 1000)


def _whole_error(paths: tuple[str, str]) -> str:
    with pytest.raises(InputError) as whole:
        api.score_files(*paths)
    return str(whole.value)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_refused_document_is_the_error_of_the_groups_without_reading_the_files_again(
    tmp_path, low_bound, monkeypatch, jobs
):
    paths = _refusal_files(tmp_path, *_with_dense())
    expected = _whole_error(paths)
    assert expected.startswith("document DENSE, type EVENT: 50 reference and 50 hypothesis instances give more than")

    def read_whole(*args, **kwargs):
        raise AssertionError("the files were read whole again")

    monkeypatch.setattr(api, "_read_inputs", read_whole)
    for size in (1, 3, 100):  # the refused group first, in the middle, alone
        with pytest.raises(InputError) as grouped:
            _grouped(*paths, jobs, size=size)
        assert str(grouped.value) == expected


def test_the_first_refused_document_in_file_order_is_the_error(tmp_path, low_bound):
    ref, hyp = _with_dense()
    # the same documents again under other DOCIDs, refused at LATER
    second = ref.replace("-DENSE-", "-LATER-").replace("-A", "-C").replace("-B", "-E")
    paths = _refusal_files(tmp_path, ref + second, hyp + second)
    expected = _whole_error(paths)
    assert expected.startswith("document DENSE, ")
    for size in (1, 2, 7):
        with pytest.raises(InputError) as grouped:
            _grouped(*paths, 2, size=size)
        assert str(grouped.value) == expected


@pytest.mark.parametrize(
    "after, message",
    [
        # a broken fill in a later document: the whole files are read before any is mapped
        ('<EVENT-B3-3> :=\n    NAME: "unterminated\n', "hyp.tpl:"),
        # a cycle of pointer types, found before any document is mapped
        (
            "<X-B3-1> :=\n    P: <Y-B3-1>\n<Y-B3-1> :=\n    P: <X-B3-1>\n",
            "instance types point to each other in a cycle",
        ),
    ],
)
def test_an_error_the_whole_files_report_first_still_wins_over_a_refusal(tmp_path, low_bound, after, message):
    paths = _refusal_files(tmp_path, *_with_dense(after=after))
    expected = _whole_error(paths)
    assert message in expected and "pairs to compare" not in expected
    for jobs, size in ((1, 1), (2, 1), (2, 4)):
        with pytest.raises(InputError) as grouped:
            _grouped(*paths, jobs, size=size)
        assert str(grouped.value) == expected


def test_with_texts_the_checks_of_the_groups_after_a_refused_one_come_first(tmp_path, low_bound):
    docids = ["A0", "A1", "DENSE", "B0", "B1"]
    text = "".join(f"<DOC>\n<DOCNO> {d} </DOCNO>\n<TEXT>\none two three four same\n</TEXT>\n</DOC>\n" for d in docids)
    (tmp_path / "ref.sgml").write_text(text, encoding="utf-8")
    for after, first in (
        ("", "document DENSE, type EVENT: 40 reference"),
        # a document the text lacks, last in the hypothesis: the whole files check it before mapping
        ('<EVENT-NOTINTEXT-1> :=\n    NAME: "one"\n', "hyp.tpl"),
    ):
        paths = _refusal_files(tmp_path, *_with_dense(small=2, dense=40, after=after))
        with pytest.raises(InputError) as whole:
            api.score_files(*paths, ref_text=tmp_path / "ref.sgml")
        assert first in str(whole.value)
        for size in (1, 100):  # groups after the refused one, or one group
            with pytest.raises(InputError) as grouped:
                _grouped(*paths, 2, size=size, ref_text=tmp_path / "ref.sgml")
            assert str(grouped.value) == str(whole.value)


# -- a first document far too large, refused before anything is mapped ----------------------


def _dense_first(
    dense: int = 50, slots: tuple[str, ...] = ("NAME",), *, before: str = "", after: str = "", extents: bool = False
) -> str:
    """The document DENSE first (``dense`` EVENT instances whose slots all say "same", after
    ``before``), then three usual documents (``after`` ends the last); ``extents``: each fill
    with one (then every line is a usual line, which the reader lists the fills of)."""
    at = " ##0#4#" if extents else ""
    lines = "".join(f'    {slot}: "same"{at}\n' for slot in slots)
    text = before + "".join(f"<EVENT-DENSE-{k}> :=\n{lines}" for k in range(1, dense + 1))
    text += "".join(
        f'<EVENT-B{n}-1> :=\n    NAME: "three"{at}\n<EVENT-B{n}-2> :=\n    NAME: "four"{at}\n' for n in range(3)
    )
    return text + after


def _unmapped(monkeypatch) -> None:
    """From now on, mapping anything fails the test (forked children inherit it)."""
    from hub4eval.scoring import mapping

    def refuse_to_map(*args, **kwargs):
        raise AssertionError("a document was mapped")

    monkeypatch.setattr(mapping.Mapper, "match_groups", refuse_to_map)
    monkeypatch.setattr(api, "_read_inputs", refuse_to_map)


@pytest.mark.parametrize("extents", [False, True])
@pytest.mark.parametrize("jobs, size", [(1, 100), (2, 100), (2, 1)])
def test_a_first_document_far_too_large_is_refused_before_anything_is_mapped(
    tmp_path, low_bound, monkeypatch, jobs, size, extents
):
    """One group (the hypothesis read in a forked child with two jobs, in this process with
    one) or a group per document (in workers): the error of the whole files, from the
    contents as written (counted by a walk, or from the reader's lists of a file of usual
    lines), before a fill is prepared or a pair counted."""
    text = _dense_first(extents=extents)
    assert (parse_templates(text, "t.tpl").usual_slots() is not None) == extents
    paths = _refusal_files(tmp_path, text, text)
    expected = _whole_error(paths)
    assert expected.startswith("document DENSE, type EVENT: 50 reference and 50 hypothesis instances")
    assert "(at least 2,500, " in expected  # the 50 x 50 pairs of "same"
    read_hyp_side = parallel._read_hyp_side
    pids = tmp_path / "pids"

    def noted(*args):
        with pids.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return read_hyp_side(*args)

    monkeypatch.setattr(parallel, "_read_hyp_side", noted)
    _unmapped(monkeypatch)
    with pytest.raises(InputError) as grouped:
        _grouped(*paths, jobs, size=size)
    assert str(grouped.value) == expected
    forked = jobs > 1 and size == 100  # one group, in this process: its hypothesis is read beside it
    assert (pids.read_text().split() != [str(os.getpid())]) if forked else not pids.exists()


@pytest.mark.parametrize(
    "case",
    [
        "a type mapped before",  # EVENT points to PLACE: PLACE is mapped first, and refused by its own count
        "a broken hypothesis",  # the child's reading fails: the error of the whole files
        "a bound under the limit",  # the pairs written alike are too few: scored (by the count of the mapper)
        "a later error",  # a broken fill in a later document wins
    ],
)
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_first_document_that_may_be_too_large_is_otherwise_as_the_whole_files_score_it(
    tmp_path, monkeypatch, case, jobs
):
    from hub4eval.scoring import mapping

    monkeypatch.setattr(mapping, "MAX_CANDIDATE_PAIRS", 2600 if case == "a bound under the limit" else 1000)
    ref = hyp = _dense_first()
    if case == "a type mapped before":
        # 40 x 40 places at one extent: 1,600 candidate pairs, though 40 only are written alike
        places = "".join(f'<PLACE-DENSE-{k}> :=\n    NAME: "p{k}" ##0#4#\n' for k in range(1, 41))
        ref = hyp = _dense_first(before=places).replace(
            '    NAME: "same"\n', '    NAME: "same"\n    AT: <PLACE-DENSE-1>\n'
        )
    elif case == "a broken hypothesis":
        hyp = _dense_first().replace('<EVENT-DENSE-7> :=\n    NAME: "same"', '<EVENT-DENSE-7> :=\n    NAME: "same')
    elif case == "a later error":
        hyp = _dense_first(after='<EVENT-B2-3> :=\n    NAME: "unterminated\n')
    paths = _refusal_files(tmp_path, ref, hyp)
    if case == "a bound under the limit":
        expected = _json(api.score_files(*paths))
        assert _json(_grouped(*paths, jobs, size=100)) == expected
        return
    expected = _whole_error(paths)
    assert ("type PLACE: 40 reference and 40 hypothesis instances" in expected) == (case == "a type mapped before")
    assert ("pairs to compare" in expected) == (case == "a type mapped before"), expected
    with pytest.raises(InputError) as grouped:
        _grouped(*paths, jobs, size=100)
    assert str(grouped.value) == expected


@pytest.mark.parametrize("extents", [False, True])
@pytest.mark.parametrize("content", ["clean", "noisy", "auto"])
@pytest.mark.parametrize("compare", ["both", "content", "extent"])
@pytest.mark.parametrize("unscored", [(), ("NAME",), ("NAME", "TEXT")])
def test_the_early_refusal_follows_the_options_as_the_mapper_does(
    tmp_path, low_bound, content, compare, unscored, extents
):
    """Whatever the options, a document is refused (or scored) by the groups exactly as by
    the whole files: refused early only where the mapper's bound from the contents as
    written applies (clean content compared, scored slots)."""
    text = _dense_first(slots=("NAME", "TEXT"), extents=extents)
    paths = _refusal_files(tmp_path, text, text.replace('TEXT: "same"', 'TEXT: "other"'))
    config = ScoreConfig(content=content, compare=compare, unscored_slots=unscored)
    try:
        expected = _json(api.score_files(*paths, config=config))
    except InputError as error:
        expected = str(error)
    for jobs in (1, 2):
        try:
            grouped = _json(_grouped(*paths, jobs, size=100, config=config))
        except InputError as error:
            grouped = str(error)
        assert grouped == expected, (jobs, grouped)


@pytest.mark.parametrize("bound", [1000, 2600, 10**6])
@pytest.mark.parametrize("unscored", [(), ("NAME",)])
def test_the_references_counts_made_while_the_child_reads_give_the_same_outcome(tmp_path, monkeypatch, bound, unscored):
    """The reference's counts made ahead (while this process would wait for the child that
    reads the hypothesis) decide as the bound counted when needed does: the same error, or
    the same None (then the group is scored)."""
    from hub4eval.io.templettes.split import read_parts, split_documents
    from hub4eval.scoring import mapping

    monkeypatch.setattr(mapping, "MAX_CANDIDATE_PAIRS", bound)
    text = _dense_first(slots=("NAME", "TEXT"), extents=True)
    # ten reference instances whose NAME holds two fills: not plain, unless NAME is not scored
    ref_text = text.replace('NAME: "same" ##0#4#\n', 'NAME: "same" ##0#4#\n          "more" ##0#4#\n', 10)
    paths = _refusal_files(tmp_path, ref_text, text.replace('TEXT: "same"', 'TEXT: "other"', 30))
    config = ScoreConfig(unscored_slots=unscored)
    ref_parts, hyp_parts = (split_documents(path) for path in paths)
    assert ref_parts is not None and hyp_parts is not None
    group = parallel.plan(ref_parts, hyp_parts, 2, 100)[0]
    job = parallel._Job(*paths, "utf-8", config, None, None)
    pointers: list = []
    ref = read_parts(paths[0], "utf-8", group.ref_parts, "reference", pointers)
    hyp = read_parts(paths[1], "utf-8", group.hyp_parts, "hypothesis", [])
    side = parallel._hyp_side(job, group, hyp, [])
    events = parallel._events(ref, pointers)
    ahead = parallel._ref_counts(job, ref)
    first = ref.instance_sets[0].instances
    assert ahead == {"EVENT": (len(first), written_contents(first, frozenset(unscored), True))}  # the walk's
    outcomes = [parallel._refused_early(job, group, ref, events, side, counts) for counts in (ahead, None)]
    as_seen = [
        None if o is None else (str(o.error), o.order, o.ref_events, o.hyp_events, o.instances) for o in outcomes
    ]
    assert as_seen[0] == as_seen[1]
    # TEXT "same" 50 x 20 times, NAME 50 x 50, but for the 10 reference instances of two NAMEs
    alike = 50 * 20 if unscored else 40 * 20 + 40 * 50
    assert (as_seen[0] is not None) == (alike > bound), as_seen
