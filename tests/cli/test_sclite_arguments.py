"""sclite's command line read as sclite's proc_args reads it (hub4eval.cli.sclite.parse_arguments)."""

from __future__ import annotations

import pytest

from hub4eval.cli.sclite import _out_root, parse_arguments
from hub4eval.errors import UsageError


def test_values_run_up_to_the_next_option_and_formats_and_titles_are_optional():
    args = parse_arguments("-r ref.stm stm -h a/hyp.ctm ctm Sys1 -h b.trn -o sum pra -F -D -m -f 0".split())
    assert (args.ref, args.ref_format) == ("ref.stm", "stm")
    assert args.hyps == [("a/hyp.ctm", "ctm", "Sys1"), ("b.trn", "trn", "b.trn")]
    assert args.outputs == {"sum", "pra"} and args.frag_corr and args.opt_del
    assert args.reduce_ref and not args.reduce_hyp  # -m alone is -m ref, as in sclite
    assert args.feedback == 0


def test_reports_toggle_as_in_sclite_and_default_to_the_summary_on_stdout():
    assert parse_arguments("-r r -h h -i sp".split()).outputs == {"sum", "stdout"}
    assert parse_arguments("-r r -h h -i sp -o all pra".split()).outputs == {"sum", "rsum"}  # all, then pra off
    assert parse_arguments("-r r -h h -i sp -o sum none dtl".split()).outputs == {"dtl"}
    assert parse_arguments("-r r -h h -i sp -o sum stdout".split()).feedback == 0


def test_encoding_profile_character_and_segmentation_options():
    args = parse_arguments("-r r -h h -i sp -e UTF-8 babel_turkish -c NOASCII DH -S algo2 lex.txt ASCIITOO".split())
    assert (args.encoding, args.profile) == ("utf-8", "babel_turkish")
    assert args.char_align and args.char_noascii and args.char_delete_hyphens
    assert (args.segmentation, args.lexicon, args.segment_ascii_too) == (2, "lex.txt", True)
    assert parse_arguments("-r r -h h -i sp -e euc".split()).encoding == "gb"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("-r r -h h -i sp -d", "-d (alignments with GNU diff) is not supported"),
        ("-r r -h h -i sp -e klingon", "unknown character encoding 'klingon'"),
        ("-r r -h h -i sp -c XY", "unknown -c value 'XY'"),
        ("-r r -h h -i sp -o sum bogus", "unknown report 'bogus'"),
        ("-r r -h h -i sp -S algo3 lex", "unknown inferred segmentation algorithm 'algo3'"),
        ("-r r -h h -i sp -x", "unknown sclite option '-x'"),
        ("-r r -h h -i sp -f many", "-f takes a number"),
        ("-h h -i sp", "give a reference and a hypothesis"),
    ],
)
def test_bad_arguments_are_usage_errors(line, message):
    with pytest.raises(UsageError) as error:
        parse_arguments(line.split())
    assert message in error.value.message


def test_reports_are_named_as_sclite_names_them():
    assert _out_root(parse_arguments("-r r -h hyp.trn -i sp".split()), "hyp.trn") == "hyp.trn"
    assert _out_root(parse_arguments("-r r -h d/hyp.trn -i sp".split()), "d/hyp.trn") == "d/hyp.trn"
    assert _out_root(parse_arguments("-r r -h d/hyp.trn -i sp -O out -n run".split()), "d/hyp.trn") == "out/run"
    assert _out_root(parse_arguments("-r r -h hyp.trn -i sp -n run".split()), "hyp.trn") == "run"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        # -O '' made the reports '/hyp.trn.sys' (the root of the file system); -n '' hidden files '.sys'
        (["-r", "r", "-h", "hyp.trn", "-i", "sp", "-O", ""], "the -O path is empty"),
        (["-r", "r", "-h", "hyp.trn", "-i", "sp", "-n", ""], "the -n name is empty"),
    ],
)
def test_an_empty_report_folder_or_name_is_refused(line, message):
    with pytest.raises(UsageError) as error:
        parse_arguments(line)
    assert error.value.message == message
