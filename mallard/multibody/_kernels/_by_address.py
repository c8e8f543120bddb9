"""Kernels called by address: a large kernel compiled once, as its own library, and called
from other compiled entry points through its address instead of being linked into them.

numba links a callee's module into each caller's library and optimizes and generates
machine code for the whole final module, so a large kernel (SAP's solver) linked into several
entry points is optimized and compiled again in each. A kernel marked
``mallard._compiled.by_address`` is compiled alone (cached by numba like any entry point);
compiled code calls it with :func:`call_at`, the address passed at run time by the Python
driver (``Kernels.address(name)``, made once per process), so that the caller's code, which
holds no address of this process, stays cacheable.

The ABI: ``int64_t f(int64_t, ..., int64_t)``. A by-address kernel takes int64 arguments
only: each array as the address of its data (:func:`address_of`: C-contiguous) followed by
the sizes it needs to view it again (``numba.carray`` of ``_pointer.pointer(address)``), and
scalars as int64; it returns an int64 (a status). The address is that of numba's C callback
wrapper of the kernel compiled for those types (kernels._numba_internals.c_address).
Interpreted (object scalars), callers call the Python function directly: the address is 0
and unused.

A kernel of many arrays takes them as one *block* instead (an int64 array the caller owns and
writes, :func:`hold`): per array, HELD int64 slots, its address and its sizes (up to three,
1 past its dimensions); the kernel views them again with :func:`held1`, :func:`held2`,
:func:`held3` (the dtype and dimensions of each array are the kernel's to know), and takes the
block's address as its one argument (kernels.discrete_step.point_pairs_at: 19 arrays).
"""

from llvmlite import ir
from numba import carray, types
from numba.extending import intrinsic

from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels._numba_internals import array_struct, cast, none_value
from mallard.multibody._kernels._pointer import pointer

_INT64 = ir.IntType(64)


@intrinsic
def address_of(typingctx, a):
    """The address of the data of the C-contiguous array ``a`` (an int64; of another array,
    numba's typing error: no implementation)."""
    if not isinstance(a, types.Array) or a.layout != "C":
        return None

    def codegen(context, builder, signature, args):
        return builder.ptrtoint(array_struct(context, builder, a, args[0]).data, _INT64)

    return types.int64(a), codegen


@intrinsic
def call_at(typingctx, address, args):
    """Calls the C function at ``address`` (an integer), of signature ``int64_t f(int64_t, ...)``,
    with the integers of the tuple ``args`` (as int64); returns its int64 (arguments of other
    types: numba's typing error, no implementation)."""
    if not isinstance(address, types.Integer) or not isinstance(args, types.BaseTuple):
        return None
    if not all(isinstance(t, types.Integer) for t in args):
        return None
    n = len(args)

    def codegen(context, builder, signature, llargs):
        function_type = ir.FunctionType(_INT64, [_INT64] * n)
        at = cast(context, builder, llargs[0], address, types.int64)
        function = builder.inttoptr(at, function_type.as_pointer())
        values = [
            cast(context, builder, builder.extract_value(llargs[1], i), args[i], types.int64)
            for i in range(n)
        ]
        return builder.call(function, values)

    return types.int64(address, args), codegen


#: The int64 slots of one array in a block: its address, then its sizes (see the module).
HELD = 4


def c_contiguous(*arrays):
    """Whether the numba types ``arrays`` are all of C-contiguous arrays (what a by-address
    kernel's caller can pass as addresses: :func:`address_of`, :func:`hold`)."""
    return all(isinstance(a, types.Array) and a.layout == "C" for a in arrays)


@intrinsic
def hold(typingctx, block, arrays):
    """Writes the arrays of the tuple ``arrays`` (C-contiguous, of up to three dimensions) into
    the int64 vector ``block`` (HELD slots each, in order: see the module). Compiled only (a
    by-address kernel's caller): straight stores, one run per array, emitted as LLVM IR, not
    typed and lowered as a loop over the tuple (numba's literal_unroll of a tuple of many
    array types cost about a second to compile for 49 arrays). Other arguments: numba's
    typing error (no implementation)."""
    if not isinstance(block, types.Array) or block.ndim != 1 or block.dtype != types.int64:
        return None
    if not isinstance(arrays, types.BaseTuple) or not c_contiguous(*arrays):
        return None
    if not all(a.ndim < HELD for a in arrays):
        return None

    def codegen(context, builder, signature, args):
        slots = array_struct(context, builder, block, args[0]).data
        one = ir.Constant(_INT64, 1)
        for k, a in enumerate(arrays):
            held = array_struct(context, builder, a, builder.extract_value(args[1], k))
            values = [builder.ptrtoint(held.data, _INT64)]
            values += [builder.extract_value(held.shape, d) for d in range(a.ndim)]
            values += [one] * (HELD - 1 - a.ndim)
            for d, value in enumerate(values):
                builder.store(value, builder.gep(slots, [ir.Constant(_INT64, HELD * k + d)]))
        return none_value(context)

    return types.none(block, arrays), codegen


@jitable
def held1(block, i, dtype):
    """The vector of ``dtype`` held i-th in ``block`` (:func:`hold`)."""
    return carray(pointer(block[HELD * i]), block[HELD * i + 1], dtype)


@jitable
def held2(block, i, dtype):
    """The matrix of ``dtype`` held i-th in ``block`` (:func:`hold`)."""
    at = HELD * i
    return carray(pointer(block[at]), (block[at + 1], block[at + 2]), dtype)


@jitable
def held3(block, i, dtype):
    """The array of three dimensions of ``dtype`` held i-th in ``block`` (:func:`hold`)."""
    at = HELD * i
    return carray(pointer(block[at]), (block[at + 1], block[at + 2], block[at + 3]), dtype)
