"""`hub4eval ne` end to end, through a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

DOC = "<DOC>\n<DOCNO> d1 </DOCNO>\n<TEXT>\n{}\n</TEXT>\n</DOC>\n"
REF = DOC.format(
    '<ENAMEX TYPE="PERSON">Boris Yeltsin</ENAMEX> met <ENAMEX TYPE="PERSON">Bill Clinton</ENAMEX> in '
    '<ENAMEX TYPE="LOCATION">Moscow</ENAMEX> on <TIMEX TYPE="DATE">March 3rd</TIMEX> .'
)
# Yeltsin alone (TYPE COR, TEXT INC), Clinton an ORGANIZATION (TYPE INC, TEXT COR), Moscow right (2 COR),
# March 3rd missed (2 MIS): COR 4 INC 2 MIS 2 SPU 0; POS 8, ACT 6; F = 8/14 = 57.1; SER = 4/8 = 50.0
HYP = (
    REF.replace('<ENAMEX TYPE="PERSON">Boris ', 'Boris <ENAMEX TYPE="PERSON">')
    .replace('"PERSON">Bill', '"ORGANIZATION">Bill')
    .replace('<TIMEX TYPE="DATE">March 3rd</TIMEX>', "March 3rd")
)


def run(*args, cwd=None):
    env = {**os.environ, "COLUMNS": "200"}  # the headline on one line
    return subprocess.run(
        [sys.executable, "-m", "hub4eval", "ne", *map(str, args)], capture_output=True, text=True, cwd=cwd, env=env
    )


@pytest.fixture
def files(tmp_path):
    (tmp_path / "ref.sgml").write_text(REF)
    (tmp_path / "hyp.sgml").write_text(HYP)
    return tmp_path


def test_table_headline_and_signature(files):
    done = run("ref.sgml", "hyp.sgml", cwd=files)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "F = 57.1  SER = 50.0  REC = 50.0  PRE = 66.7  (POS 8  ACT 6  COR 4  INC 2  MIS 2  SPU 0)" in out
    assert "Named entities" in out and "Sub-scores of TYPE and TEXT" in out
    rows = {line.split("│")[0].strip(): line for line in out.splitlines() if "│" in line}
    # PERSON: Yeltsin TYPE COR TEXT INC, Clinton TYPE INC TEXT COR: POS 4 COR 2 INC 2 -> F 50.0, SER 50.0
    assert [cell.strip() for cell in rows["PERSON"].split("│")[1:11]] == [
        *("4", "4", "2", "2", "0", "0"),
        *("50.0", "50.0", "50.0", "50.0"),
    ]
    assert "rules:named-entities" in out and "texts:same" in out and "compare:extent" in out
    assert "premodifiers:-" in out


def test_bad_markup_is_one_line_and_exit_2(files):
    (files / "bad.sgml").write_text(DOC.format('Bo<ENAMEX TYPE="PERSON">ris</ENAMEX>'))
    done = run("ref.sgml", "bad.sgml", cwd=files)
    assert done.returncode == 2
    assert done.stdout == ""
    # line 4 of the file; the tag starts at column 3
    assert done.stderr == (
        "bad.sgml:4:3: <ENAMEX> tag inside a word (hint: a region starts and ends between words: "
        "move the tag before the word)\n"
    )


def test_missing_type_and_unclosed_element(files):
    (files / "bad.sgml").write_text(DOC.format("<ENAMEX>Boris</ENAMEX> met"))
    done = run("ref.sgml", "bad.sgml", cwd=files)
    assert done.returncode == 2 and done.stderr.startswith("bad.sgml:4:1: <ENAMEX> has no TYPE attribute (hint:")
    (files / "bad.sgml").write_text(DOC.format('<NUMEX TYPE="MONEY">$4'))
    done = run("bad.sgml", "hyp.sgml", cwd=files)
    assert done.returncode == 2
    assert done.stderr.startswith("bad.sgml:4:1: <NUMEX> element is not closed before the end of its document")
    assert done.stderr.count("\n") == 1


def test_to_templettes_writes_what_was_scored(files):
    done = run("ref.sgml", "hyp.sgml", "--to-templettes", "out", "-q", cwd=files)
    assert done.returncode == 0, done.stderr
    out = files / "out"
    assert sorted(p.name for p in out.iterdir()) == ["hyp.sgml", "hyp.tpl", "ref.sgml", "ref.tpl"]
    assert "<ENAMEX" not in (out / "hyp.sgml").read_text()
    assert 'TEXT: "Yeltsin"' in (out / "hyp.tpl").read_text()
    check = subprocess.run(
        [sys.executable, "-m", "hub4eval", "check", "out/ref.tpl", "--text", "out/ref.sgml"],
        capture_output=True,
        text=True,
        cwd=files,
    )
    assert check.returncode == 0, check.stderr


def test_json_and_csv(files):
    done = run("ref.sgml", "hyp.sgml", "--json", "r.json", "--csv", "r.csv", cwd=files)
    assert done.returncode == 0, done.stderr
    data = json.loads((files / "r.json").read_text())
    person = data["named_entities"]["ENAMEX PERSON"]
    assert (person["TYPE"]["COR"], person["TYPE"]["INC"], person["TEXT"]["COR"], person["TEXT"]["INC"]) == (1, 1, 1, 1)
    assert data["summary"]["SER"] == 0.5
    lines = (files / "r.csv").read_text().splitlines()
    assert lines[0].startswith("entity,part,POS,ACT,COR,INC,MIS,SPU,OPT,REM,") and lines[0].endswith(",SER")
    assert "ALL,ALL,8,6,4,2,2,0,0,0," in "\n".join(lines)


def test_json_lines_input(files):
    line = '{"id": "d1", "text": "Boris met Bill.", "entities": [["PERSON", 0, 5]]}\n'
    (files / "ref.jsonl").write_text(line)
    (files / "hyp.jsonl").write_text(line)
    done = run("ref.jsonl", "hyp.jsonl", cwd=files)
    assert done.returncode == 0, done.stderr
    assert "F = 100.0  SER = 0.0" in done.stdout


def test_texts_are_the_arguments(files):
    # --ref-text and the other options naming text files are not ne's: its texts are REF and HYP
    done = run("ref.sgml", "hyp.sgml", "--ref-text", "ref.sgml", cwd=files)
    assert done.returncode == 2
    assert done.stderr.startswith("no such option: --ref-text") and done.stderr.count("\n") == 1


def test_help_lists_the_options():
    done = subprocess.run([sys.executable, "-m", "hub4eval", "ne", "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    for option in ("--to-templettes", "--unsegmented", "--glm", "--spoken-forms", "--compare", "--json", "--html"):
        assert option in done.stdout
    for option in ("--ref-text", "--hyp-text", "--text-format", "--hyp-text-format"):
        assert option not in done.stdout


def test_bootstrap_and_versus(files):
    done = run("ref.sgml", "hyp.sgml", "--bootstrap", "50", cwd=files)
    assert done.returncode == 0, done.stderr
    assert "95% intervals (50 document resamples, seed 12345): REC " in done.stdout
    # one document: every resample is that document, so every interval is the point itself (F 57.1)
    assert "F 57.1..57.1" in done.stdout
    # B is A's own file: the difference is 0 in every resample, p = 1
    done = run("ref.sgml", "hyp.sgml", "--versus", "hyp.sgml", "--bootstrap", "20", "--json", "v.json", cwd=files)
    assert done.returncode == 0, done.stderr
    assert "F(A) - F(B) = 0.0 points  95% interval 0.0..0.0  p = 1.0000" in done.stdout
    assert "note:" not in done.stdout  # the same options for both
    versus = json.loads((files / "v.json").read_text())["versus"]
    assert versus["difference"] == 0.0 and versus["summary_B"]["SER"] == 0.5


def test_explain_prints_the_error_points(files):
    done = run("ref.sgml", "hyp.sgml", "--explain", cwd=files)
    assert done.returncode == 0, done.stderr
    # the 4 errors of the headline: TEXT INC (Yeltsin), TYPE INC (Clinton), TYPE and TEXT MIS (March 3rd)
    assert done.stdout.rstrip().endswith("4 error points")
    assert 'REF  "Boris Yeltsin" ##33#46#  (<ENAMEX-d1-1>, line 4)' in done.stdout
    assert 'HYP  "Yeltsin" ##39#46#  (<ENAMEX-d1-1>, line 4)' in done.stdout
    assert "why  extent 39..46 is not the reference extent 33..46" in done.stdout


def test_reference_and_hypothesis_that_do_not_belong_together(files):
    (files / "asr.sgml").write_text("boris yeltsin met\n")
    done = run("asr.sgml", "ref.sgml", cwd=files)
    assert done.returncode == 2
    assert done.stderr.startswith("asr.sgml:1:1: the reference has no document tags (hint: REF is the tagged")
    (files / "other.sgml").write_text(HYP.replace("d1", "zz"))
    done = run("ref.sgml", "other.sgml", cwd=files)
    assert done.returncode == 2
    assert done.stderr.startswith("other.sgml:1:1: no document of the hypothesis is in the reference ref.sgml")


def test_at_80_columns_no_number_is_cut(tmp_path):
    # the speech case has the widest table (the content/extent split): split into tables that fit
    (tmp_path / "ref.sgml").write_text(REF)
    (tmp_path / "asr.sgml").write_text(
        '<ENAMEX TYPE="PERSON">boris yeltsin</ENAMEX> met <ENAMEX TYPE="ORGANIZATION">bill clinton</ENAMEX> in '
        "moscow on march third\n"
    )
    env = {**os.environ, "COLUMNS": "80"}
    done = subprocess.run(
        [sys.executable, "-m", "hub4eval", "ne", "ref.sgml", "asr.sgml"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    tables = done.stdout.split("\nF = ")[0]
    assert "…" not in tables
    assert all(len(line.rstrip()) <= 80 for line in tables.splitlines())
    assert "Named entities (counts, REC, PRE)" in tables and "Sub-scores of TYPE and TEXT (counts)" in tables


def test_to_templettes_never_overwrites_an_input(files):
    # --to-templettes . writes ref.sgml and hyp.sgml in the current folder: the inputs' own names
    before = {name: (files / name).read_bytes() for name in ("ref.sgml", "hyp.sgml")}
    done = run("ref.sgml", "hyp.sgml", "--to-templettes", ".", "-q", cwd=files)
    assert done.returncode == 2
    assert done.stderr.startswith("ref.sgml: the --to-templettes (ref.sgml) output is the input REF (ref.sgml)")
    assert len(done.stderr.splitlines()) == 1
    assert {name: (files / name).read_bytes() for name in before} == before
    assert not (files / "ref.tpl").exists()


def test_bootstrap_and_seed_are_bounded(files):
    done = run("ref.sgml", "hyp.sgml", "--seed", "-1", "--bootstrap", "5", "-q", cwd=files)
    assert (done.returncode, done.stderr.strip()) == (2, "--seed must be 0 or more, got -1 (hint: e.g. --seed 12345)")
    done = run("ref.sgml", "hyp.sgml", "--bootstrap", "100000000000", "-q", cwd=files)
    assert done.returncode == 2 and done.stderr.startswith("--bootstrap 100,000,000,000 is more than")


def test_texts_without_any_entity_score_zero(files):
    # no region on either side: every count 0, F undefined, not an internal error
    (files / "plain.sgml").write_text(DOC.format("Boris Yeltsin met Bill Clinton in Moscow on March 3rd ."))
    done = run("plain.sgml", "plain.sgml", "--json", "-", "-q", cwd=files)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)["summary"]
    assert (summary["POS"], summary["ACT"], summary["COR"]) == (0, 0, 0)


def test_an_empty_to_templettes_path_is_named(files):
    # '' used to become the current folder (Path('') is '.') and the files were written there
    done = run("ref.sgml", "hyp.sgml", "--to-templettes", "", "-q", cwd=files)
    assert (done.returncode, done.stderr.strip()) == (
        2,
        "the --to-templettes path is empty (hint: give the directory to write to)",
    )
    assert not (files / "ref.tpl").exists()
