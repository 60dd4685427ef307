"""hub4eval.text.csrfilt: csrfilt.sh's filter, on small GLMs whose outputs are derived by hand from
csrfilt.sh's steps (upper-case, rules, -dh, optional groups split, ctm lines per word)."""

from __future__ import annotations

import pytest

from hub4eval.errors import InputError
from hub4eval.text.csrfilt import Csrfilt, CsrfiltOptions, csrfilt_text
from hub4eval.text.glm import parse_glm

GLM = parse_glm(
    "UH => %HESITATION / [ ] __ [ ]\n"
    ';; INPUT_DEPENDENT_APPLICATION = "hyp"\n'
    "[THAT'S] => [{THAT'S / THAT IS / THAT HAS}] / [ ] __ [ ]\n"
    "[GONNA] => [GOING TO] / [ ] __ [ ]\n"
)


def test_trn_sides_alternatives_and_hyphens():
    text = ";; a comment, left alone: that's\nuh that's well-known buni- (s-1)\n"
    assert csrfilt_text(text, GLM, CsrfiltOptions("trn", "ref")) == (
        ";; a comment, left alone: that's\n%HESITATION THAT'S WELL-KNOWN BUNI- (s-1)\n"
    )
    assert csrfilt_text(text, GLM, CsrfiltOptions("trn", "hyp", delete_hyphens=True)) == (
        ";; a comment, left alone: that's\n%HESITATION {THAT'S / THAT IS / THAT HAS} WELL KNOWN BUNI- (s-1)\n"
    )
    # no -t: the "hyp" section applies to no trn file
    assert csrfilt_text("that's (s-1)\n", GLM, CsrfiltOptions("trn")) == "THAT'S (s-1)\n"


def test_optional_groups_are_split_word_by_word():
    assert csrfilt_text("(uh oh) gonna go (s-1)\n", GLM, CsrfiltOptions("trn", "hyp")) == (
        "(%HESITATION) (OH) GOING TO GO (s-1)\n"
    )


def test_ctm_words_that_became_several_share_the_time():
    ctm = "f 1 1.00 0.60 gonna 0.9\nf 1 2.00 0.30 that's 0.8\nf 1 3.00 0.20 ok\n"
    # GOING TO: 0.60 s split in two; the alternation: each alternative shares 0.30 s
    # among its own words; a line that stays one word is left as written
    assert csrfilt_text(ctm, GLM, CsrfiltOptions("ctm", "hyp")) == (
        "f 1 1.000 0.300 GOING 0.9\n"
        "f 1 1.300 0.300 TO 0.9\n"
        "f 1 * * <ALT_BEGIN>\n"
        "f 1 2.000 0.300 THAT'S 0.8\n"
        "f 1 * * <ALT>\n"
        "f 1 2.000 0.150 THAT 0.8\n"
        "f 1 2.150 0.150 IS 0.8\n"
        "f 1 * * <ALT>\n"
        "f 1 2.000 0.150 THAT 0.8\n"
        "f 1 2.150 0.150 HAS 0.8\n"
        "f 1 * * <ALT_END>\n"
        "f 1 3.00 0.20 OK\n"
    )


def test_stm_words_after_the_label():
    stm = "f 1 spk 0.0 2.0 <o,f0,male> uh that's it\n"
    assert csrfilt_text(stm, GLM, CsrfiltOptions("stm", "ref")) == "f 1 spk 0.0 2.0 <o,f0,male> %HESITATION THAT'S IT\n"


def test_unreadable_lines_are_errors_naming_the_line():
    with pytest.raises(InputError, match="no \\(id\\)") as error:
        csrfilt_text("fine (a)\nno id here\n", GLM, CsrfiltOptions("trn"), "h.trn")
    assert error.value.line == 2
    with pytest.raises(InputError, match="fewer than five fields"):
        csrfilt_text("f 1\n", GLM, CsrfiltOptions("stm"), "r.stm")
    # blank lines pass (csrfilt stops at them; the readers skip them)
    assert csrfilt_text("\na (s-1)\n", GLM, CsrfiltOptions("trn")) == "\nA (s-1)\n"


def test_the_sclite_option_record_filters_by_side():
    both = Csrfilt(GLM, sides=False)
    assert both.filter("that's (a)\n", "trn", "hyp", "h.trn") == "THAT'S (a)\n"
    assert Csrfilt(GLM).filter("that's (a)\n", "trn", "hyp", "h.trn") == "{THAT'S / THAT IS / THAT HAS} (a)\n"


def test_the_first_rule_in_file_order_wins_where_several_match():
    # rfilter1 takes, at each place, the first rule of the file that matches there:
    # UH (line 1) before UH HUH (line 2); MM HMM (line 3) before MM (line 4).
    # (csrfilt.sh of SCTK 9688a26 prints the same line for this file and text.)
    glm = parse_glm(
        "UH => %HESITATION / [ ] __ [ ]\nUH HUH => %BCACK / [ ] __ [ ]\n"
        "MM HMM => %BCACK / [ ] __ [ ]\nMM => %HESITATION / [ ] __ [ ]\n"
    )
    assert csrfilt_text("uh huh and mm hmm mm (a)\n", glm, CsrfiltOptions("trn")) == (
        "%HESITATION HUH AND %BCACK %HESITATION (a)\n"
    )


def test_a_deleting_rule_writes_the_null_word():
    # rfilter1 copies the right-hand side as written: `UM => @` leaves `@`, which sclite
    # reads as the NULL word (csrfilt.sh of SCTK 9688a26 prints this line too)
    glm = parse_glm("UM => @ / [ ] __ [ ]\nER => { ER / @ } / [ ] __ [ ]\n")
    assert csrfilt_text("a um b er c (a)\n", glm, CsrfiltOptions("trn")) == "A @ B { ER / @ } C (a)\n"
