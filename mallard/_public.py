"""publish: the public module path of the classes a package exports, as pydrake reports it."""


def publish(namespace):
    """Sets ``__module__`` of each class a public module exports (its ``__all__``) and defines
    in a private one (a ``_``-prefixed module) to that public module, as pydrake's classes
    report theirs (``pydrake.systems.primitives.LinearSystem``): in reprs, tracebacks and
    pickles. Call at the end of the module with ``globals()``."""
    module = namespace["__name__"]
    for name in namespace.get("__all__", ()):
        obj = namespace.get(name)
        if isinstance(obj, type) and any(p.startswith("_") for p in obj.__module__.split(".")):
            obj.__module__ = module
