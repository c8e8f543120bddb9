"""Pickles of the classes pydrake pickles: every such class mallard has round-trips, pickles
under its public module path, and reads pydrake's pickles (and pydrake reads mallard's, but
of AutoDiffXd values) when the module prefix is renamed, since the pickled state is
pydrake's; templates unpickle by their legacy ``Class_[T]`` names and their mangled
``Class_𝓣T𝓤`` names as pydrake's do."""

import importlib
import inspect
import io
import pickle

import numpy as np
import pytest

pytest.importorskip("pydrake")

import pydrake.all as P  # noqa: E402

import mallard.all as M  # noqa: E402


class Renamed(pickle.Unpickler):
    """Unpickles a pickle of one library with the other's classes (``src.x`` → ``dst.x``)."""

    def __init__(self, data, src, dst):
        super().__init__(io.BytesIO(data))
        self.src, self.dst = src, dst

    def find_class(self, module, name):
        if module == self.src or module.startswith(self.src + "."):
            module = self.dst + module[len(self.src) :]
        return super().find_class(module, name)


OBJ = "/tmp/mallard_test_pickle.obj"


def _cases(m):
    """name → (make, values): an object of each class, and the values that identify it."""
    ad = m.AutoDiffXd
    matrix = lambda o: o.matrix()  # noqa: E731
    vector = lambda o: o.get_coeffs()  # noqa: E731
    enum = lambda o: o.value  # noqa: E731
    return {
        "Aabb": (lambda: m.Aabb([1, 2, 3], [0.5, 0.5, 1]), lambda o: (o.center(), o.half_width())),
        "AngleAxis": (lambda: m.AngleAxis(0.3, [0, 0.6, 0.8]), lambda o: (o.angle(), o.axis())),
        "AutoDiffXd": (lambda: ad(1.5, [2.0, 3.0]), lambda o: (o.value(), o.derivatives())),
        "Box": (lambda: m.Box(1, 2, 3), lambda o: o.size()),
        "BsplineBasis": (lambda: m.BsplineBasis(3, 6), lambda o: (o.order(), o.knots())),
        "Capsule": (lambda: m.Capsule(0.5, 2), lambda o: (o.radius(), o.length())),
        "Convex": (lambda: m.Convex(OBJ, 2.0), lambda o: (str(o.source().path()), o.scale3())),
        "CoulombFriction": (
            lambda: m.CoulombFriction(0.6, 0.5),
            lambda o: (o.static_friction(), o.dynamic_friction()),
        ),
        "ContactModel": (lambda: m.ContactModel.kPoint, enum),
        "Cylinder": (lambda: m.Cylinder(0.5, 2), lambda o: (o.radius(), o.length())),
        "DiscreteContactApproximation": (lambda: m.DiscreteContactApproximation.kSimilar, enum),
        "DiscreteContactSolver": (lambda: m.DiscreteContactSolver.kSap, enum),
        "Ellipsoid": (lambda: m.Ellipsoid(1, 2, 3), lambda o: (o.a(), o.b(), o.c())),
        "MeshcatCone": (lambda: m.MeshcatCone(1, 2, 3), lambda o: (o.height(), o.a(), o.b())),
        "HydroelasticContactRepresentation": (
            lambda: m.HydroelasticContactRepresentation.kPolygon,
            enum,
        ),
        "Plane": (
            lambda: m.Plane([0, 3, 4], [1, 2, 3]),
            lambda o: (o.unit_normal(), o.reference_point()),
        ),
        "InputPortSelection": (lambda: m.InputPortSelection.kUseFirstInputIfItExists, enum),
        "Isometry3": (
            lambda: m.Isometry3(m.RotationMatrix.MakeXRotation(0.2).matrix(), [1, 2, 3]),
            matrix,
        ),
        "JacobianWrtVariable": (lambda: m.JacobianWrtVariable.kV, enum),
        "KnotVectorType": (lambda: m.KnotVectorType.kClampedUniform, enum),
        "Mesh": (lambda: m.Mesh(OBJ, 2.0), lambda o: (str(o.source().path()), o.scale3())),
        "MeshSource": (lambda: m.MeshSource(OBJ), lambda o: str(o.path())),
        "NumericalGradientMethod": (lambda: m.NumericalGradientMethod.kCentral, enum),
        "Obb": (  # (unpickling pads the half widths again, as pydrake's does)
            lambda: m.Obb(m.RigidTransform([1, 2, 3]), [1, 2, 3]),
            lambda o: (o.pose().GetAsMatrix34(), np.round(o.half_width(), 12)),
        ),
        "OutputPortSelection": (lambda: m.OutputPortSelection.kNoOutput, enum),
        "PortDataType": (lambda: m.PortDataType.kAbstractValued, enum),
        "Quaternion": (lambda: m.Quaternion(0.5, 0.5, 0.5, 0.5), lambda o: o.wxyz()),
        "RandomDistribution": (lambda: m.RandomDistribution.kGaussian, enum),
        "RigidTransform": (
            lambda: m.RigidTransform(m.RollPitchYaw(0.1, 0.2, 0.3), [1, 2, 3]),
            lambda o: o.GetAsMatrix34(),
        ),
        "Role": (lambda: m.Role.kProximity, enum),
        "RoleAssign": (lambda: m.RoleAssign.kReplace, enum),
        "RollPitchYaw": (lambda: m.RollPitchYaw(0.1, 0.2, 0.3), lambda o: o.vector()),
        "RotationMatrix": (lambda: m.RotationMatrix(m.RollPitchYaw(0.1, 0.2, 0.3)), matrix),
        "RotationalInertia": (
            lambda: m.RotationalInertia(1, 2, 3, 0.1, 0.2, 0.3),
            lambda o: o.CopyToFullMatrix3(),
        ),
        "SpatialAcceleration": (lambda: m.SpatialAcceleration([1, 2, 3, 4, 5, 6]), vector),
        "SpatialForce": (lambda: m.SpatialForce([1, 2, 3, 4, 5, 6]), vector),
        "SpatialInertia": (
            lambda: m.SpatialInertia.SolidBoxWithMass(2, 1, 2, 3),
            lambda o: o.CopyToFullMatrix6(),
        ),
        "SpatialMomentum": (lambda: m.SpatialMomentum([1, 2, 3, 4, 5, 6]), vector),
        "SpatialVelocity": (lambda: m.SpatialVelocity([1, 2, 3, 4, 5, 6]), vector),
        "Sphere": (lambda: m.Sphere(0.5), lambda o: o.radius()),
        "TriggerType": (lambda: m.TriggerType.kPeriodic, enum),
        "UnitInertia": (lambda: m.UnitInertia(1, 2, 3), lambda o: o.CopyToFullMatrix3()),
    }


def _templated(m):
    """Instances of template instantiations for AutoDiffXd (name → (make, values))."""
    ad = m.AutoDiffXd

    def adv(n):
        return [ad(float(i), [1.0, float(i)]) for i in range(n)]

    def ad_values(a):
        a = np.asarray(a, dtype=object).reshape(-1)
        return [(x.value(), tuple(x.derivatives())) for x in a]

    return {
        "RigidTransform_[AutoDiffXd]": (
            lambda: m.RigidTransform_[ad](m.RotationMatrix_[ad](), adv(3)),
            lambda o: ad_values(o.GetAsMatrix34()),
        ),
        "SpatialVelocity_[AutoDiffXd]": (
            lambda: m.SpatialVelocity_[ad](adv(6)),
            lambda o: ad_values(o.get_coeffs()),
        ),
    }


ENUMS = {
    "ContactModel", "DiscreteContactApproximation", "DiscreteContactSolver",
    "HydroelasticContactRepresentation", "InputPortSelection", "JacobianWrtVariable",
    "KnotVectorType", "NumericalGradientMethod", "OutputPortSelection", "PortDataType",
    "RandomDistribution", "Role", "RoleAssign", "TriggerType",
}  # fmt: skip
# pydrake pickles an enum as ``cls.__new__(cls)`` then its int: Python's enum.Enum (mallard's
# enums but the PybindEnum ones) can't be made without its value, so those pickles don't load.
PYTHON_ENUMS = ENUMS - {
    "ContactModel", "DiscreteContactApproximation", "DiscreteContactSolver", "JacobianWrtVariable",
}  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def obj_file():
    with open(OBJ, "w") as f:
        f.write("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\n")


def pickled_by_pydrake():
    """The classes in both libraries that pydrake pickles (its classes with __setstate__)."""
    names = set()
    for name in dir(P):
        cls = getattr(P, name)
        if inspect.isclass(cls) and "__setstate__" in cls.__dict__ and hasattr(M, name):
            names.add(name)
    return names


def same(a, b):
    if isinstance(a, tuple | list):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            same(x, y)
    elif isinstance(a, str):
        assert a == b
    else:  # (the libraries' SolidBoxWithMass differ in the last bit)
        np.testing.assert_allclose(np.asarray(a, float), np.asarray(b, float), rtol=1e-15)


def test_every_class_pydrake_pickles_is_covered():
    """Each class (instantiations for AutoDiffXd by their template: test_autodiff_instantiations;
    pydrake pickles no Expression values: its Expression does not pickle)."""
    bases = {n.split("_𝓣")[0] for n in pickled_by_pydrake() if "𝓣" in n}
    plain = {n for n in pickled_by_pydrake() if "𝓣" not in n}
    assert plain <= set(_cases(M)), plain - set(_cases(M))
    assert bases <= set(AUTODIFF_MADE), bases - set(AUTODIFF_MADE)


#: Per template, how to make a pydrake instance of its AutoDiffXd instantiation.
AUTODIFF_MADE = {
    "AngleAxis": lambda c, ad: c(ad(0.3, [1.0]), [ad(0.0), ad(0.6), ad(0.8)]),
    "CoulombFriction": lambda c, ad: c(ad(0.6, [1.0]), ad(0.5, [2.0])),
    "Isometry3": lambda c, ad: c(),
    "Quaternion": lambda c, ad: c(ad(0.5, [1.0]), ad(0.5), ad(0.5), ad(0.5)),
    "RigidTransform": lambda c, ad: c([ad(1.0, [1.0]), ad(2.0), ad(3.0)]),
    "RollPitchYaw": lambda c, ad: c(ad(0.1, [1.0]), ad(0.2), ad(0.3)),
    "RotationMatrix": lambda c, ad: c(),
    "RotationalInertia": lambda c, ad: c(ad(1.0, [1.0]), ad(2.0), ad(3.0)),
    "SpatialAcceleration": lambda c, ad: c([ad(float(i), [1.0]) for i in range(6)]),
    "SpatialForce": lambda c, ad: c([ad(float(i), [1.0]) for i in range(6)]),
    "SpatialInertia": lambda c, ad: c.SolidBoxWithMass(ad(2.0, [1.0]), ad(1.0), ad(2.0), ad(3.0)),
    "SpatialMomentum": lambda c, ad: c([ad(float(i), [1.0]) for i in range(6)]),
    "SpatialVelocity": lambda c, ad: c([ad(float(i), [1.0]) for i in range(6)]),
    "UnitInertia": lambda c, ad: c(ad(1.0, [1.0]), ad(2.0), ad(3.0)),
}


def _ad_state(obj):
    """The values and derivatives of a pickled state (nested tuples, arrays, AutoDiffXd)."""
    state = obj.__getstate__()
    out = []

    def walk(x):
        if isinstance(x, tuple | list):
            for y in x:
                walk(y)
        elif isinstance(x, np.ndarray):
            for y in x.flat:
                walk(y)
        elif hasattr(x, "derivatives"):
            out.append((x.value(), tuple(x.derivatives())))
        elif hasattr(x, "__getstate__") and not isinstance(x, int | float | str):
            walk(x.__getstate__())
        else:
            out.append((float(x), ()))

    walk(state)
    return out


@pytest.mark.parametrize("name", sorted(AUTODIFF_MADE))
def test_autodiff_instantiations(name):
    """pydrake's pickle of an AutoDiffXd instance (named by its instantiation, e.g.
    RigidTransform_𝓣AutoDiffXd𝓤) loads in mallard with the same values and derivatives, and
    mallard's round-trips."""
    cls = getattr(P, f"{name}_𝓣AutoDiffXd𝓤")
    theirs = AUTODIFF_MADE[name](cls, P.AutoDiffXd)
    ours = Renamed(pickle.dumps(theirs), "pydrake", "mallard").load()
    assert isinstance(ours, getattr(M, f"{name}_")[M.AutoDiffXd])
    assert _ad_state(ours) == _ad_state(theirs)
    again = pickle.loads(pickle.dumps(ours))
    assert _ad_state(again) == _ad_state(ours)


@pytest.mark.parametrize("name", sorted(_cases(M)) + sorted(_templated(M)))
def test_round_trip_and_public_module(name):
    make, values = {**_cases(M), **_templated(M)}[name]
    obj = make()
    data = pickle.dumps(obj)
    same(values(pickle.loads(data)), values(obj))
    for module in pickle.loads(data).__class__.__module__, type(obj).__module__:
        assert not any(part.startswith("_") for part in module.split(".")), module


@pytest.mark.parametrize("name", sorted(set(_cases(M)) - PYTHON_ENUMS) + sorted(_templated(M)))
def test_mallard_reads_pydrakes_pickles(name):
    make_p, values_p = {**_cases(P), **_templated(P)}[name]
    _, values_m = {**_cases(M), **_templated(M)}[name]
    loaded = Renamed(pickle.dumps(make_p()), "pydrake", "mallard").load()
    same(values_m(loaded), values_p(make_p()))


# mallard's value types hold AutoDiffXd in the class itself (not in an instantiation class, as
# pydrake's do), and pickle's NEWOBJ, which pydrake's classes need, must name the object's own
# class: pydrake can't read mallard's pickles of AutoDiffXd values.
@pytest.mark.parametrize("name", sorted(_cases(M)))
def test_pydrake_reads_mallards_pickles(name):
    make_p, values_p = {**_cases(P), **_templated(P)}[name]
    make_m, _ = {**_cases(M), **_templated(M)}[name]
    loaded = Renamed(pickle.dumps(make_m()), "mallard", "pydrake").load()
    same(values_p(loaded), values_p(make_p()))


@pytest.mark.parametrize(
    "module, name, expected",
    [
        ("math", "RigidTransform_[float]", "RigidTransform"),
        ("math", "RigidTransform_𝓣float𝓤", "RigidTransform"),
        ("math", "RotationMatrix_[AutoDiffXd]", ("RotationMatrix_", "AutoDiffXd")),
        ("math", "RollPitchYaw_𝓣AutoDiffXd𝓤", ("RollPitchYaw_", "AutoDiffXd")),
        ("math", "BsplineBasis_[float]", "BsplineBasis"),
        ("multibody.math", "SpatialVelocity_[float]", "SpatialVelocity"),
        ("multibody.math", "SpatialForce_𝓣AutoDiffXd𝓤", ("SpatialForce_", "AutoDiffXd")),
        ("multibody.tree", "SpatialInertia_[float]", "SpatialInertia"),
        ("multibody.tree", "UnitInertia_[AutoDiffXd]", ("UnitInertia_", "AutoDiffXd")),
        ("common.eigen_geometry", "Quaternion_[float]", "Quaternion"),
        ("common.eigen_geometry", "Isometry3_𝓣AutoDiffXd𝓤", ("Isometry3_", "AutoDiffXd")),
        ("multibody.plant", "CoulombFriction_[float]", "CoulombFriction"),
        ("trajectories", "PiecewisePolynomial_[float]", "PiecewisePolynomial"),
    ],
)
def test_legacy_template_names(module, name, expected):
    """pickle looks classes up by name in their module, as pydrake's modules answer it."""
    for root in ("pydrake", "mallard"):
        mod = importlib.import_module(f"{root}.{module}")
        if isinstance(expected, str):
            want = getattr(mod, expected)
        else:
            template, T = expected
            want = getattr(mod, template)[getattr(importlib.import_module(f"{root}.all"), T)]
        assert getattr(mod, name) is want
        assert pickle.loads(_global_pickle(f"{root}.{module}", name)) is want
    mallard_module = importlib.import_module(f"mallard.{module}")
    with pytest.raises(AttributeError, match="has no attribute"):
        mallard_module.__getattr__("NoSuchClass_[float]")


def _global_pickle(module, name):
    """A pickle of the class ``module.name`` (protocol 4's STACK_GLOBAL)."""
    m, n = module.encode(), name.encode()
    return b"\x80\x04\x8c" + bytes([len(m)]) + m + b"\x8c" + bytes([len(n)]) + n + b"\x93."
