"""A function computed in a forked child process while the caller goes on.

A forked child inherits the caller's memory as it is when the child starts,
so nothing is sent to it: only the result comes back, pickled through a pipe.
Where the platform cannot fork, or the child fails in any way (an exception,
a signal, a result that cannot be pickled), the function is called again in
the calling process when its result is asked for: a result never depends on
where it was computed, and an error is raised where it would have been
without the child.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

T = TypeVar("T")
_NONE = object()  # no value yet
_in_child = False  # set in a child started here


def in_child() -> bool:
    """Whether this process is a child started by :class:`Beside` or :class:`Steps`: it computes
    one function for its caller, then ends (so it may set itself up for that work alone)."""
    return _in_child


def can_fork() -> bool:
    """Whether child processes can be forked here (not on Windows)."""
    return "fork" in multiprocessing.get_all_start_methods()


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _run(send: Any, receive: Any, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """In the child: the result, or (False, None) when there is none to send."""
    global _in_child
    _in_child = True
    # The caller's end is closed here, so that a caller gone (ended on an error) is a
    # broken pipe, not a full one that the child would wait on for ever.
    receive.close()
    try:
        value = (True, function(*args))
    except BaseException:  # the caller computes it again and raises it there
        value = (False, None)
    try:
        send.send(value)
    except BaseException:  # e.g. a result that cannot be pickled
        try:
            send.send((False, None))
        except BaseException:  # no one reads any more (the caller ended on an error): nothing to say
            pass
    finally:
        send.close()


def _start(target: Callable[..., None], function: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, Any]:
    """A forked child running ``target(send, receive, function, args)``, and the end of
    the pipe its values come by; (None, None) when no process is to be had (the caller
    then computes them itself, when asked)."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=target, args=(send, receive, function, args), daemon=True)
    try:
        process.start()
    except OSError:
        receive.close()
        send.close()
        return None, None
    send.close()
    return process, receive


class Beside(Generic[T]):
    """``function(*args)``, started in a forked child when made; :meth:`result` waits for it.

    ``forked=False`` (or no fork on this platform) computes it in the
    caller, when :meth:`result` is first asked.
    """

    def __init__(self, function: Callable[..., T], *args: Any, forked: bool = True) -> None:
        self._function, self._args = function, args
        self._process: Any = None
        self._receive: Any = None
        self._value: Any = _NONE
        if forked and can_fork():
            self._process, self._receive = _start(_run, function, args)

    def __del__(self) -> None:
        """A child whose result was never asked (the caller met an error) is stopped."""
        process = getattr(self, "_process", None)
        if process is not None:
            self._process = None
            try:
                process.terminate()
                self._receive.close()
            except (OSError, ValueError, AttributeError):
                pass

    @property
    def forked(self) -> bool:
        """Whether a child is computing it (until :meth:`result` is asked)."""
        return self._process is not None

    def result(self) -> T:
        """The value of ``function(*args)``: the child's, or computed here (once)."""
        if self._value is not _NONE:
            return self._value
        if self._process is not None:
            process, receive = self._process, self._receive
            self._process = self._receive = None
            try:
                done, value = receive.recv()  # before join: a large result fills the pipe
            except (EOFError, OSError):  # the child died without sending
                done, value = False, None
            finally:
                receive.close()
                process.join()
            if done:
                self._value = value
                return value
        self._value = self._function(*self._args)
        return self._value


def _run_steps(send: Any, receive: Any, steps: Callable[..., Iterator[Any]], args: tuple[Any, ...]) -> None:
    """In the child: each value the generator yields, sent as soon as it is made; (False, None)
    at the first that fails (or cannot be sent), after which the child stops."""
    global _in_child
    _in_child = True
    receive.close()
    try:
        made = steps(*args)
        while True:
            try:
                value = (True, next(made))
            except StopIteration:
                break
            except BaseException:
                value = (False, None)
            try:
                send.send(value)
            except BaseException:  # e.g. a value that cannot be pickled
                send.send((False, None))
                break
            if not value[0]:
                break
    except BaseException:  # no one reads any more: nothing to say
        pass
    finally:
        send.close()


class Steps:
    """The values a generator yields, computed in a forked child started when made;
    :meth:`result` waits for one. Each value is sent as soon as it is made, so the
    caller may go on with the first while the child computes the next.

    As with :class:`Beside`, a value the child could not give (an error, a value
    that cannot be pickled, a child that died) is computed in the caller when asked:
    the generator is run again here, up to that value (the ones before it made
    again too, a rare case), and gives the next ones; ``forked=False`` runs it here.
    """

    def __init__(self, steps: Callable[..., Iterator[Any]], *args: Any, forked: bool = True) -> None:
        self._steps, self._args = steps, args
        self._values: list[Any] = []
        self._here: Iterator[Any] | None = None  # the generator run here, once the child gave up
        self._process: Any = None
        self._receive: Any = None
        if forked and can_fork():
            self._process, self._receive = _start(_run_steps, steps, args)

    def __del__(self) -> None:
        """A child whose values were not all asked (the caller met an error) is stopped."""
        self._stop(terminate=True)

    def _stop(self, terminate: bool = False) -> None:
        process = getattr(self, "_process", None)
        if process is not None:
            self._process = None
            try:
                if terminate:
                    process.terminate()
                self._receive.close()
                process.join()
            except (OSError, ValueError, AttributeError):
                pass

    @property
    def forked(self) -> bool:
        """Whether a child is computing the values not received yet."""
        return self._process is not None

    def result(self, step: int) -> Any:
        """Value number ``step`` (from 0) of the generator: the child's, or computed here (once)."""
        values = self._values
        while len(values) <= step:
            if self._process is not None:
                try:
                    done, value = self._receive.recv()
                except (EOFError, OSError):  # the child died without sending, or ended
                    done, value = False, None
                if done:
                    values.append(value)
                    continue
                self._stop()  # the child gave this one up: it and the next are made here
            if self._here is None:
                self._here = self._steps(*self._args)
                for _ in values:  # the ones received already are made again, and dropped
                    next(self._here)
            values.append(next(self._here))
        return values[step]


__all__ = ["Beside", "Steps", "available_cores", "can_fork", "in_child"]
