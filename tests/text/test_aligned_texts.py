"""Two corpora aligned both ways in several processes give what one process gives.

`align_texts` with ``jobs`` above 1 makes the weighted alignments of runs of
document pairs and counts sclite's alignments in forked children; the
alignment (every document's columns, every extent's columns) and the WER
must be those of :func:`align_corpora` and :func:`corpus_wer` in one process.
"""

from __future__ import annotations

import functools
import os
import time
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import hub4eval.text.aligned_texts as aligned_texts
from hub4eval.io.corpus import parse_corpus
from hub4eval.model import Extent
from hub4eval.text.aligned_texts import _runs, align_texts
from hub4eval.text.columns import align_corpora
from hub4eval.text.tokenized import tokenize_corpora
from hub4eval.text.wer import corpus_wer, corpus_wer_summary
from hub4eval.util.forked import can_fork, in_child
from tests.support.children import started_children
from tests.support.texts import random_texts


def _same_alignment(one, other) -> None:
    assert one.unsegmented == other.unsegmented
    assert one.warnings == other.warnings
    assert one._spans == other._spans
    assert len(one.documents) == len(other.documents)
    for a, b in zip(one.documents, other.documents, strict=True):
        assert (a.ref_docid, a.hyp_docid) == (b.ref_docid, b.hyp_docid)
        assert list(a.ref_tokens) == list(b.ref_tokens) and list(a.hyp_tokens) == list(b.hyp_tokens)
        for name in ("ref_index", "hyp_index", "kinds"):
            assert np.array_equal(getattr(a.alignment, name), getattr(b.alignment, name))
        assert (a.alignment.cost, a.alignment.exact, a.alignment.gap) == (
            b.alignment.cost,
            b.alignment.exact,
            b.alignment.gap,
        )
    for docid, side in one._ref.items():
        assert np.array_equal(side.columns, other._ref[docid].columns)
        for start in range(0, 60, 7):
            extent = Extent(start, start + 9)
            assert one.ref_extent(docid, extent) == other.ref_extent(docid, extent)
    assert one._hyp.keys() == other._hyp.keys()


_CORPORA = {
    "seed": st.integers(0, 10**6),
    "documents": st.integers(1, 7),
    "words": st.integers(0, 60),
    "unsegmented": st.booleans(),
    "missing": st.booleans(),
}  # (the arguments of _corpora, drawn)


def _corpora(seed: int, documents: int, words: int, unsegmented: bool, missing: bool) -> tuple[Any, Any]:
    """The reference and the hypothesis corpus of :func:`_texts` (the hypothesis one stream or
    segmented; a document missing from it, when there are several and ``missing``)."""
    ref_text, segmented, stream = random_texts(seed, documents, words, missing=missing and documents > 1)
    return parse_corpus(ref_text, "ref.sgml"), parse_corpus(stream if unsegmented else segmented, "hyp.sgml")


def _aligned_in_processes(ref: Any, hyp: Any, jobs: int, weighted_beside: bool) -> Any:
    """:func:`align_texts` with every pair of texts long enough to start processes."""
    saved = aligned_texts.PARALLEL_WORDS
    aligned_texts.PARALLEL_WORDS = 0
    try:
        return align_texts(ref, hyp, jobs=jobs, weighted_beside=weighted_beside)
    finally:
        aligned_texts.PARALLEL_WORDS = saved


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: every job runs in the caller")
@settings(max_examples=12, deadline=None)
@given(**_CORPORA, jobs=st.integers(2, 4), weighted_beside=st.booleans())
def test_several_processes_give_the_alignment_and_wer_of_one(
    seed, documents, words, jobs, unsegmented, missing, weighted_beside
):
    ref, hyp = _corpora(seed, documents, words, unsegmented, missing)
    expected = align_corpora(ref, hyp)
    made = _aligned_in_processes(ref, hyp, jobs, weighted_beside)
    _same_alignment(made.alignment, expected)
    assert made.wer() == corpus_wer(expected)


@settings(max_examples=25, deadline=None)
@given(**_CORPORA, jobs=st.integers(1, 3), whole_first=st.booleans())
# (always the counts made in a child and read without the whole WER first, both forms)
@example(seed=1, documents=3, words=30, jobs=2, unsegmented=False, missing=False, whole_first=False)
@example(seed=1, documents=3, words=30, jobs=2, unsegmented=True, missing=False, whole_first=False)
def test_the_wer_summary_alone_is_the_summary_of_the_whole_wer(
    seed, documents, words, jobs, unsegmented, missing, whole_first
):
    """``wer_summary`` (what a score keeps: sclite's overall counts, made without the rows per
    document, an unsegmented stream's counts not split by document first) is the ``summary``
    of :func:`corpus_wer` in one process (the oracle), whether sclite's counts are made in
    the caller (``jobs`` 1) or in a child, and whether the whole WER was asked first."""
    if jobs > 1 and not can_fork():
        jobs = 1
    ref, hyp = _corpora(seed, documents, words, unsegmented, missing)
    expected = corpus_wer(align_corpora(ref, hyp))["summary"]
    made = _aligned_in_processes(ref, hyp, jobs, True)
    if whole_first:
        assert made.wer()["summary"] == expected
    assert made.wer_summary() == expected
    assert made.wer_summary() == expected  # asked again: the same, counted once
    assert corpus_wer_summary(made.alignment) == expected  # counted here, from the alignment alone


@pytest.mark.parametrize("form", ["segmented", "stream"])
def test_a_long_hypothesis_is_tokenized_in_a_child_with_jobs_above_1_only(monkeypatch, form):
    import hub4eval.util.forked as forked

    started = started_children(monkeypatch, aligned_texts, forked)
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", 0)  # (every text long)
    ref_text, segmented, stream = random_texts(3, 4, 50, missing=False)
    ref, hyp = parse_corpus(ref_text, "r"), parse_corpus(segmented if form == "segmented" else stream, "h")
    align_texts(ref, hyp, jobs=1).wer()
    assert started == []
    align_texts(ref, hyp, jobs=2).wer()
    assert started[0] == "_hyp_tokens"


def test_the_work_goes_to_children_above_the_threshold_only(monkeypatch):
    """Children are forked only with jobs above 1 and texts of PARALLEL_WORDS tokens or more."""
    started = started_children(monkeypatch, aligned_texts)
    ref_text, segmented, stream = random_texts(3, 4, 50, missing=False)
    ref, hyp = parse_corpus(ref_text, "r"), parse_corpus(segmented, "h")
    words = tokenize_corpora(ref, hyp).words()
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", words + 1)
    align_texts(ref, hyp, jobs=2).wer()
    assert started == []
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", words)
    align_texts(ref, hyp, jobs=1).wer()
    assert started == []
    align_texts(ref, hyp, jobs=2).wer()
    assert sorted(started) == ["_sclite_run", "_sclite_run", "weighted_alignments"]
    started.clear()
    align_texts(ref, parse_corpus(stream, "h"), jobs=2).wer()
    assert started == ["_sclite_all"]


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: every job runs in the caller")
@pytest.mark.parametrize("told", [True, False])
def test_a_stream_aligned_beside_is_aligned_in_one_child_and_counted_in_another_once_told(monkeypatch, told):
    """``weighted_beside``: one child makes the weighted alignment; the caller reads it when it
    asks (until then it may do other work), and says when sclite's alignment may be counted in
    another child (its own work done: the two children then have the cores); never told, it is
    counted when the WER is asked. The alignment and the WER are the same."""
    started = started_children(monkeypatch, aligned_texts)
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", 0)
    ref_text, _, stream = random_texts(11, 5, 60, missing=False)
    ref, hyp = parse_corpus(ref_text, "r"), parse_corpus(stream, "h")
    made = align_texts(ref, hyp, jobs=2, weighted_beside=True)
    # (the hypothesis tokenized in a child: the child that aligns was made ready meanwhile, see below)
    assert started == ["_weighted_ids"] and made.forked and made.waiting and made.counting() == 0
    if told:
        made.start_counting()
        assert started == ["_weighted_ids", "_sclite_all"]  # before the caller waits for the alignment
        made.start_counting()  # (told twice: one child)
        assert started == ["_weighted_ids", "_sclite_all"]
    expected = align_corpora(ref, hyp)
    _same_alignment(made.alignment, expected)
    assert not made.waiting
    assert made.wer() == corpus_wer(expected)
    assert started == ["_weighted_ids", "_sclite_all"]


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: every job runs in the caller")
@pytest.mark.parametrize("layout", ["stream", "stream beside", "segmented"])
def test_the_children_still_counting_sclites_alignment_are_known_without_waiting(monkeypatch, tmp_path, layout):
    """:meth:`AlignedTexts.counting`: how many children counting sclite's alignment have not sent
    their counts yet (the pipeline gives the cores they take no child of its own)."""
    go = tmp_path / "go"

    def held(function):
        def wait_then(*args):
            while in_child() and not go.exists():  # (the caller counts a first pair itself: see align_texts)
                time.sleep(0.01)
            return function(*args)

        return wait_then

    monkeypatch.setattr(aligned_texts, "_sclite_all", held(aligned_texts._sclite_all))
    monkeypatch.setattr(aligned_texts, "_sclite_run", held(aligned_texts._sclite_run))
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", 0)
    ref_text, segmented_text, stream = random_texts(5, 4, 60, missing=False)
    segmented = layout == "segmented"
    ref, hyp = parse_corpus(ref_text, "r"), parse_corpus(segmented_text if segmented else stream, "h")
    made = align_texts(ref, hyp, jobs=2, weighted_beside=layout == "stream beside")
    if layout == "stream beside":
        assert made.counting() == 0  # not started yet
        made.start_counting()
    assert made.counting() == (2 if segmented else 1)
    go.touch()
    assert made.wer() == corpus_wer(align_corpora(ref, hyp))
    assert made.counting() == 0
    assert align_texts(ref, hyp, jobs=1).counting() == 0  # no child


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: every job runs in the caller")
@pytest.mark.parametrize("layout", ["stream", "stream beside", "segmented"])
def test_without_the_wer_no_child_counts_sclites_alignment(monkeypatch, layout):
    """``count_wer=False`` (a projection): no child counts sclite's alignment, in any layout; the
    alignment is the same, and a WER asked all the same is counted here, the same too."""
    started = started_children(monkeypatch, aligned_texts)
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", 0)
    ref_text, segmented_text, stream = random_texts(7, 4, 60, missing=True)
    ref, hyp = parse_corpus(ref_text, "r"), parse_corpus(segmented_text if layout == "segmented" else stream, "h")
    made = align_texts(ref, hyp, jobs=2, weighted_beside=layout == "stream beside", count_wer=False)
    made.start_counting()  # (told: still none)
    expected = align_corpora(ref, hyp)
    _same_alignment(made.alignment, expected)
    assert made.counting() == 0
    assert made.wer() == corpus_wer(expected)
    # only the weighted alignment's children (made in the caller for a stream not aligned beside)
    assert started == {"stream": [], "stream beside": ["_weighted_ids"], "segmented": ["weighted_alignments"]}[layout]


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: every job runs in the caller")
@pytest.mark.parametrize("layout", ["stream", "stream beside", "segmented", "one document beside"])
@pytest.mark.parametrize("still_tokenizing", [True, False])
def test_the_callers_work_and_kernels_are_done_while_the_hypothesis_is_tokenized(monkeypatch, layout, still_tokenizing):
    """A long hypothesis is tokenized in a child; while it still is, a caller that will align loads the
    kernels, then does its own work (``meanwhile``) for a stream; a child done first, that work is left
    to the caller (not done here) and the kernels load when first used. A stream aligned in a child
    (``weighted_beside``): the caller's work is done once that child is started, in either case; segmented
    texts aligned in runs: once the runs' children are forked, in either case."""
    import hub4eval.util.forked as forked

    done: list[str] = []

    class Recording(forked.Beside):  # type: ignore[type-arg]
        def __init__(self, function, *args, **kwargs) -> None:
            done.append(function.__name__)
            self.name = function.__name__
            super().__init__(function, *args, **kwargs)

        @property
        def running(self) -> bool:
            return still_tokenizing

        def result(self):
            if self.name == "weighted_alignments":
                done.append("their alignments")  # a run's, aligned by a child
            return super().result()

    class Ready(forked.Standby):
        def __init__(self, ready) -> None:
            done.append(f"standby {ready.__name__}")
            super().__init__(ready)

    caller, aligning = os.getpid(), aligned_texts.weighted_alignments

    def own(tokenized, numbers=None):  # the caller's own alignments (a child's are made in the child)
        if os.getpid() == caller and numbers is not None and len(numbers) > 1:
            done.append("own alignments")
        return aligning(tokenized, numbers)

    monkeypatch.setattr(forked, "Beside", Recording)
    monkeypatch.setattr(aligned_texts, "Beside", Recording)
    monkeypatch.setattr(aligned_texts, "Standby", Ready)
    monkeypatch.setattr(aligned_texts, "weighted_alignments", functools.wraps(aligning)(own))
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", 0)  # (long texts: the hypothesis tokenized in a child)
    monkeypatch.setattr(aligned_texts, "_load_kernels", lambda: done.append("kernels"))
    ref_text, segmented_text, stream = random_texts(9, 1 if layout.startswith("one") else 4, 60, missing=False)
    segmented = layout in ("segmented", "one document beside")
    ref, hyp = parse_corpus(ref_text, "r"), parse_corpus(segmented_text if segmented else stream, "h")
    made = align_texts(ref, hyp, jobs=2, weighted_beside=layout != "stream", meanwhile=lambda: done.append("mine"))
    # runs of pairs: the caller's work once their children are forked (they do not hold what it
    # makes), before its own run's alignments (while the children align theirs)
    in_runs = ["_sclite_run", "_sclite_run", "weighted_alignments", "mine", "own alignments", "their alignments"]
    layouts = {
        (True, "stream"): ["_hyp_tokens", "kernels", "mine"],
        # a stream's aligning child: made ready while the reference is tokenized (the child is
        # seen done after its first document, or still tokenizing once it is all tokenized)
        (True, "stream beside"): ["_hyp_tokens", "standby _ready_to_align", "_weighted_ids", "mine"],
        (True, "segmented"): ["_hyp_tokens", "kernels", *in_runs],
        (False, "stream"): ["_hyp_tokens"],
        (False, "stream beside"): ["_hyp_tokens", "standby _ready_to_align", "_weighted_ids", "mine"],
        (False, "segmented"): ["_hyp_tokens", *in_runs],
        # one pair of documents: aligned in a child, as a stream is
        (True, "one document beside"): ["_hyp_tokens", "_weighted_alone", "mine"],
        (False, "one document beside"): ["_hyp_tokens", "_weighted_alone", "mine"],
    }
    assert done[: len(layouts[still_tokenizing, layout])] == layouts[still_tokenizing, layout]
    assert done.count("mine") <= 1
    assert sum(event.startswith("standby") for event in done) == (layout == "stream beside")
    _same_alignment(made.alignment, align_corpora(ref, hyp))


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: every job runs in the caller")
@pytest.mark.parametrize("layout", ["stream", "segmented"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_texts_not_aligned_in_processes_do_the_callers_work_only_for_a_stream_tokenized_beside(
    monkeypatch, layout, jobs
):
    """Texts aligned in the caller (one job, or too short for processes, though the hypothesis is
    long enough to be tokenized in a child): the caller's work (``meanwhile``) is done here only
    for a stream, while a child still tokenizes its hypothesis; a segmented hypothesis's is left
    to the caller (a score does it after the alignment), and never is it done twice."""
    import hub4eval.util.forked as forked

    done: list[str] = []

    class StillTokenizing(forked.Beside):  # type: ignore[type-arg]
        def __init__(self, function, *args, **kwargs) -> None:
            done.append(function.__name__)
            super().__init__(function, *args, **kwargs)

        @property
        def running(self) -> bool:
            return True

    ref_text, segmented_text, stream = random_texts(9, 4, 60, missing=False)
    ref, hyp = parse_corpus(ref_text, "r"), parse_corpus(segmented_text if layout == "segmented" else stream, "h")
    # the most words for which the hypothesis is long (tokenized in a child): more than the texts have
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", sum(len(doc.text) for doc in hyp.documents) * 2 // 5)
    monkeypatch.setattr(forked, "Beside", StillTokenizing)
    monkeypatch.setattr(aligned_texts, "Beside", StillTokenizing)
    made = align_texts(ref, hyp, jobs=jobs, weighted_beside=False, meanwhile=lambda: done.append("mine"))
    assert not made.forked  # aligned here
    assert done.count("_hyp_tokens") == (jobs > 1)  # (tokenized in a child: long texts)
    assert done.count("mine") == (jobs > 1 and layout == "stream")
    _same_alignment(made.alignment, align_corpora(ref, hyp))


def test_a_score_aligning_a_stream_beside_never_loads_the_aligners_in_its_process(tmp_path):
    """The weighted alignment and sclite's are both made in children: the compiled kernels (numba)
    are loaded there only, not in the process that maps the templettes (a load costs 0.4 s)."""
    import subprocess
    import sys
    from pathlib import Path

    asr = Path(__file__).resolve().parents[2] / "examples" / "asr"
    program = (
        "import sys, hub4eval.text.aligned_texts as at\n"
        "at.PARALLEL_WORDS = 0\n"
        "from hub4eval.api import OutputOptions, score_files\n"
        f"r = score_files({str(asr / 'ref.tpl')!r}, {str(asr / 'hyp.tpl')!r}, ref_text={str(asr / 'reference.sgml')!r},"
        f" hyp_text={str(asr / 'asr_unsegmented.sgml')!r}, output=OutputOptions(jobs=2))\n"
        "r.to_json()\n"
        "print(r.wer['wer'], 'numba' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True, cwd=tmp_path)
    wer, loaded = done.stdout.split()
    assert float(wer) > 0
    assert loaded == ("True" if not can_fork() else "False")


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: the aligning is done in the caller")
def test_a_child_that_aligns_starts_numba_without_scipys_blas_and_aligns_the_same(tmp_path):
    """The children that align a stream (one made ready before its work exists among them) load the
    kernels without numba's question to scipy for a BLAS (0.2 s of their start when scipy is
    installed); their alignment and WER are those made in a process that loaded numba as usual,
    where the question is asked."""
    import subprocess
    import sys
    from pathlib import Path

    asr = Path(__file__).resolve().parents[2] / "examples" / "asr"
    program = (
        "import sys, hub4eval.text.aligned_texts as at\n"
        "from hub4eval.io.corpus import read_corpus\n"
        "from hub4eval.text.tokenized import tokenize_corpora\n"
        "from hub4eval.util.forked import Beside, Standby\n"
        "def probe(make, *args):\n"
        "    return make(*args), 'scipy.linalg' in sys.modules\n"
        f"t = tokenize_corpora(read_corpus({str(asr / 'reference.sgml')!r}), "
        f"read_corpus({str(asr / 'asr_unsegmented.sgml')!r}))\n"
        "(aligned, blas_1), (counted, blas_2) = [Beside(probe, make, t).result() for make in "
        "(at._weighted_alone, at._sclite_all)]\n"
        # the child made ready before the tokens exist, then sent their numbers
        "[(_, _, r, h)] = t.pairs\n"
        "ready = Standby(at._ready_to_align)\n"
        "readied, blas_3 = Beside(probe, at._weighted_ids, r.ids, h.ids, t.vocabulary.words, standby=ready).result()\n"
        "here = at._weighted_alone(t)\n"
        "same = all([a.ref_index.tolist() for a in made] == [a.ref_index.tolist() for a in here] "
        "and [a.hyp_index.tolist() for a in made] == [a.hyp_index.tolist() for a in here] for made in (aligned, readied))\n"
        "print(same, counted == at._sclite_all(t), blas_1 or blas_2 or blas_3, 'scipy' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True, cwd=tmp_path)
    same_alignment, same_wer, blas_in_child, scipy_here = done.stdout.split()
    assert same_alignment == "True" and same_wer == "True"
    assert blas_in_child == "False"
    # the test sees the question asked where numba starts as usual (scipy installed)
    assert scipy_here == str(_has_scipy())


def _has_scipy_linalg() -> bool:
    import importlib.util

    return importlib.util.find_spec("scipy") is not None and importlib.util.find_spec("scipy.linalg") is not None


@pytest.mark.skipif(not _has_scipy_linalg(), reason="scipy is not installed: numba asks nothing of it")
def test_the_command_lines_own_process_starts_numba_without_scipys_blas(tmp_path):
    """The command line runs nothing but hub4eval, so numba starts in its own process without the
    question to scipy for a BLAS too (about 0.15 s of a small score with texts, aligned there);
    a program using hub4eval as a library asks it as usual (the test above)."""
    import re
    import subprocess
    import sys
    from pathlib import Path

    asr = Path(__file__).resolve().parents[2] / "examples" / "asr"
    arguments = [str(asr / "ref.tpl"), str(asr / "hyp.tpl"), "--ref-text", str(asr / "reference.sgml")]
    arguments += ["--hyp-text", str(asr / "asr_unsegmented.sgml"), "--jobs", "1", "--json", "-"]
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "hub4eval", "score", *arguments],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    imported = re.findall(r"^import time:.*\|\s*([\w.]+)$", done.stderr, re.MULTILINE)
    assert "numba.np.arraymath" in imported  # the kernels were loaded in this process
    assert "scipy.linalg" not in imported
    assert '"ceiling"' in done.stdout


def _has_scipy() -> bool:
    import importlib.util

    return importlib.util.find_spec("scipy") is not None


def test_runs_cut_the_pairs_in_order_into_runs_of_about_equal_words():
    ref_text, segmented, _ = random_texts(5, 9, 80, missing=True)
    tokenized = tokenize_corpora(parse_corpus(ref_text, "r"), parse_corpus(segmented, "h"))
    for parts in range(1, 12):
        runs = _runs(tokenized, parts)
        assert [k for run in runs for k in run] == list(range(len(tokenized.pairs)))
        assert all(runs) and len(runs) <= parts
    sizes = [len(r) + len(h) + 1 for _, _, r, h in tokenized.pairs]
    first, second = _runs(tokenized, 2)
    # the first run stops at the first pair that reaches half the words
    assert sum(sizes[k] for k in first[:-1]) < sum(sizes) / 2 <= sum(sizes[k] for k in first)
    assert second == list(range(len(first), len(sizes)))


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: no child is made ready")
def test_a_child_made_ready_to_align_a_stream_has_the_anchored_routes_kernels_loaded(tmp_path):
    """``_ready_to_align`` (what a stream's aligning child does while the texts are still
    tokenized) loads the kernels a long text's anchored alignment calls first (a HUB-4-size
    stream: the batch of its gaps, the anchors' runs and their chain), not only numba."""
    import json
    import subprocess
    import sys

    program = (
        "import json, hub4eval.text.aligned_texts as at\n"
        "from hub4eval.text.align.kernels import _kernels\n"
        "k = _kernels()\n"
        "def loaded():\n"
        "    return sorted(name for name, d in vars(k).items() if getattr(d, 'signatures', None))\n"
        "before = loaded()\n"
        "at._ready_to_align()\n"
        "print(json.dumps([before, loaded()]))\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True, cwd=tmp_path)
    before, after = json.loads(done.stdout)
    assert before == [] and {"batch", "runs", "lis"} <= set(after)


@pytest.mark.skipif(not can_fork(), reason="no fork on this platform: no child is made ready")
def test_a_child_made_ready_for_texts_too_short_for_processes_is_stopped_before_this_one_aligns(monkeypatch):
    """A long hypothesis tokenized in a child, but fewer than PARALLEL_WORDS tokens in all: the
    stream is aligned here, and the child made ready to align it is stopped first (it would
    take the other core while this process aligns)."""
    ref_text, _, stream = random_texts(3, 4, 50, missing=False)
    ref, hyp = parse_corpus(ref_text, "r"), parse_corpus(stream, "h")
    words = tokenize_corpora(ref, hyp).words()
    processes = []

    class Ready(aligned_texts.Standby):
        def __init__(self, ready) -> None:
            super().__init__(ready)
            processes.append(self._process)

    aligning = aligned_texts.weighted_alignments
    alive_then: list[bool] = []

    def aligned(*args, **kwargs):
        for process in processes:
            process.join(timeout=10)
        alive_then.extend(process.is_alive() for process in processes)
        return aligning(*args, **kwargs)

    monkeypatch.setattr(aligned_texts, "Standby", Ready)
    monkeypatch.setattr(aligned_texts, "weighted_alignments", aligned)
    monkeypatch.setattr(aligned_texts, "PARALLEL_WORDS", words + 1)  # (long enough for the child, not for processes)
    made = align_texts(ref, hyp, jobs=2, weighted_beside=True)
    assert len(processes) == 1 and alive_then == [False]
    _same_alignment(made.alignment, align_corpora(ref, hyp))
