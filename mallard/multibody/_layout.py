"""The layout of the flat model and of the per-Context workspace the plant's compiled entry
points use (numba-free, so the plant can import it).

The flat model is an int64 array ``mi`` (sizes, section offsets, the tree rows, actuator and
gravity tables) and a float64 array ``mf`` (joint constants). The workspace ``ws`` is one 1-D
array (float64, or object for non-double scalars) holding every derived quantity of a Context
in named sections; ``mi[OFFSETS + section]`` is where each starts.
"""

# Header of mi.
N = 0  # number of mobilized bodies (World included)
NQ = 1
NV = 2
NU = 3  # actuated dofs
TREE = 4  # offset of the tree rows (n × 6, see kernels.kinematics)
ACTUATED_V = 5  # offset of each actuator input's generalized velocity (nu)
GRAVITY_MASK = 6  # offset of 1/0 per mobod: gravity acts on its body (n)
WS_SIZE = 7
V_END = 8  # offset of the end of each mobod's subtree's dofs (n; see kernels.dynamics)
OFFSETS = 9  # mi[OFFSETS + section] = the section's offset in ws

# Stages (bits of ``need``): what a driver must compute before its result.
POSITIONS = 1  # X_pc, H_PB_W
VELOCITIES = 2  # V_WB
INERTIAS = 4  # m_W, h_W, I_W
BIAS = 8  # A_bias

# Bits of the X_kind section: which of a mobod's constant poses are exactly identities (see
# kernels.kinematics).
R_PF_IDENTITY = 1  # X_PF is a translation
X_MB_IDENTITY = 2


def sin_cos_width(nq):
    """nq rounded up to a multiple of 32, a multiple of the block of every vector loop (vector
    width times interleave): the width of the sin_cos section (see kernels.trig)."""
    return -(-nq // 32) * 32


def _sections(n, nq, nv, nu):
    """(name, shape) of every workspace section, in order."""
    return (
        # Parameters (set from the Context's PlantParameters by the plant).
        ("X_PF_MB", (2, n, 4, 3)),
        ("m_B", (n,)),
        ("com_B", (n, 3)),
        ("G_B", (n, 3, 3)),
        ("damping", (nv,)),
        ("reflected", (nv,)),
        ("effort_limits", (nu,)),
        ("g_W", (3,)),
        ("locked", (n,)),
        ("X_kind", (n,)),  # kernels.kinematics' identity bits of X_PF_MB
        # Stages.
        ("X_pc", (4, n, 4, 3)),
        ("H_PB_W", (nv, 6)),
        ("H_FM", (6, 6)),
        ("m_W", (n,)),
        ("h_W", (n, 3)),
        ("I_W", (n, 3, 3)),
        ("V_WB", (n, 6)),
        ("A_bias", (n, 6)),
        ("bias_ws", (12,)),
        # Results and temporaries.
        ("M", (nv, nv)),
        ("tau", (nv,)),
        ("A_WB", (n, 6)),
        ("F", (n, 6)),
        ("vdot", (nv,)),
        ("qdot", (nq,)),
        ("Ic_m", (n,)),
        ("Ic_h", (n, 3)),
        ("Ic_I", (n, 3, 3)),
        ("F6", (6,)),
        ("P", (n, 6, 6)),
        ("z", (n, 6)),
        ("U", (nv, 6)),
        ("Dinv", (n, 6, 6)),
        ("u_aba", (nv,)),
        ("tau_total", (nv,)),
        ("F_total", (n, 6)),
        ("J", (6, nv)),
        ("H_R", (nv, 6)),
        ("path", (n,)),
        ("F_R", (6, nv)),
        ("sin_cos", (3, sin_cos_width(nq))),
    )


SECTIONS = tuple(name for name, _ in _sections(0, 0, 0, 0))

# Section ids (the index of each section in SECTIONS).
S_X_PF_MB = 0
S_M_B = 1
S_COM_B = 2
S_G_B = 3
S_DAMPING = 4
S_REFLECTED = 5
S_EFFORT_LIMITS = 6
S_G_W = 7
S_LOCKED = 8
S_X_KIND = 9
S_X_PC = 10
S_H_PB_W = 11
S_H_FM = 12
S_M_W = 13
S_H_W = 14
S_I_W = 15
S_V_WB = 16
S_A_BIAS = 17
S_BIAS_WS = 18
S_M = 19
S_TAU = 20
S_A_WB = 21
S_F = 22
S_VDOT = 23
S_QDOT = 24
S_IC_M = 25
S_IC_H = 26
S_IC_I = 27
S_F6 = 28
S_P = 29
S_Z = 30
S_U = 31
S_DINV = 32
S_U_ABA = 33
S_TAU_TOTAL = 34
S_F_TOTAL = 35
S_J = 36
S_H_R = 37
S_PATH = 38
S_F_R = 39
S_SIN_COS = 40


def build_layout(n, nq, nv, nu):
    """(offsets, shapes, ws_size) of the workspace sections for these sizes."""
    offsets, shapes, size = [], [], 0
    for _, shape in _sections(n, nq, nv, nu):
        count = 1
        for d in shape:
            count *= d
        offsets.append(size)
        shapes.append(shape)
        size += count
    return offsets, shapes, size
