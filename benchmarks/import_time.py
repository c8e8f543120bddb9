"""Time `import mallard.all` in fresh processes (median of several) and check numba stays out.

Run: python benchmarks/import_time.py
"""

import statistics
import subprocess
import sys

SCRIPT = (
    "import time, sys; t = time.perf_counter(); import mallard.all; "
    "print(time.perf_counter() - t, 'numba' in sys.modules)"
)


def main(samples=7):
    times = []
    for _ in range(samples):
        out = subprocess.run(
            [sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True
        ).stdout.split()
        times.append(float(out[0]))
        numba_imported = out[1] == "True"
    print(f"import mallard.all: median {statistics.median(times) * 1e3:.0f} ms over {samples} runs")
    print(f"numba imported at import time: {numba_imported}")


if __name__ == "__main__":
    main()
