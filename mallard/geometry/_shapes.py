"""The basic geometric shapes (pydrake.geometry's Shape specifications), each in its canonical
frame: centered at the origin, with its axis of symmetry (if any) along z.

The constructors raise RuntimeError for a measure that is not finite and positive (a Sphere's
radius may be zero), the error the Drake documentation names; the pydrake wheel reports these
through its abort handler, as SystemExit.
"""

import copy
import math

import numpy as np

from mallard.common._pybind import call_form, overloads


def fmt(x):
    """A float as pydrake prints it (shortest round trip, no trailing ``.0``)."""
    text = repr(float(x))
    return text[:-2] if text.endswith(".0") else text


def _measure(shape, name, value, allow_zero=False):
    """``value`` as a float, checked to be finite and positive (or zero, if allowed)."""
    try:
        x = float(value)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{shape}(): {name} must be a number, got {value!r}") from e
    if not (math.isfinite(x) and (x >= 0 if allow_zero else x > 0)):
        rule = "non-negative" if allow_zero else "positive"
        raise RuntimeError(f"{shape}(): {name} must be finite and {rule}, got {name} = {fmt(x)}")
    return x


def _measures(shape, names, args, kwargs):
    """The measures given one by one (``names``) or as one vector ``measures``."""
    if not kwargs and len(args) == len(names) > 1:  # (the common call, without binding)
        return tuple([_measure(shape, n, x) for n, x in zip(names, args, strict=True)])
    if len(args) + len(kwargs) == 1 and set(kwargs) <= {"measures"}:
        vector = np.asarray(args[0] if args else kwargs["measures"], dtype=float).reshape(-1)
        if vector.size != len(names):
            raise TypeError(f"{shape}(): measures must have {len(names)} elements")
        values = dict(zip(names, vector.tolist(), strict=True))
    else:
        values = dict(zip(names, args, strict=False))
        if len(args) > len(names) or any(k not in names or k in values for k in kwargs):
            raise TypeError(f"{shape}(): expected arguments ({', '.join(names)}) or (measures)")
        values.update(kwargs)
        if len(values) != len(names):
            raise TypeError(f"{shape}(): expected arguments ({', '.join(names)}) or (measures)")
    return tuple(_measure(shape, n, values[n]) for n in names)


class Shape:
    """The abstract base of the shape specifications; it has no constructor of its own."""

    __slots__ = ()

    def __init__(self):
        raise TypeError("mallard.geometry.Shape: No constructor defined!")

    def __getstate__(self):
        """pydrake's pickled state: the measures in ``_REPR`` order (a lone measure as is)."""
        values = tuple(getattr(self, "_" + name) for name in self._REPR)
        return values[0] if len(values) == 1 else values

    def __setstate__(self, state):
        values = state if isinstance(state, tuple) else (state,)
        for name, value in zip(self._REPR, values, strict=True):
            setattr(self, "_" + name, float(value))

    def Clone(self):
        """A copy of this shape."""
        return copy.copy(self)

    def __repr__(self):
        values = ", ".join(f"{n}={fmt(getattr(self, '_' + n))}" for n in self._REPR)
        return f"{type(self).__name__}({values})"

    _REPR = ()


class Box(Shape):
    """A box with dimensions width, depth, height along its canonical x, y, z axes.

    ``Box(width, depth, height)`` or ``Box(measures)``; all measures finite and positive.
    """

    __module__ = "mallard.geometry"  # (its public path: pickles name it)

    __slots__ = ("_width", "_depth", "_height")
    _REPR = ("width", "depth", "height")

    @overloads("width, depth, height", "measures")
    def __init__(self, *args, **kwargs):
        self._width, self._depth, self._height = _measures("Box", self._REPR, args, kwargs)

    @staticmethod
    def MakeCube(edge_size):
        """A cube with that edge length (Drake's C++ Box::MakeCube; not bound in pydrake)."""
        return Box(edge_size, edge_size, edge_size)

    def width(self):
        return self._width

    def depth(self):
        return self._depth

    def height(self):
        return self._height

    def size(self):
        """[width, depth, height]."""
        return np.array([self._width, self._depth, self._height])


class Sphere(Shape):
    """A sphere of the given radius (finite, non-negative: zero is allowed)."""

    __module__ = "mallard.geometry"  # (its public path: pickles name it)

    __slots__ = ("_radius",)
    _REPR = ("radius",)

    def __init__(self, radius):
        self._radius = _measure("Sphere", "radius", radius, allow_zero=True)

    def radius(self):
        return self._radius


class _RadiusLength(Shape):
    """A shape of revolution about z given by (radius, length) or measures = [radius, length]."""

    __slots__ = ("_radius", "_length")
    _REPR = ("radius", "length")

    @overloads("radius, length", "measures")
    def __init__(self, *args, **kwargs):
        self._radius, self._length = _measures(type(self).__name__, self._REPR, args, kwargs)

    def radius(self):
        return self._radius

    def length(self):
        return self._length


class Cylinder(_RadiusLength):
    """A cylinder of that radius and length, its axis along z.

    ``Cylinder(radius, length)`` or ``Cylinder(measures)``; both finite and positive.
    """

    __module__ = "mallard.geometry"  # (its public path: pickles name it)

    __slots__ = ()


class Capsule(_RadiusLength):
    """A capsule: a cylinder of that radius and length, capped at both ends by hemispheres of
    the same radius (total length ``length + 2·radius``), its axis along z.

    ``Capsule(radius, length)`` or ``Capsule(measures)``; both finite and positive.
    """

    __module__ = "mallard.geometry"  # (its public path: pickles name it)

    __slots__ = ()


class Ellipsoid(Shape):
    """An ellipsoid with semi-axes a, b, c along its canonical x, y, z axes.

    ``Ellipsoid(a, b, c)`` or ``Ellipsoid(measures)``; all finite and positive.
    """

    __module__ = "mallard.geometry"  # (its public path: pickles name it)

    __slots__ = ("_a", "_b", "_c")
    _REPR = ("a", "b", "c")

    @overloads("a, b, c", "measures")
    def __init__(self, *args, **kwargs):
        self._a, self._b, self._c = _measures("Ellipsoid", self._REPR, args, kwargs)

    def a(self):
        return self._a

    def b(self):
        return self._b

    def c(self):
        return self._c


class MeshcatCone(Shape):
    """A cone for Meshcat only (no proximity or mass): its apex at the origin, its axis +z,
    sqrt(x²/a² + y²/b²) ≤ z for z in [0, height].

    ``MeshcatCone(height, a=1.0, b=1.0)`` or ``MeshcatCone(measures)`` ([height, a, b]); all
    finite and positive.
    """

    __module__ = "mallard.geometry"  # (its public path: pickles name it)

    __slots__ = ("_height", "_a", "_b")
    _REPR = ("height", "a", "b")

    @overloads((("height", "a", "b"), {"a": 1.0, "b": 1.0}), "measures")
    def __init__(self, *args, **kwargs):
        if not (len(args) == 1 and not kwargs and np.ndim(args[0]) == 1):
            _, values = call_form(MeshcatCone.__init__, args, kwargs, "MeshcatCone")
            args, kwargs = (), values
        self._height, self._a, self._b = _measures("MeshcatCone", self._REPR, args, kwargs)

    def height(self):
        return self._height

    def a(self):
        return self._a

    def b(self):
        return self._b


class HalfSpace(Shape):
    """The half space z ≤ 0 of its canonical frame (its outward normal is +z)."""

    __slots__ = ()

    def __init__(self):
        pass

    @staticmethod
    def MakePose(Hz_dir_F, p_FB):
        """X_FH: the pose in frame F of a half space whose outward normal is along
        ``Hz_dir_F`` (any non-zero length) and whose boundary contains the point B at
        ``p_FB``. RuntimeError if |Hz_dir_F| < 1e-10 or it is not finite."""
        from mallard.math import RigidTransform, RotationMatrix

        Hz_dir_F = np.asarray(Hz_dir_F, dtype=float).reshape(3)
        p_FB = np.asarray(p_FB, dtype=float).reshape(3)
        norm = float(np.linalg.norm(Hz_dir_F))
        if not (norm >= 1e-10 and math.isfinite(norm)):
            raise RuntimeError(
                f"HalfSpace.MakePose(): condition 'norm >= 1e-10' failed. norm = {fmt(norm)}."
            )
        Hz_F = Hz_dir_F / norm
        # Hx is perpendicular to Hz and to the axis of F along Hz's smallest element.
        e = np.zeros(3)
        e[int(np.argmin(np.abs(Hz_F)))] = 1.0
        Hx_F = np.cross(Hz_F, e)
        Hx_F /= np.linalg.norm(Hx_F)
        R_FH = RotationMatrix(np.column_stack([Hx_F, np.cross(Hz_F, Hx_F), Hz_F]))
        return RigidTransform(R_FH, Hz_F * float(Hz_F @ p_FB))


def CalcVolume(shape):
    """The volume (m³) of ``shape``: infinite for a HalfSpace; for a Mesh the volume its
    closed .obj surface encloses, for a Convex that of its convex hull (RuntimeError for
    another file type or a file that cannot be read)."""
    kind = type(shape)
    if kind is Box:
        return shape._width * shape._depth * shape._height
    if kind is Sphere:
        return 4.0 / 3.0 * math.pi * shape._radius**3
    if kind is Cylinder:
        return math.pi * shape._radius**2 * shape._length
    if kind is Capsule:
        r = shape._radius
        return math.pi * r**2 * shape._length + 4.0 / 3.0 * math.pi * r**3
    if kind is Ellipsoid:
        return 4.0 / 3.0 * math.pi * shape._a * shape._b * shape._c
    if kind is HalfSpace:
        return math.inf
    volume = getattr(shape, "_calc_volume", None)
    if volume is None:
        raise TypeError(f"CalcVolume(): expected a Shape, got {kind.__name__}")
    return volume()
