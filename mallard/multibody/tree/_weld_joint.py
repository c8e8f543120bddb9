"""WeldJoint: fixes frame M to frame F with a constant pose X_FM."""

import numpy as np

from mallard.math import RigidTransform
from mallard.multibody import _joint_types
from mallard.multibody.tree._joint import Joint

#: X_FM of the welds _at_identity makes, shared (read only: nothing changes a joint's pose).
_AT_IDENTITY = RigidTransform._make(np.eye(3), np.zeros(3))
_AT_IDENTITY._R._R.flags.writeable = _AT_IDENTITY._p.flags.writeable = False


class WeldJoint(Joint):
    """No degrees of freedom: X_FM is constant."""

    kTypeName = "weld"
    _jtype = _joint_types.WELD

    def __init__(self, name, frame_on_parent_F, frame_on_child_M, X_FM):
        super().__init__(name, frame_on_parent_F, frame_on_child_M)
        self._X_FM = RigidTransform(self._as_instance(X_FM, RigidTransform, "X_FM", "__init__"))

    @classmethod
    def _at_identity(cls, name, frame_on_parent_F, frame_on_child_M):
        """The weld at X_FM = I of checked arguments (a non-empty str, two Frames): the
        constructor without its checks, its X_FM the welds' shared identity (WeldFrames')."""
        joint = object.__new__(cls)
        joint._init_fields(name, frame_on_parent_F, frame_on_child_M)
        joint._X_FM = _AT_IDENTITY
        return joint

    def X_FM(self):
        """The constant pose of M in F."""
        return RigidTransform(self._X_FM)
