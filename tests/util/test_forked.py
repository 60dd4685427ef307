"""A function computed in a forked child: its result, or the caller's when the child gives none."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from functools import partial

import pytest

from hub4eval.util import forked
from hub4eval.util.forked import Beside, can_fork

needs_fork = pytest.mark.skipif(not can_fork(), reason="no fork on this platform")


def _pid_and_sum(*numbers: int) -> tuple[int, int]:
    return os.getpid(), sum(numbers)


@needs_fork
def test_the_result_comes_from_a_child_and_is_kept():
    beside = Beside(_pid_and_sum, 1, 2, 3)
    assert beside.forked
    pid, total = beside.result()
    assert total == 6 and pid != os.getpid()
    assert not beside.forked
    assert beside.result() == (pid, total)  # asked again: the same value, not computed again


def test_not_forked_it_is_computed_in_the_caller(monkeypatch):
    beside = Beside(_pid_and_sum, 4, 5, forked=False)
    assert not beside.forked
    assert beside.result() == (os.getpid(), 9)
    monkeypatch.setattr(forked, "can_fork", lambda: False)
    assert Beside(_pid_and_sum, 1).result() == (os.getpid(), 1)


_CALLS: list[int] = []


def _fails_in_a_child(value: int) -> int:
    _CALLS.append(value)
    if os.getpid() != _PARENT:
        raise RuntimeError("only in the child")
    return value * 2


_PARENT = os.getpid()


@needs_fork
def test_a_child_that_fails_leaves_the_work_to_the_caller():
    _CALLS.clear()
    assert Beside(_fails_in_a_child, 21).result() == 42
    assert _CALLS == [21]  # the child's call was in the child's memory: the caller called once


def _raises(value: int) -> int:
    raise ValueError(f"bad {value}")


@needs_fork
def test_an_error_is_raised_in_the_caller_as_without_a_child():
    beside = Beside(_raises, 7)
    with pytest.raises(ValueError, match="bad 7"):
        beside.result()


def _unpicklable() -> object:
    return lambda: None  # a lambda cannot be pickled


@needs_fork
def test_a_result_that_cannot_be_sent_is_computed_in_the_caller():
    value = Beside(_unpicklable).result()
    assert callable(value)


def _dies() -> int:
    os._exit(3)


@needs_fork
def test_a_child_that_dies_leaves_the_work_to_the_caller(monkeypatch):
    beside = Beside(_dies)
    # in the caller the function is replaced, so that the test process does not exit
    monkeypatch.setattr(beside, "_function", lambda: 5)
    assert beside.result() == 5


def _sleeps() -> int:
    import time

    time.sleep(30)
    return 1


def _waits_for(path: str) -> int:
    while not os.path.exists(path):
        time.sleep(0.01)
    return 7


@needs_fork
def test_a_child_is_running_until_it_has_sent_its_result(tmp_path):
    go = tmp_path / "go"
    beside = Beside(_waits_for, str(go))
    time.sleep(0.05)
    assert beside.running  # still computing: nothing sent
    go.touch()
    deadline = time.monotonic() + 30
    while beside.running and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not beside.running and beside.forked  # sent, not read yet
    assert beside.result() == 7
    assert not beside.running
    assert not Beside(_waits_for, str(go), forked=False).running  # computed here, when asked


@needs_fork
def test_a_child_that_died_is_not_running(monkeypatch):
    beside = Beside(_waits_for, "/nonexistent/never")
    beside._process.kill()
    beside._process.join(timeout=10)
    assert not beside.running  # its end of the pipe closed: nothing will come


@needs_fork
def test_a_child_whose_result_is_never_asked_is_stopped():
    beside = Beside(_sleeps)
    process = beside._process
    del beside  # the caller met an error and dropped it
    process.join(timeout=10)
    assert not process.is_alive()


def _sends_after_the_caller_left(size: int) -> bytes:
    import time

    time.sleep(0.5)  # the caller closes its end meanwhile
    return b"x" * size


@needs_fork
@pytest.mark.parametrize("standby", [False, True])
def test_a_child_whose_caller_stopped_reading_ends_quietly(capfd, standby):
    """The caller closed its end (it ended on an error): the child ends without a traceback and
    without waiting for ever on a result larger than the pipe holds; a standby child, given its
    call, likewise."""
    ready = forked.Standby(_gets_ready) if standby else None
    beside = Beside(_sends_after_the_caller_left, 10_000_000, standby=ready)
    process = beside._process
    beside._receive.close()
    beside._process = None
    process.join(timeout=10)
    assert process.exitcode == 0
    assert "Traceback" not in capfd.readouterr().err


@needs_fork
def test_no_process_to_be_had_leaves_the_work_to_the_caller(monkeypatch):
    import multiprocessing.context

    def refused(self) -> None:
        raise OSError("no more processes")

    monkeypatch.setattr(multiprocessing.context.ForkProcess, "start", refused)
    beside = Beside(_pid_and_sum, 1, 2)
    shared = forked.Shared(_square_where, 3, 2)
    standby = forked.Standby(_gets_ready)
    assert not beside.forked and not shared.forked and not standby.forked
    assert Beside(_pid_and_sum, 3, standby=standby).result() == (os.getpid(), 3)
    assert beside.result() == (os.getpid(), 3)
    assert shared.results() == [(0, os.getpid()), (1, os.getpid()), (4, os.getpid())]


def _in_child_then_pid() -> tuple[bool, int]:
    return forked.in_child(), os.getpid()


@needs_fork
def test_a_child_knows_it_is_one_and_the_caller_that_it_is_not():
    assert not forked.in_child()
    child, pid = Beside(_in_child_then_pid).result()
    assert child and pid != os.getpid()
    assert not forked.in_child()  # setting it there left this process as it was


def test_work_done_in_the_caller_is_not_in_a_child(monkeypatch):
    # no fork, or no process to be had: the caller computes it, and is no child
    assert Beside(_in_child_then_pid, forked=False).result() == (False, os.getpid())
    monkeypatch.setattr(forked, "_start", lambda *args: (None, None))
    assert Beside(_in_child_then_pid).result() == (False, os.getpid())
    assert forked.Shared(_in_child_at, 2, 2).results() == [(False, os.getpid())] * 2


def _in_child_at(number: int) -> tuple[bool, int]:
    return forked.in_child(), os.getpid()


# ---------------------------------------------------------------- Shared: calls shared out among children and the caller


def _square_where(number: int) -> tuple[int, int]:
    """The square of ``number`` and the process it was computed in; slow in a child only."""
    if os.getpid() != _PARENT:
        time.sleep(0.2)
    return number * number, os.getpid()


@needs_fork
def test_shared_calls_are_each_made_once_in_children_and_in_the_caller_that_is_free():
    shared = forked.Shared(_square_where, 12, 2)
    assert shared.forked
    made = shared.results()
    assert [square for square, _ in made] == [k * k for k in range(12)]
    places = {pid for _, pid in made}
    # the children sleep at each call: the caller, free at once, took most numbers (each once)
    assert os.getpid() in places and len(places) <= 3
    assert sum(pid == os.getpid() for _, pid in made) >= 12 - 2 * 2  # each child took at most about two
    assert not shared.forked and shared.results() is made  # asked again: the same, not computed again


def test_shared_calls_not_forked_are_made_in_the_caller_in_order(monkeypatch):
    calls: list[int] = []

    def recorded(number: int) -> int:
        calls.append(number)
        return -number

    assert forked.Shared(recorded, 5, 2, forked=False).results() == [0, -1, -2, -3, -4]
    assert calls == [0, 1, 2, 3, 4]
    monkeypatch.setattr(forked, "can_fork", lambda: False)
    assert forked.Shared(_square_where, 3, 2).results() == [(0, os.getpid()), (1, os.getpid()), (4, os.getpid())]
    assert forked.Shared(_square_where, 300, 0).results()[299] == (299 * 299, os.getpid())  # no child asked


def test_more_calls_than_are_shared_out_are_made_in_the_caller():
    shared = forked.Shared(_square_where, forked.MOST_SHARED + 1, 2)
    assert not shared.forked
    assert [square for square, _ in shared.results()] == [k * k for k in range(forked.MOST_SHARED + 1)]


def _fails_in_a_child_at(number: int) -> tuple[int, int]:
    if os.getpid() != _PARENT:
        time.sleep(0.05)
        if number == 0:
            raise RuntimeError("only in the child")
    return number, os.getpid()


@needs_fork
def test_the_numbers_a_failing_child_took_are_made_in_the_caller():
    # the child that took 0 fails: what it made before is lost with it, and made again here
    made = forked.Shared(_fails_in_a_child_at, 8, 2).results()
    assert [number for number, _ in made] == list(range(8))
    assert made[0][1] == os.getpid()


def _raises_at_three(number: int) -> int:
    if number == 3:
        raise ValueError("bad 3")
    return number


@needs_fork
def test_an_error_of_a_shared_call_is_raised_in_the_caller():
    with pytest.raises(ValueError, match="bad 3"):
        forked.Shared(_raises_at_three, 6, 2).results()


@needs_fork
def test_no_more_children_are_started_than_there_are_calls():
    shared = forked.Shared(_square_where, 2, 50)
    assert len(shared._children) == 2
    assert [square for square, _ in shared.results()] == [0, 1]


# ---------------------------------------------------------------- Standby: a child made ready before its work exists

_READY: list[int] = []


def _gets_ready() -> None:
    _READY.append(os.getpid())


def _ready_then_sum(*numbers: int) -> tuple[list[int], bool, int]:
    """What the child knows when its work comes: who got ready (in its memory), and whether it is a child."""
    return list(_READY), forked.in_child(), sum(numbers)


@needs_fork
def test_a_standby_gets_ready_in_its_child_then_computes_the_call_it_is_given():
    _READY.clear()
    standby = forked.Standby(_gets_ready)
    assert standby.forked
    beside = Beside(_ready_then_sum, 1, 2, 3, standby=standby)
    assert not standby.forked and beside.forked  # given: the child is the call's now
    ready, child, total = beside.result()
    assert total == 6 and child and len(ready) == 1 and ready[0] != os.getpid()
    assert _READY == []  # got ready there, not here
    assert Beside(_ready_then_sum, 4, standby=standby).result() == ([], False, 4)  # given once: then the caller


def _waits_for_file(path: str) -> None:
    deadline = time.monotonic() + 60
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.01)


def _length(data: bytes) -> int:
    return len(data)


@needs_fork
def test_a_standby_still_getting_ready_does_not_hold_the_caller_back(tmp_path):
    """The call's arguments (larger than a pipe holds) are sent while the child still gets
    ready: the caller goes on at once and reads the result once the child has it."""
    import threading

    go = tmp_path / "go"
    standby = forked.Standby(partial(_waits_for_file, str(go)))
    late = threading.Timer(30, go.touch)  # only if the caller were held back (the test then fails)
    late.start()
    try:
        beside = Beside(_length, b"x" * 5_000_000, standby=standby)
        given_before_ready = not go.exists()
        go.touch()
        assert beside.result() == 5_000_000
    finally:
        late.cancel()
    assert given_before_ready


def _fails_to_get_ready() -> None:
    raise RuntimeError("not ready")


@needs_fork
def test_a_standby_that_could_not_get_ready_computes_its_call_all_the_same():
    pid, total = Beside(_pid_and_sum, 2, 3, standby=forked.Standby(_fails_to_get_ready)).result()
    assert total == 5 and pid != os.getpid()


@needs_fork
def test_a_call_a_standby_cannot_be_sent_or_compute_is_computed_in_the_caller():
    # arguments that cannot be pickled (a lambda), and a call that fails in the child only
    assert Beside(_pid_and_sum, 1, standby=forked.Standby(_gets_ready)).result()[1] == 1
    unpicklable = Beside(_called, lambda: 7, standby=forked.Standby(_gets_ready))
    assert not unpicklable.forked and unpicklable.result() == 7
    _CALLS.clear()
    assert Beside(_fails_in_a_child, 8, standby=forked.Standby(_gets_ready)).result() == 16
    assert _CALLS == [8]


def _called(function: Callable[[], int]) -> int:
    return function()


@needs_fork
def test_a_standby_that_died_leaves_its_call_to_the_caller():
    standby = forked.Standby(_gets_ready)
    standby._process.kill()
    standby._process.join(timeout=10)
    assert Beside(_pid_and_sum, 5, 6, standby=standby).result() == (os.getpid(), 11)
    # arguments larger than a pipe holds: given to a child gone, the caller is not held either
    standby = forked.Standby(_gets_ready)
    standby._process.kill()
    standby._process.join(timeout=10)
    assert Beside(_length, b"x" * 5_000_000, standby=standby).result() == 5_000_000


@needs_fork
def test_a_standby_whose_caller_gave_it_nothing_ends_by_itself():
    """The caller's end of its pipe closed without a call (the caller went on without it, or
    ended): the child ends quietly once ready, without being stopped."""
    standby = forked.Standby(_gets_ready)
    process = standby._process
    standby._give.close()
    process.join(timeout=30)
    assert process.exitcode == 0


@needs_fork
def test_a_standby_never_given_a_call_is_stopped():
    standby = forked.Standby(_sleeps)
    process = standby._process
    del standby  # the caller went another way
    process.join(timeout=10)
    assert not process.is_alive()


def test_without_fork_there_is_no_standby_and_the_call_is_the_callers(monkeypatch):
    monkeypatch.setattr(forked, "can_fork", lambda: False)
    standby = forked.Standby(_gets_ready)
    assert not standby.forked
    assert Beside(_pid_and_sum, 1, 1, standby=standby).result() == (os.getpid(), 2)
