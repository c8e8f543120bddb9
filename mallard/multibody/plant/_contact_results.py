"""ContactResults and PointPairContactInfo (pydrake.multibody.plant's): what a MultibodyPlant's
contact_results output port reports.

mallard computes point contact only (hydroelastic contact and deformables are later work):
a ContactResults holds PointPairContactInfo, and no hydroelastic or deformable contact.
"""

import numpy as np

from mallard._scalar import as_array, as_scalar
from mallard.multibody.tree._indices import BodyIndex


class PointPairContactInfo:
    """The contact of bodies A and B at one point pair: the force f_Bc_W on B at the contact
    point C (in World; A gets −f_Bc_W at C), p_WC, the separation speed (Drake's vn: the rate
    at which the penetration grows, positive when A and B approach), the slip speed (the
    magnitude of B's tangential velocity relative to A at C) and the geometry's
    PenetrationAsPointPair."""

    __module__ = "mallard.multibody.plant"
    __slots__ = ("_A", "_B", "_f", "_p", "_vn", "_vt", "_pair")

    def __init__(self, bodyA_index, bodyB_index, f_Bc_W, p_WC, separation_speed, slip_speed,
                 point_pair):  # fmt: skip
        for name, index in (("bodyA_index", bodyA_index), ("bodyB_index", bodyB_index)):
            if not isinstance(index, BodyIndex):
                raise TypeError(
                    f"PointPairContactInfo(): {name} must be a BodyIndex, got {index!r}"
                )
        self._A, self._B = bodyA_index, bodyB_index
        self._f = as_array(f_Bc_W, (3,), "f_Bc_W").copy()
        self._p = as_array(p_WC, (3,), "p_WC").copy()
        self._vn = as_scalar(separation_speed, "separation_speed")
        self._vt = as_scalar(slip_speed, "slip_speed")
        self._pair = point_pair

    @classmethod
    def _make(cls, A, B, f_Bc_W, p_WC, vn, vt, pair):
        """Without checks (the plant's)."""
        info = object.__new__(cls)
        info._A, info._B, info._f, info._p = A, B, f_Bc_W, p_WC
        info._vn, info._vt, info._pair = vn, vt, pair
        return info

    def bodyA_index(self):
        return self._A

    def bodyB_index(self):
        return self._B

    def contact_force(self):
        """f_Bc_W: the force on B at C, in World."""
        return self._f.copy()

    def contact_point(self):
        """p_WC: the contact point, midway between the witness points, in World."""
        return self._p.copy()

    def slip_speed(self):
        return self._vt

    def separation_speed(self):
        return self._vn

    def point_pair(self):
        """The PenetrationAsPointPair of the contact."""
        return self._pair

    def __repr__(self):
        return (
            f"PointPairContactInfo(bodyA_index={self._A!r}, bodyB_index={self._B!r}, "
            f"contact_force={np.asarray(self._f)!r}, contact_point={np.asarray(self._p)!r})"
        )


class ContactResults:
    """The contacts of a MultibodyPlant at a Context: its point pair contacts (a list of
    PointPairContactInfo) and the plant that computed them (None for a ContactResults made
    by hand)."""

    __module__ = "mallard.multibody.plant"
    __slots__ = ("_point_pairs", "_plant")

    def __init__(self):
        self._point_pairs = []
        self._plant = None

    @classmethod
    def _make(cls, point_pairs, plant):
        results = object.__new__(cls)
        results._point_pairs, results._plant = point_pairs, plant
        return results

    def num_point_pair_contacts(self):
        return len(self._point_pairs)

    def point_pair_contact_info(self, i):
        """The i-th PointPairContactInfo; RuntimeError, as Drake's, out of range."""
        i = int(i)
        if not 0 <= i < len(self._point_pairs):
            raise RuntimeError(
                "point_pair_contact_info(): condition 'i >= 0 && i < "
                "num_point_pair_contacts()' failed."
            )
        return self._point_pairs[i]

    def num_hydroelastic_contacts(self):
        """0: mallard has no hydroelastic contact yet."""
        return 0

    def hydroelastic_contact_info(self, i):
        raise RuntimeError(
            "hydroelastic_contact_info(): condition 'i >= 0 && i < "
            "num_hydroelastic_contacts()' failed."
        )

    def num_deformable_contacts(self):
        """0: mallard has no deformable bodies."""
        return 0

    def deformable_contact_info(self, i):
        raise RuntimeError(
            "deformable_contact_info(): condition 'i >= 0 && i < num_deformable_contacts()' failed."
        )

    def plant(self):
        """The MultibodyPlant that computed these results, or None."""
        return self._plant

    def SelectHydroelastic(self, selector):
        """These results with the hydroelastic contacts for which ``selector`` is true (every
        point pair contact is kept; mallard has no hydroelastic contacts)."""
        return ContactResults._make(list(self._point_pairs), self._plant)

    def __repr__(self):
        return f"ContactResults(num_point_pair_contacts={len(self._point_pairs)})"
