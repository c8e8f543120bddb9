"""pydrake's templated classes: ``RigidTransform_[T]`` for T in (float, AutoDiffXd, Expression).

``X_[float] is X``. ``X_[AutoDiffXd]`` (and ``X_[Expression]``) is a subclass of X made on first
use. mallard has one Python class per concept for every scalar type, so the scalar type is a
property of the instance, and the instantiation's ``isinstance`` asks for it:

* value types (RigidTransform, SpatialVelocity, SpatialInertia, MultibodyForces, ...) hold
  arrays; their scalar type is that of their elements. ``X_[AutoDiffXd](...)`` constructs an
  X and converts its real numbers to AutoDiffXd constants. Results of operations are plain X
  instances holding AutoDiffXd.
* elements and systems (joints, bodies, frames, MultibodyPlant, ...) take the scalar type of
  their plant; ``MultibodyPlant.ToAutoDiffXd()`` makes a plant (and elements) of the
  instantiation classes, whose methods called with a Context return that scalar type (real
  numbers in their results become constants, as pydrake returns AutoDiffXd everywhere).

So ``isinstance(x, RigidTransform_[AutoDiffXd])`` is True exactly when x holds AutoDiffXd.
Unlike pydrake, ``isinstance(x, RigidTransform)`` is True for every scalar type.
"""

import functools
import numbers

import numpy as np

#: The base classes registered as value types (their scalars are in their arrays).
_VALUE_TYPES = []
#: The TemplateClass of each base class.
_TEMPLATES = {}


#: pydrake's spelling of template arguments in class names ("mangled"): ``X_[AutoDiffXd]``
#: is the class named ``X_𝓣AutoDiffXd𝓤``.
_MANGLING = (("[", "𝓣"), ("]", "𝓤"), (",", "𝓬"), (".", "𝓹"))


def mangled(name):
    """``X_[T]`` as a class name, as pydrake spells it: ``X_𝓣T𝓤``."""
    for plain, mangled_ in _MANGLING:
        name = name.replace(plain, mangled_)
    return name


def demangled(name):
    """``X_𝓣T𝓤`` as the expression ``X_[T]`` (names without template arguments as they are)."""
    for plain, mangled_ in _MANGLING:
        name = name.replace(mangled_, plain)
    return name


def autodiff_type():
    from mallard.autodiffutils import AutoDiffXd

    return AutoDiffXd


def expression_type():
    """mallard.symbolic.Expression; NotImplementedError if mallard.symbolic is missing."""
    try:
        from mallard.symbolic import Expression
    except ImportError as e:
        raise NotImplementedError(
            f"the Expression scalar type needs mallard.symbolic, which is not available ({e})"
        ) from None
    return Expression


def scalar_types():
    """pydrake's default scalar types, those of its templates: (float, AutoDiffXd,
    Expression)."""
    return (float, autodiff_type(), expression_type())


def _resolve(T):
    """``T`` as one of the scalar types (``float`` for float-like types and "double")."""
    if T in (float, np.float64, "double", "float"):
        return float
    if T == "AutoDiffXd" or T is autodiff_type():
        return autodiff_type()
    if T == "Expression" or getattr(T, "__name__", None) == "Expression":
        Expression = expression_type()
        if T in ("Expression", Expression):
            return Expression
    raise TypeError(f"unknown scalar type {T!r}: expected float, AutoDiffXd or Expression")


#: How Drake names the scalar types (in system type names and messages).
_CPP_NAMES = {"float": "double", "AutoDiffXd": "drake::AutoDiffXd"}


def cpp_scalar_name(T):
    """Drake's name of scalar type T: double, drake::AutoDiffXd, drake::symbolic::Expression."""
    return _CPP_NAMES.get(T.__name__, "drake::symbolic::Expression")


class ScalarConverter:
    """``system.ToScalarType``: ``system.ToScalarType[T]()`` is ``system._to_scalar_type(T)``."""

    def __init__(self, system):
        self._system = system

    def __getitem__(self, T):
        T = _resolve(T)
        return lambda: self._system._to_scalar_type(T)


def array_to_scalar(a, T):
    """Array ``a`` with every real number a T (an object array unless T is float)."""
    a = np.asarray(a)
    if T is float:
        return a
    out = np.empty(a.shape, dtype=object)
    for index, x in np.ndenumerate(a):
        out[index] = T(float(x)) if isinstance(x, numbers.Real) else x
    return out


def _fields(obj):
    """(name, value) of the attributes of ``obj`` (slots and __dict__)."""
    names = [n for cls in type(obj).__mro__ for n in getattr(cls, "__slots__", ())]
    names += list(getattr(obj, "__dict__", ()))
    return [(n, getattr(obj, n)) for n in names if n[:2] != "__" and hasattr(obj, n)]


def cast_array(a, T):
    """Array ``a`` of any scalars as scalars of type T, through their double values (a
    float64 array for T = float). RuntimeError for an Expression that is not a constant."""
    from mallard._scalar import scalar_value

    a = np.asarray(a)
    out = np.empty(a.shape, dtype=float if T is float else object)
    for index, x in np.ndenumerate(a):
        value = scalar_value(x)
        if value is None:
            raise RuntimeError(f"cannot convert {x} to {T.__name__}: it is not a constant")
        out[index] = value if T is float else T(value)
    return out


def convert_value(obj, T):
    """Converts the real numbers of value-type ``obj`` (its arrays and float attributes, and
    those of nested value types) to T, in place; returns ``obj``."""
    if T is float:
        return obj
    for name, value in _fields(obj):
        if isinstance(value, np.ndarray) and value.dtype.kind in "fiuO":
            setattr(obj, name, array_to_scalar(value, T))
        elif isinstance(value, float):
            setattr(obj, name, T(value))
        elif isinstance(value, tuple(_VALUE_TYPES)):
            convert_value(value, T)
    return obj


def _is_scalar(x):
    """Whether ``x`` is a non-double scalar (AutoDiffXd, Expression, Variable)."""
    return not isinstance(x, numbers.Real) and (
        hasattr(x, "derivatives") or hasattr(x, "Evaluate") or hasattr(x, "get_id")
    )


def _data_scalar_type(obj):
    """The type of the first non-double scalar in value-type ``obj``'s data, or float."""
    for _, value in _fields(obj):
        if isinstance(value, np.ndarray):
            if value.dtype == object:
                for x in value.flat:
                    if _is_scalar(x):
                        return _scalar_class(x)
        elif isinstance(value, tuple(_VALUE_TYPES)):
            T = _data_scalar_type(value)
            if T is not float:
                return T
        elif _is_scalar(value):
            return _scalar_class(value)
    return float


def _scalar_class(x):
    """The scalar type of scalar ``x`` (a symbolic Variable is an Expression)."""
    return expression_type() if type(x).__name__ == "Variable" else type(x)


def scalar_type_of(obj):
    """The scalar type of ``obj``: its class's (an instantiation), its plant's or system's
    (elements, Contexts), or its data's (value types)."""
    T = getattr(type(obj), "_template_scalar", None)
    if T is not None:
        return T
    owner = getattr(obj, "_plant", None)
    if owner is None:
        owner = getattr(obj, "_system", None)
    if owner is not None:
        return getattr(type(owner), "_template_scalar", float)
    if isinstance(obj, tuple(_VALUE_TYPES)):
        return _data_scalar_type(obj)
    return float


def convert_result(result, T):
    """A method's result with its real numbers as T: arrays, floats, value types, and
    lists and tuples of those."""
    if isinstance(result, np.ndarray):
        return array_to_scalar(result, T) if result.dtype.kind in "fiuO" else result
    if isinstance(result, (float, np.floating)):
        return T(float(result))
    if isinstance(result, tuple(_VALUE_TYPES)):
        return convert_value(result, T)
    if isinstance(result, (list, tuple)) and type(result) in (list, tuple):
        return type(result)(convert_result(r, T) for r in result)
    return result


def _has_context(args, kwargs):
    from mallard.systems.framework._context import Context

    return any(isinstance(a, Context) for a in args) or any(
        isinstance(a, Context) for a in kwargs.values()
    )


def _scalar_method(method, T):
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        result = method(self, *args, **kwargs)
        return convert_result(result, T) if _has_context(args, kwargs) else result

    return wrapper


class _ScalarMeta(type):
    """The metaclass of instantiations: ``isinstance`` asks for the instance's scalar type."""

    def __instancecheck__(cls, obj):
        if "_template_T" not in cls.__dict__:  # a class derived from an instantiation
            return type.__instancecheck__(cls, obj)
        return isinstance(obj, cls._template_base) and scalar_type_of(obj) is cls._template_T


def _metaclass_for(base):
    meta = type(base)
    if meta is type:
        return _ScalarMeta
    return type(f"_Scalar{meta.__name__}", (_ScalarMeta, meta), {})


class TemplateClass:
    """``X_``: indexable by a scalar type; ``X_[float]`` is X itself.

    ``kind`` is "value" (value types), "element" (elements and the plant: instances made with
    the instantiation class, whose methods called with a Context return T), "system" (systems
    and DiagramBuilder: the instantiation class only carries T; the system declares its
    models in T and computes in T) or "context" (Contexts: the scalar type of their system).
    ``overrides``, a mixin class, goes before the base in the instantiations' bases (what the
    T version does differently)."""

    def __init__(self, name, base, kind="value", overrides=None):
        self.__name__ = name
        self._base = base
        self._kind = kind
        self._overrides = overrides
        self._instantiations = {float: base}
        _TEMPLATES[base] = self
        if kind == "value":
            _VALUE_TYPES.append(base)

    @property
    def param_list(self):
        """The scalar types, each as a 1-tuple (pydrake's form)."""
        return [(T,) for T in scalar_types()]

    def get_instantiation(self, T):
        """(X_[T], (T,))."""
        T = _resolve(T)
        return self[T], (T,)

    def __getitem__(self, T):
        T = _resolve(T[0] if isinstance(T, tuple) else T)
        cls = self._instantiations.get(T)
        if cls is None:
            cls = self._instantiations[T] = self._instantiate(T)
        return cls

    def _instantiate(self, T):
        base = impl = self._base
        class_name = mangled(f"{self.__name__}[{T.__name__}]")  # (pydrake's class name)
        if self._overrides is not None:
            impl = type(base)(class_name, (self._overrides, base), {})
        namespace = {
            "__slots__": (),
            "__module__": base.__module__,
            "__qualname__": class_name,
            "_template_base": base,
            "_template_T": T,
        }
        if self._kind == "value":

            def __new__(cls, *args, **kwargs):
                if not args and not kwargs:
                    # An instance of the instantiation itself: __init__ below makes the
                    # default value (or raises, as X has none), or __setstate__ fills it
                    # when a pickle (pydrake's too) names this class.
                    return object.__new__(cls)
                return convert_value(base(*args, **kwargs), T)

            def __init__(self, *args, **kwargs):
                base.__init__(self, *args, **kwargs)
                convert_value(self, T)

            namespace["__new__"] = __new__
            namespace["__init__"] = __init__
            for name in dir(base):  # factories (SolidBoxWithMass, MakeXRotation, ...)
                if name[0] != "_" and _is_factory(base, name):
                    namespace[name] = _scalar_factory(getattr(base, name), T)
        elif self._kind == "system":
            namespace["_template_scalar"] = T
        elif self._kind == "element":
            namespace["_template_scalar"] = T
            for name in dir(impl):
                if name[0] != "_" and _defined_as_function(impl, name):
                    namespace[name] = _scalar_method(getattr(impl, name), T)
        return _metaclass_for(impl)(class_name, (impl,), namespace)

    def __repr__(self):
        return f"<TemplateClass {self._base.__module__}.{self.__name__}>"


def module_getattr(module_name, module_globals, name):
    """A module's ``__getattr__`` for names pickles use, as pydrake's modules have:
    ``X_[T]`` and its mangled spelling ``X_𝓣T𝓤`` (T one of float, AutoDiffXd, Expression)
    name the instantiation ``X_[T]``; ``X_[float]`` also names X where there is no template
    X_. AttributeError for anything else."""
    pretty = demangled(name)
    if pretty.endswith("]") and "[" in pretty:
        template_name, param = pretty[:-1].split("[", 1)
        template = module_globals.get(template_name)
        if isinstance(template, TemplateClass) and param in ("float", "AutoDiffXd", "Expression"):
            return template[param]
        if param == "float" and template_name.endswith("_"):
            found = module_globals.get(template_name[:-1])
            if found is not None:
                return found
    raise AttributeError(f"module {module_name!r} has no attribute {name!r}")


def instantiation(cls, T, kind="element"):
    """``cls``'s T instantiation, made (of ``kind``) for an element or system class without a
    public template (as pydrake has one for every element class)."""
    template = _TEMPLATES.get(cls)
    if template is None:
        template = TemplateClass(cls.__name__ + "_", cls, kind)
    return template[T]


def _scalar_factory(factory, T):
    @functools.wraps(factory)
    def wrapper(*args, **kwargs):
        return convert_result(factory(*args, **kwargs), T)

    return staticmethod(wrapper)


def _is_factory(base, name):
    """Whether ``name`` is a static or class method of ``base`` (or a base of it)."""
    for cls in base.__mro__:
        if name in cls.__dict__:
            return isinstance(cls.__dict__[name], (staticmethod, classmethod))
    return False


def _defined_as_function(base, name):
    for cls in base.__mro__:
        if name in cls.__dict__:
            return callable(cls.__dict__[name]) and not isinstance(
                cls.__dict__[name], (staticmethod, classmethod, property, type)
            )
    return False
