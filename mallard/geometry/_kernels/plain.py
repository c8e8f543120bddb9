"""Views of the arrays an entry point receives that hold no reference to their memory, so that
passing them on to the kernels of every pair (and of every step of GJK, EPA and MPR) costs no
reference counting (see mallard.multibody._kernels._machinery.reshaped). They must not outlive
the arrays they view: entry points make them and drop them before returning."""

from mallard.multibody._kernels._machinery import jitable, reshaped


@jitable(inline=True)
def plain(a):
    """A view of the C-contiguous array ``a`` holding no reference to its memory."""
    return reshaped(a.reshape(-1), a.shape)
