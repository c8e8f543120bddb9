"""Mirror of pydrake.common.yaml: YAML files read into and written from typed Python objects
(dataclasses, such as SimulatorConfig), and untyped loading. Needs PyYAML (the ``yaml``
extra: ``pip install 'mallard[yaml]'``).

A schema is a dataclass, a ``Mapping[str, T]``, or a field type: bool, int, float, str,
``List[T]``/``list[T]``, ``Dict[str, T]``, ``Optional[T]``, a ``Union`` of dataclasses (a
variant, written with the YAML tag ``!ClassName``; untagged data is the first alternative),
or ``np.ndarray`` (a list of floats). As Drake's: an int field refuses a float, a field the
schema lacks is an error, fields the YAML lacks keep their defaults, maps merge into their
defaults.
"""

import dataclasses
import math
import types
import typing

import numpy as np

__all__ = [
    "yaml_dump",
    "yaml_dump_typed",
    "yaml_load",
    "yaml_load_data",
    "yaml_load_file",
    "yaml_load_typed",
]


def _yaml():
    """PyYAML, imported on first use (importing mallard.all neither needs nor loads it)."""
    try:
        import yaml
    except ImportError:
        raise ImportError(
            "mallard.common.yaml needs PyYAML: install the 'yaml' extra "
            "(pip install 'mallard[yaml]')"
        ) from None
    return yaml


# ---- untyped loading and dumping ---------------------------------------------------------------
def _loader():
    yaml = _yaml()

    class Loader(yaml.SafeLoader):
        """SafeLoader that reports a tag ``!Name`` as ``"_tag": "!Name"`` in the mapping."""

    def construct_tagged(loader, tag_suffix, node):
        if isinstance(node, yaml.MappingNode):
            value = loader.construct_mapping(node, deep=True)
        elif isinstance(node, yaml.ScalarNode) and node.value == "":
            value = {}
        else:
            raise RuntimeError(f"The YAML tag !{tag_suffix} must be on a mapping")
        value["_tag"] = "!" + tag_suffix
        return value

    Loader.add_multi_constructor("!", construct_tagged)
    return Loader


def yaml_load_data(data, *, private=False):
    """The YAML ``data`` (a str or a stream) as plain Python data; a tag ``!Name`` on a
    mapping becomes its ``"_tag"`` entry; root keys starting with "_" are dropped unless
    ``private``."""
    result = _yaml().load(data, Loader=_loader())
    if not private and isinstance(result, dict):
        result = {k: v for k, v in result.items() if not str(k).startswith("_")}
    return result


def yaml_load_file(filename, *, private=False):
    """As yaml_load_data, from the file ``filename``."""
    with open(filename, encoding="utf-8") as f:
        return yaml_load_data(f, private=private)


def yaml_load(*, data=None, filename=None, private=False):
    """yaml_load_data(data) or yaml_load_file(filename) (exactly one of them)."""
    if (data is None) == (filename is None):
        raise RuntimeError("yaml_load(): exactly one of data and filename must be given")
    if data is not None:
        return yaml_load_data(data, private=private)
    return yaml_load_file(filename, private=private)


def _dumper():
    yaml = _yaml()

    class Dumper(yaml.SafeDumper):
        """Mappings in block style, lists of scalars in flow style, "_tag" as a YAML tag."""

    def represent_dict(dumper, data):
        tag = data.get("_tag")
        items = [(k, v) for k, v in data.items() if k != "_tag"]
        return dumper.represent_mapping(
            "tag:yaml.org,2002:map" if tag is None else tag, items, flow_style=False
        )

    def represent_list(dumper, data):
        flat = all(not isinstance(x, (dict, list)) for x in data)
        return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flat)

    Dumper.add_representer(dict, represent_dict)
    Dumper.add_representer(list, represent_list)
    return Dumper


def yaml_dump(data, *, filename=None):
    """Plain data (as yaml_load returns it) as YAML: a str, or written to ``filename``."""
    text = _yaml().dump(data, Dumper=_dumper(), sort_keys=False, allow_unicode=True)
    if filename is None:
        return text
    with open(filename, "w", encoding="utf-8") as f:
        f.write(text)
    return None


# ---- schemas -------------------------------------------------------------------------------------
def _origin(schema):
    return typing.get_origin(schema)


def _args(schema):
    return typing.get_args(schema)


def _is_union(schema):
    return _origin(schema) in (typing.Union, types.UnionType)


def _is_mapping(schema):
    import collections.abc

    return _origin(schema) in (dict, collections.abc.Mapping, collections.abc.MutableMapping)


def _is_list(schema):
    import collections.abc

    return _origin(schema) in (list, collections.abc.Sequence, collections.abc.MutableSequence)


def _hints(cls):
    return typing.get_type_hints(cls)


def _read(schema, value, default, name, options):
    """``value`` (plain YAML data) as an instance of ``schema``, merged into ``default``."""
    if _is_union(schema):
        alternatives = _args(schema)
        if value is None and type(None) in alternatives:
            return None
        if isinstance(value, dict) and "_tag" in value:
            tag = value["_tag"][1:]
            for alternative in alternatives:
                if getattr(alternative, "__name__", None) == tag:
                    keep = default if isinstance(default, alternative) else None
                    rest = {k: v for k, v in value.items() if k != "_tag"}
                    return _read(alternative, rest, keep, name, options)
            raise RuntimeError(
                f"The yaml type tag value '{tag}' did not match any of the allowed type options "
                f"for '{name}' ({alternatives})"
            )
        first = next(a for a in alternatives if a is not type(None))
        keep = default if default is not None and isinstance(default, first) else None
        return _read(first, value, keep, name, options)
    if dataclasses.is_dataclass(schema):
        if not isinstance(value, dict):
            raise RuntimeError(
                f"Expected a mapping for '{name}' ({schema.__name__}), got {value!r}"
            )
        result = schema() if default is None else _copy(default)
        hints = _hints(schema)
        fields = [f.name for f in dataclasses.fields(schema)]
        unknown = [k for k in value if k not in fields and k != "_tag"]
        if unknown and not options["allow_yaml_with_no_schema"]:
            raise RuntimeError(f"The fields {unknown} were unknown to the schema")
        missing = [f for f in fields if f not in value]
        if missing and not options["allow_schema_with_no_yaml"]:
            raise RuntimeError(f"The fields {missing} were missing in the yaml data")
        for field in fields:
            if field in value:
                old = getattr(result, field)
                setattr(result, field, _read(hints[field], value[field], old, field, options))
        return result
    if _is_mapping(schema):
        if not isinstance(value, dict):
            raise RuntimeError(f"Expected a mapping for '{name}', got {value!r}")
        value_type = _args(schema)[1] if _args(schema) else typing.Any
        result = dict(default) if default is not None and options["retain_map_defaults"] else {}
        for key, item in value.items():
            result[key] = _read(value_type, item, result.get(key), key, options)
        return result
    if _is_list(schema) or schema is list:
        if not isinstance(value, list):
            raise RuntimeError(f"Expected a list for '{name}', got {value!r}")
        item_type = _args(schema)[0] if _args(schema) else typing.Any
        return [_read(item_type, x, None, name, options) for x in value]
    if schema is np.ndarray:
        if not isinstance(value, list):
            raise RuntimeError(f"Expected a list of numbers for '{name}', got {value!r}")
        return np.array([_read(float, x, None, name, options) for x in value], dtype=float)
    if schema is float:
        if isinstance(value, bool):
            raise RuntimeError(f"Expected a float value for '{name}', got {value!r}")
        return float(value)
    if schema is int or schema is bool:
        if type(value) is not schema:
            raise RuntimeError(
                f"Expected a {schema} value for '{name}' but instead got yaml data of type "
                f"{type(value)} ({value})"
            )
        return value
    if schema is str:
        if isinstance(value, (dict, list)):
            raise RuntimeError(f"Expected a str value for '{name}', got {value!r}")
        return str(value)
    if schema is typing.Any:
        return value
    raise RuntimeError(f"yaml_load_typed: unsupported schema {schema!r} for '{name}'")


def _copy(obj):
    import copy

    return copy.deepcopy(obj)


def yaml_load_typed(
    *,
    schema=None,
    data=None,
    filename=None,
    child_name=None,
    defaults=None,
    allow_yaml_with_no_schema=False,
    allow_schema_with_no_yaml=True,
    retain_map_defaults=True,
):
    """Reads ``data`` (a str) or ``filename`` (exactly one) into an instance of ``schema``
    (``type(defaults)`` if omitted), starting from ``defaults`` (else the schema's default
    instance); ``child_name``: from that child of the document's root. RuntimeError for
    data the schema does not accept."""
    if schema is None:
        if defaults is None:
            raise RuntimeError("yaml_load_typed(): give a schema or defaults")
        schema = type(defaults)
    value = yaml_load(data=data, filename=filename, private=True)
    if child_name is not None:
        if not isinstance(value, dict) or child_name not in value:
            raise RuntimeError(f"yaml_load_typed(): the document has no child '{child_name}'")
        value = value[child_name]
    if value is None:
        value = {}
    options = dict(
        allow_yaml_with_no_schema=allow_yaml_with_no_schema,
        allow_schema_with_no_yaml=allow_schema_with_no_yaml,
        retain_map_defaults=retain_map_defaults,
    )
    return _read(schema, value, defaults, "root", options)


def _write(schema, obj, default):
    """``obj`` as plain data (only what differs from ``default``, if given)."""
    if _is_union(schema):
        if obj is None:
            return None
        alternatives = [a for a in _args(schema) if a is not type(None)]
        for alternative in alternatives:
            if type(obj) is alternative:
                keep = default if type(default) is alternative else None
                value = _write(alternative, obj, keep)
                if alternative is not alternatives[0] and dataclasses.is_dataclass(alternative):
                    value = {"_tag": "!" + alternative.__name__, **value}
                return value
        raise RuntimeError(f"yaml_dump_typed: {obj!r} is none of {alternatives}")
    if dataclasses.is_dataclass(schema):
        hints = _hints(schema)
        result = {}
        for field in dataclasses.fields(schema):
            value = getattr(obj, field.name)
            old = None if default is None else getattr(default, field.name)
            if value is None or default is not None and _equal(value, old):
                continue  # (an empty Optional is not written)
            result[field.name] = _write(hints[field.name], value, old)
        return result
    if _is_mapping(schema):
        value_type = _args(schema)[1] if _args(schema) else typing.Any
        return {
            k: _write(value_type, v, None if default is None else default.get(k))
            for k, v in obj.items()
            if default is None or not _equal(v, default.get(k))
        }
    if _is_list(schema) or schema is list:
        item_type = _args(schema)[0] if _args(schema) else typing.Any
        return [_write(item_type, x, None) for x in obj]
    if schema is np.ndarray:
        return [float(x) for x in np.asarray(obj).reshape(-1)]
    if schema is float:
        return float(obj)
    if schema in (int, bool, str) or schema is typing.Any:
        return obj
    raise RuntimeError(f"yaml_dump_typed: unsupported schema {schema!r}")


def _equal(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(a, b)
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and a == b


def yaml_dump_typed(data, *, filename=None, schema=None, child_name=None, defaults=None):
    """``data`` (an instance of ``schema``, by default ``type(data)``) as YAML: a str, or
    written to ``filename``; ``child_name``: nested under that root key; ``defaults``: only
    what differs from them."""
    schema = type(data) if schema is None else schema
    value = _write(schema, data, defaults)
    if child_name is not None:
        value = {child_name: value}
    return yaml_dump(value, filename=filename)
