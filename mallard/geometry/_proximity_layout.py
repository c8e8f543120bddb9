"""The arrays SceneGraph's proximity engine shares with its kernels (mallard.geometry._kernels),
declared once (numba-free, so that the Python side can import it).

The geometry model, one row per proximity geometry, in increasing GeometryId order:

* ``gi`` (ng, GI_COLUMNS) int64: the shape code (``KIND``), the first hull vertex and their
  count (``HULL_START``, ``HULL_COUNT``: rows of ``hv``) and the first triangle of the
  geometry's surface and their count (``TRI_START``, ``TRI_COUNT``: rows of ``tri``, for
  ComputeSignedDistanceToPoint from a Convex or Mesh), and the index of the geometry's frame
  among the engine's frames (``FRAME``);
* ``gf`` (ng, 3) float64: the measures of the shape: a sphere's (radius, 0, 0), a box's half
  sizes, a capsule's or cylinder's (radius, half length, 0), an ellipsoid's semi-axes, a
  Convex's or Mesh's interior point (the mean of its hull's vertices, in G, as FCL's);
* ``hv`` (nhv, 3) float64: the hull vertices of every Convex and Mesh, p_GV in G (scaled);
* ``tri`` (nt, TRI_COLUMNS) float64: the triangles of the surfaces whose signed distance to a
  point is computed from a triangle mesh (a Convex's hull, a Mesh's own surface), each as its
  three corners, its outward unit normal and the pseudo-normals of its three edges and three
  corners (the feature normals that decide a point's side, as Drake's);
* poses ``X_WG`` (ng, 4, 3) as 4×3 arrays [R_WG; p_WGoᵀ] (the plant's pose layout).

A kernel workspace (``ws`` float64, ``wi`` int64) holds the simplex of GJK and the polytope of
EPA (MPR's portal is held in registers: kernels.mpr): see the WS_* and WI_* sections below
(sizes in scalars).
"""

#: Shape codes (``gi[g, KIND]``), and the names Drake's messages give them (FCL's names; a Mesh
#: is represented by its convex hull, named "Convex").
SPHERE, BOX, CAPSULE, CYLINDER, ELLIPSOID, HALFSPACE, CONVEX, MESH = range(8)
FCL_NAMES = ("Sphere", "Box", "Capsule", "Cylinder", "Ellipsoid", "Halfspace", "Convex", "Convex")

# Columns of gi.
KIND, HULL_START, HULL_COUNT, TRI_START, TRI_COUNT, FRAME = range(6)
GI_COLUMNS = 6

# Columns of a row of tri: corners a, b, c; the face normal; edge normals (ab, bc, ca); corner
# normals (a, b, c).
TRI_A, TRI_B, TRI_C, TRI_N, TRI_EDGE_N, TRI_CORNER_N = 0, 3, 6, 9, 12, 21
TRI_COLUMNS = 30

# ---- the workspace of the iterative algorithms (kernels.gjk, kernels.mpr, kernels.epa) --------
#: A support point of the Minkowski difference A ⊖ B: v = v1 − v2 (v1 on A, v2 on B).
SUPPORT = 9
#: The capacity of EPA's polytope (libccd's lists, here fixed arrays: a query that needs more
#: fails with a clear error).
EPA_VERTICES, EPA_EDGES, EPA_FACES = 1024, 3072, 2048
#: Floats per polytope vertex (support point, squared distance, witness), edge (squared
#: distance, witness) and face (squared distance, witness, unit normal, the normal's distance
#: from the origin to the face's plane).
PT_VERTEX, PT_EDGE, PT_FACE = SUPPORT + 4, 4, 8
#: Ints per edge (two vertices, two faces, alive) and face (three edges, alive).
PT_EDGE_I, PT_FACE_I = 5, 4

WS_SIMPLEX = 0  # 4 support points (GJK)
WS_SCRATCH = WS_SIMPLEX + 4 * SUPPORT  # 8 support points of scratch (EPA's start)
WS_STATE = WS_SCRATCH + 8 * SUPPORT  # EPA: the nearest element's squared distance
WS_VERTICES = WS_STATE + 4
WS_EDGES = WS_VERTICES + EPA_VERTICES * PT_VERTEX
WS_FACES = WS_EDGES + EPA_EDGES * PT_EDGE
WS_EPA = WS_FACES + EPA_FACES * PT_FACE  # EPA by address: its objects, tolerance; its answer
OBJECT = 20  # floats of a convex object (kernels.ccd.make_object)
WS_SIZE = WS_EPA + 2 * OBJECT + 1 + 7

WI_COUNTS = 0  # vertices, edges, faces used so far; the nearest element's type and index;
#              the numbers of border edges, visible faces and internal edges found
WI_VERTEX_ALIVE = 8
WI_EDGES = WI_VERTEX_ALIVE + EPA_VERTICES
WI_FACES = WI_EDGES + EPA_EDGES * PT_EDGE_I
WI_FACE_MARK = WI_FACES + EPA_FACES * PT_FACE_I  # visible patch: 0 unseen, 1 visible, 2 hidden
WI_EDGE_MARK = WI_FACE_MARK + EPA_FACES  # visible patch: 0, 1 internal, 2 border
WI_BORDER = WI_EDGE_MARK + EPA_EDGES  # the border edges, in the order found
WI_STACK = WI_BORDER + EPA_EDGES  # the visible patch's depth-first search (face, edge in, next)
WI_NEW_EDGE = WI_STACK + 3 * EPA_FACES  # per vertex: the edge to the new vertex, or -1
WI_VISIBLE = WI_NEW_EDGE + EPA_VERTICES  # the visible faces, in the order found
WI_INTERNAL = WI_VISIBLE + EPA_FACES  # the internal edges, in the order found
WI_SIZE = WI_INTERNAL + EPA_EDGES

# ---- results: one row per pair (or geometry) ---------------------------------------------------
#: A penetration: depth, nhat_BA_W, p_WCa, p_WCb.
PENETRATION = 10
#: A signed distance: distance, nhat_BA_W, p_ACa, p_BCb.
DISTANCE = 10
#: A signed distance to a point: distance, p_GN, grad_W.
POINT = 7
