"""Selector: output ports made of elements picked from input ports (SelectorParams)."""

from mallard.systems.framework._indices import kUseDefaultName
from mallard.systems.framework._leaf_system import LeafSystem


class _Params:
    """A parameter struct: keyword construction, attribute access and pydrake's repr."""

    _FIELDS = ()

    def __init__(self, **kwargs):
        for name, default in self._FIELDS:
            setattr(self, name, kwargs.pop(name, default() if callable(default) else default))
        if kwargs:
            raise TypeError(f"{type(self).__name__}: unknown fields {sorted(kwargs)}")

    def __repr__(self):
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n, _ in self._FIELDS)
        return f"{type(self).__name__}({fields})"

    def __eq__(self, other):
        return type(other) is type(self) and all(
            getattr(self, n) == getattr(other, n) for n, _ in self._FIELDS
        )


class SelectorParams(_Params):
    """``SelectorParams(inputs=[InputPortParams], outputs=[OutputPortParams])``."""

    class InputPortParams(_Params):
        """An input port: its ``name`` (None: the default "u{i}") and ``size``."""

        _FIELDS = (("name", None), ("size", 0))

    class OutputSelection(_Params):
        """One output element: element ``input_offset`` of input ``input_port_index``."""

        _FIELDS = (("input_port_index", 0), ("input_offset", 0))

    class OutputPortParams(_Params):
        """An output port: its ``name`` (None: the default "y{i}") and its ``selections``."""

        _FIELDS = (("name", None), ("selections", list))

    _FIELDS = (("inputs", list), ("outputs", list))


class Selector(LeafSystem):
    """``Selector(params)``: vector inputs and outputs as ``params`` (a SelectorParams)
    declares them; each output element is one element of one input."""

    _cpp_type = "drake::systems::Selector<double>"

    def __init__(self, params):
        super().__init__()
        if not isinstance(params, SelectorParams):
            raise TypeError(f"Selector: expected SelectorParams, got {type(params).__name__}")
        sizes = []
        for i, port in enumerate(params.inputs):
            if int(port.size) < 0:
                raise RuntimeError(f"Selector: input {i} has a negative size {port.size}")
            sizes.append(int(port.size))
            name = kUseDefaultName if port.name is None else port.name
            self.DeclareVectorInputPort(name, int(port.size))
        for j, port in enumerate(params.outputs):
            picks = []
            for selection in port.selections:
                k, offset = int(selection.input_port_index), int(selection.input_offset)
                if not 0 <= k < len(sizes):
                    raise RuntimeError(
                        f"Selector: output {j} selects from input {k}, but there are "
                        f"{len(sizes)} inputs"
                    )
                if not 0 <= offset < sizes[k]:
                    raise RuntimeError(
                        f"Selector: output {j} selects element {offset} of input {k}, which "
                        f"has {sizes[k]}"
                    )
                picks.append((k, offset))
            name = kUseDefaultName if port.name is None else port.name
            prerequisites = {self.input_port_ticket(k) for k, _ in picks}
            self.DeclareVectorOutputPort(
                name, len(picks), self._make_calc(picks), prerequisites or {self.nothing_ticket()}
            )
        self._params = params

    def _make_calc(self, picks):
        def calc(context, output):
            inputs = {}
            for i, (k, offset) in enumerate(picks):
                if k not in inputs:
                    inputs[k] = self._input_ports[k].EvalBasicVector(context)._data
                output._data[i] = inputs[k][offset]

        return calc

    def _scalar_conversion_args(self, T):
        return (self._params,)
