"""How a BatchedPlant call runs (mallard.multibody.batch): on the calling thread, helped by
other threads when the batch is large enough for them to pay, never waiting for a thread that
is slow or not running.

The batched kernels (kernels.batch) cut a batch into groups of states that threads claim in
turn; the caller, once none is left to claim, takes over the groups other threads have not
written yet and computes them itself (their threads' work is then discarded). So a helper
can only help: on a busy machine, one that does not run soon (a core taken by another
program) leaves its groups to the caller, which returns as soon as it has computed them, and
the call costs what it costs on one thread. Results are the same, to the last bit, whichever
thread computes a state.

Helpers are Python threads (:data:`HELPERS`, shared by every BatchedPlant of the process,
started on first need, daemon threads) running the compiled kernels, which release the GIL.
numba's parallel regions (``prange`` under its OpenMP, TBB or workqueue threading layer) are
not used: each call of one of them waits for all its threads at the end (a thread of a busy
core costs milliseconds; measured in benchmarks/batch_threads.py), and the workqueue layer
aborts the process when two Python threads enter one at once. So BatchedPlant is the same
under every threading layer, and any number of Python threads may call it at once.

Below a batch size measured per operation and model, a call runs on the calling thread alone,
with no synchronization: a call's work is estimated from the time per group of the calls run
alone, the least measured (the thread's CPU time: the other programs' bursts, a page fault of a
new output, a cold cache only ever add to it), and helpers are asked only when each thread
would get at least :data:`MIN_THREAD_SECONDS` of it. Until an operation is measured its calls
run alone; the first call of a large batch measures it on its first groups, twice
(:data:`PROBE_GROUPS` each: the first run is cold), then goes on with helpers if they pay; and
every :data:`RECHECK`-th call that would ask for helpers runs alone, timed.
"""

import collections
import os
import threading
import time

import numpy as np

from mallard._compiled import kernels
from mallard.multibody._batch_codes import ALONE, CALLER, GROUPS, HELPER

#: The least work (seconds of CPU, estimated) each thread of a call must get for helpers to be
#: asked. A helper starts about 20 µs after it is asked (median; 25 µs for nine in ten,
#: measured on the 2-core build machine under load), but one that a busy core preempts while
#: it writes a group's results holds the caller up at the end of the call until it runs again:
#: a scheduler slice of that core, milliseconds (a stall of 5-30 ms in 1-2% of the G1's
#: 1000-state poses calls at a load average of 10; with 2 ms per thread, the G1's 64-state
#: derivatives, 4-7 ms of work, took 1.35-1.41x one thread's time at that load:
#: benchmarks/batch_threads.py). So helpers are asked only where such a stall is a small part
#: of the call.
MIN_THREAD_SECONDS = 5e-3
#: Groups the first call of a large batch times alone, twice, to estimate the work of its groups
#: (and the fewest groups of a call that is timed: a call's fixed costs weigh in fewer).
PROBE_GROUPS = 8
#: Every RECHECK-th call that would ask for helpers runs alone and is timed, so that an
#: estimate from cold runs (a new output's page faults, cold caches: the G1's poses' first
#: groups took 5× a warm call's) comes down to the warm work.
RECHECK = 16


class Helpers:
    """Threads that run the tasks callers submit, each task once per thread asked (a task
    that is over when a thread gets to it returns at once). Started as needed, never more
    than the most helpers a call has asked for; after a fork, the child starts its own."""

    def __init__(self):
        self._reset()
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=self._reset)

    def _reset(self):
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._tasks = collections.deque()
        self._threads = 0

    def submit(self, task, count):
        """Has ``count`` threads run ``task()``, as soon as each is free."""
        with self._lock:
            while self._threads < count:
                thread = threading.Thread(
                    target=self._serve, name=f"mallard-batch-{self._threads}", daemon=True
                )
                thread.start()
                self._threads += 1
            self._tasks.extend([task] * count)
            self._ready.notify(count)

    def _serve(self):
        while True:
            with self._lock:
                while not self._tasks:
                    self._ready.wait()
                task = self._tasks.popleft()
            try:
                task()
            except BaseException:  # (a bug: the thread ends, reported by threading.excepthook)
                with self._lock:
                    self._threads -= 1
                raise


#: The helper threads of the process.
HELPERS = Helpers()

#: Gives the CPU to another thread for a moment.
_yield = getattr(os, "sched_yield", lambda: time.sleep(0))


class Operation:
    """One batched kernel of one BatchedPlant, for float64 arrays: the kernel bound to the
    flat model (called without numba's dispatch), the rows its threads compute in (made once,
    reused from call to call: see kernels.batch), the states per group, and its measured time
    per group."""

    def __init__(
        self, name, mi, mf, ws0, row_size, lanes, width, batched, samples, aligned=0, which=()
    ):
        """``batched``: per input, whether it has the batch's leading dimension; ``samples``:
        a call's inputs and outputs (with status), to bind the kernel to their types;
        ``aligned``: the scalar of a row put on a 64-byte boundary (see :meth:`_make_row`);
        ``which``: the kernel's arguments after the model (the ``forward`` of
        kernels.batch.batch_dynamics_derivatives and the address of the kernel it calls),
        bound with it."""
        compiled = kernels(np.float64)
        self._new_row = compiled.bind("batch_new_row", mi, args=(ws0, np.zeros(1), lanes))
        self._ws0, self._row_size, self._lanes = ws0, row_size, lanes
        self._aligned = aligned
        inputs, outputs = samples
        flags = np.zeros(GROUPS, dtype=np.int64)
        args = (*inputs, self._make_row(), flags, ALONE, *outputs)
        self._kernel = compiled.bind(name, mi, mf, *which, args=args)
        self._unfinished = compiled.bind("batch_unfinished", args=(flags,))
        self._rows = []
        self._width = width
        self._batched = batched
        self.seconds_per_group = None
        self._helped = 0  # (calls that asked for helpers: see RECHECK)

    def _make_row(self):
        """A new row, its scalar ``aligned`` (where the lanes or the derivative row start) on a
        64-byte boundary: the lanes' vector loads and stores then fall within cache lines, and
        every row of an operation computes at the same speed (a row 16 bytes off that took the
        Panda's forward dynamics and the G1's inverse dynamics 10-15% longer)."""
        buffer = np.empty(self._row_size + 7)
        start = -(buffer.ctypes.data // 8 + self._aligned) % 8
        row = buffer[start : start + self._row_size]
        self._new_row(self._ws0, row, self._lanes)
        return row

    def _row(self):
        try:
            return self._rows.pop()
        except IndexError:
            return self._make_row()

    def run(self, inputs, outputs, size, max_threads):
        """Computes the batch of ``size`` states: outputs (the last one the status) from
        inputs, on up to ``max_threads`` threads (see the module's docstring)."""
        groups = -(-size // self._width)
        if groups < PROBE_GROUPS:  # (a small batch: alone, untimed)
            flags = np.zeros(GROUPS + groups, dtype=np.int64)
            row = self._row()
            self._kernel(*inputs, row, flags, ALONE, *outputs)
            self._rows.append(row)
            return
        start = 0
        if self.seconds_per_group is None and max_threads > 1 and groups > 4 * PROBE_GROUPS:
            for _ in range(2):  # (measured twice: the first run is cold)
                stop = start + PROBE_GROUPS * self._width
                self._run_part(inputs, outputs, start, stop, size, 1)
                start = stop
        self._run_part(inputs, outputs, start, size, size, max_threads)

    def _run_part(self, inputs, outputs, start, stop, size, max_threads):
        """Computes the states [start, stop) of the batch."""
        if (start, stop) != (0, size):
            inputs = [a[start:stop] if b and a.shape[0] == size else a for a, b in zip(
                inputs, self._batched, strict=True)]  # fmt: skip
            outputs = [a[start:stop] for a in outputs]
        groups = -(-(stop - start) // self._width)
        flags = np.zeros(GROUPS + groups, dtype=np.int64)
        helpers = self._helpers(groups, max_threads)
        row = self._row()
        try:
            if helpers == 0:
                began = time.thread_time()  # (the thread's CPU time: not the other programs')
                self._kernel(*inputs, row, flags, ALONE, *outputs)
                self._timed(time.thread_time() - began, groups)
                return
            task = _Task(self, inputs, outputs, flags)
            HELPERS.submit(task, helpers)
            pending = self._kernel(*inputs, row, flags, CALLER, *outputs)
            task.over = True
            while pending:  # (a helper writing a group's results: rare, and short)
                _yield()  # (the helper may be waiting for this very core)
                pending = self._unfinished(flags)
        finally:
            self._rows.append(row)

    def _helpers(self, groups, max_threads):
        """How many helper threads to ask for a call of ``groups`` groups."""
        if max_threads <= 1 or groups < 2 or self.seconds_per_group is None:
            return 0
        work = groups * self.seconds_per_group
        threads = max_threads
        if work < max_threads * MIN_THREAD_SECONDS:
            threads = int(work / MIN_THREAD_SECONDS)
        helpers = max(0, min(threads, groups) - 1)
        if helpers:
            self._helped += 1
            if self._helped % RECHECK == 0:
                return 0
        return helpers

    def _timed(self, seconds, groups):
        """Updates the time per group (the least measured) from a call run alone of
        ``groups`` groups, :data:`PROBE_GROUPS` or more (a call's fixed costs would weigh in
        fewer)."""
        measured = seconds / groups
        previous = self.seconds_per_group
        self.seconds_per_group = measured if previous is None else min(previous, measured)


class _Task:
    """A call's work for a helper thread: the kernel on a row of its own, as a HELPER."""

    __slots__ = ("operation", "inputs", "outputs", "flags", "over")

    def __init__(self, operation, inputs, outputs, flags):
        self.operation, self.inputs, self.outputs, self.flags = operation, inputs, outputs, flags
        self.over = False

    def __call__(self):
        if self.over:
            return
        operation = self.operation
        row = operation._row()
        try:
            operation._kernel(*self.inputs, row, self.flags, HELPER, *self.outputs)
        finally:
            operation._rows.append(row)
