"""`hub4eval sclite`: NIST sclite's command line, sclite's numbers and report files.

The arguments are sclite's own (``-r REF [fmt] -h HYP [fmt [title]] -i ID -o
sum rsum pra ... -O DIR -n NAME ...``), parsed as sclite parses them, so a
script switches by changing the program's name. The scoring is
:func:`hub4eval.scoring.sclite.score_sclite`, the files
:mod:`hub4eval.report.sclite`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

import typer

from hub4eval.cli.app import command, print_warnings
from hub4eval.errors import InputError, UsageError
from hub4eval.util.atomic import replaced_whole

_UNSUPPORTED = {
    "-d": "alignments with GNU diff",
    "-L": "weights from an SLM language model",
    "-w": "word-weighted scoring (wws)",
    "-P": "reading sclite's SGML from standard input",
    "-p": "writing sclite's SGML to a pipe",
    "-C": "confidence reports",
}
_REPORTS = (
    *("sum", "rsum", "pra", "pralign", "dtl", "sgml", "all", "none", "stdout"),
    *("prf", "lur", "snt", "spk", "nl.sgml", "wws"),
)


@dataclass
class Arguments:
    """sclite's command line, read."""

    ref: str | None = None
    ref_format: str = "trn"
    hyps: list[tuple[str, str, str]] = field(default_factory=list)  # (file, format, title)
    id_type: str | None = None
    outputs: set[str] = field(default_factory=set)
    outputs_given: bool = False
    out_dir: str | None = None
    out_name: str | None = None
    feedback: int = 1
    feedback_given: bool = False
    case_sensitive: bool = False
    frag_corr: bool = False
    opt_del: bool = False
    encoding: str = "ascii"
    profile: str | None = None
    reduce_ref: bool = False
    reduce_hyp: bool = False
    char_align: bool = False
    char_noascii: bool = False
    char_delete_hyphens: bool = False
    time_align: bool = False
    segmentation: int = 0
    lexicon: str | None = None
    segment_ascii_too: bool = False
    glms: list[str] = field(default_factory=list)  # --glm FILE (repeatable): csrfilt.sh first
    glm_delete_hyphens: bool = False  # --glm-dh
    glm_sides: bool = True  # --glm-no-sides turns csrfilt's -t ref/-t hyp off


def _usage(message: str, hint: str = "see docs/sclite.md for the options hub4eval sclite reads") -> UsageError:
    return UsageError(message, hint=hint)


def parse_arguments(argv: Sequence[str]) -> Arguments:
    """Read sclite's arguments as sclite's ``proc_args`` does (options start with ``-``; an option's
    values run up to the next word that starts with ``-``)."""
    from hub4eval.scoring.sclite import ENCODINGS, ID_TYPES, LANGUAGE_PROFILES

    args = Arguments()
    argv = list(argv)
    n = len(argv)
    k = 0

    def value(what: str) -> str:
        nonlocal k
        if k + 1 >= n:
            raise _usage(f"{argv[k]} needs {what}")
        k += 1
        return argv[k]

    def more() -> bool:
        return k + 1 < n and not argv[k + 1].startswith("-")

    while k < n:
        option = argv[k]
        if not option.startswith("-"):
            raise _usage(f"unexpected argument {option!r}: sclite's options come in pairs such as -r FILE")
        if option == "-r":
            args.ref = value("a reference file")
            if more():
                args.ref_format = value("a format")
        elif option == "-h":
            name = value("a hypothesis file")
            form = value("a format") if more() else "trn"
            title = value("a title") if more() else name
            args.hyps.append((name, form, title))
        elif option == "-i":
            args.id_type = value("an utterance id type")
            if args.id_type not in ID_TYPES:
                raise _usage(f"utterance id type {args.id_type!r} is not one of {', '.join(ID_TYPES)}")
        elif option == "-o":
            args.outputs_given = True
            while more():
                k += 1
                report = argv[k]
                if report not in _REPORTS:
                    raise _usage(f"unknown report {report!r}", hint=f"use {', '.join(_REPORTS)}")
                if report == "none":
                    args.outputs.clear()
                elif report == "all":
                    args.outputs ^= {"sum", "rsum", "pra"}
                else:
                    args.outputs ^= {"pra" if report == "pralign" else report}
        elif option == "-O":
            args.out_dir = value("an output directory")
            if not args.out_dir:  # '' would put the reports at the root of the file system ('/hyp.sys')
                raise _usage("the -O path is empty", hint="give the directory the reports go to, e.g. -O .")
        elif option == "-n":
            args.out_name = value("an output name")
            if not args.out_name:  # '' would name the reports '.sys', '.pra', hidden files
                raise _usage("the -n name is empty", hint="give the name of the report files, e.g. -n sys1")
        elif option == "-f":
            try:
                args.feedback = int(value("a feedback level"))
            except ValueError:
                raise _usage(f"-f takes a number, not {argv[k]!r}") from None
            args.feedback_given = True
        elif option == "-l":
            value("a line width")  # sclite's line width for reports; these reports do not wrap
        elif option == "-s":
            args.case_sensitive = True
        elif option == "-F":
            args.frag_corr = True
        elif option == "-D":
            args.opt_del = True
        elif option == "-e":
            encoding = value("a character encoding").lower()
            if encoding not in ENCODINGS:
                raise _usage(f"unknown character encoding {encoding!r}", hint=f"use {', '.join(ENCODINGS)}")
            args.encoding = "gb" if encoding == "euc" else encoding
            if more():
                profile = value("a language profile").lower()
                if profile not in LANGUAGE_PROFILES:
                    raise _usage(
                        f"unknown case-conversion profile {profile!r}", hint=f"use {', '.join(LANGUAGE_PROFILES)}"
                    )
                args.profile = profile
        elif option == "-m":
            chosen = False
            while more():
                k += 1
                if argv[k] == "ref":
                    args.reduce_ref = True
                elif argv[k] == "hyp":
                    args.reduce_hyp = True
                else:
                    raise _usage(f"unknown -m value {argv[k]!r}", hint="use -m ref, -m hyp or -m ref hyp")
                chosen = True
            if not chosen:
                args.reduce_ref = True
        elif option == "-S":
            algorithm = value("an algorithm (algo1 or algo2)")
            if algorithm not in ("algo1", "algo2"):
                raise _usage(f"unknown inferred segmentation algorithm {algorithm!r}", hint="use -S algo1 or -S algo2")
            args.segmentation = 1 if algorithm == "algo1" else 2
            args.lexicon = value("a lexicon file")
            if more():
                k += 1
                if argv[k] != "ASCIITOO":
                    raise _usage(f"unknown -S flag {argv[k]!r}", hint="the only flag is ASCIITOO")
                args.segment_ascii_too = True
        elif option == "-T":
            args.time_align = True
        elif option == "-c":
            args.char_align = True
            while more():
                k += 1
                if argv[k] == "NOASCII":
                    args.char_noascii = True
                elif argv[k] == "DH":
                    args.char_delete_hyphens = True
                else:
                    raise _usage(f"unknown -c value {argv[k]!r}", hint="use -c, -c NOASCII, -c DH or -c NOASCII DH")
        elif option == "--glm":
            args.glms.append(value("a GLM file"))
        elif option == "--glm-dh":
            args.glm_delete_hyphens = True
        elif option == "--glm-no-sides":
            args.glm_sides = False
        elif option in _UNSUPPORTED:
            raise _usage(
                f"sclite option {option} ({_UNSUPPORTED[option]}) is not supported by hub4eval sclite",
                hint="docs/sclite.md lists what is supported and why",
            )
        else:
            raise _usage(f"unknown sclite option {option!r}")
        k += 1
    if args.ref is None or not args.hyps:
        raise _usage("give a reference and a hypothesis: -r REF [fmt] -h HYP [fmt]")
    if not args.outputs_given:
        args.outputs = {"sum", "stdout"}
    elif "stdout" in args.outputs and not args.feedback_given:
        args.feedback = 0
    return args


def _out_root(args: Arguments, hyp: str) -> str:
    """sclite's output name: -O (else the hypothesis's folder) / -n (else the hypothesis's file name)."""
    folder, base = os.path.split(hyp)
    folder = args.out_dir if args.out_dir is not None else (folder or ".")
    name = args.out_name if args.out_name is not None else base
    if args.out_dir is not None or folder != ".":
        return f"{folder}/{name}"
    return name


# The report files sclite writes: (report, extension), in the order they are written.
_REPORT_FILES = (("sum", "sys"), ("rsum", "raw"), ("pra", "pra"), ("dtl", "dtl"), ("sgml", "sgml"))


def _check_report_paths(args: Arguments) -> None:
    """Before anything is read: no report file may be an input (a hypothesis named
    ``hyp.sys`` and ``-o sum``), two reports one file, or a file that cannot be written."""
    from hub4eval.cli.outputs import check_outputs

    if "stdout" in args.outputs:
        return
    several = len(args.hyps) > 1
    outputs = {
        f"-o {report}" + (f" ({name})" if several else ""): f"{_out_root(args, name)}.{extension}"
        for name, _, _ in args.hyps
        for report, extension in _REPORT_FILES
        if report in args.outputs
    }
    check_outputs(
        outputs,
        {"-r": args.ref, "-h": [name for name, _, _ in args.hyps], "-L": args.lexicon, "--glm": list(args.glms)},
    )


def run(argv: Sequence[str]) -> int:
    """Score as sclite with these arguments; write the reports. Returns the exit status."""
    from hub4eval.report.sclite import dtl_report, pra_report, sgml_report, summary_report
    from hub4eval.scoring.sclite import SCliteOptions, SCliteResult, file_encoding, score_sclite

    args = parse_arguments(argv)
    _check_report_paths(args)
    if "none" in args.glms and len(args.glms) > 1:
        raise _usage(
            "--glm none cannot be combined with other mapping files", hint="give --glm none alone, or only files"
        )
    if (args.glm_delete_hyphens or not args.glm_sides) and args.glms in ([], ["none"]):
        raise _usage("--glm-dh and --glm-no-sides need a --glm FILE")
    csrfilt = None
    if args.glms and args.glms != ["none"]:
        from hub4eval.api import load_glm
        from hub4eval.text.csrfilt import Csrfilt

        glm = load_glm(args.glms)  # 'default' is the shipped file, as for `hub4eval score`
        print_warnings(glm.warnings)
        csrfilt = Csrfilt(glm, args.glm_delete_hyphens, args.glm_sides)
    for report in sorted(args.outputs & {"prf", "lur", "snt", "spk", "nl.sgml", "wws"}):
        print(f"hub4eval: warning: sclite report {report!r} is not written (not supported)", file=sys.stderr)
    for name, form, title in args.hyps:
        options = SCliteOptions(
            ref=args.ref or "",
            hyp=name,
            ref_format=args.ref_format,
            hyp_format=form,
            title=title,
            id_type=args.id_type,
            case_sensitive=args.case_sensitive,
            frag_corr=args.frag_corr,
            opt_del=args.opt_del,
            encoding=args.encoding,
            profile=args.profile,
            reduce_ref=args.reduce_ref,
            reduce_hyp=args.reduce_hyp,
            char_align=args.char_align,
            char_noascii=args.char_noascii,
            char_delete_hyphens=args.char_delete_hyphens,
            time_align=args.time_align,
            segmentation=args.segmentation,
            lexicon=args.lexicon,
            segment_ascii_too=args.segment_ascii_too,
            csrfilt=csrfilt,
        )
        if args.feedback >= 1:
            print(f"Begin alignment of Ref File: '{args.ref}' and Hyp File: '{name}'")
        result = score_sclite(options)
        root = _out_root(args, name)
        to_stdout = "stdout" in args.outputs
        writes: list[tuple[str, str, Callable[[SCliteResult], str]]] = [
            ("sum", "sys", partial(summary_report, raw=False)),
            ("rsum", "raw", partial(summary_report, raw=True)),
            ("pra", "pra", pra_report),
            ("dtl", "dtl", dtl_report),
            ("sgml", "sgml", sgml_report),
        ]
        for report, extension, make in writes:
            if report not in args.outputs:
                continue
            text = make(result)
            if to_stdout:
                sys.stdout.write(text)
                continue
            path = f"{root}.{extension}"
            if args.feedback >= 1:
                print(f"    Writing {report} report to '{path}'")
            try:
                with replaced_whole(path, encoding=file_encoding(options), newline="\n") as out:
                    out.write(text)
            except OSError as error:
                raise InputError(
                    f"cannot write the report: {error.strerror or error}", path, hint="check the -O folder"
                ) from error
    if args.feedback >= 1:
        print("\nSuccessful Completion")
    return 0


@command(
    "sclite",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": ["--help"]},
    add_help_option=True,
)
def sclite_command(ctx: typer.Context) -> None:
    """Score word error rates with NIST sclite's command line and get sclite's numbers and report files.

    Takes sclite's own arguments, e.g.:

      hub4eval sclite -r ref.trn trn -h hyp.trn trn -i spu_id -o sum rsum pra -O out -n sys1

      hub4eval sclite -r ref.stm stm -h hyp.ctm ctm -F -D -o all

    -r FILE [trn|stm|ctm]  reference; -h FILE [trn|ctm] [TITLE]  hypothesis;
    -i spu_id|rm|swb|wsj|sp  how the speaker is read from a trn id;
    -o sum rsum pra dtl sgml all stdout none  the reports (default: sum to stdout);
    -O DIR, -n NAME  where they are written (default: beside the hypothesis, named after it);
    -s  case-sensitive; -F  fragments match the words they start or end;
    -D  a (word) may be left out, and is then correct; -c [NOASCII] [DH]  align by character;
    -T  time-mediated alignment (ctm against ctm); -S algo1|algo2 LEXICON [ASCIITOO]  words inferred
    from a lexicon; -e ascii|ext_ascii|utf-8|gb [PROFILE]  encoding and
    case folding; -m [ref] [hyp]  leave out what lies outside the other side's time; -f N  progress messages.
    --glm FILE  first filter the reference and the hypothesis through this NIST GLM as
    csrfilt.sh -i FORMAT -t ref|hyp does (rule sections for one side, alternatives the
    alignment chooses from; repeatable, the files apply in turn; 'default' is the shipped
    mapping_files/en.glm, as for hub4eval score, and 'none' filters nothing); --glm-dh  also split
    hyphenated words (csrfilt -dh); --glm-no-sides  sections by input type only (no -t).
    The options sclite has and hub4eval does not (-d, -L, -w, -P, -p, -C) are
    refused with a one-line message. See docs/sclite.md.
    """
    raise typer.Exit(run(ctx.args))
