"""Start-up costs in fresh processes (medians of several):

* ``import mallard.all``, and whether it imported numba (it should not: numba is imported when a
  kernel is first needed);
* cold start: the wall time from the process's start (interpreter start-up included) to the
  first mass matrix of the acrobot parsed from ``package://mallard/acrobot.urdf``, with numba's
  on-disk cache warm (one untimed run fills it first). The target is under 1 s.

Run: python benchmarks/import_time.py
"""

import statistics
import subprocess
import sys
import time

IMPORT = (
    "import time, sys; t = time.perf_counter(); import mallard.all; "
    "print(time.perf_counter() - t, 'numba' in sys.modules)"
)
FIRST_MASS_MATRIX = (
    "from mallard.multibody.parsing import Parser\n"
    "from mallard.multibody.plant import MultibodyPlant\n"
    "plant = MultibodyPlant(0.0)\n"
    "Parser(plant).AddModelsFromUrl('package://mallard/acrobot.urdf')\n"
    "plant.Finalize()\n"
    "plant.CalcMassMatrix(plant.CreateDefaultContext())\n"
)


def run(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)


def main(samples=7):
    imports = []
    for _ in range(samples):
        seconds, numba_imported = run(IMPORT).stdout.split()
        imports.append(float(seconds))
    median = statistics.median(imports)
    print(f"import mallard.all: median {median * 1e3:.0f} ms over {samples} runs")
    print(f"numba imported at import time: {numba_imported}")
    run(FIRST_MASS_MATRIX)  # fills numba's cache
    starts = []
    for _ in range(samples):
        t = time.perf_counter()
        run(FIRST_MASS_MATRIX)
        starts.append(time.perf_counter() - t)
    print(
        f"cold start to the first mass matrix (warm numba cache): median "
        f"{statistics.median(starts) * 1e3:.0f} ms over {samples} runs"
    )


if __name__ == "__main__":
    main()
