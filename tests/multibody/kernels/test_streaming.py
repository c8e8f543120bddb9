"""kernels.streaming: non-temporal stores store what plain stores do, compiled and
interpreted."""

import numba
import numpy as np

from mallard.multibody._kernels.lanes import L, transpose, vload
from mallard.multibody._kernels.streaming import stream, stream_fence


def _streamed_py(a, out):
    """out[4·l : 4·l + 4] = lane l of a's four lane values (transposed), then out[4·L + j] =
    a[j] for j < 3, streamed."""
    rows = transpose(vload(a, 0), vload(a, L), vload(a, 2 * L), vload(a, 3 * L))
    for lane in range(L):
        stream(out, 4 * lane, rows[lane])
    for j in range(3):
        stream(out, 4 * L + j, a[j])
    stream_fence()


_streamed = numba.njit(_streamed_py)


def test_streamed_stores_store_compiled_and_interpreted():
    a = np.arange(4.0 * L) * 1.5 - 3.0
    expected = np.concatenate((a.reshape(4, L).T.ravel(), a[:3]))
    for run in (_streamed, _streamed_py):
        out = np.full(4 * L + 3, np.nan)
        run(a, out)
        np.testing.assert_array_equal(out, expected)
