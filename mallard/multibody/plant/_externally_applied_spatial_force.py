"""ExternallyAppliedSpatialForce: a spatial force applied to a point of a body, for the
plant's applied spatial force input port."""

import copy

import numpy as np

from mallard._scalar import as_array
from mallard.multibody.math import SpatialForce
from mallard.multibody.tree._indices import BodyIndex


class ExternallyAppliedSpatialForce:
    """F_Bq_W (expressed in World) applied at point Bq of the body ``body_index``, with
    p_BoBq_B the position of Bq from the body's origin, expressed in the body frame."""

    __slots__ = ("_body_index", "_p_BoBq_B", "_F_Bq_W")

    def __init__(self):
        self._body_index = BodyIndex()
        self._p_BoBq_B = np.zeros(3)
        self._F_Bq_W = SpatialForce.Zero()

    def __copy__(self):
        other = ExternallyAppliedSpatialForce()
        other._body_index, other._F_Bq_W = self._body_index, copy.copy(self._F_Bq_W)
        other._p_BoBq_B = self._p_BoBq_B.copy()
        return other

    def __deepcopy__(self, memo):
        return self.__copy__()

    @property
    def body_index(self):
        return self._body_index

    @body_index.setter
    def body_index(self, value):
        if not isinstance(value, BodyIndex):
            raise TypeError(f"body_index must be a BodyIndex, got {value!r}")
        self._body_index = value

    @property
    def p_BoBq_B(self):
        """p_BoBq_B (a read-only array, as pydrake's; assign a new value to change it)."""
        view = self._p_BoBq_B.view()
        view.flags.writeable = False
        return view

    @p_BoBq_B.setter
    def p_BoBq_B(self, value):
        a = as_array(value, name="p_BoBq_B")
        if a.shape not in ((3,), (3, 1)):
            raise TypeError(f"p_BoBq_B must be a 3-vector, got shape {np.shape(value)}")
        a = a.reshape(3)
        if np.result_type(a, float) == self._p_BoBq_B.dtype:
            self._p_BoBq_B[:] = a  # In place: views handed out see it, as in pydrake.
        else:
            self._p_BoBq_B = a.astype(np.result_type(a, float))

    @property
    def F_Bq_W(self):
        return self._F_Bq_W

    @F_Bq_W.setter
    def F_Bq_W(self, value):
        if not isinstance(value, SpatialForce):
            raise TypeError(f"F_Bq_W must be a SpatialForce, got {value!r}")
        self._F_Bq_W = value
