"""SceneGraph's proximity queries as kernels: plain functions over arrays, written and called as
the dynamics' kernels are (mallard.multibody._kernels, docs/architecture.md): ``@jitable``,
compiled for float64 and interpreted for object arrays (AutoDiffXd), called from Python only
through entry points (``mallard._compiled.kernels(dtype).<name>``, module ``queries`` and
``batch``), reading the geometry model and workspaces of mallard.geometry._proximity_layout.

The answers are Drake's (v1.51, FCL and libccd underneath), computed by the same algorithms:

* ``point_distance``: the signed distance from a point to each shape (Drake's closed forms;
  an ellipsoid by GJK, a Convex or Mesh from its triangle surface);
* ``sphere_pairs``, ``box_box``, ``halfspace_pairs``: the pairs Drake or FCL answer in closed
  form (a sphere with a sphere, box, capsule, cylinder or half space; two boxes, by separating
  axes; a half space with a box, capsule, cylinder, ellipsoid or convex shape);
* ``ccd`` (support functions and libccd's vector helpers), ``mpr`` (Minkowski portal
  refinement: the penetration of the other pairs, as FCL's collision), ``gjk`` (distance) and
  ``epa`` (penetration depth, for signed distance);
* ``narrowphase``: which algorithm answers a pair; ``broadphase``: bounding boxes and
  sweep-and-prune; ``queries`` and ``batch``: the entry points.

Their on-disk cache is stamped as the dynamics' kernels' are (kernels._machinery.KERNEL_PACKAGES).
"""
