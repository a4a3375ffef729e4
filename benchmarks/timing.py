"""Interleaved timing on thread CPU time, with wall time recorded beside it.

A :class:`Cell` is one (case, operation, implementation). Each is calibrated once: the
smallest loop count of 1, 2, 5, 10, 20, 50, ... whose measurement lasts ``target_ns``
of thread CPU time, after one warm-up call. Then every round measures every cell once,
the implementations of one (case, operation) back to back in a rotating order
(:func:`run_rounds`), so that a ratio is taken between measurements of the same round.

Beside the two clocks, each measurement counts the thread's minor page faults
(``getrusage(RUSAGE_THREAD)``, Linux).

The clock is the thread's CPU time (``time.thread_time_ns``; the Rust side uses
``clock_gettime(CLOCK_THREAD_CPUTIME_ID)``, the same clock): time another process
takes from this one while it waits for a core is not counted, so load from other jobs
on the machine moves the figures far less than it moves the wall clock. Page faults
and the other kernel work the thread does for itself are counted. The garbage
collector is off while a measurement runs (as in ``timeit``). The loop that makes the
calls is in the time (about 20-30 ns per call on CPython), as it is for every Python
implementation.

The C allocator is set once for the whole run (glibc, :func:`steady_allocator`): blocks
up to 32 MiB come from the heap and freed memory is kept, so a case measured over and
over reuses its memory and pays no page faults. A fresh cell (a new payload per call)
is measured on a thread of its own under glibc's starting settings
(:func:`fresh_allocator`): every block of 128 KiB or more that the heap cannot serve is
mapped new from the kernel and unmapped when freed, and the heap gives its free end
back once that is 128 KiB or more, so the payload's copy and the result pay their page
faults in every call, as they do in a process that receives frames of one size over and
over (glibc maps a block new when it is at least as large as the largest it has freed),
whichever way each implementation allocates its output (in one block, or grown).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import itertools
import platform
import queue
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

try:
    import resource
except ImportError:  # not POSIX
    resource = None  # type: ignore[assignment]

__all__ = [
    "CLOCK",
    "Fresh",
    "Cell",
    "PythonCell",
    "Group",
    "run_rounds",
    "median",
    "median_ratio",
    "steady_allocator",
    "fresh_allocator",
]

#: The clock of every figure (the Rust side reads the same one).
CLOCK = "thread CPU time"

_cpu = time.thread_time_ns
_wall = time.perf_counter_ns


def _faults() -> int:
    """Minor page faults of this thread so far (0 where there is no count)."""
    if resource is None or not hasattr(resource, "RUSAGE_THREAD"):
        return 0
    return resource.getrusage(resource.RUSAGE_THREAD).ru_minflt


# glibc's mallopt parameters (malloc.h) and the values used.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
#: glibc's largest dynamic mmap threshold on 64-bit, and its starting one.
STEADY_MMAP_THRESHOLD, FRESH_MMAP_THRESHOLD = 32 << 20, 128 << 10


def _mallopt() -> Callable[[int, int], int] | None:
    if sys.platform != "linux" or platform.libc_ver()[0] != "glibc":
        return None
    function: Callable[[int, int], int] = ctypes.CDLL(None).mallopt
    return function


_MALLOPT = _mallopt()


def steady_allocator() -> bool:
    """Blocks up to 32 MiB from the heap, freed memory kept (glibc ``mallopt``);
    ``False`` where the C library is not glibc (nothing is changed)."""
    if _MALLOPT is None:
        return False
    _MALLOPT(_M_MMAP_THRESHOLD, STEADY_MMAP_THRESHOLD)
    _MALLOPT(_M_TRIM_THRESHOLD, 2 * STEADY_MMAP_THRESHOLD)
    return True


@contextlib.contextmanager
def fresh_allocator() -> Iterator[None]:
    """Within: every block of 128 KiB or more that the heap cannot serve from free
    memory is mapped new, and unmapped when freed; the heap gives back its free end
    once it is 128 KiB or more (glibc's starting settings), so that no implementation
    finds a large block of memory it has touched before at the end of the heap."""
    if _MALLOPT is None:
        yield
        return
    _MALLOPT(_M_MMAP_THRESHOLD, FRESH_MMAP_THRESHOLD)
    _MALLOPT(_M_TRIM_THRESHOLD, FRESH_MMAP_THRESHOLD)
    try:
        yield
    finally:
        _MALLOPT(_M_MMAP_THRESHOLD, STEADY_MMAP_THRESHOLD)
        _MALLOPT(_M_TRIM_THRESHOLD, 2 * STEADY_MMAP_THRESHOLD)


class _FreshThread:
    """One thread, started on first use, that runs the fresh cells' measurements (under
    :func:`fresh_allocator`) while the calling thread waits. glibc gives it a malloc
    arena of its own, which keeps no mapped block and no free end of 128 KiB or more."""

    def __init__(self) -> None:
        self._requests: queue.SimpleQueue[Callable[[], Any]] = queue.SimpleQueue()
        self._results: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def _serve(self) -> None:
        while True:
            call = self._requests.get()
            try:
                with fresh_allocator():
                    self._results.put((True, call()))
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                self._results.put((False, exc))

    def run(self, call: Callable[[], Any]) -> Any:
        """``call()`` on the thread; its result, or its exception raised here."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="fresh", daemon=True)
            self._thread.start()
        self._requests.put(call)
        ok, value = self._results.get()
        if not ok:
            raise value
        return value


_FRESH_THREAD = _FreshThread()


@dataclass(eq=False)
class Cell:
    """One (case, operation, implementation) and its samples: thread CPU and wall
    nanoseconds and minor page faults per operation, one of each per round it was
    measured in."""

    case: str
    op: str
    impl: str
    loops: int = 1
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    faults: list[float] = field(default_factory=list)

    def calibrate(self, target_ns: int) -> None:
        """Choose :attr:`loops` (and warm up)."""
        raise NotImplementedError

    def measure(self) -> tuple[float, float, float]:
        """One measurement: ``(cpu_ns, wall_ns, faults)`` per operation."""
        raise NotImplementedError

    def sample(self) -> None:
        """Measure once and keep the sample."""
        cpu, wall, faults = self.measure()
        self.cpu.append(cpu)
        self.wall.append(wall)
        self.faults.append(faults)


def _loop_one(function: Callable[[Any], Any], argument: Any, loops: int) -> tuple[int, int, int]:
    """``loops`` calls of ``function(argument)``: ``(cpu_ns, wall_ns, faults)`` in all."""
    it = itertools.repeat(None, loops)
    enabled = gc.isenabled()
    gc.disable()
    try:
        faults = _faults()
        wall, cpu = _wall(), _cpu()
        for _ in it:
            function(argument)
        cpu, wall = _cpu() - cpu, _wall() - wall
        faults = _faults() - faults
    finally:
        if enabled:
            gc.enable()
    return cpu, wall, faults


@dataclass(frozen=True, eq=False)
class Fresh:
    """An argument made anew for each call, before the measurement and outside its time:
    ``make()`` (e.g. a value just decoded, for an encode of a value fresh from decode)."""

    make: Callable[[], Any]


def _loop_fresh(
    pairs: Sequence[tuple[Callable[[Any], Any], Any]], loops: int
) -> tuple[int, int, int]:
    """``loops`` passes over ``pairs`` as :func:`_loop_many` makes them, each
    :class:`Fresh` argument made for its call before the clocks start."""
    calls = [
        (function, argument.make() if isinstance(argument, Fresh) else argument)
        for _ in range(loops)
        for function, argument in pairs
    ]
    enabled = gc.isenabled()
    gc.disable()
    try:
        faults = _faults()
        wall, cpu = _wall(), _cpu()
        for function, argument in calls:
            function(argument)
        cpu, wall = _cpu() - cpu, _wall() - wall
        faults = _faults() - faults
    finally:
        if enabled:
            gc.enable()
    del calls
    return cpu, wall, faults


def _loop_many(
    pairs: Sequence[tuple[Callable[[Any], Any], Any]], loops: int
) -> tuple[int, int, int]:
    """``loops`` passes over ``pairs``, calling ``function(argument)`` for each."""
    it = itertools.repeat(None, loops)
    enabled = gc.isenabled()
    gc.disable()
    try:
        faults = _faults()
        wall, cpu = _wall(), _cpu()
        for _ in it:
            for function, argument in pairs:
                function(argument)
        cpu, wall = _cpu() - cpu, _wall() - wall
        faults = _faults() - faults
    finally:
        if enabled:
            gc.enable()
    return cpu, wall, faults


@dataclass(eq=False)
class PythonCell(Cell):
    """A cell timed in this process: ``pairs`` of ``(function, argument)``, each called
    once per pass (a :class:`Fresh` argument made anew for each call, outside the
    time); one pass is ``per_pass`` operations (``len(pairs)`` by default).
    ``fresh``: measured on the fresh cells' thread (see the module's docstring)."""

    pairs: Sequence[tuple[Callable[[Any], Any], Any]] = ()
    per_pass: int = 0
    fresh: bool = False

    def _run(self, loops: int) -> tuple[int, int, int]:
        if self.fresh:
            result: tuple[int, int, int] = _FRESH_THREAD.run(lambda: self._loop(loops))
            return result
        return self._loop(loops)

    def _loop(self, loops: int) -> tuple[int, int, int]:
        if any(isinstance(argument, Fresh) for _, argument in self.pairs):
            return _loop_fresh(self.pairs, loops)
        if len(self.pairs) == 1:
            [(function, argument)] = self.pairs
            return _loop_one(function, argument, loops)
        return _loop_many(self.pairs, loops)

    def calibrate(self, target_ns: int) -> None:
        self._run(1)  # warm-up: a first call pays for cold caches and fresh memory
        base = 1
        while True:
            for factor in (1, 2, 5):
                if self._run(base * factor)[0] >= target_ns:
                    self.loops = base * factor
                    return
            base *= 10

    def measure(self) -> tuple[float, float, float]:
        cpu, wall, faults = self._run(self.loops)
        ops = self.loops * (self.per_pass or len(self.pairs))
        return cpu / ops, wall / ops, faults / ops


@dataclass(eq=False)
class Group:
    """The cells of one (case, operation), measured back to back in each round;
    ``heavy`` groups only every ``stride``-th round (see :func:`run_rounds`)."""

    case: str
    op: str
    cells: list[Cell]
    heavy: bool = False


def run_rounds(
    groups: Sequence[Group],
    rounds: int,
    heavy_stride: int,
    progress: Callable[[int], None] | None = None,
) -> None:
    """``rounds`` rounds over ``groups``; a heavy group is measured in rounds 0,
    ``heavy_stride``, ``2 * heavy_stride``, ... only. Within a group the order rotates
    by one each time the group is measured (not each round: a heavy group of six cells
    measured every fourth round would see three orders only, each cell always after
    the same one), so no implementation always runs first or after the same other."""
    gc.collect()
    measured = [0] * len(groups)
    for r in range(rounds):
        for g, group in enumerate(groups):
            if group.heavy and r % heavy_stride:
                continue
            k = measured[g] % len(group.cells)
            measured[g] += 1
            for cell in group.cells[k:] + group.cells[:k]:
                cell.sample()
        if progress is not None:
            progress(r)


def median(values: Iterable[float]) -> float:
    """The median."""
    return statistics.median(values)


def median_ratio(a: Cell, b: Cell) -> float:
    """Median over rounds of a's CPU time / b's CPU time in the same round."""
    return statistics.median(x / y for x, y in zip(a.cpu, b.cpu, strict=True))
