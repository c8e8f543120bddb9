"""FCL's GJK signed distance of two convex objects (GJKSignedDistance): GJK's distance and
witness points when they are apart (kernels.gjk), EPA's depth when they overlap
(kernels.epa); compiled once and called by address (kernels._by_address) by the queries that
need it: the signed distances of pairs (kernels.narrowphase.gjk_signed_distance: the
proximity queries' and BatchedPlant's batch_collisions) and an ellipsoid's distance to a point
(kernels.point_distance).

The call passes the two objects (kernels.ccd.make_object), the first's first support point
(kernels.gjk.first_support), the tolerance and the answer (φ, p1, p2) through the workspace's
WS_CALL slots (mallard.geometry._proximity_layout); GJK's simplex and EPA's polytope are in
the workspaces already.
"""

import numpy as np
from numba import carray, types
from numba.extending import overload

from mallard._compiled import by_address
from mallard.geometry._kernels.ccd import load_object, store_object
from mallard.geometry._kernels.epa import epa
from mallard.geometry._kernels.gjk import gjk_distance, gjk_intersect_from, simplex
from mallard.geometry._proximity_layout import (
    CALL_ANSWER,
    CALL_O1,
    CALL_O2,
    CALL_TOLERANCE,
    CALL_V1,
    WI_SIZE,
    WS_CALL,
    WS_SIZE,
)
from mallard.multibody._kernels._by_address import address_of, call_at
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels._pointer import pointer


@jitable
def gjk_epa(o1, v1, o2, hv, ws, wi, tolerance, max_iterations):
    """(status, φ, p1, p2): the signed distance of objects o1 and o2 (v1 = o1's first
    support point, kernels.gjk.first_support) and its witness points, p1 on o1 and p2 on o2
    (World), GJK's simplex and EPA's polytope in the workspaces ws and wi. Status 0, or
    EPA's failure (kernels.epa: FAILED, FULL); φ −1 if GJK's distance did not converge."""
    P, _ = simplex(ws)
    overlap, size, ready = gjk_intersect_from(o1, v1, o2, hv, P, max_iterations)
    if overlap:
        status, depth, p1, p2 = epa(o1, o2, hv, P, size, ws, wi, tolerance)
        return status, -depth, p1, p2
    phi, p1, p2 = gjk_distance(o1, o2, hv, P, size, ready, tolerance, max_iterations)
    return 0, phi, p1, p2


@by_address
def gjk_epa_at(ws, wi, hv, nhv, max_iterations):
    """:func:`gjk_epa` compiled once (kernels._by_address), which :func:`object_distance`
    calls compiled: the workspaces ws (WS_SIZE) and wi (WI_SIZE) and the hull vertices hv
    (nhv × 3) as the addresses of their data, the objects, first support point and tolerance
    in ws's WS_CALL slots, where it writes φ, p1 and p2; returns the status."""
    ws = carray(pointer(ws), WS_SIZE, np.float64)
    io = ws[WS_CALL:]
    v1 = (io[CALL_V1], io[CALL_V1 + 1], io[CALL_V1 + 2])
    status, phi, p1, p2 = gjk_epa(
        load_object(io, CALL_O1), v1, load_object(io, CALL_O2),
        carray(pointer(hv), (nhv, 3), np.float64), ws, carray(pointer(wi), WI_SIZE, np.int64),
        io[CALL_TOLERANCE], max_iterations,
    )  # fmt: skip
    io[CALL_ANSWER] = phi
    for i in range(3):
        io[CALL_ANSWER + 1 + i], io[CALL_ANSWER + 4 + i] = p1[i], p2[i]
    return status


def object_distance(o1, v1, o2, hv, ws, wi, tolerance, max_iterations, address):
    """:func:`gjk_epa`: interpreted, here; compiled, by the kernel compiled once at the
    address ``address`` (``Kernels.address("gjk_epa_at")``), called, not linked into the
    caller's code (hv, ws and wi C-contiguous), or, for an address None, linked."""
    return gjk_epa(o1, v1, o2, hv, ws, wi, tolerance, max_iterations)


@overload(object_distance)
def _object_distance_compiled(o1, v1, o2, hv, ws, wi, tolerance, max_iterations, address):
    if isinstance(address, types.NoneType):
        return lambda o1, v1, o2, hv, ws, wi, tolerance, max_iterations, address: gjk_epa(
            o1, v1, o2, hv, ws, wi, tolerance, max_iterations
        )

    def impl(o1, v1, o2, hv, ws, wi, tolerance, max_iterations, address):
        io = ws[WS_CALL:]
        store_object(o1, io, CALL_O1)
        store_object(o2, io, CALL_O2)
        io[CALL_V1], io[CALL_V1 + 1], io[CALL_V1 + 2] = v1[0], v1[1], v1[2]
        io[CALL_TOLERANCE] = tolerance
        arguments = (address_of(ws), address_of(wi), address_of(hv), hv.shape[0], max_iterations)
        status = call_at(address, arguments)
        at = CALL_ANSWER
        return status, io[at], (io[at + 1], io[at + 2], io[at + 3]), (io[at + 4], io[at + 5],
                                                                    io[at + 6])  # fmt: skip

    return impl
