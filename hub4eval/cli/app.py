"""The typer application and the one place where errors become exit codes."""

from __future__ import annotations

import errno
import functools
import os
import sys
import unicodedata
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import typer
from typer.core import TyperGroup
from typer.models import TyperPath

try:  # typer >= 0.20 carries its own copy of click: its exceptions are that copy's
    from typer._click import exceptions as click_errors
    from typer._click import types as click_types
except ImportError:  # pragma: no cover - older typer uses click itself
    from click import exceptions as click_errors  # type: ignore[no-redef]  # the same module, as click has it
    from click import types as click_types  # type: ignore[no-redef]  # the same module, as click has it

from hub4eval.errors import InputError, InputWarning
from hub4eval.util import kept
from hub4eval.util.gcpause import paused_gc
from hub4eval.util.kept import ends_without_freeing

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 1


class NonEmptyPath(click_types.ParamType):
    """A path option or argument that refuses ``''``.

    pathlib reads ``''`` as ``.``, so an empty value (a shell variable that
    was never set: ``--ref-text "$REF"``) would otherwise be reported as "``.``
    is a directory", far from what the user typed.
    """

    def __init__(self, path: TyperPath) -> None:
        self.path = path
        self.name = path.name

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        if value == "":
            self.fail("an empty path; give the path of a file", param, ctx)
        return self.path.convert(value, param, ctx)

    def shell_complete(self, ctx: Any, param: Any, incomplete: str) -> Any:
        return self.path.shell_complete(ctx, param, incomplete)


def _refuse_empty_paths(command: Any) -> None:
    """Every path parameter of ``command`` and its subcommands refuses ``''``."""
    for param in command.params:
        if isinstance(param.type, TyperPath):
            param.type = NonEmptyPath(param.type)
    for subcommand in getattr(command, "commands", {}).values():
        _refuse_empty_paths(subcommand)


class OneLineUsageErrors(TyperGroup):
    """A bad option or argument is one line on stderr and exit status 2, like bad input.

    click prints a usage error as several lines (usage, a pointer to --help,
    a framed message); hub4eval's rule is one line a script can read. An
    empty path is such an error too (:class:`NonEmptyPath`).
    """

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _refuse_empty_paths(command)
        return command

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        # click's parameters, named so that standalone_mode cannot also arrive by position
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except click_errors.NoArgsIsHelpError as error:
            typer.echo(error.ctx.get_help() if error.ctx is not None else error.format_message())
            sys.exit(0)
        except click_errors.UsageError as error:
            names, context = [], error.ctx
            while context is not None and context.parent is not None:  # the root's name is the program's
                names.append(context.info_name or "")
                context = context.parent
            help_command = " ".join(["hub4eval", *reversed(names), "--help"])
            message = error.format_message().replace("Value error, ", "").rstrip(".")
            message = message[:1].lower() + message[1:]
            typer.echo(one_line(f"{message} (hint: see {help_command})"), err=True)
            sys.exit(EXIT_BAD_INPUT)
        except click_errors.ClickException as error:
            error.show()
            sys.exit(error.exit_code)
        except typer.Abort:
            typer.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    name="hub4eval",
    cls=OneLineUsageErrors,
    rich_markup_mode=None,  # plain help, wrapped to the terminal (rich panels cut long words at 80 columns)
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    if value:
        from hub4eval import __version__

        typer.echo(f"hub4eval {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="Print hub4eval's version and exit."
    ),
) -> None:
    """Score HUB-4 templette information extraction (reference vs hypothesis), from human
    transcripts or raw ASR output.

    Shell completion: run 'hub4eval --install-completion' once (bash, zsh, fish or
    PowerShell), then open a new shell.
    """


F = TypeVar("F", bound=Callable[..., Any])


def current_params() -> dict[str, Any]:
    """The parameters of the command being run ({} outside a command)."""
    try:
        from typer._click.globals import get_current_context
    except ImportError:  # pragma: no cover - older typer uses click itself
        from click import get_current_context  # type: ignore[no-redef]  # the same function, as click has it
    context = get_current_context(silent=True)
    return dict(context.params) if context is not None else {}


def one_line(text: str) -> str:
    """``text`` with line breaks and other control characters escaped (``\\x0b``).

    Messages quote pieces of the input, which may hold a vertical tab, a form
    feed or U+2028; printed raw, they would split the promised single line.
    """
    return "".join(
        char if char == "\t" or unicodedata.category(char) not in ("Cc", "Zl", "Zp") else repr(char)[1:-1]
        for char in text
    )


def print_warnings(warnings: Iterable[InputWarning], quiet: bool = False) -> None:
    """Warnings go to stderr, one line each; ``--quiet`` keeps only those that change what the
    score means (``InputWarning.changes_score``): it silences progress, never a set-up mistake."""
    for warning in warnings:
        if quiet and not getattr(warning, "changes_score", False):
            continue
        typer.echo(one_line(str(warning)), err=True)


def fail(error: InputError) -> typer.Exit:
    """Print the one-line message of ``error`` and return the exit to raise."""
    typer.echo(one_line(str(error)), err=True)
    return typer.Exit(EXIT_BAD_INPUT)


def _silence_stdout() -> None:
    """Point standard output at the null device after its reader went away.

    Whatever is still buffered, or written before the process ends, then goes
    nowhere instead of raising ``BrokenPipeError`` again at the final flush.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real stdout (CliRunner): nothing to keep quiet
        pass


def _rich_broken_pipe(self: Any) -> None:
    """Rich's answer to a closed pipe is ``SystemExit(1)``; make it a ``BrokenPipeError``
    so that :func:`command` ends the run quietly with status 0 like every other command."""
    self.quiet = True
    raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


def _install_rich_pipe_handling() -> None:
    from rich.console import Console

    Console.on_broken_pipe = _rich_broken_pipe  # type: ignore[method-assign]  # the hook rich documents for this


_install_rich_pipe_handling()


def write_error(error: OSError) -> InputError:
    """The one-line error for an output that cannot be written (disk full, ...).

    An ``OSError`` without a file name comes from standard output (a console or
    ``echo``); every file a command writes is named by its own handler.
    """
    reason = error.strerror or str(error) or type(error).__name__
    hint = "write to a disk with free space, or to another place"
    if error.errno == errno.EISDIR:
        hint = "give the path of a file, not of a directory"
    if error.filename is not None:  # a file no handler named: reading or writing it failed
        return InputError(
            f"cannot read or write the file: {reason}",
            str(error.filename),
            hint="check the path, its permissions and the free disk space",
        )
    return InputError(f"cannot write the output: {reason}", "standard output", hint=hint)


def internal_error(error: Exception) -> typer.Exit:
    """A bug, not bad input: exit 1 (never 2, so tests and scripts can tell them
    apart) and one line; HUB4EVAL_DEBUG=1 shows the traceback."""
    if os.environ.get("HUB4EVAL_DEBUG"):
        raise error
    detail = " ".join(str(error).split())
    if len(detail) > 300:
        detail = detail[:297] + "..."
    typer.echo(
        f"hub4eval: internal error: {type(error).__name__}: {detail} "
        "(hint: this is a bug in hub4eval, please report it with the input files; "
        "set HUB4EVAL_DEBUG=1 to see the traceback)",
        err=True,
    )
    return typer.Exit(EXIT_INTERNAL)


# Warnings about the command line itself (a deprecated form of an option),
# printed when the command has ended well: a refused run stays one line.
_DEFERRED: list[str] = []


def warn_when_done(line: str) -> None:
    """Print ``line`` on stderr when the running command ends well (not if it fails)."""
    _DEFERRED.append(line)


def command(*args: Any, **kwargs: Any) -> Callable[[F], F]:
    """Register a command whose ``InputError`` becomes one line + exit status 2."""

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def wrapper(*a: Any, **kw: Any) -> Any:
            _DEFERRED.clear()
            try:
                # Bulk work on many small objects, kept until the process exits:
                # frozen on the way out, never walked by the collector (see gcpause).
                with paused_gc(freeze=True):
                    value = function(*a, **kw)
                for line in dict.fromkeys(_DEFERRED):  # a refused run is its one error line, nothing else
                    typer.echo(line, err=True)
                _DEFERRED.clear()
                return value
            except InputError as error:
                # its traceback may hold what the run read (a refused document's millions of
                # objects): freed by the process's end, not one by one
                keep_until_exit(error)
                raise fail(error) from None
            except BrokenPipeError:
                # The reader of standard output went away (`| head -1`): what
                # it wanted it has; end quietly, status 0, for every command.
                _silence_stdout()
                raise typer.Exit(0) from None
            except OSError as error:
                # Standard output on a full disk (`> /dev/full`) and the like.
                if error.errno is None:
                    raise internal_error(error) from None
                raise fail(write_error(error)) from None
            except KeyboardInterrupt:
                typer.echo("interrupted", err=True)
                raise typer.Exit(130) from None
            except MemoryError:
                # Inputs far beyond what fits in memory (a wrong file, an
                # audio file): one line, like any other bad input.
                raise fail(
                    InputError(
                        "out of memory: the input files are too large for this machine",
                        hint="check that the right files were given; score a large corpus in parts",
                    )
                ) from None
            except (typer.Exit, typer.Abort, click_errors.ClickException):
                raise
            except Exception as error:
                raise internal_error(error) from None

        app.command(*args, **kwargs)(wrapper)
        return function

    return decorate


def keep_until_exit(value: Any) -> Any:
    """Keep ``value`` alive until :func:`main` ends the process (:func:`hub4eval.util.kept.keep_until_exit`), and return it.

    A result of a large evaluation is millions of small objects; freeing
    them one by one when the command returns took seconds of a run, and
    ``os._exit`` releases them at once.
    """
    kept.keep_until_exit(value)
    return value


def _show_warning(message: Any, category: Any, filename: str, lineno: int, file: Any = None, line: Any = None) -> None:
    """A Python warning (e.g. a damaged numba cache being rebuilt) as one line on stderr; the
    notice that the aligner is being compiled (the first run) as progress: on a terminal, not
    with --quiet."""
    try:
        if getattr(category, "__name__", "") == "KernelCompileNotice":
            # progress, shown as the progress bars are: on a terminal, not with --quiet
            if not current_params().get("quiet") and sys.stderr.isatty():
                typer.echo(one_line(f"hub4eval: {message}"), err=True)
            return
        typer.echo(one_line(f"hub4eval: warning: {message}"), err=True)
    except (OSError, ValueError):
        pass


def main() -> None:
    """Console-script entry point.

    The process ends with ``os._exit`` once output is flushed: a large
    evaluation leaves millions of small objects, and freeing them one by one
    at interpreter exit took seconds after the work was done. Every file the
    commands write is closed by then (context managers).
    """
    from hub4eval.text.align.numba_cache import runs_nothing_else

    warnings.showwarning = _show_warning
    ends_without_freeing()  # this process ends with os._exit below: see util/kept
    runs_nothing_else()  # numba, if a kernel is needed, starts without asking scipy for a BLAS
    code: int | str | None = 0
    try:
        app()
    except BrokenPipeError:  # `hub4eval --help | head -1`: output outside a command
        _silence_stdout()
        code = 0
    except OSError as error:  # `hub4eval --help > /dev/full`
        typer.echo(one_line(str(write_error(error))), err=True)
        code = EXIT_BAD_INPUT
    except SystemExit as exit_:
        code = exit_.code
        if code == 1 and type(sys.stdout).__name__ == "PacifyFlushWrapper":
            code = 0  # click (typer's copy or the original) met a closed pipe and exited 1
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the last buffered output met a closed pipe
        _silence_stdout()
    except OSError as error:  # ... or a full disk: the output is incomplete
        typer.echo(one_line(str(write_error(error))), err=True)
        code = EXIT_BAD_INPUT
    except ValueError:  # stdout already closed
        pass
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    if isinstance(code, str):  # sys.exit("message") prints the message, status 1
        print(code, file=sys.stderr)
        code = 1
    os._exit(code or 0)
