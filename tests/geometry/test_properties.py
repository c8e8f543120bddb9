"""Geometry property sets, the contact-material helpers and CoulombFriction."""

import copy
import math

import pytest

from mallard.common.value import Value
from mallard.geometry import (
    AddCompliantHydroelasticProperties,
    AddCompliantHydroelasticPropertiesForHalfSpace,
    AddContactMaterial,
    AddRigidHydroelasticProperties,
    GeometryProperties,
    IllustrationProperties,
    MakePhongIllustrationProperties,
    PerceptionProperties,
    ProximityProperties,
    Rgba,
)
from mallard.geometry._properties import HydroelasticType
from mallard.multibody.plant import CalcContactFrictionFromSurfaceProperties, CoulombFriction


def test_groups_and_values():
    p = ProximityProperties()
    assert p.default_group_name() == "__default__"
    assert (p.num_groups(), p.GetGroupNames()) == (1, {"__default__"})
    p.AddProperty("g", "x", 1.5)
    p.AddProperty("g", "s", "text")
    assert p.HasGroup("g") and p.HasProperty("g", "x") and not p.HasProperty("h", "x")
    assert p.GetProperty("g", "x") == 1.5 and p.GetPropertyOrDefault("h", "y", 7) == 7
    values = p.GetPropertiesInGroup("g")
    assert set(values) == {"x", "s"} and isinstance(values["x"], Value)
    assert values["s"].get_value() == "text"
    p.UpdateProperty("g", "x", 2.5)
    p.UpdateProperty("g", "new", 3.0)
    assert p.GetProperty("g", "x") == 2.5 and p.GetProperty("g", "new") == 3.0
    assert p.RemoveProperty("g", "x") and not p.RemoveProperty("g", "x")
    assert not p.RemoveProperty("zz", "x") and p.HasGroup("g")
    assert str(p) == "[g]\n  s: std::string\n  new: double\n[__default__]"
    copied = IllustrationProperties(p)
    assert copied.GetProperty("g", "s") == "text" and isinstance(copied, IllustrationProperties)
    clone = copy.deepcopy(p)
    clone.AddProperty("g", "only_clone", 1.0)
    assert not p.HasProperty("g", "only_clone")


def test_property_errors():
    p = PerceptionProperties()
    p.AddProperty("a", "b", 1.0)
    with pytest.raises(RuntimeError, match=r"AddProperty\(\): Trying to add property \('a', 'b'\)"):
        p.AddProperty("a", "b", 2.0)
    with pytest.raises(RuntimeError, match="New type std::string, existing type double"):
        p.UpdateProperty("a", "b", "x")
    with pytest.raises(RuntimeError, match="New type drake::pydrake::Object, existing type double"):
        p.UpdateProperty("a", "b", 2)  # an int is not a double, as in pydrake
    with pytest.raises(RuntimeError, match=r"There is no property \('a', 'zz'\)"):
        p.GetProperty("a", "zz")
    with pytest.raises(RuntimeError, match=r"\('zz', 'b'\), but the group does not exist"):
        p.GetProperty("zz", "b")
    with pytest.raises(RuntimeError, match="group that doesn't exist: 'zz'"):
        p.GetPropertiesInGroup("zz")
    with pytest.raises(TypeError, match="No constructor defined"):
        GeometryProperties()
    with pytest.raises(TypeError):
        ProximityProperties({"a": 1})


def test_phong():
    p = MakePhongIllustrationProperties([1, 0, 0, 1])
    assert p.GetProperty("phong", "diffuse") == Rgba(1, 0, 0, 1)
    assert MakePhongIllustrationProperties(Rgba(0, 1, 0)).GetProperty("phong", "diffuse").g() == 1
    with pytest.raises(TypeError, match="RGBA 4-vector"):
        MakePhongIllustrationProperties([1, 0, 0])


def test_contact_material():
    p = ProximityProperties()
    friction = CoulombFriction(0.8, 0.5)
    AddContactMaterial(dissipation=2.0, point_stiffness=1e5, friction=friction, properties=p)
    assert p.GetProperty("material", "hunt_crossley_dissipation") == 2.0
    assert p.GetProperty("material", "point_contact_stiffness") == 1e5
    assert p.GetProperty("material", "coulomb_friction") == friction
    q = ProximityProperties()
    AddContactMaterial(q, point_stiffness=3.0)  # pydrake's second overload
    assert q.GetGroupNames() == {"__default__", "material"}
    assert set(q.GetPropertiesInGroup("material")) == {"point_contact_stiffness"}
    AddContactMaterial(None, None, None, q)  # nothing given, nothing added
    cases = [
        (dict(dissipation=-1.0), "The dissipation can't be negative; given -1"),
        (dict(point_stiffness=0.0), "point_contact_stiffness must be strictly positive; given 0"),
        (dict(dissipation=math.nan), "dissipation must be a finite number; given nan"),
        (dict(point_stiffness=math.inf), "point_contact_stiffness must be a finite number"),
    ]
    for kwargs, message in cases:
        with pytest.raises(RuntimeError, match=message):
            AddContactMaterial(properties=ProximityProperties(), **kwargs)
    r = ProximityProperties()
    r.AddProperty("material", "point_contact_stiffness", 1.0)
    with pytest.raises(RuntimeError, match="'point_contact_stiffness'.*already exists"):
        AddContactMaterial(dissipation=1.0, point_stiffness=2.0, properties=r)
    assert not r.HasProperty("material", "hunt_crossley_dissipation")  # nothing added
    with pytest.raises(TypeError, match="ProximityProperties"):
        AddContactMaterial(dissipation=1.0, properties=IllustrationProperties())
    with pytest.raises(TypeError, match="CoulombFriction"):
        AddContactMaterial(friction=(1, 1), properties=ProximityProperties())


def test_hydroelastic_properties():
    p = ProximityProperties()
    AddRigidHydroelasticProperties(0.1, p)
    assert p.GetProperty("hydroelastic", "resolution_hint") == 0.1
    assert p.GetProperty("hydroelastic", "compliance_type") is HydroelasticType.kRigid
    q = ProximityProperties()
    AddRigidHydroelasticProperties(properties=q)
    assert set(q.GetPropertiesInGroup("hydroelastic")) == {"compliance_type"}
    c = ProximityProperties()
    AddCompliantHydroelasticProperties(0.05, 1e7, c)
    values = {k: c.GetProperty("hydroelastic", k) for k in c.GetPropertiesInGroup("hydroelastic")}
    assert values == {
        "resolution_hint": 0.05,
        "compliance_type": HydroelasticType.kSoft,
        "hydroelastic_modulus": 1e7,
    }
    h = ProximityProperties()
    AddCompliantHydroelasticPropertiesForHalfSpace(0.2, 1e6, h)
    assert h.GetProperty("hydroelastic", "slab_thickness") == 0.2
    assert str(h).startswith("[hydroelastic]\n  slab_thickness: double\n  compliance_type: ")
    with pytest.raises(RuntimeError, match="The hydroelastic modulus must be positive; given 0"):
        AddCompliantHydroelasticProperties(0.1, 0.0, ProximityProperties())
    with pytest.raises(RuntimeError, match="resolution hint must be positive; given -1"):
        AddCompliantHydroelasticProperties(-1.0, 1e7, ProximityProperties())
    with pytest.raises(RuntimeError, match="slab thickness must be a finite number; given inf"):
        AddCompliantHydroelasticPropertiesForHalfSpace(math.inf, 1e7, ProximityProperties())
    with pytest.raises(RuntimeError, match="resolution_hint'\\); a property with that name"):
        AddCompliantHydroelasticProperties(0.1, 1e5, p)
    assert not p.HasProperty("hydroelastic", "hydroelastic_modulus")  # nothing added


def test_coulomb_friction():
    mu = CoulombFriction(0.6, 0.3)
    assert (mu.static_friction(), mu.dynamic_friction()) == (0.6, 0.3)
    assert CoulombFriction().static_friction() == 0.0
    assert copy.deepcopy(mu) == mu and repr(mu).startswith("CoulombFriction(")
    for args, message in [
        ((-1, 0), "The given static friction is negative: -1"),
        ((1, -1), "The given dynamic friction is negative: -1"),
        ((-1, -1), "The given dynamic friction is negative: -1"),
        ((1, 2), r"dynamic friction \(2\) is greater than the given static friction \(1\)"),
        ((math.nan, 0), "static friction is not a number"),
    ]:
        with pytest.raises(RuntimeError, match=message):
            CoulombFriction(*args)
    combined = CalcContactFrictionFromSurfaceProperties(mu, CoulombFriction(1.0, 0.5))
    assert combined.static_friction() == pytest.approx(2 * 0.6 * 1.0 / 1.6, rel=1e-15)
    assert combined.dynamic_friction() == pytest.approx(2 * 0.3 * 0.5 / 0.8, rel=1e-15)
    zero = CalcContactFrictionFromSurfaceProperties(CoulombFriction(), CoulombFriction())
    assert (zero.static_friction(), zero.dynamic_friction()) == (0.0, 0.0)
