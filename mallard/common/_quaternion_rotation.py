"""The rotation matrix of a quaternion: the one formula of mallard's, for the value types
(common._quaternion.quaternion_to_matrix) and for the kernels (kernels.rotation compiles it).
It imports nothing, so that the kernels' compiled code depends on this file alone."""


def quaternion_rotation(w, x, y, z, s):
    """The rotation matrix of the quaternion (w, x, y, z), row by row as a 9-tuple, scaled as
    1 - s(y²+z²), s(xy - wz)...: s = 2 for a unit quaternion (Eigen's toRotationMatrix, in
    its order of operations); s = 2/|q|² gives the rotation matrix of a quaternion of any
    nonzero norm."""
    sx, sy, sz = s * x, s * y, s * z
    wx, wy, wz = w * sx, w * sy, w * sz
    xx, xy, xz = x * sx, x * sy, x * sz
    yy, yz, zz = y * sy, y * sz, z * sz
    return (
        1.0 - (yy + zz),
        xy - wz,
        xz + wy,
        xy + wz,
        1.0 - (xx + zz),
        yz - wx,
        xz - wy,
        yz + wx,
        1.0 - (xx + yy),
    )
