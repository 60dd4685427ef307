"""The library API's option records: ReadOptions, OutputOptions (and ScoreConfig), as score_files takes them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import hub4eval
from hub4eval.api import OutputOptions, ReadOptions, score_files
from hub4eval.errors import UsageError

ROOT = Path(__file__).resolve().parents[1]
ASR = ROOT / "examples" / "asr"
SAMPLE = ROOT / "examples" / "sample"


def test_the_records_are_frozen_and_exported_at_the_top():
    for record in (ReadOptions(), OutputOptions(), hub4eval.ScoreConfig()):
        field = dataclasses.fields(record)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, field, None)
    assert hub4eval.ReadOptions is ReadOptions and hub4eval.OutputOptions is OutputOptions
    assert hub4eval.score_files is score_files


def test_bad_output_options_are_refused_when_made():
    with pytest.raises(ValueError, match="keep must be 'matches' or 'counts'"):
        OutputOptions(keep="points")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="--jobs must be 1 or more, got 0"):
        OutputOptions(jobs=0)


def test_read_options_check_before_any_file_is_read(tmp_path: Path):
    missing = tmp_path / "absent.tpl"  # never opened: the options are checked first
    with pytest.raises(UsageError, match="--doc-tag and --docno-tag are both"):
        score_files(missing, missing, reading=ReadOptions(doc_tag="DOC", docno_tag="doc"))
    with pytest.raises(UsageError, match="--doc-tag '<DOC>' is not an SGML element name"):
        score_files(missing, missing, reading=ReadOptions(doc_tag="<DOC>"))


def test_each_record_reaches_its_part_of_the_run():
    texts = {"ref_text": ASR / "reference.sgml", "hyp_text": ASR / "asr_unsegmented.sgml"}
    default = score_files(ASR / "ref.tpl", ASR / "hyp.tpl", **texts)
    assert default.ceiling is not None  # the texts differ: the ceiling by default
    no_ceiling = score_files(ASR / "ref.tpl", ASR / "hyp.tpl", **texts, output=OutputOptions(ceiling=False))
    assert no_ceiling.ceiling is None
    assert no_ceiling.total == default.total
    content = score_files(ASR / "ref.tpl", ASR / "hyp.tpl", **texts, config=hub4eval.ScoreConfig(compare="content"))
    assert "compare:content" in content.signature and content.total != default.total
    # The encoding is the reading's: the sample is ASCII, so latin-1 reads it the same.
    latin = score_files(SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", reading=ReadOptions(encoding="latin-1"))
    assert latin.total == score_files(SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl").total


def test_a_counts_output_in_groups_is_the_same_score():
    whole = score_files(SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl")
    grouped = score_files(
        SAMPLE / "ref.tpl", SAMPLE / "hyp.tpl", output=OutputOptions(keep="counts", jobs=1, group_documents=1)
    )
    assert grouped.tally is not None and whole.tally is None
    assert grouped.total == whole.total and grouped.signature == whole.signature


def test_a_counts_output_of_texts_that_differ_imports_nothing_of_the_groups():
    """Texts that differ are scored whole: the counts of such a score read both texts first and
    never import the machinery of scoring in groups (``hub4eval.parallel``, multiprocessing);
    the same texts (or none) are scored in groups when large, and import it."""
    import os
    import subprocess
    import sys
    import textwrap

    run = textwrap.dedent(
        """
        import sys
        from hub4eval.api import OutputOptions, score_files
        texts = dict(ref_text=sys.argv[3], hyp_text=sys.argv[4]) if len(sys.argv) > 3 else {}
        result = score_files(sys.argv[1], sys.argv[2], output=OutputOptions(ceiling=None, keep="counts"), **texts)
        print(result.total.pos, "hub4eval.parallel" in sys.modules)
        """
    )
    files = [str(ASR / "ref.tpl"), str(ASR / "hyp.tpl")]
    differ = [*files, str(ASR / "reference.sgml"), str(ASR / "asr_unsegmented.sgml")]
    outputs = [
        subprocess.run(
            [sys.executable, "-c", run, *args],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        ).stdout.split()
        for args in (differ, files)
    ]
    assert [found for _, found in outputs] == ["False", "True"]
    assert all(int(pos) > 0 for pos, _ in outputs)
