"""Scalar conversion of a Diagram: a Diagram_[T] of the converted subsystems (same names, same
connections, same exported ports in the same order), as Drake's Diagram<T>::ConvertScalarType.
"""

from mallard.systems.framework._system import UnsupportedScalarConversion, system_scalar_type


def convert_diagram(diagram, T):
    """``diagram`` with scalar type T; Drake's error naming every subsystem (in the
    Diagram's order) that does not support the conversion."""
    from mallard.systems.framework import Diagram_, DiagramBuilder_

    converted, refusals = {}, []
    for system in diagram._systems:
        try:
            converted[id(system)] = system._to_scalar_type(T)
        except UnsupportedScalarConversion as e:
            refusals.append(str(e))
    if refusals:
        raise diagram._unsupported_conversion(T, because=" and ".join(refusals))
    if T is system_scalar_type(diagram):  # (an empty Diagram: no subsystem refused)
        raise diagram._unsupported_conversion(T)
    builder = DiagramBuilder_[T]()
    for system in diagram._systems:
        builder.AddSystem(converted[id(system)])
    for (system, index), source in diagram._connections.items():
        builder.Connect(
            converted[id(source.get_system())].get_output_port(source.get_index()),
            converted[id(system)].get_input_port(index),
        )
    for port, destinations in zip(
        diagram._input_ports, diagram._input_port_destinations, strict=True
    ):
        first, *others = (
            converted[id(p.get_system())].get_input_port(p.get_index()) for p in destinations
        )
        builder.ExportInput(first, port.get_name())
        for destination in others:
            builder.ConnectInput(port.get_index(), destination)
    for port in diagram._output_ports:
        source = port._source
        builder.ExportOutput(
            converted[id(source.get_system())].get_output_port(source.get_index()),
            port.get_name(),
        )
    result = builder.BuildInto(Diagram_[T]())
    result.set_name(diagram.get_name())
    return result
