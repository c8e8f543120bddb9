"""Non-finite numbers in model files: the rule every number reader of the parsers applies.

A NaN or an infinity read from a model file is an error located at its element (URDF's C++
stream extraction reads no "nan" or "inf", and libsdformat rejects them in poses and
vectors), unless the field says otherwise:

- ``FINITE`` (the default): NaN and ±inf are errors, also where Drake takes them and they
  would poison the dynamics (an SDFormat damping, gear ratio, mimic multiplier...) or Drake
  aborts (an SDFormat spring stiffness or controller gain).
- ``INFINITE``: ±inf allowed, NaN an error. SDFormat joint limits, where inf means no limit.
- ``ANY``: passed on to the later check that reports them. SDFormat inertial values, which
  Drake replaces with a plausible inertia and a warning.
"""

import math

FINITE = "finite"
INFINITE = "infinite"
ANY = "any"


def nonfinite_problem(values, allow=FINITE):
    """Why ``values`` break the rule ``allow``, as a phrase for a message; None if they
    keep it."""
    if allow == ANY or all(map(math.isfinite, values)):
        return None
    if allow == INFINITE:
        if not any(map(math.isnan, values)):
            return None
        return "NaN is not allowed (inf is: it means no limit)"
    return "NaN and inf are not allowed (numbers must be finite)"


def has_nonfinite_token(text):
    """Whether ``text`` holds a word that Python reads as NaN or ±inf ("nan", "-inf",
    "1e400"...), for the hint of messages about numbers that could not be read."""
    for word in text.split():
        try:
            if not math.isfinite(float(word)):
                return True
        except ValueError:
            pass
    return False
