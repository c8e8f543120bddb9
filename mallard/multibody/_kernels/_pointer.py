"""``pointer(address)``: an integer address as the void pointer ``numba.carray`` views, for
the entry points that take their arrays as one integer standing for a block of (address,
size) pairs (SingleStatePlant's ``Held``, the proximity queries' ``held``)."""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def pointer(typingctx, address):
    """The integer ``address`` as a void pointer (what numba.carray views)."""
    if not isinstance(address, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], ir.IntType(8).as_pointer())

    return types.voidptr(address), codegen
