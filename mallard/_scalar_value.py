"""A scalar's double value (float, AutoDiffXd, a constant Expression), with no imports of
mallard's scalar types so that the kernels may call it interpreted."""

import numbers


def scalar_value(x):
    """The double value of one scalar, or None if it has none (a non-constant Expression)."""
    if type(x) is float:
        return x
    if isinstance(x, numbers.Real):
        return float(x)
    value = getattr(x, "value", None)
    if callable(value):
        return float(value())
    evaluate = getattr(x, "Evaluate", None)
    if callable(evaluate):
        try:
            return float(evaluate())
        except Exception:
            return None
    return None
