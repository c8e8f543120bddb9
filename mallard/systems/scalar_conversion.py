"""Mirror of pydrake.systems.scalar_conversion: TemplateSystem (LeafSystems defined in Python
for every scalar type, with scalar conversion) and SystemScalarConverter.

A TemplateSystem is defined by a function of the scalar type T that returns the class of
that instantiation (deriving from ``LeafSystem_[T]``). The class implements ``_construct(self,
*args, converter=None, **kwargs)`` instead of ``__init__`` (passing ``converter`` to
``LeafSystem_[T].__init__``) and ``_construct_copy(self, other, converter=None)``, which
copies the configuration of ``other``, an instantiation of another scalar type. Then
``X_[T](...)`` constructs, ``X_[T](other)`` converts, and ``system.ToScalarType[T]()`` (and
ToAutoDiffXd, ToSymbolic) converts through ``_construct_copy``.
"""

import sys
import types

from mallard._template import _resolve, mangled, scalar_types

__all__ = ["SystemScalarConverter", "TemplateSystem"]


class _Indexed:
    """``obj.Method[T, U]()``: calls ``function(T, U)``."""

    def __init__(self, function):
        self._function = function

    def __getitem__(self, params):
        T, U = (_resolve(p) for p in params)
        return lambda: self._function(T, U)


class SystemScalarConverter:
    """The conversions a system supports, from scalar type U to scalar type T (pydrake's
    ``IsConvertible[T, U]()``)."""

    def __init__(self):
        self._conversions = {}  # (T, U) -> function(system of U) -> system of T

    @property
    def SupportedScalars(self):
        return scalar_types()

    @property
    def SupportedConversionPairs(self):
        return [(T, U) for T in scalar_types() for U in scalar_types() if T is not U]

    @property
    def IsConvertible(self):
        """``IsConvertible[T, U]()``: whether a system of U converts to T."""
        return _Indexed(lambda T, U: (T, U) in self._conversions)

    def _add(self, T, U, function):
        self._conversions[(T, U)] = function

    def _convert(self, T, system):
        """``system`` converted to T, or None if this converter does not know how."""
        from mallard.systems.framework._system import system_scalar_type

        function = self._conversions.get((T, system_scalar_type(system)))
        return None if function is None else function(system)


class TemplateSystem:
    """A LeafSystem template defined in Python: ``X_[T]`` for T in ``T_list`` (default:
    float, AutoDiffXd, Expression), ``X_[None]`` the first (the default instantiation).
    Define one with the ``TemplateSystem.define(name)`` decorator (see the module
    docstring)."""

    def __init__(self, name, T_list=None, T_pairs=None, scope=None):
        """``scope``: the module (or class) that defines the template (default: the
        caller's module); its instantiations are named in its module."""
        self.__name__ = name
        if scope is None:
            scope = sys.modules.get(sys._getframe(1).f_globals.get("__name__"))
        self._scope = scope
        self._T_list = [_resolve(T) for T in (T_list or scalar_types())]
        if T_pairs is None:
            T_pairs = [(T, U) for T in self._T_list for U in self._T_list if T is not U]
        self._T_pairs = [(_resolve(T), _resolve(U)) for T, U in T_pairs]
        self._function = None
        self._instantiations = {}

    @classmethod
    def define(cls, name, T_list=None, T_pairs=None, scope=None):
        """The decorator of a function ``f(T)`` returning the class of instantiation T
        (``scope``: default, the function's module)."""

        def decorator(function):
            module = sys.modules.get(function.__module__)  # (None for code run by exec)
            template = cls(name, T_list, T_pairs, scope or module or function.__module__)
            template._function = function
            return template

        return decorator

    @property
    def param_list(self):
        return [(T,) for T in self._T_list]

    def get_module_name(self):
        """The name of the module that defines the template; RuntimeError if its scope is
        not a module."""
        if not isinstance(self._scope, types.ModuleType):
            raise RuntimeError(
                "Unable to resolve `get_module_name` for a scope that is not a module: "
                f"{self._scope}"
            )
        return self._scope.__name__

    def _module_name(self):
        scope = self._scope
        if isinstance(scope, str | None):  # (a module name, or none known)
            return scope or "__main__"
        return scope.__name__ if isinstance(scope, types.ModuleType) else scope.__module__

    def get_param_set(self, instantiation):
        """The parameters whose instantiation is ``instantiation`` (a set of tuples)."""
        return {(T,) for T, cls in self._instantiations.items() if cls is instantiation}

    def _param(self, param, throw_error=True):
        if param is None:
            return self._T_list[0]
        T = _resolve(param[0] if isinstance(param, tuple | list) else param)
        if T not in self._T_list:
            if not throw_error:
                return None
            raise RuntimeError(f"Invalid instantiation: {self.__name__}[{T.__name__}]")
        return T

    def get_instantiation(self, param=None, throw_error=True):
        """(X_[T], (T,)); (None, param) for a parameter without an instantiation if not
        ``throw_error``."""
        T = self._param(param, throw_error)
        if T is None:
            return None, param if isinstance(param, tuple) else (param,)
        return self[T], (T,)

    def __getitem__(self, param):
        T = self._param(param)
        cls = self._instantiations.get(T)
        if cls is None:
            cls = self._instantiations[T] = self._instantiate(T)
        return cls

    def is_instantiation(self, obj):
        return any(obj is self[T] for T in self._T_list)

    def is_subclass_of_instantiation(self, obj):
        """The first instantiation ``obj`` (a class) derives from, or None."""
        for T in self._T_list:
            if isinstance(obj, type) and issubclass(obj, self[T]):
                return self[T]
        return None

    def _make_converter(self):
        converter = SystemScalarConverter()
        for T, U in self._T_pairs:
            converter._add(T, U, lambda system, T=T: self[T](system))
        return converter

    def _instantiate(self, T):
        from mallard.systems.framework._leaf_system import LeafSystem
        from mallard.systems.framework._system import system_scalar_type

        cls = self._function(T)
        if not (isinstance(cls, type) and issubclass(cls, LeafSystem)):
            raise TypeError(f"{self.__name__}[{T.__name__}]: the function must return a LeafSystem")
        for method in ("_construct", "_construct_copy"):
            if not callable(getattr(cls, method, None)):
                raise TypeError(f"{self.__name__}[{T.__name__}]: the class must define {method}")
        template = self

        def __init__(system, *args, converter=None, **kwargs):
            if converter is None:
                converter = template._make_converter()
            if len(args) == 1 and not kwargs and template._is_instance(args[0]):
                other = args[0]
                if system_scalar_type(other) is T:
                    raise RuntimeError(
                        f"{template.__name__}[{T.__name__}]: a copy of the same scalar type is "
                        "not a conversion"
                    )
                cls._construct_copy(system, other, converter=converter)
            else:
                cls._construct(system, *args, converter=converter, **kwargs)

        name = mangled(f"{self.__name__}[{T.__name__}]")  # (pydrake's class name)
        cls.__init__ = __init__
        cls.__name__ = cls.__qualname__ = name
        cls.__module__ = self._module_name()
        cls._template_system = self
        return cls

    def _is_instance(self, obj):
        return any(isinstance(obj, c) for c in self._instantiations.values())

    def __repr__(self):
        return f"<TemplateSystem {self._module_name()}.{self.__name__}>"
