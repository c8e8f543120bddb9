"""Mirror of pydrake.common.schema, its deterministic part: Rotation and Transform, the poses
that configuration files (model directives) give, with Drake's YAML tags (``!Rpy {deg:
[...]}``, ``!AngleAxis {angle_deg: ..., axis: [...]}``, ``!Identity {}``). Random
distributions (Drake's ``!Uniform``, ``!Gaussian``...) are not provided."""

import dataclasses
import math

import numpy as np

from mallard.math import RigidTransform, RollPitchYaw, RotationMatrix

__all__ = ["Rotation", "Transform"]

_IDENTITY = np.eye(3)


class Rotation:
    """A rotation given as one of ``Rotation.Identity()``, ``Rotation.Rpy(deg=[r, p, y])``
    or ``Rotation.AngleAxis(angle_deg=..., axis=[x, y, z])`` (its ``value``)."""

    @dataclasses.dataclass
    class Identity:
        """No rotation."""

    @dataclasses.dataclass
    class Rpy:
        """Roll, pitch, yaw angles in degrees."""

        deg: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(3))

    @dataclasses.dataclass
    class AngleAxis:
        """An angle in degrees about an axis (normalized when used)."""

        angle_deg: float = 0.0
        axis: np.ndarray = dataclasses.field(default_factory=lambda: np.array([0.0, 0.0, 1.0]))

    def __init__(self, value=None):
        self.value = Rotation.Identity() if value is None else value

    def IsDeterministic(self):
        """True: every rotation here is deterministic."""
        return True

    def GetDeterministicValue(self):
        """The RotationMatrix this names."""
        value = self.value
        if isinstance(value, Rotation.Identity):
            return RotationMatrix()
        if isinstance(value, Rotation.Rpy):
            return RotationMatrix(RollPitchYaw(np.radians(np.asarray(value.deg, dtype=float))))
        if isinstance(value, Rotation.AngleAxis):
            axis = np.asarray(value.axis, dtype=float)
            norm = float(np.linalg.norm(axis))
            if not norm > 0:
                raise RuntimeError("Rotation.AngleAxis: the axis must not be zero")
            return _angle_axis(math.radians(value.angle_deg), axis / norm)
        raise TypeError(f"Rotation: unknown value {value!r}")

    def set_rpy_deg(self, rpy_deg):
        """Sets the rotation to roll, pitch, yaw angles in degrees."""
        self.value = Rotation.Rpy(deg=np.asarray(rpy_deg, dtype=float))

    def __eq__(self, other):
        return isinstance(other, Rotation) and _equal(self.value, other.value)

    def __repr__(self):
        return f"Rotation(value={self.value!r})"


def _angle_axis(angle, axis):
    from mallard.common._angle_axis import angle_axis_to_matrix

    return RotationMatrix._make(angle_axis_to_matrix(angle, axis))


def _equal(a, b):
    if type(a) is not type(b):
        return False
    if dataclasses.is_dataclass(a):
        return all(
            np.array_equal(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a)
        )
    return a == b


class Transform:
    """A pose: ``translation`` (3 numbers) and ``rotation`` (a Rotation), relative to
    ``base_frame`` (a frame name, or None)."""

    def __init__(self, base_frame=None, translation=None, rotation=None):
        self.base_frame = base_frame
        self.translation = np.zeros(3) if translation is None else np.asarray(translation, float)
        self.rotation = Rotation() if rotation is None else rotation

    def IsDeterministic(self):
        """True: every transform here is deterministic."""
        return True

    def GetDeterministicValue(self):
        """The RigidTransform this names (the base frame is not part of it)."""
        p = self.translation
        if (
            type(self.rotation.value) is Rotation.Identity
            and type(p) is np.ndarray
            and p.dtype == np.float64
            and p.shape == (3,)
        ):  # (the common case, without the constructors' overload resolution)
            return RigidTransform._make(_IDENTITY.copy(), p.copy())
        return RigidTransform(self.rotation.GetDeterministicValue(), p)

    def set_rotation_rpy_deg(self, rpy_deg):
        """Sets the rotation to roll, pitch, yaw angles in degrees."""
        self.rotation.set_rpy_deg(rpy_deg)

    def __eq__(self, other):
        return (
            isinstance(other, Transform)
            and self.base_frame == other.base_frame
            and np.array_equal(self.translation, other.translation)
            and self.rotation == other.rotation
        )

    def __repr__(self):
        return (
            f"Transform(base_frame={self.base_frame!r}, translation={self.translation!r}, "
            f"rotation={self.rotation!r})"
        )
