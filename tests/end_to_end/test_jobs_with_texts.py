"""`score`, `align`, `project` and `explain` with `--jobs N` when the texts differ: the same output for every N
(real processes).

With texts of 20,000 words or more (`hub4eval.text.aligned_texts.PARALLEL_WORDS`)
and `--jobs 2`, the documents' alignments are made in forked children; the
JSON must be byte for byte the one of `--jobs 1`, on a generated segmented
corpus and on the same words unsegmented, and on the bundled examples (short
texts: one process either way).
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hub4eval.text.aligned_texts import PARALLEL_WORDS

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SLOTS = ("WINNER", "LOSER", "PLACE")


def _hub4eval(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-m", "hub4eval", *arguments], cwd=cwd, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr
    return result


def _corpus(folder: Path, documents: int = 40, words: int = 320, seed: int = 11) -> dict[str, Path]:
    """A reference of ``documents`` stories, its recognition at about 20% word errors (segmented and
    unsegmented), and reference templettes of three one-or-two-word fills per story."""
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    vocabulary = sorted({"".join(rng.choice(letters) for _ in range(rng.randint(1, 9))) for _ in range(900)})
    ref_docs, hyp_docs, stream, templettes = [], [], [], []
    for number in range(documents):
        ref = [rng.choice(vocabulary[: rng.randint(50, len(vocabulary))]) for _ in range(words)]
        hyp: list[str] = []
        for word in ref:
            roll = rng.random()
            if roll < 0.05:
                continue
            hyp.append(rng.choice(vocabulary) if roll < 0.14 else word)
            if roll > 0.95:
                hyp.append("uh")
        lines = [" ".join(ref[k : k + 16]) for k in range(0, len(ref), 16)]
        head = f"<DOC>\n<DOCNO> S{number:03d} </DOCNO>\n<TEXT>\n"
        document = head + "\n".join(lines) + "\n</TEXT>\n</DOC>\n"
        ref_docs.append(document)
        hyp_docs.append(f"{head}{' '.join(hyp)}\n</TEXT>\n</DOC>\n")
        stream.append(f"<s> {' '.join(hyp)} </s>\n")
        spans = [
            m.span() for m in re.finditer(r"\S+", document) if m.start() > len(head) and m.end() < len(document) - 16
        ]
        templettes.append(f"<EVENT-S{number:03d}-1> :=")
        for slot in SLOTS:
            k = rng.randrange(len(spans) - 1)
            start, end = spans[k][0], spans[k + rng.randint(0, 1)][1]
            if "\n" in document[start:end]:
                end = spans[k][1]
            templettes.append(f'    {slot}: "{document[start:end]}" ##{start}#{end}#')
        templettes.append("")
    paths = {name: folder / name for name in ("ref.sgml", "hyp_segmented.sgml", "hyp_unsegmented.sgml", "ref.tpl")}
    paths["ref.sgml"].write_text("".join(ref_docs))
    paths["hyp_segmented.sgml"].write_text("".join(hyp_docs))
    paths["hyp_unsegmented.sgml"].write_text("".join(stream))
    paths["ref.tpl"].write_text("\n".join(templettes) + "\n")
    return paths


@pytest.mark.slow
@pytest.mark.parametrize("form", ["segmented", "unsegmented"])
def test_a_long_corpus_scores_the_same_in_one_and_in_two_processes(tmp_path, form):
    paths = _corpus(tmp_path)
    words = sum(len(paths[n].read_text().split()) for n in ("ref.sgml", f"hyp_{form}.sgml"))
    assert words > PARALLEL_WORDS  # long enough for children to be started
    texts = ["--ref-text", str(paths["ref.sgml"]), "--hyp-text", str(paths[f"hyp_{form}.sgml"])]
    hyp = tmp_path / f"hyp_{form}.tpl"
    _hub4eval("project", str(paths["ref.tpl"]), *texts, "--output", str(hyp), "--quiet", cwd=tmp_path)
    # an imperfect extractor: every third fill left out, so that there are errors to attribute
    lines = hyp.read_text().splitlines()
    hyp.write_text("\n".join(line for n, line in enumerate(lines) if n % 3 != 2 or not line.startswith(" ")) + "\n")
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"score_{jobs}.json"
        _hub4eval("score", str(paths["ref.tpl"]), str(hyp), *texts, "--json", str(out), "--jobs", jobs, cwd=tmp_path)
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    assert b'"recognition"' in outputs[0]  # the errors' causes were found through the alignment


@pytest.mark.parametrize(
    "example",
    [
        ("asr", "ref.tpl", "hyp.tpl", "reference.sgml", "asr_unsegmented.sgml"),
        ("asr_numbers", "ref.tpl", "hyp.tpl", "reference.sgml", "asr.sgml"),
    ],
)
def test_the_examples_score_the_same_with_any_jobs(tmp_path, example):
    folder, ref, hyp, ref_text, hyp_text = example
    base = EXAMPLES / folder
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"{jobs}.json"
        arguments = [str(base / ref), str(base / hyp), "--ref-text", str(base / ref_text)]
        _hub4eval("score", *arguments, "--hyp-text", str(base / hyp_text), "--json", str(out), "-j", jobs, cwd=tmp_path)
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]


@pytest.mark.slow
@pytest.mark.parametrize("form", ["segmented", "unsegmented"])
def test_align_gives_the_same_json_in_one_and_in_two_processes(tmp_path, form):
    paths = _corpus(tmp_path)
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"align_{jobs}.json"
        texts = [str(paths["ref.sgml"]), str(paths[f"hyp_{form}.sgml"])]
        _hub4eval("align", *texts, "--json", str(out), "--jobs", jobs, cwd=tmp_path)
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    assert b'"substitutions"' in outputs[0]


@pytest.mark.slow
@pytest.mark.parametrize("form", ["segmented", "unsegmented"])
def test_project_and_explain_give_the_same_output_in_one_and_in_two_processes(tmp_path, form):
    paths = _corpus(tmp_path)
    texts = ["--ref-text", str(paths["ref.sgml"]), "--hyp-text", str(paths[f"hyp_{form}.sgml"])]
    projected, explained = [], []
    for jobs in ("1", "2"):
        out = tmp_path / f"project_{jobs}.tpl"
        _hub4eval("project", str(paths["ref.tpl"]), *texts, "-o", str(out), "-q", "--jobs", jobs, cwd=tmp_path)
        projected.append(out.read_bytes())
        hyp = str(tmp_path / "project_1.tpl")
        explained.append(_hub4eval("explain", str(paths["ref.tpl"]), hyp, *texts, "--jobs", jobs, cwd=tmp_path).stdout)
    assert projected[0] == projected[1] and b"<EVENT-S039-1>" in projected[0]
    assert explained[0] == explained[1] and "points (COR" in explained[0]


@pytest.mark.slow
def test_an_error_after_the_children_started_is_one_line(tmp_path):
    """A cycle of pointer types is found while mapping, after the children aligning the texts have
    started: the run still ends with one line and status 2, and no child writes anything (the
    children hold stderr open until they end, so their output would be captured)."""
    paths = _corpus(tmp_path)
    cycle = tmp_path / "cycle.tpl"
    cycle.write_text("<A-S000-1> :=\n    P: <B-S000-1>\n\n<B-S000-1> :=\n    Q: <A-S000-1>\n")
    texts = ["--ref-text", str(paths["ref.sgml"]), "--hyp-text", str(paths["hyp_unsegmented.sgml"])]
    result = subprocess.run(
        [sys.executable, "-m", "hub4eval", "score", str(cycle), str(cycle), *texts, "--jobs", "2"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "cycle" in result.stderr
