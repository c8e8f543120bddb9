"""Signal routing: PassThrough, Demultiplexer and Multiplexer."""

import numpy as np

from mallard.common._pybind import call_form, is_integer, overloads
from mallard.common.value import AbstractValue
from mallard.systems.framework._leaf_system import LeafSystem
from mallard.systems.framework._ports import PortDataType
from mallard.systems.framework._vectors import BasicVector


def _kind(value):
    """0 for a size, 2 for an AbstractValue, 1 for anything else (a vector)."""
    return 0 if is_integer(value) else 2 if isinstance(value, AbstractValue) else 1


class PassThrough(LeafSystem):
    """``PassThrough(vector_size)``, ``(value)`` (a vector, the default size) or
    ``(abstract_model_value)``: input "u", output "y" = u."""

    _cpp_type = "drake::systems::PassThrough<double>"

    @overloads("vector_size", "value", "abstract_model_value")
    def __init__(self, *args, **kwargs):
        _, values = call_form(
            PassThrough.__init__,
            args,
            kwargs,
            accept=lambda form, v: form == _kind(next(iter(v.values()))),
        )
        (value,) = values.values()
        super().__init__()
        if isinstance(value, AbstractValue):
            self._u = self.DeclareAbstractInputPort("u", value)
            self.DeclareAbstractOutputPort("y", value.Clone, self._calc_abstract)
            return
        if is_integer(value):
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

    @overloads("size, output_ports_size=", "output_ports_sizes")
    def __init__(self, *args, **kwargs):
        _, values = call_form(
            Demultiplexer.__init__,
            args,
            kwargs,
            accept=lambda form, v: is_integer(next(iter(v.values()))) == (form == 0),
        )
        super().__init__()
        if "size" in values:
            size = int(values["size"])
            output_ports_size = values["output_ports_size"]
            output_ports_size = 1 if output_ports_size is None else int(output_ports_size)
            if output_ports_size <= 0 or size % output_ports_size:
                raise RuntimeError(
                    f"Demultiplexer: the input size {size} must be a positive multiple of "
                    f"output_ports_size {output_ports_size}"
                )
            sizes = [output_ports_size] * (size // output_ports_size)
        else:
            sizes = [int(s) for s in values["output_ports_sizes"]]
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

    @overloads("num_scalar_inputs", "input_sizes", "model_vector")
    def __init__(self, *args, **kwargs):
        def accept(form, v):
            x = next(iter(v.values()))
            return form == (0 if is_integer(x) else 2 if isinstance(x, BasicVector) else 1)

        _, values = call_form(Multiplexer.__init__, args, kwargs, accept=accept)
        super().__init__()
        if "model_vector" in values:
            sizes = [1] * values["model_vector"].size()
        elif "num_scalar_inputs" in values:
            sizes = [1] * int(values["num_scalar_inputs"])
        else:
            sizes = [int(s) for s in values["input_sizes"]]
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
