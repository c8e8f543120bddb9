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

from mallard._template import _resolve, scalar_types

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

    def __init__(self, name, T_list=None, T_pairs=None, module_name=None):
        self.__name__ = name
        self._module = module_name
        self._T_list = [_resolve(T) for T in (T_list or scalar_types())]
        if T_pairs is None:
            T_pairs = [(T, U) for T in self._T_list for U in self._T_list if T is not U]
        self._T_pairs = [(_resolve(T), _resolve(U)) for T, U in T_pairs]
        self._function = None
        self._instantiations = {}

    @classmethod
    def define(cls, name, T_list=None, T_pairs=None, module_name=None):
        """The decorator of a function ``f(T)`` returning the class of instantiation T."""

        def decorator(function):
            module = module_name or function.__module__
            template = cls(name, T_list, T_pairs, module)
            template._function = function
            return template

        return decorator

    @property
    def param_list(self):
        return [(T,) for T in self._T_list]

    def get_module_name(self):
        return self._module

    def get_param_set(self, param):
        """The parameters naming the same instantiation as ``param`` (one here)."""
        return {(self._param(param),)}

    def _param(self, param):
        if param is None:
            return self._T_list[0]
        T = _resolve(param[0] if isinstance(param, tuple) else param)
        if T not in self._T_list:
            raise RuntimeError(f"{self.__name__}: no instantiation for {T.__name__}")
        return T

    def get_instantiation(self, param=None):
        """(X_[T], (T,))."""
        T = self._param(param)
        return self[T], (T,)

    def __getitem__(self, param):
        T = self._param(param)
        cls = self._instantiations.get(T)
        if cls is None:
            cls = self._instantiations[T] = self._instantiate(T)
        return cls

    def is_instantiation(self, cls):
        return any(cls is c for c in self._instantiations.values())

    def is_subclass_of_instantiation(self, cls):
        return any(
            isinstance(cls, type) and issubclass(cls, c) for c in self._instantiations.values()
        )

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

        name = f"{self.__name__}[{T.__name__}]"
        cls.__init__ = __init__
        cls.__name__ = cls.__qualname__ = name
        cls.__module__ = self._module
        cls._template_system = self
        return cls

    def _is_instance(self, obj):
        return any(isinstance(obj, c) for c in self._instantiations.values())

    def __repr__(self):
        return f"<TemplateSystem {self._module}.{self.__name__}>"
