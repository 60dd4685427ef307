"""A function computed in a forked child process while the caller goes on.

A forked child inherits the caller's memory as it is when the child starts,
so nothing is sent to it: only the result comes back, pickled through a pipe.
Where the platform cannot fork, or the child fails in any way (an exception,
a signal, a result that cannot be pickled), the function is called again in
the calling process when its result is asked for: a result never depends on
where it was computed, and an error is raised where it would have been
without the child.

:class:`Beside` computes one function in one child; :class:`Shared` the
calls of a function on the numbers 0 to n - 1, shared out among several
children and the caller, each taking the next number not yet taken when it
is free, so that none waits for another while work is left.
:class:`Standby` is a child forked before its work exists: it gets ready at
once (loads compiled code, say, on a core that is free now), then computes
the one call it is given later, whose arguments are sent to it pickled.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import tempfile
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")
_NONE = object()  # no value yet
_in_child = False  # set in a child started here


def in_child() -> bool:
    """Whether this process is a child started by :class:`Beside` (or :class:`Shared`, or
    :class:`Standby`): it computes for its caller, then ends (so it may set itself up for that
    work alone)."""
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
    _send_result(send, function, args)


def _send_result(send: Any, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """In the child: send ``function(*args)``, or (False, None) when there is none to send."""
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


# what stopping a child or closing an end may raise when its owner is dropped as the interpreter ends
_QUIET = (OSError, ValueError, AttributeError)


def _stop(process: Any, *ends: Any) -> None:
    """Stop a child no one will read, and close the caller's ends of its pipes (quietly: this
    runs when its owner is dropped, perhaps as the interpreter ends)."""
    try:
        process.terminate()
    except _QUIET:
        pass
    _close(*ends)


class Beside(Generic[T]):
    """``function(*args)``, started in a forked child when made; :meth:`result` waits for it.

    ``forked=False`` (or no fork on this platform) computes it in the
    caller, when :meth:`result` is first asked. ``standby``: computed by
    that :class:`Standby` child instead of a new one, whatever ``forked``
    says (the arguments are sent to it pickled), or in the caller when it
    cannot take it.
    """

    def __init__(
        self, function: Callable[..., T], *args: Any, forked: bool = True, standby: Standby | None = None
    ) -> None:
        self._function, self._args = function, args
        self._process: Any = None
        self._receive: Any = None
        self._value: Any = _NONE
        if standby is not None:  # computed by that child, ready already (else here, when asked)
            self._process, self._receive = standby.give(function, args)
        elif forked and can_fork():
            self._process, self._receive = _start(_run, function, args)

    def __del__(self) -> None:
        """A child whose result was never asked (the caller met an error) is stopped."""
        process = getattr(self, "_process", None)
        if process is not None:
            self._process = None
            _stop(process, self._receive)

    @property
    def forked(self) -> bool:
        """Whether a child is computing it (until :meth:`result` is asked)."""
        return self._process is not None

    @property
    def running(self) -> bool:
        """Whether a child is still computing it: forked, and nothing sent yet (asked without
        waiting; a child that ended without sending is not running)."""
        if self._process is None:
            return False
        try:
            return not self._receive.poll()
        except (OSError, ValueError):  # the pipe is closed: nothing more comes
            return False

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


def _stand_by(send: Any, receive: Any, ready: Callable[[], object], work: Any, give: Any, parcel: int) -> None:
    """In a :class:`Standby` child: get ready, then compute the call written into ``parcel``
    once ``work`` says how long it is, and send its result; nothing when no call comes (the
    caller went on without it)."""
    global _in_child
    _in_child = True
    receive.close()
    give.close()  # the caller's end: closed there, the pipe ends, and recv() says so
    try:
        ready()
    except BaseException:  # not ready, or less so: the call is computed all the same
        pass
    try:
        size = work.recv()
        function, args = pickle.loads(_read_at_start(parcel, size))
    except BaseException:  # EOFError: the caller gave it no call
        send.close()
        return
    finally:
        work.close()
        os.close(parcel)
    _send_result(send, function, args)


def _read_at_start(descriptor: int, size: int) -> bytes:
    """The first ``size`` bytes of the file ``descriptor`` opens."""
    pieces = []
    done = 0
    while done < size:
        piece = os.pread(descriptor, size - done, done)
        if not piece:
            raise EOFError("the call was not written whole")
        pieces.append(piece)
        done += len(piece)
    return b"".join(pieces)


class Standby:
    """A forked child that gets ready when made (``ready()``: work that needs none of the
    inputs, such as loading the compiled code it will run, done on a core that is free now
    rather than once the inputs exist) and then computes the one call it is given
    (:meth:`give`, through ``Beside(function, *args, standby=...)``), whose arguments are
    sent to it pickled: what the call needs should be small to send.

    The call is written into a temporary file without a name that the child has open from
    its start, and only its length goes through a pipe: a child still getting ready reads
    nothing yet, and a call larger than a pipe holds would otherwise keep the caller
    waiting until it does. Where the platform cannot fork, or no process (or file) is to be
    had, there is no child: the call is computed in the caller. A standby never given its
    call is stopped when dropped.
    """

    def __init__(self, ready: Callable[[], object]) -> None:
        self._process: Any = None
        self._receive: Any = None
        self._give: Any = None
        self._parcel = -1
        if not can_fork():
            return
        context = multiprocessing.get_context("fork")
        parcel, ends = -1, []
        try:
            with tempfile.TemporaryFile() as file:  # (without a name where the system allows)
                parcel = os.dup(file.fileno())
            receive, send = context.Pipe(duplex=False)
            ends += [receive, send]
            work, give = context.Pipe(duplex=False)
            ends += [work, give]
            process = context.Process(target=_stand_by, args=(send, receive, ready, work, give, parcel), daemon=True)
            process.start()
        except OSError:  # no file, pipe or process to be had
            _close(parcel, *ends)
            return
        send.close()
        work.close()
        self._process, self._receive, self._give, self._parcel = process, receive, give, parcel

    def __del__(self) -> None:
        """A child never given its call (the caller went another way, or met an error) is stopped."""
        process = getattr(self, "_process", None)
        if process is not None:
            self._process = None
            _stop(process, self._receive, self._give)
            _close(self._parcel)

    @property
    def forked(self) -> bool:
        """Whether a child stands by (until it is given its call)."""
        return self._process is not None

    def give(self, function: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, Any]:
        """Send the child ``function(*args)``: the child's process and the end of the pipe its
        result comes by, as :class:`Beside` keeps them; (None, None) when there is no child,
        it was given a call already, or the call cannot be sent (the caller computes it)."""
        process, receive, give, parcel = self._process, self._receive, self._give, self._parcel
        if process is None:
            return None, None
        self._process = self._receive = self._give = None
        self._parcel = -1
        try:
            payload = pickle.dumps((function, args), pickle.HIGHEST_PROTOCOL)
            done = 0
            while done < len(payload):
                done += os.pwrite(parcel, memoryview(payload)[done:], done)
            give.send(len(payload))  # a few bytes: never more than the pipe holds
        except BaseException:  # arguments that cannot be pickled, a full disk, a child gone
            _stop(process, receive, give)
            return None, None
        finally:
            _close(parcel, give)
        return process, receive


def _close(*ends: Any) -> None:
    """Close pipe ends (connections) and file descriptors (ints; -1: none), quietly."""
    for end in ends:
        try:
            if isinstance(end, int):
                if end >= 0:
                    os.close(end)
            else:
                end.close()
        except _QUIET:
            pass


MOST_SHARED = 256
"""The most calls :class:`Shared` shares out among processes (more are all made in the caller)."""


class _Numbers:
    """The numbers 0 to ``count`` - 1, each taken once by whichever process asks first: the
    caller, or a child forked after this was made, when ``shared`` (bytes in a pipe, which each
    taker reads one at a time: a read from a pipe is atomic; the pipe is never written again)."""

    def __init__(self, count: int, shared: bool) -> None:
        self._left = iter(range(count))  # taken here alone when not shared
        self._read = -1
        if shared and count <= MOST_SHARED:  # one byte each
            try:
                read, write = os.pipe()
            except OSError:
                return
            try:
                os.write(write, bytes(range(count)))  # 256 bytes fit a pipe's buffer
                os.set_blocking(read, False)
                self._read = read
            except OSError:
                os.close(read)
            finally:
                os.close(write)

    @property
    def shared(self) -> bool:
        """Whether processes forked now can take numbers too."""
        return self._read >= 0

    def take(self) -> int | None:
        """The next number not taken yet, or None when every one is."""
        if self._read < 0:
            return next(self._left, None)
        try:
            taken = os.read(self._read, 1)
        except OSError:  # BlockingIOError: none left
            return None
        return taken[0] if taken else None

    def close(self) -> None:
        """No more numbers are taken here (the children have their own copy of the pipe)."""
        if self._read >= 0:
            os.close(self._read)
            self._read = -1
        self._left = iter(())


def _take_all(numbers: _Numbers, function: Callable[[int], T]) -> dict[int, T]:
    """``function(k)`` of each number ``k`` taken, until none is left."""
    made: dict[int, T] = {}
    while (number := numbers.take()) is not None:
        made[number] = function(number)
    return made


def _take_all_pickled(numbers: _Numbers, function: Callable[[int], Any]) -> dict[int, bytes]:
    """:func:`_take_all` in a child, each result pickled as soon as it is made: what is left to
    send when the last is made is then the last one's pickling and the bytes."""
    made: dict[int, bytes] = {}
    while (number := numbers.take()) is not None:
        made[number] = pickle.dumps(function(number), pickle.HIGHEST_PROTOCOL)
    return made


class Shared(Generic[T]):
    """``[function(0), ..., function(count - 1)]``, the calls shared out among ``children``
    forked children, started when made, and the caller, once it asks for :meth:`results`.

    Each process takes the next number not taken yet whenever it is free, so that a
    process that is done early (the caller, once it has done its own work) takes over
    what is left instead of waiting for the others. Every number is computed once: in
    the process that took it, or, when a child gave nothing (it failed), in the caller;
    a result never depends on where it was computed. ``forked=False``, no fork on this
    platform or more than :data:`MOST_SHARED` calls: every call is made in the caller, in order.
    """

    def __init__(self, function: Callable[[int], T], count: int, children: int, *, forked: bool = True) -> None:
        self._function = function
        self._count = count
        self._numbers = _Numbers(count, shared=forked and children > 0 and can_fork())
        self._children = [
            Beside(_take_all_pickled, self._numbers, function)
            for _ in range(min(children, count) if self._numbers.shared else 0)  # a child has a number at least
        ]
        self._results: list[T] | None = None

    def __del__(self) -> None:
        numbers = getattr(self, "_numbers", None)
        if numbers is not None:
            numbers.close()

    @property
    def forked(self) -> bool:
        """Whether children are computing some of the calls (until :meth:`results` is asked)."""
        return any(child.forked for child in self._children)

    def results(self) -> list[T]:
        """The results in order: those the children made, and those made here (once)."""
        if self._results is None:
            made = _take_all(self._numbers, self._function)  # what is left, taken while the children work
            self._numbers.close()  # a child's work made again here (it failed) takes nothing more
            for child in self._children:
                made.update((number, pickle.loads(value)) for number, value in child.result().items())
            self._results = [made[k] if k in made else self._function(k) for k in range(self._count)]
        return self._results


__all__ = ["MOST_SHARED", "Beside", "Shared", "Standby", "available_cores", "can_fork", "in_child"]
