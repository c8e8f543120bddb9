"""When periodic events trigger: a plain function of scalars, shared by the event dispatch and
the plant's compiled stepping (mallard.multibody._kernels.stepping compiles it; it is among
the kernel sources that stamp numba's cache)."""

import math


def next_sample_time(period, offset, time):
    """The first time offset + k·period strictly after ``time`` (Drake's GetNextSampleTime)."""
    if time < offset:
        return offset
    next_k = math.ceil((time - offset) / period)
    next_t = offset + next_k * period
    if next_t <= time:
        next_t = offset + (next_k + 1) * period
    return next_t
