"""Sine: y = a·sin(ω t + φ) and its first two derivatives, elementwise."""

import numpy as np

from mallard._scalar import as_array
from mallard._template import array_to_scalar
from mallard.common import _bindings as b
from mallard.common._pybind import overloads
from mallard.systems.framework._indices import kUseDefaultName
from mallard.systems.framework._leaf_system import LeafSystem
from mallard.systems.framework._system import system_scalar_type

_IS_TIME_BASED = b.optional(b.anything("is_time_based", "bool"), True)
_OVERLOADS = (
    (
        b.scalar("amplitude"),
        b.scalar("frequency"),
        b.scalar("phase"),
        b.integer("size"),
        _IS_TIME_BASED,
    ),
    (
        b.any_array("amplitudes"),
        b.any_array("frequencies"),
        b.any_array("phases"),
        _IS_TIME_BASED,
    ),
)


class Sine(LeafSystem):
    """``Sine(amplitude, frequency, phase, size, is_time_based=True)`` or ``(amplitudes,
    frequencies, phases, is_time_based=True)``: outputs "y0" = a sin(ω t + φ), "y1" = a ω
    cos(ω t + φ), "y2" = −a ω² sin(ω t + φ), with t the time or, if not ``is_time_based``,
    the input "u0"."""

    _cpp_type = "drake::systems::Sine<double>"

    @overloads(lambda: _OVERLOADS)
    def __init__(self, *args, **kwargs):
        super().__init__()
        index, values = b.resolve("Sine", _OVERLOADS, args, kwargs)
        if index == 0:
            *scalars, size, is_time_based = values
            a, w, phi = (np.full(size, float(x)) for x in scalars)
        else:
            *vectors, is_time_based = values
            a, w, phi = (
                as_array(v, name=n).reshape(-1).astype(float)
                for v, n in zip(vectors, ("amplitudes", "frequencies", "phases"), strict=True)
            )
            if not a.size == w.size == phi.size:
                raise RuntimeError(
                    f"Sine: amplitudes ({a.size}), frequencies ({w.size}) and phases "
                    f"({phi.size}) must have the same size"
                )
        self._a, self._w, self._phi = a, w, phi
        self._time_based = bool(is_time_based)
        n = a.size
        prerequisites = {self.time_ticket()} if self._time_based else None
        if not self._time_based:
            self._u = self.DeclareVectorInputPort(kUseDefaultName, n)
        for calc in (self._value, self._first_derivative, self._second_derivative):
            self.DeclareVectorOutputPort(kUseDefaultName, n, calc, prerequisites)

    def _scalar_conversion_args(self, T):
        return self._a, self._w, self._phi, self._time_based

    def _argument(self, context):
        t = context.get_time() if self._time_based else self._u.EvalBasicVector(context)._data
        return self._w * t + self._phi

    def _store(self, output, values):
        """Sets ``output`` (real numbers become constants of a non-double system)."""
        T = system_scalar_type(self)
        output._data[:] = values if T is float else array_to_scalar(values, T)

    def _value(self, context, output):
        self._store(output, self._a * np.sin(self._argument(context)))

    def _first_derivative(self, context, output):
        self._store(output, self._a * self._w * np.cos(self._argument(context)))

    def _second_derivative(self, context, output):
        self._store(output, -self._a * self._w**2 * np.sin(self._argument(context)))

    def _scalar(self, values, name):
        if not np.all(values == values[0]):
            raise RuntimeError(
                f"The {name} vector, [{', '.join(f'{v:g}' for v in values)}], cannot be "
                f"represented as a scalar value. Please use Sine.{name}_vector() instead."
            )
        return float(values[0])

    def amplitude(self):
        return self._scalar(self._a, "amplitude")

    def frequency(self):
        return self._scalar(self._w, "frequency")

    def phase(self):
        return self._scalar(self._phi, "phase")

    def amplitude_vector(self):
        return self._a.copy()

    def frequency_vector(self):
        return self._w.copy()

    def phase_vector(self):
        return self._phi.copy()

    def is_time_based(self):
        return self._time_based
