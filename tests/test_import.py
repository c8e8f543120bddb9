"""Importing mallard stays light: numba (and sympy, meshcat) are imported when first needed."""

import subprocess
import sys


def test_import_all_leaves_numba_sympy_and_meshcat_out():
    code = (
        "import sys, mallard.all; "
        "print(sorted(m for m in ('numba', 'sympy', 'meshcat') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_symbolic_names_come_from_mallard_all_on_demand():
    code = (
        "import sys, mallard.all; before = 'sympy' in sys.modules; "
        "from mallard.all import Expression, Variable; "
        "print(before, Expression(Variable('x')) is not None, hasattr(mallard.all, 'nope'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "False"]
