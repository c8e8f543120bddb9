"""Signal routing: PassThrough, Demultiplexer and Multiplexer."""

import numpy as np

from mallard.common.value import AbstractValue
from mallard.systems.framework._leaf_system import LeafSystem
from mallard.systems.framework._ports import PortDataType
from mallard.systems.framework._vectors import BasicVector


class PassThrough(LeafSystem):
    """``PassThrough(vector_size)``, ``(value)`` (a vector, the default size) or
    ``(abstract_model_value)``: input "u", output "y" = u."""

    _cpp_type = "drake::systems::PassThrough<double>"

    def __init__(self, value):
        super().__init__()
        if isinstance(value, AbstractValue):
            self._u = self.DeclareAbstractInputPort("u", value)
            self.DeclareAbstractOutputPort("y", value.Clone, self._calc_abstract)
            return
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            size = int(value)
        else:
            size = np.asarray(value.CopyToVector() if isinstance(value, BasicVector) else value)
            size = size.reshape(-1).size
        self._u = self.DeclareVectorInputPort("u", size)
        self.DeclareVectorOutputPort("y", size, self._calc_vector)

    def _scalar_conversion_args(self, T):
        if self._u.get_data_type() == PortDataType.kAbstractValued:
            return (self._u.Allocate(),)
        return (self._u.size(),)

    def _calc_vector(self, context, output):
        output._data[:] = self._u.EvalBasicVector(context)._data

    def _calc_abstract(self, context, output):
        output.SetFrom(self._u.EvalAbstract(context))


class Demultiplexer(LeafSystem):
    """``Demultiplexer(size, output_ports_size=1)`` or ``(output_ports_sizes)``: input "u0",
    split in order into outputs "y0", "y1", ..."""

    _cpp_type = "drake::systems::Demultiplexer<double>"

    def __init__(self, size, output_ports_size=1):
        super().__init__()
        if isinstance(size, (int, np.integer)):
            size, output_ports_size = int(size), int(output_ports_size)
            if output_ports_size <= 0 or size % output_ports_size:
                raise RuntimeError(
                    f"Demultiplexer: the input size {size} must be a positive multiple of "
                    f"output_ports_size {output_ports_size}"
                )
            sizes = [output_ports_size] * (size // output_ports_size)
        else:
            sizes = [int(s) for s in size]
            if any(s <= 0 for s in sizes):
                raise RuntimeError(f"Demultiplexer: the output sizes must be positive, got {sizes}")
        self._sizes = sizes
        self._u = self.DeclareVectorInputPort("u0", sum(sizes))
        start = 0
        for i, n in enumerate(sizes):
            self.DeclareVectorOutputPort(f"y{i}", n, self._make_calc(start, start + n))
            start += n

    def _make_calc(self, start, stop):
        def calc(context, output):
            output._data[:] = self._u.EvalBasicVector(context)._data[start:stop]

        return calc

    def _scalar_conversion_args(self, T):
        return (list(self._sizes),)

    def get_output_ports_sizes(self):
        return list(self._sizes)


class Multiplexer(LeafSystem):
    """``Multiplexer(num_scalar_inputs)``, ``(input_sizes)`` or ``(model_vector)``: inputs
    "u0", "u1", ... concatenated into output "y0"."""

    _cpp_type = "drake::systems::Multiplexer<double>"

    def __init__(self, input_sizes):
        super().__init__()
        if isinstance(input_sizes, BasicVector):
            sizes = [1] * input_sizes.size()
        elif isinstance(input_sizes, (int, np.integer)):
            sizes = [1] * int(input_sizes)
        else:
            sizes = [int(s) for s in input_sizes]
        self._inputs = [self.DeclareVectorInputPort(f"u{i}", n) for i, n in enumerate(sizes)]
        self._slices = []
        start = 0
        for n in sizes:
            self._slices.append(slice(start, start + n))
            start += n
        self.DeclareVectorOutputPort("y0", start, self._calc)

    def _scalar_conversion_args(self, T):
        return ([port.size() for port in self._inputs],)

    def _calc(self, context, output):
        data = output._data
        for port, part in zip(self._inputs, self._slices, strict=True):
            data[part] = port.EvalBasicVector(context)._data
