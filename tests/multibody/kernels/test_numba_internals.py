"""The assumptions kernels._numba_internals makes about numba, one test each (numbered as in
its docstring): a numba release that breaks one fails here, by name."""

import ast
import hashlib
import inspect
import itertools
import operator
import os
import pathlib
import pickle
import re
import shutil
from types import FunctionType

import llvmlite.binding
import llvmlite.ir as ir
import numba
import numpy as np
import pytest
from numba import types
from numba.core import caching
from numba.extending import intrinsic

import mallard
from mallard._compiled import compiled
from mallard.common._quaternion import quaternion_product
from mallard.multibody._joint_types import ALL as ALL_JOINT_TYPES
from mallard.multibody._joint_types import PRISMATIC, REVOLUTE, WELD
from mallard.multibody._kernels import _numba_internals, dense
from mallard.multibody._kernels._machinery import SOURCES
from mallard.multibody._kernels._numba_internals import (
    array_parts,
    array_struct,
    c_view,
    c_view_at,
    cast,
    compiled_for,
    kernels_internal_to,
    make_tuple,
    njit_cached,
    none_value,
    product,
    struct_field,
)
from mallard.multibody._kernels.lane_views import lane_view
from mallard.multibody._kernels.lanes import L, vload, vstore


def _lu_args():
    """(A, b) of dense.lu_solve: b = (0.5, 0.5) for A = 4·I, b = (2, 2)."""
    return 4.0 * np.eye(2), np.full(2, 2.0)


# ---- 1. cache locators ---------------------------------------------------------------------------
def test_1_cache_locator_protocol():
    locators = _numba_internals._CACHE_IMPL._locator_classes
    assert locators[0] is _numba_internals._ManagedLocator, "numba's locator list moved"
    f = compiled(dense.lu_solve)
    f(*_lu_args())
    locator = f._cache._impl.locator
    assert isinstance(locator, _numba_internals._ManagedLocator), "numba took another locator"
    assert f._cache._cache_file._source_stamp == SOURCES.stamp_of_file(dense.__file__)
    # What numba's caching code asks of a locator, ours has.
    abstract = caching._CacheLocator.__abstractmethods__
    assert abstract <= {"get_cache_path", "get_source_stamp", "get_disambiguator"}, abstract
    read = set(re.findall(r"\b_?locator\.(\w+)", inspect.getsource(caching)))
    assert {"get_disambiguator", "_py_file"} <= read
    missing = [name for name in read if not hasattr(locator, name)]
    assert not missing, f"numba reads {missing} of a cache locator"
    assert callable(caching._CacheLocator.get_suitable_cache_subpath)


def test_1_functions_elsewhere_in_mallard_keep_numbas_stamp():
    fn = quaternion_product
    locator = _numba_internals._ManagedLocator.from_function(fn, inspect.getfile(fn))
    numbas = _numba_internals._numba_locator(fn, inspect.getfile(fn))
    assert locator.get_source_stamp() == numbas.get_source_stamp()
    assert locator.get_cache_path() == numbas.get_cache_path()


def test_1_cache_directories(tmp_path, monkeypatch):
    """The directory numba caches a function in is one of those cache_files looks in."""
    fn = quaternion_product
    py_file = inspect.getfile(fn)
    for cache_dir in ("", str(tmp_path)):
        monkeypatch.setattr(numba.config, "CACHE_DIR", cache_dir)
        numbas = _numba_internals._numba_locator(fn, py_file)
        paths = [each.get_cache_path() for each in _numba_internals._cache_locators(py_file)]
        assert numbas.get_cache_path() in paths
    assert paths[0] == numbas.get_cache_path() and paths[0].startswith(str(tmp_path))


# ---- 2. no locator ----------------------------------------------------------------------------
def test_2_no_locator_raises_at_decoration(monkeypatch):
    def plus_one(x):
        return x + 1

    monkeypatch.setattr(_numba_internals._CACHE_IMPL, "_locator_classes", [])
    with pytest.raises(RuntimeError, match="no locator available"):
        numba.njit(cache=True)(plus_one)
    monkeypatch.setattr(_numba_internals, "_warned", False)
    with pytest.warns(UserWarning, match="NUMBA_CACHE_DIR") as caught:
        f = njit_cached(plus_one)
        njit_cached(plus_one)
    assert len(caught) == 1
    assert "without a cache" in str(caught[0].message)
    assert f(1) == 2


# ---- 3. array structs -------------------------------------------------------------------------
@intrinsic
def _array_fields(typingctx, a):
    def codegen(context, builder, signature, args):
        struct = array_struct(context, builder, signature.args[0], args[0])
        fields = [
            builder.extract_value(struct.shape, 1),
            builder.extract_value(struct.strides, 0),
            struct.itemsize,
            builder.ptrtoint(struct.data, ir.IntType(64)),
        ]
        return make_tuple(context, builder, signature.return_type, fields)

    return types.UniTuple(types.int64, 4)(a), codegen


def test_3_array_struct_fields():
    a = np.zeros((3, 5))[:, :4]
    assert numba.njit(lambda a: _array_fields(a))(a) == (4, 40, 8, a.ctypes.data)


@intrinsic
def _array_parts_of_view(typingctx, view):
    def codegen(context, builder, signature, args):
        view_type = signature.args[0]
        array = struct_field(context, builder, view_type, args[0], "array")
        data, shape, strides = array_parts(context, builder, view_type.array_type, array)
        fields = [*shape, *strides, builder.ptrtoint(data, ir.IntType(64))]
        return make_tuple(context, builder, signature.return_type, fields)

    return types.UniTuple(types.int64, 7)(view), codegen


def test_3_array_parts_and_struct_fields():
    a = np.zeros((3, 5, L))[:, 1:4]
    parts = numba.njit(lambda a: _array_parts_of_view(lane_view(a)))(a)
    assert parts == (*a.shape, *a.strides, a.ctypes.data)


def test_3_c_view_borrows():
    @numba.njit
    def view(a):
        return c_view(a, (2, 3))

    a = np.arange(6.0)
    v = view(a)
    assert v.shape == (2, 3) and v.strides == (24, 8) and v.flags.c_contiguous
    assert v.base is None, "the view holds a reference (a meminfo) to its array"
    v[1, 2] = -1.0
    assert a[5] == -1.0


def test_3_c_view_at_borrows_without_a_slice():
    @numba.njit
    def view(a, offset):
        return c_view_at(a, offset, (2, 2))

    a = np.arange(12.0).reshape(6, 2)
    v = view(a, 2)
    assert v.shape == (2, 2) and v.base is None
    np.testing.assert_array_equal(v, np.arange(4.0, 8.0).reshape(2, 2))
    v[0, 0] = -1.0
    assert a[2, 0] == -1.0


# ---- 4. values in code generation -------------------------------------------------------------
@intrinsic
def _float_pair(typingctx, n):
    def codegen(context, builder, signature, args):
        x = cast(context, builder, args[0], signature.args[0], types.float64)
        return make_tuple(context, builder, signature.return_type, [x, x])

    return types.UniTuple(types.float64, 2)(n), codegen


@intrinsic
def _nothing(typingctx, x):
    def codegen(context, builder, signature, args):
        return none_value(context)

    return types.none(x), codegen


def test_4_codegen_values():
    @numba.njit
    def values(n, shape):
        return _float_pair(n), _nothing(n), product(shape)

    assert values(3, (2, 3, np.int32(4))) == ((3.0, 3.0), None, 24)


# ---- 5. structs -------------------------------------------------------------------------------
def test_5_struct_proxy_and_incref():
    """A lane view of an array allocated in compiled code holds a reference to it: returned
    to Python (boxed as that array), the array's memory has one owner, the array."""

    @numba.njit
    def view_of_a_new_array(n):
        return lane_view(np.arange(n * 1.0).reshape(n // L, L))

    array = view_of_a_new_array(2 * L)
    np.testing.assert_array_equal(array, np.arange(2.0 * L).reshape(2, L))
    assert array.base.refcount == 1, "a reference too few or too many"


# ---- 6. LLVM intrinsics -----------------------------------------------------------------------
def test_6_llvm_function():
    @numba.njit
    def power(a, out):
        vstore(out, 0, vload(a, 0) ** 2.5)

    a, out = np.arange(1.0, 1.0 + L), np.zeros(L)
    power(a, out)
    np.testing.assert_allclose(out, a**2.5, rtol=1e-15)


# ---- 7. boxing --------------------------------------------------------------------------------
def test_7_boxing():
    lanes = numba.njit(lambda a: vload(a, 0))(np.arange(1.0, 1.0 + L))
    assert type(lanes) is tuple and lanes == tuple(np.arange(1.0, 1.0 + L))
    array = numba.njit(lambda a: lane_view(a))(np.ones((2, L)))
    assert isinstance(array, np.ndarray) and array.shape == (2, L)


# ---- 8. entry points --------------------------------------------------------------------------
def test_8_entry_point():
    f = compiled(dense.lu_solve)
    args = _lu_args()
    direct = compiled_for(f, args)
    assert direct is not f and direct is f.overloads[f.signatures[0]].entry_point
    assert direct(*args)
    np.testing.assert_array_equal(args[1], [0.5, 0.5])


# ---- 9. compile events -------------------------------------------------------------------------
def test_9_compile_events():
    events = []

    def plus_one(x):
        return x + 1

    with _numba_internals.compilation_listener(
        lambda name: events.append(("start", name)), lambda: events.append("end")
    ):
        numba.njit(plus_one)(1)
    assert events[0] == ("start", "plus_one") and events[-1] == "end" and len(events) % 2 == 0


# ---- 10. atomics --------------------------------------------------------------------------------
def test_10_atomics():
    @numba.njit
    def run(a):
        old = _numba_internals.int64_atomic_add(a, 0, 5)
        seen = _numba_internals.int64_atomic_load(a, 0)
        kept = _numba_internals.int64_atomic_cas(a, 1, 7, 9)
        swapped = _numba_internals.int64_atomic_cas(a, 1, 3, 9)
        return old, seen, kept, swapped

    a = np.array([2, 3], dtype=np.int64)
    assert run(a) == (2, 7, 3, 3) and list(a) == [7, 9]


# ---- 11. overload implementations ---------------------------------------------------------------
def test_11_kernels_compiled_once():
    """A jitable kernel called from a compiled entry point (with its Python wrapper) and from
    a kernel (without) is typed once: one implementation in the overload's cache."""
    from numba.core.typing import templates
    from numba.extending import register_jitable

    _numba_internals.compile_each_kernel_once()
    assert getattr(templates._OverloadFunctionTemplate._get_impl, "_mallard", False)

    def square(x):
        return x * x

    register_jitable(square)

    def inner(x):
        return square(x) + 1.0

    register_jitable(inner)

    @numba.njit
    def outer(x):
        return square(x) + inner(x)

    assert outer(3.0) == 19.0
    typing_context = numba.core.registry.cpu_target.typing_context
    (template,) = typing_context.resolve_value_type(square).templates
    assert [key[1] for key in template._impl_cache] == [(numba.types.float64,)]
    flags = numba.core.compiler.Flags()
    assert _numba_internals._flags_token(flags) == _numba_internals._flags_token(flags.copy())
    flags.no_cpython_wrapper = True
    other = flags.copy()
    other.error_model = "numpy"
    assert _numba_internals._flags_token(flags) != _numba_internals._flags_token(other)


def test_11_kernels_compiled_once_with_or_without_the_gil():
    """A kernel called from a nogil entry point and from a plain one (and from a kernel) is
    compiled once: numba compiles the kernel once, and its overload holds one implementation;
    the flags' ``release_gil`` changes only the entry point's wrapper."""
    from numba.extending import register_jitable

    _numba_internals.compile_each_kernel_once()

    def cube(x):
        return x * x * x

    register_jitable(cube)

    def inner(x):
        return cube(x) - 1.0

    register_jitable(inner)
    released = numba.njit(nogil=True)(lambda x: cube(x) + inner(x))
    held = numba.njit(lambda x: cube(x) * inner(x))
    names = []
    with _numba_internals.compilation_listener(names.append, lambda: None):
        assert released(2.0) == 15.0
        assert held(2.0) == 56.0
    assert names.count("cube") == 1
    assert [key[1] for key in _template(cube)._impl_cache] == [(numba.types.float64,)]
    flags = numba.core.compiler.Flags()
    flags.no_cpython_wrapper = True
    nogil = flags.copy()
    nogil.release_gil = True
    assert _numba_internals._flags_token(flags) == _numba_internals._flags_token(nogil)


def _template(fn):
    """The overload template numba made for the registered kernel ``fn``."""
    typing_context = numba.core.registry.cpu_target.typing_context
    (template,) = typing_context.resolve_value_type(fn).templates
    return template


def _kernel_and_caller():
    """A kernel ``sub`` (jitable: no C callback wrapper), an inlined kernel ``twice`` calling
    it, and an entry point calling ``twice``."""
    from mallard.multibody._kernels._machinery import jitable

    def sub(a, b):
        return a - b

    def twice(x):
        return 2.0 * sub(x, 0.5)

    jitable(sub)
    jitable(twice, inline=True)
    return sub, twice, numba.njit(lambda x: twice(x) + 1.0)


def test_11_inlined_kernels_typed_only_and_no_cfunc_wrappers():
    """An inlined kernel is typed where it is inlined, never compiled alone; a kernel has no
    C callback wrapper (the option KERNEL_OPTIONS gives is numba's, and changes no key)."""
    sub, twice, entry = _kernel_and_caller()
    assert entry(3.0) == 6.0
    ((dispatcher, _),) = _template(twice)._impl_cache.values()
    assert dispatcher.signatures == [] and not dispatcher._can_compile
    ((dispatcher, _),) = _template(sub)._impl_cache.values()
    (result,) = dispatcher.overloads.values()
    assert dispatcher.targetoptions["no_cfunc_wrapper"] is True
    functions = {f.name for f in result.library._final_module.functions}
    assert result.fndesc.mangled_name in functions
    assert result.fndesc.llvm_cfunc_wrapper_name not in functions


def test_11_llvm_inlined_kernels_compiled_once_and_inlined_by_llvm():
    """A kernel registered with llvm_inline (numba's forceinline) is compiled once, alone,
    its LLVM definition alwaysinline, and inlined into its callers' code: the entry point's
    optimized module calls it nowhere. The views kernels of the drivers are registered so."""
    from mallard.multibody._kernels import views
    from mallard.multibody._kernels._machinery import jitable

    def scaled(x, k):
        return k * x

    jitable(scaled, llvm_inline=True)
    entry = numba.njit(lambda x: scaled(x, 2.0) + scaled(x, 3.0))
    assert entry(1.5) == 7.5
    ((dispatcher, _),) = _template(scaled)._impl_cache.values()
    (result,) = dispatcher.overloads.values()
    name = result.fndesc.mangled_name
    function = result.library._final_module.get_function(name)
    assert any(b"alwaysinline" in attribute for attribute in function.attributes)
    (signature,) = entry.signatures
    assert not re.search(rf"call [^\n]*@\"?{re.escape(name)}", entry.inspect_llvm(signature))
    for kernel in (views.model, views.model_tables, views.parameters, views.workspace):
        assert _template(kernel)._jit_options.get("forceinline") is True


# ---- 12. code generation ---------------------------------------------------------------------
def test_12_code_generation_on_demand():
    """A kernel's library (no CPython wrapper) is optimized and linked into its caller's, but
    gets no machine code unless its address is asked for; then the code runs."""
    import ctypes

    _numba_internals.generate_code_on_demand()
    sub, _, entry = _kernel_and_caller()
    assert entry(3.0) == 6.0
    ((dispatcher, _),) = _template(sub)._impl_cache.values()
    (result,) = dispatcher.overloads.values()
    library, name = result.library, result.fndesc.llvm_func_name
    engine = library.codegen._engine
    assert library._finalized and library._mallard_deferred is not None
    assert not engine.is_symbol_defined(name)
    assert result.entry_point is not None  # (numba's function object, without an address)
    address = library.get_pointer_to_function(name)
    assert address and engine.is_symbol_defined(name) and library._mallard_deferred is None
    # numba's calling convention: status = f(&result, &exception, arguments...)
    native = ctypes.CFUNCTYPE(
        ctypes.c_int32,
        ctypes.POINTER(ctypes.c_double),
        ctypes.c_void_p,
        ctypes.c_double,
        ctypes.c_double,
    )(address)
    out = ctypes.c_double()
    assert native(ctypes.byref(out), None, 5.0, 1.5) == 0 and out.value == 3.5
    # An entry point's library (with its CPython wrapper) gets its code at once.
    (entry_result,) = entry.overloads.values()
    assert getattr(entry_result.library, "_mallard_deferred", None) is None


def test_12_kernels_without_the_runtime_optimized_where_linked():
    """Compiled without the runtime, a kernel's library is not optimized as a module (its call
    of a kernel below is still there), only linked into its callers: the entry point's
    optimization inlines both, with the same results; with the runtime, it is optimized."""
    from mallard.multibody._kernels._machinery import jitable
    from mallard.multibody._kernels._numba_internals import WITHOUT_RUNTIME

    _numba_internals.generate_code_on_demand()

    def scaled(x):
        return 3.0 * x

    def shifted(x):
        return scaled(x) + 0.25

    jitable(scaled)
    jitable(shifted)
    free = numba.njit(**WITHOUT_RUNTIME)(lambda x: shifted(x) * 2.0)
    counted = numba.njit(lambda x: shifted(x) * 2.0)
    assert free(1.5) == counted(1.5) == (3.0 * 1.5 + 0.25) * 2.0
    names = [
        re.escape(result.fndesc.mangled_name)
        for dispatcher, _ in _template(scaled)._impl_cache.values()
        for result in dispatcher.overloads.values()
    ]
    call = re.compile(rf"call [^\n]*@({'|'.join(names)})\(")
    calls = {}
    for dispatcher, _ in _template(shifted)._impl_cache.values():
        (result,) = dispatcher.overloads.values()
        library = result.library
        calls[library._mallard_link_only] = bool(call.search(str(library._final_module)))
    assert calls == {True: True, False: False}
    for entry in (free, counted):
        (result,) = entry.overloads.values()
        assert not call.search(str(result.library._final_module))


# ---- 13. joint types -----------------------------------------------------------------------------
#: (a global the kernel below branches on, as kernels.mobilizers' do)
HAS_PRISMATIC = True


def _joint_kernel(jtype, x):
    if HAS_PRISMATIC and jtype == PRISMATIC:
        return x.no_such_attribute  # (does not type: numba must drop it before typing)
    return x + 1.0


def _joint_entry(jtype, x):
    return _joint_kernel(jtype, x)


def test_13_joint_types():
    """A joint_specialized kernel compiled below an entry point for the joints without
    prismatic ones has no prismatic branch (not even typed); with them, the branch is
    typed; in Python, it is there. The entry point for those joint types is a copy named for
    them (its cache entries), and the joint types being compiled are restored after it."""
    from mallard.multibody._kernels._machinery import joint_specialized

    joint_specialized(_joint_kernel)
    revolute = 1 << WELD | 1 << REVOLUTE
    entry = _numba_internals.njit_for_joint_types(_joint_entry, revolute)
    assert entry(REVOLUTE, 2.0) == 3.0
    assert entry(PRISMATIC, 2.0) == 3.0  # (no prismatic branch: misused, but compiled)
    assert entry.py_func.__qualname__ == f"_joint_entry_for_joint_types_{revolute}"
    assert entry.py_func.__code__ is _joint_entry.__code__
    assert _numba_internals.compiling_joint_types() == ALL_JOINT_TYPES
    copy = _numba_internals.for_joint_types(_joint_kernel, revolute)
    assert copy.__globals__["HAS_PRISMATIC"] is False and HAS_PRISMATIC is True
    assert _numba_internals.for_joint_types(_joint_kernel, ALL_JOINT_TYPES) is _joint_kernel
    with pytest.raises(numba.core.errors.TypingError, match="no_such_attribute"):
        numba.njit(_joint_entry)(REVOLUTE, 2.0)  # (for every joint type)


def _kernels_of_both_kinds():
    """New kernels (registered once per call): a joint_specialized one, its callers (one
    compiled, one inlined, one that calls the inlined one) and one that reaches none."""
    from mallard.multibody._kernels._machinery import jitable, joint_specialized

    def plain(x):
        return x * 3.0

    def typed_joint(jtype, x):
        if HAS_PRISMATIC and jtype == PRISMATIC:
            return x + 2.0
        return x + 1.0

    def joint_caller(jtype, x):
        return typed_joint(jtype, x) * 2.0

    def inlined_joint_caller(jtype, x):
        return joint_caller(jtype, x)

    def through_inlined(jtype, x):
        return inlined_joint_caller(jtype, x) + 0.5

    def entry(jtype, x):
        return joint_caller(jtype, x) + plain(x) + through_inlined(jtype, x)

    joint_specialized(typed_joint)
    for kernel in (plain, joint_caller, through_inlined):
        jitable(kernel)
    jitable(inlined_joint_caller, inline=True)
    return entry


def test_13_kernels_independent_of_the_joint_types_compiled_once(monkeypatch):
    """Below the entry points of two sets of joint types, compiled in either order in one
    process, a kernel whose code reaches no joint_specialized kernel is compiled once (its
    code is the same for both), and those that do (the joint_specialized one, its caller, a
    caller through an inlined kernel) once for each set, each set's entry point getting its
    own: their results are those of each set's code."""
    monkeypatch.setattr(_numba_internals, "njit_cached", numba.njit)  # (compiled, not loaded)
    revolute = 1 << WELD | 1 << REVOLUTE
    expected = {revolute: 3.0 * 2 + 2.0 * 3 + 3.0 * 2 + 0.5, ALL_JOINT_TYPES: 4.0 * 2 + 6 + 8.5}
    for order in ((revolute, ALL_JOINT_TYPES), (ALL_JOINT_TYPES, revolute)):
        entry = _kernels_of_both_kinds()
        compiled_names = []
        with _numba_internals.compilation_listener(compiled_names.append, lambda: None):
            for joint_types in order:
                jitted = _numba_internals.njit_for_joint_types(entry, joint_types)
                assert jitted(PRISMATIC, 2.0) == expected[joint_types]
        counts = {name: compiled_names.count(name) for name in set(compiled_names)}
        assert counts == {
            "entry": 2,
            "plain": 1,
            "typed_joint": 2,
            "joint_caller": 2,
            "through_inlined": 2,
        }


# ---- 14. dispatchers of given types ----------------------------------------------------------
def test_14_typed_dispatcher():
    f = compiled(dense.lu_solve)
    typed = _numba_internals.typed_dispatcher(f, _lu_args())
    assert typed is not f and len(typed.overloads) == 1
    args = _lu_args()
    assert typed(*args)
    np.testing.assert_array_equal(args[1], [0.5, 0.5])
    A, b = _lu_args()
    read_only = b.copy()
    read_only.flags.writeable = False
    for wrong in (
        (A, read_only),  # (read-only)
        (A, np.zeros(2, dtype=np.float32)),  # (another dtype)
        (A, np.zeros(4)[::2]),  # (not contiguous)
        (A, [0.0, 0.0]),  # (not an array)
        (A, None),
    ):
        with pytest.raises(TypeError, match="not of the compiled function's types"):
            typed(*wrong)
    assert len(typed.overloads) == 1  # (nothing compiled)


def test_14_positional_dispatcher():
    """A dispatcher class whose _fold_args is False runs a call of positional arguments as
    they are; a call of too few or too many raises TypeError, as one of the wrong types."""
    f = compiled(dense.lu_solve)
    typed = _numba_internals.typed_dispatcher(f, _lu_args())
    assert type(typed)._fold_args is False
    args = _lu_args()
    assert typed(*args)
    np.testing.assert_array_equal(args[1], [0.5, 0.5])
    A, b = _lu_args()
    for wrong in ((A,), (A, b, b), ()):
        with pytest.raises(TypeError):
            typed(*wrong)
    assert len(typed.overloads) == 1  # (nothing compiled)


# ---- 15. linkage -----------------------------------------------------------------------------
def test_15_kernels_internal_to_an_entry_point():
    """The kernels linked into an entry point's library are linkonce_odr there; made internal
    (kernels_internal_to), they are its own: one too long to inline where it may be replaced
    is inlined where it is called once, and gone from the module; the results are the same."""
    import llvmlite.binding as ll

    from mallard.multibody._kernels._machinery import jitable

    _numba_internals.generate_code_on_demand()
    body = "".join(f"    x = x * {1.0 + i / 1000} + {i / 7}\n" for i in range(400))
    namespace = {}
    exec(f"def long_kernel(x):\n{body}    return x\n", namespace)
    long_kernel = jitable(namespace["long_kernel"])

    def _entry_owning(x):
        return long_kernel(x) + 1.0

    def _entry_sharing(x):
        return long_kernel(x) + 1.0

    kernels_internal_to(_entry_owning.__qualname__)  # (the name of its library)
    owning, sharing = numba.njit(_entry_owning), numba.njit(_entry_sharing)
    assert owning(0.5) == sharing(0.5) == namespace["long_kernel"](0.5) + 1.0
    ((dispatcher, _),) = _template(long_kernel)._impl_cache.values()
    (kernel,) = dispatcher.overloads.values()
    name = kernel.fndesc.mangled_name

    def linkage(entry):
        ((library, _),) = ((r.library, r) for r in entry.overloads.values())
        found = [f.linkage for f in library._final_module.functions if f.name.startswith(name)]
        return found[0] if found else None

    assert linkage(sharing) == ll.Linkage.linkonce_odr
    assert linkage(owning) is None


# ---- 16. without the runtime ---------------------------------------------------------------------
def _head(a, n):
    return a[:n]


def test_16_kernels_without_the_runtime():
    """Compiled with WITHOUT_RUNTIME, an entry point and the kernels it calls have no reference
    counts; a kernel may return a view of an array it was given (an entry point may not:
    numba's rule); allocating an array fails to compile."""
    from mallard.multibody._kernels._machinery import jitable
    from mallard.multibody._kernels._numba_internals import WITHOUT_RUNTIME

    _numba_internals.kernels_return_views()
    head = jitable(_head)
    entry = numba.njit(**WITHOUT_RUNTIME)(lambda a: head(a, 2)[1] * 2.0)
    assert entry(np.arange(4.0)) == 2.0
    ((dispatcher, _),) = _template(head)._impl_cache.values()
    (kernel,) = dispatcher.overloads.values()
    assert not kernel.target_context.enable_nrt
    for result in (kernel, *entry.overloads.values()):
        text = str(result.library._final_module)
        assert "NRT_incref" not in text and "NRT_decref" not in text
    with pytest.raises(Exception, match="Only accept returning of array passed into"):
        numba.njit(**WITHOUT_RUNTIME)(lambda a: head(a, 2))(np.arange(4.0))
    with pytest.raises(Exception, match="NRT required but not enabled"):
        numba.njit(**WITHOUT_RUNTIME)(lambda n: np.zeros(n)[0])(3)


# ---- and nothing else -------------------------------------------------------------------------
def test_no_other_module_uses_numba_internals():
    """numba.core, and the code generation calls of assumptions 3-7, appear in
    kernels._numba_internals only."""
    internals = pathlib.Path(_numba_internals.__file__)
    offenders = []
    for path in pathlib.Path(mallard.__file__).parent.rglob("*.py"):
        if path == internals:
            continue
        text = path.read_text()
        for node in ast.walk(ast.parse(text)):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            if any(name.startswith("numba.core") for name in names):
                offenders.append(f"{path}:{node.lineno}")
        codegen = r"\bcgutils\b|\.pyapi\.|\bcontext\.(make_|cast|get_|nrt|populate)"
        if "numba" in text and re.search(codegen, text):
            offenders.append(str(path))
    assert not offenders, offenders


# ---- 17. numba's own work ---------------------------------------------------------------------
def test_17_numbas_python_work():
    """numba's array-operator template rejects scalar operands at once and still types
    arrays; IR instructions list their variables as numba's recursion does; array and tuple
    types hash and compare by their keys; a function without a CPython wrapper gets no C
    callback wrapper, an entry point keeps its own."""
    import operator

    from numba.core import ir
    from numba.core.compiler import run_frontend
    from numba.core.typing import npydecl

    from mallard.multibody._kernels import views

    _numba_internals.cut_numbas_python_work()
    typing_context = numba.core.registry.cpu_target.typing_context
    # (a template as numba makes one for each operator: NumpyRulesArrayOperator's)
    template = type("Add", (npydecl.NumpyRulesArrayOperator,), {"key": operator.add})
    generic = npydecl.NumpyRulesArrayOperator.generic
    assert generic._mallard and template.generic is generic
    array = types.float64[::1]
    for args in [(types.float64, types.float64), (types.int64, types.float64)]:
        assert template(typing_context).generic(args, {}) is None
        assert generic._numba(template(typing_context), args, {}) is None
    for args in [(array, types.float64), (types.Optional(array), array)]:
        found = template(typing_context).generic(args, {})
        assert found == generic._numba(template(typing_context), args, {})
        assert found is not None

    def sample(a, k):
        total = 0.0
        for i in range(a.shape[0]):
            total += a[i] * k if i % 2 else -a[min(i, 3)]
        return (total, {"x": k}), [a, (k, total)]

    numba_list_vars = _numba_internals._rec_list_vars._numba
    statements = [s for block in run_frontend(sample).blocks.values() for s in block.body]
    assert ir.Inst._rec_list_vars is _numba_internals._rec_list_vars
    for statement in statements:
        for value in (statement.__dict__, getattr(statement, "value", None)):
            found, expected = statement._rec_list_vars(value), numba_list_vars(statement, value)
            assert len(found) == len(expected)
            assert all(a is b for a, b in zip(found, expected, strict=True))
    assert sum(len(s.list_vars()) for s in statements) > 20

    from numba.core import utils
    from numba.core.target_extension import CPU
    from numba.core.typing import context

    order = utils.order_by_target_specificity
    assert context.order_by_target_specificity is order
    typing_context.refresh()
    templates = typing_context.resolve_value_type(operator.add).templates
    assert order(CPU, templates) == order._numba(CPU, templates) == order(CPU, templates)
    assert len(order(CPU, templates)) > 10

    tuple_type = types.NamedTuple((array, types.int64[:, ::1]), views._layout.Model)
    for numba_type in (array, types.UniTuple(array, 3), types.Tuple((array, types.intp)),
                       tuple_type):  # fmt: skip
        assert hash(numba_type) == hash(numba_type.key) == hash(numba_type)
        assert numba_type == numba_type and not numba_type != numba_type
    assert types.float64[::1] == array and types.float64[:] != array
    assert types.Tuple((array, types.intp)) != types.Tuple((array, types.int32))

    sub, twice, entry = _kernel_and_caller()
    assert entry(3.0) == 6.0
    ((dispatcher, _),) = _template(sub)._impl_cache.values()
    (kernel,) = dispatcher.overloads.values()
    (result,) = entry.overloads.values()
    for done, wrapped in ((kernel, False), (result, True)):
        functions = {f.name for f in done.library._final_module.functions}
        assert (done.fndesc.llvm_cfunc_wrapper_name in functions) == wrapped


# ---- 18. the untyped IR of inlined kernels ---------------------------------------------------
def _alternating_sum(x, k):
    total = 0.0
    for i in range(k):
        total += x if i % 2 else -x
    return total


def _dump(func_ir):
    import contextlib
    import io

    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        func_ir.dump()
    return text.getvalue()


def test_18_numbas_untyped_ir_of_an_inlined_overload():
    """numba types a call of an inline="always" overload from the untyped IR its worker
    builds: a build sets the worker's flags' enable_ssa, draws the function's identity first
    (one draw for a function without closures), and builds IR equal to the last build's; a
    copy is equal to it and shares nothing numba's passes change with it."""
    from numba.core import bytecode, compiler, inline_closurecall, ir_utils
    from numba.core.typing import templates

    _numba_internals.build_inlined_ir_once()
    generic = templates._OverloadFunctionTemplate.generic
    generic = inspect.getsource(getattr(generic, "_numba", generic))  # (numba's)
    assert "inline_worker.run_untyped_passes(" in generic and "enable_ssa=True" in generic
    dispatcher = numba.njit(_alternating_sum)
    compiling = dispatcher._compiler
    typing_context = compiling.targetdescr.typing_context
    target_context = compiling.targetdescr.target_context
    flags = compiler.Flags()
    pipeline = compiling.pipeline_class(
        typing_context, target_context, None, None, None, flags, None
    )
    worker = inline_closurecall.InlineWorker(
        typing_context, target_context, compiling.locals, pipeline, flags, None
    )
    build = inline_closurecall.InlineWorker.run_untyped_passes._numba
    identity = bytecode.FunctionIdentity
    first = next(identity._unique_ids)
    identity._unique_ids = itertools.count(first)
    label = ir_utils._the_max_label._value
    built = build(worker, _alternating_sum, enable_ssa=True)
    assert flags.enable_ssa is True
    assert built.func_id.unique_id == first and next(identity._unique_ids) == first + 1
    assert ir_utils._the_max_label._value == label
    again = build(worker, _alternating_sum, enable_ssa=True)
    assert again.equal_ir(built) and _dump(again) == _dump(built)
    copied = _numba_internals._copy_ir(built, built.func_id.derive())
    assert copied.equal_ir(built) and _dump(copied) == _dump(built)
    assert copied.func_id.unique_id > again.func_id.unique_id
    assert sorted(vars(copied)) == sorted(vars(built))
    shared = {id(s) for b in built.blocks.values() for s in b.body}
    assert not shared & {id(s) for b in copied.blocks.values() for s in b.body}
    assert copied._definitions is not built._definitions
    assert copied._consts._func_ir.blocks is copied.blocks


# (its kernel calls one inlined kernel twice with the same argument types, which numba 0.68's
# own typing warns about, with or without mallard: test_22_numbas_typing_of_an_inlined_call)
@pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaIRAssumptionWarning")
def test_18_inlined_kernels_untyped_ir_built_once(monkeypatch):
    """An inlined kernel's untyped IR is built once (bytecode analysed once) for all its
    typings, numba drawing as many function identities as it did building it each time; a
    kernel defining a closure (its build draws more) is built each time; the results are
    those of numba's builds."""
    from numba.core import bytecode, inline_closurecall, untyped_passes
    from numba.core.typing import templates

    from mallard.multibody._kernels._machinery import jitable

    _numba_internals.build_inlined_ir_once()
    ours = inline_closurecall.InlineWorker.run_untyped_passes
    assert ours._mallard
    generic = templates._OverloadFunctionTemplate.generic  # (each call typed each time)
    monkeypatch.setattr(templates._OverloadFunctionTemplate, "generic", generic._numba)
    extract = untyped_passes.ExtractByteCode.run_pass
    analysed = []

    def counted(self, state):
        analysed.append(state.func_id.func.__name__)
        return extract(self, state)

    monkeypatch.setattr(untyped_passes.ExtractByteCode, "run_pass", counted)

    def kernels():
        """New inlined kernels (registered once per call) and three entry points using them."""

        alternating = type(_alternating_sum)(  # (a new function: registered anew each call)
            _alternating_sum.__code__, _alternating_sum.__globals__, "alternating"
        )

        def twice(x):
            return alternating(x, 3) + alternating(x, 4)

        def closure(x):
            def scaled(y):
                return y * x

            return scaled(2.0) + scaled(3.0)

        for kernel in (alternating, twice, closure):
            jitable(kernel, inline=True)
        return [
            numba.njit(lambda x: twice(x) + closure(x)),
            numba.njit(lambda x: alternating(x, 5) * twice(x)),
            numba.njit(lambda x: closure(x) - alternating(x, 2)),
        ]

    def run(entries):
        """The entries' results at 1.5, the function identities numba drew, and the kernels'
        bytecode analyses."""
        analysed.clear()
        first = next(bytecode.FunctionIdentity._unique_ids)
        results = [entry(1.5) for entry in entries]
        assert results == [entry.py_func(1.5) for entry in entries]  # (Python's)
        drawn = next(bytecode.FunctionIdentity._unique_ids) - first
        names = ("alternating", "twice", "closure")
        return results, drawn, {name: analysed.count(name) for name in names}

    built_once = run(kernels())
    monkeypatch.setattr(inline_closurecall.InlineWorker, "run_untyped_passes", ours._numba)
    numbas = run(kernels())
    assert numbas[0] == built_once[0] and numbas[1] == built_once[1]
    analyses = numbas[2]
    assert analyses["alternating"] > 1 and analyses["twice"] > 1 and analyses["closure"] > 1
    assert built_once[2] == {"alternating": 1, "twice": 1, "closure": analyses["closure"]}


# ---- 19. compilation's span ------------------------------------------------------------------
def test_19_fewer_collections_while_compiling():
    """While numba compiles (an entry point and the kernel it compiles within it), the garbage
    collector's thresholds are COMPILING_GC_THRESHOLDS; after, those before, also when the
    compilation fails."""
    import gc

    from numba.core import event
    from numba.core.compiler_lock import global_compiler_lock

    from mallard.multibody._kernels._machinery import jitable

    _numba_internals.collect_less_while_compiling()
    seen = []

    class Listener(event.Listener):  # (after mallard's: sees what it set)
        def on_start(self, started):
            assert global_compiler_lock.is_locked()
            seen.append(gc.get_threshold())

        def on_end(self, ended):
            pass

    def scaled(x):
        return 3.0 * x

    jitable(scaled)
    before = gc.get_threshold()
    assert before != _numba_internals.COMPILING_GC_THRESHOLDS
    with event.install_listener("numba:compile", Listener()):
        assert numba.njit(lambda x: scaled(x) + 1.0)(2.0) == 7.0
        assert gc.get_threshold() == before
        with pytest.raises(numba.core.errors.TypingError):
            numba.njit(lambda x: x.no_such_attribute)(2.0)
    assert gc.get_threshold() == before
    assert len(seen) == 3 and set(seen) == {_numba_internals.COMPILING_GC_THRESHOLDS}


# ---- 20. cache files ---------------------------------------------------------------------------
def _plus_one(x):
    return x + 1


def _spied(method, calls):
    """``method`` of a cache file, appending (its name, its first argument) to ``calls``."""

    def spy(self, *args):
        calls.append((method.__name__, *args[:1]))
        return method(self, *args)

    return spy


def test_20_cache_files(tmp_path, monkeypatch):
    """What numba's caching asks of a cache file, and what KeyedCacheFile takes of numba's."""
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    KeyedCacheFile = _numba_internals.KeyedCacheFile
    calls = []
    for name in ("load", "save", "flush"):
        monkeypatch.setattr(KeyedCacheFile, name, _spied(getattr(KeyedCacheFile, name), calls))
    f = njit_cached(_plus_one)
    cache = f._cache
    assert isinstance(cache, caching.FunctionCache)
    assert isinstance(cache._cache_file, KeyedCacheFile)
    assert cache._cache_file._source_stamp == cache._impl.locator.get_source_stamp()
    assert cache._cache_file._version == numba.__version__
    assert cache._impl.filename_base.startswith("test_numba_internals._plus_one-")
    assert _numba_internals._CACHE_BASE.fullmatch(cache._impl.filename_base)
    assert cache._cache_path == cache._impl.locator.get_cache_path()
    read = set(re.findall(r"_cache_file\.(\w+)", inspect.getsource(caching.Cache)))
    assert read == {"load", "save", "flush"}, "numba's cache asks more of its cache file"
    parameters = inspect.signature(caching.IndexDataCacheFile).parameters
    assert list(parameters) == ["cache_path", "filename_base", "source_stamp"]

    assert f(1.0) == 2.0
    key = cache._index_key((types.float64,), f.targetctx.codegen())
    assert calls == [("load", key), ("save", key)]  # (loaded before compiling, saved after)
    assert pickle.loads(pickle.dumps(key)) == key
    assert repr(pickle.loads(pickle.dumps(key))) == repr(key)
    nogil = njit_cached(_plus_one, nogil=True)
    assert nogil._cache._index_key((types.float64,), f.targetctx.codegen()) == key  # (options)
    assert nogil(1.0) == 2.0 and not nogil.stats.cache_hits  # (another variant: its own entry)
    config = numba.config
    settings = (config.OPT, config.LOOP_VECTORIZE, config.SLP_VECTORIZE, config.BOUNDSCHECK)
    assert None not in settings[:3] and config.DEBUGINFO_DEFAULT in (0, 1)
    again = njit_cached(_plus_one)
    assert again(1.0) == 2.0 and again.stats.cache_hits[(types.float64,)] == 1
    calls.clear()
    f.recompile()
    assert [call[0] for call in calls] == ["flush", "load", "save"]
    calls.clear()
    disabled = njit_cached(_plus_one)
    disabled._cache.disable()
    assert disabled(1.0) == 2.0 and not disabled.stats.cache_hits and not calls

    cache_file = cache._cache_file
    assert pickle.loads(cache_file._dump(("a", 1.5))) == ("a", 1.5)
    path = tmp_path / "written"
    with cache_file._open_for_write(str(path)) as written:
        written.write(b"whole")
        assert not path.exists()
    assert path.read_bytes() == b"whole"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("written")] == ["written"]
    assert "os.replace(" in inspect.getsource(caching.IndexDataCacheFile._open_for_write)


def test_20_keyed_cache_file(tmp_path):
    """An entry's file is loaded for the key, source stamp, variant and numba version it was
    saved with only; a file cut short loads nothing; ``flush`` drops one function's entries."""
    KeyedCacheFile = _numba_internals.KeyedCacheFile
    a, b = ((types.float64,), ("cpu",), ("code",)), ((types.int64,), ("cpu",), ("code",))
    variant = _numba_internals.cache_variant({"nogil": True})
    entries = KeyedCacheFile(str(tmp_path), "m.f-1.py3", "stamp", variant)
    entries.save(a, "the code for a")
    entries.save(b, "the code for b")
    assert entries.load(a) == "the code for a" and entries.load(b) == "the code for b"
    assert len(list(tmp_path.iterdir())) == 2
    digest = hashlib.sha256(repr((a, variant)).encode()).hexdigest()[:20]
    (path_a,) = tmp_path.glob(f"m.f-1.py3.k{digest}.nbc")
    (path_b,) = set(tmp_path.iterdir()) - {path_a}
    shutil.copy(path_a, path_b)  # (a's entry where b's is: a copy gone wrong)
    assert entries.load(b) is None and entries.load(a) == "the code for a"
    assert KeyedCacheFile(str(tmp_path), "m.f-1.py3", "other stamp", variant).load(a) is None
    other_variant = KeyedCacheFile(str(tmp_path), "m.f-1.py3", "stamp", "other variant")
    assert other_variant.load(a) is None
    shutil.copy(path_a, other_variant._keyed_path(a))  # (its file: the variant is checked too)
    assert other_variant.load(a) is None
    os.remove(other_variant._keyed_path(a))
    other_numba = KeyedCacheFile(str(tmp_path), "m.f-1.py3", "stamp", variant)
    other_numba._version = "0.0.0"
    assert other_numba.load(a) is None
    whole = path_a.read_bytes()
    path_a.write_bytes(whole[: len(whole) // 2])
    assert entries.load(a) is None
    path_a.write_bytes(whole)
    other_function = KeyedCacheFile(str(tmp_path), "m.f-12.py3", "stamp", variant)
    other_function.save(a, "the code of another function")
    entries.flush()
    assert entries.load(a) is None and not path_a.exists() and not path_b.exists()
    assert other_function.load(a) == "the code of another function"


# ---- 21. C addresses -------------------------------------------------------------------------
_C_ADDRESS_SCRIPT = """
import ctypes, sys
import numba
from numba import types
sys.path.insert(0, sys.argv[1])
from mallard.multibody._kernels._numba_internals import c_address
from c_address_module import affine

address = c_address(affine, (types.int64, types.int64))
c = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, ctypes.c_int64)(address)
print(c(5, -7), int(bool(affine.stats.cache_hits)))
"""


def test_21_c_address(tmp_path):
    """An entry point's C callback wrapper, compiled or loaded from numba's cache, is a C
    function of its int64 arguments at the address c_address gives."""
    import os
    import subprocess
    import sys

    (tmp_path / "c_address_module.py").write_text(
        "import numba\n\n\n@numba.njit(cache=True)\ndef affine(a, b):\n    return 3 * a + b\n"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    env["PYTHONPATH"] = str(pathlib.Path(mallard.__file__).parents[1])
    runs = [
        subprocess.run(
            [sys.executable, "-c", _C_ADDRESS_SCRIPT, str(tmp_path)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        ).stdout.split()
        for _ in range(2)
    ]
    assert runs == [["8", "0"], ["8", "1"]]  # (compiled, then loaded from the cache)


# ---- 22. the typing of inlined calls ---------------------------------------------------------
def _phi(a, b):
    """a, or b + 1 where a == b (a variable assigned in two blocks: a phi in SSA form)."""
    c = a
    if c == b:
        c = b + 1.0
    return c


def test_22_numbas_typing_of_an_inlined_call():
    """numba resolves a call of an inline="always" overload to a signature, recording the
    typed body that its typed-inlining pass inlines, renamed after the body's identity, and
    types again at each call site; two sites inlining one typed body (numba's own typing
    records one for a function's two calls of a kernel with the same argument types) have
    their variables renamed apart in the caller's scope but not in the body's, which numba's
    SSA check reports."""
    import warnings

    from numba.core import inline_closurecall, typed_passes
    from numba.core.errors import NumbaIRAssumptionWarning
    from numba.core.typing import templates

    from mallard.multibody._kernels._machinery import jitable

    _numba_internals.type_inlined_calls_once()
    generic = templates._OverloadFunctionTemplate.generic
    assert generic._mallard
    source = inspect.getsource(generic._numba)
    assert "sig = Signature(return_type, folded_args, None)" in source
    assert "self._inline_overloads[sig.args] = {'folded_args': folded_args," in source
    assert "iinfo = _inline_info(ir, typemap, calltypes, sig)" in source
    assert "self._compiled_overloads[sig.args] = impl_init" in source
    inliner = inspect.getsource(typed_passes.InlineOverloads._run_inliner)
    assert "template._inline_overloads[arg_typs]['iinfo']" in inliner
    assert "iinfo.func_ir," in inliner and "arg_typs=arg_typs" in inliner  # (typed again)
    inline_ir = inspect.getsource(inline_closurecall.InlineWorker.inline_ir)
    assert "_created_inlined_var_name(\n                    callee_ir.func_id.unique_name" in (
        inline_ir
    )

    def halved(x):
        return 0.5 * x

    jitable(halved, inline=True)
    assert numba.njit(lambda x: halved(x) + 1.0)(3.0) == 2.5
    template = _template(halved)
    ((args, recorded),) = template._inline_overloads.items()
    assert args == (types.float64,) and recorded["folded_args"] == args
    assert recorded["iinfo"].signature.return_type == types.float64
    # An identity's copy (its attributes; copy.copy would draw one: from_function) is a new
    # draw's, but for the number.
    func_id = recorded["iinfo"].func_ir.func_id
    drawn = func_id.derive()
    assert drawn.unique_name == f"{drawn.func_qualname}${drawn.unique_id}"
    assert {**vars(func_id), "unique_id": 0, "unique_name": ""} == {
        **vars(drawn),
        "unique_id": 0,
        "unique_name": "",
    }
    assert isinstance(template._compiled_overloads[args], templates._EmptyImplementationEntry)

    phi = _copy_function(_phi)
    jitable(phi, inline=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", NumbaIRAssumptionWarning)
        assert numba.njit(lambda x: phi(x, 1.0) + phi(x, 3.0))(1.0) == 3.0
    assert any("is not in scope" in str(w.message) for w in caught)


def _copy_function(fn):
    """A new function of ``fn``'s code (a kernel numba has not seen)."""
    return FunctionType(fn.__code__, fn.__globals__, fn.__name__)


def test_22_inlined_calls_typed_once(monkeypatch):
    """A call of an inlined kernel is typed twice per argument types and joint types, not at
    each resolution; each later resolution records a copy with a new identity (numba's SSA
    check finds every inlined body's variables in its scope), drawing the identities numba's
    typing draws: the code (its LLVM IR, names included) is numba's."""
    import warnings

    from numba.core import bytecode, typed_passes
    from numba.core.errors import NumbaIRAssumptionWarning
    from numba.core.typing import templates

    from mallard.multibody._kernels._machinery import jitable

    _numba_internals.type_inlined_calls_once()
    ours = templates._OverloadFunctionTemplate.generic
    infer = typed_passes.type_inference_stage
    typed = []

    def counted(typingctx, targetctx, interp, args, *rest, **kwargs):
        typed.append(interp.func_id.func.__name__)
        return infer(typingctx, targetctx, interp, args, *rest, **kwargs)

    monkeypatch.setattr(typed_passes, "type_inference_stage", counted)
    monkeypatch.setattr(_numba_internals, "njit_cached", numba.njit)  # (compiled, not loaded)

    def kernels():
        """New inlined kernels (registered once per call) and the entry point using them."""
        phi = _copy_function(_phi)

        def twice(x):
            return phi(x, 3.0) * 2.0 + x

        for kernel in (phi, twice):
            jitable(kernel, inline=True)
        return lambda x: phi(x, 5.0) * twice(x) + twice(x + 1.0) + twice(2.0 * x)

    def run(entry):
        """The entry's LLVM IR compiled for two sets of joint types, each from the same
        identity on, with the identity drawn next, and the typings of each kernel."""
        typed.clear()
        code = []
        for joint_types in (1 << WELD | 1 << REVOLUTE, ALL_JOINT_TYPES):
            bytecode.FunctionIdentity._unique_ids = itertools.count(10**6 * len(code))
            dispatcher = _numba_internals.njit_for_joint_types(entry, joint_types)
            with warnings.catch_warnings():
                warnings.simplefilter("error", NumbaIRAssumptionWarning)
                assert dispatcher(2.0) == entry(2.0)  # (Python's)
            drawn = next(bytecode.FunctionIdentity._unique_ids)
            code.append((dispatcher.inspect_llvm(dispatcher.signatures[0]), drawn))
        return code, {name: typed.count(name) for name in ("_phi", "twice")}

    typed_once, typings = run(kernels())
    monkeypatch.setattr(templates._OverloadFunctionTemplate, "generic", ours._numba)
    numbas, numbas_typings = run(kernels())
    assert typed_once == numbas
    # In each set: typed where inlined (twice at its 3 call sites, phi at its 4: 1 in the
    # entry, 1 in each inlined twice), and twice more per argument types (phi's float64
    # pairs: one), where numba types each resolution.
    assert typings == {"_phi": 2 * (4 + 2), "twice": 2 * (3 + 2)}
    assert numbas_typings["_phi"] > typings["_phi"] and numbas_typings["twice"] > typings["twice"]


# ---- 23-25. numba's Python work per statement -------------------------------------------------
def _branchy(a, k):
    total = 0.0
    for i in range(k):
        if a[i] > 0.0:
            total += a[i]
        else:
            total -= 2.0 * a[i]
    return total


def test_23_scopes_completed_once():
    """The variables a function uses are defined in each of its blocks' scopes as numba's
    ``fixup_var_define_in_scope`` defines them (the same variables, in the same order), each
    scope completed once; numba's untyped pipeline calls it through ``untyped_passes``."""
    import copy

    from numba.core import ir, ir_utils, untyped_passes
    from numba.core.compiler import run_frontend

    _numba_internals.cut_numbas_work_per_statement()
    ours = _numba_internals._fixup_scopes_once
    assert ir_utils.fixup_var_define_in_scope is ours
    assert untyped_passes.fixup_var_define_in_scope is ours
    func_ir = run_frontend(_branchy)
    blocks = list(func_ir.blocks.values())
    assert len(blocks) > 4 and len({id(block.scope) for block in blocks}) == 1
    # (a second scope, empty, shared by every other block: numba's passes leave some so)
    second = ir.Scope(None, func_ir.loc)
    for block in blocks[1::2]:
        block.scope = second
    found = []
    for fixup in (ours, ours._numba):
        copied = copy.deepcopy(func_ir.blocks)
        fixup(copied)
        scopes = list({id(b.scope): b.scope for b in copied.values()}.values())
        assert len(scopes) == 2
        found.append([[(n, v.name) for n, v in s.localvars._con.items()] for s in scopes])
    assert found[0] == found[1]
    assert len(found[0][1]) > 10  # (the empty scope got every variable)


def test_24_abi_sizes_kept_per_type_text(monkeypatch):
    """An LLVM type's ABI size and alignment, through numba's context, are those of llvmlite's
    ``Type.get_abi_size(target_data)`` / ``get_abi_alignment``, found once per type text (the
    same text, the same size); an identified struct's, whose body may change, each time; a
    kernel's lowering asks for them through the context."""
    from numba.core import base

    from mallard.multibody._kernels import _machinery  # noqa: F401  (the cuts applied)

    _numba_internals.cut_numbas_work_per_statement()
    context = numba.core.registry.cpu_target.target_context
    assert base.BaseContext.get_abi_sizeof._mallard
    f64, i8 = ir.DoubleType(), ir.IntType(8)
    array = context.get_value_type(types.float64[:, ::1])
    for ty in (f64, ir.IntType(32), ir.VectorType(f64, 4), array, ir.ArrayType(i8, 3),
               ir.LiteralStructType([i8, f64, i8]), i8.as_pointer()):  # fmt: skip
        twin = ir.LiteralStructType(ty.elements) if isinstance(ty, ir.LiteralStructType) else ty
        for _ in range(2):
            assert context.get_abi_sizeof(twin) == ty.get_abi_size(context.target_data)
            assert context.get_abi_alignment(twin) == ty.get_abi_alignment(context.target_data)
    assert context.get_abi_sizeof(array) == 8 * 9  # (meminfo, parent, size, itemsize, data, 2+2)
    named = ir.global_context.get_identified_type("mallard_test_24")
    named.set_body(f64)
    assert context.get_abi_sizeof(named) == 8
    named.elements = (f64, f64)  # (another body, as a new module could give it)
    assert context.get_abi_sizeof(named) == 16

    asked = []
    get = base.BaseContext.get_abi_sizeof._numba

    def counted(self, ty):
        asked.append(str(ty))
        return get(self, ty)

    monkeypatch.setattr(base.BaseContext, "get_abi_sizeof", _numba_internals._abi_cached(counted))
    numba.njit(_branchy).compile((types.float64[::1], types.int64))
    assert asked and len(asked) == len(set(asked))


def test_25_loc_read_from_the_code():
    """Whether an implementation takes ``loc`` is what numba's ``_has_loc`` (through
    ``inspect.signature``) says, for plain functions of every kind of parameter and for the
    rest (wrapped, builtins, partials, callables); numba's lowering calls it by its module's
    name."""
    import functools

    from numba.core import base

    _numba_internals.cut_numbas_work_per_statement()
    assert base._has_loc is _numba_internals._has_loc

    def positional(context, builder, sig, args, loc=None):
        pass

    def without(context, builder, sig, args):
        pass

    def keyword_only(a, *, loc):
        pass

    def star(*loc):
        pass

    def star_star(**loc):
        pass

    def local(a):
        loc = a
        return loc

    @functools.wraps(positional)
    def wrapped(*args, **kwargs):
        pass

    def signed(a):
        pass

    signed.__signature__ = inspect.signature(positional)

    class Callable:
        def __call__(self, loc):
            pass

    cases = (positional, without, keyword_only, star, star_star, local, wrapped, signed,
             lambda loc: loc, print, functools.partial(positional, 1), Callable())  # fmt: skip
    found = [base._has_loc(fn) for fn in cases]
    assert found == [base._has_loc._numba(fn) for fn in cases]
    assert found == [True, False, True, True, True, False, True, True, True, False, True, True]
    assert "_has_loc(fn)" in inspect.getsource(base._wrap_missing_loc.__call__)


# ---- 26. linked kernels bound within their library -----------------------------------------
_SAME_NAME_MODULE = '''"""A kernel whose code depends on a global read when it is compiled
(as the copies of for_joint_types do), linked into two entry points."""
import math
import os

import numba

K = float(os.environ["SAME_NAME_K"])


@numba.njit
def kernel(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += math.sin(x[i] + K) * math.cos(x[i] * K) + math.exp(-x[i] * x[i] * K)
        for j in range(i):
            s += math.atan2(x[j], x[i] + K) * K
    return s + K


@numba.njit(cache=True)
def first(x):
    return kernel(x) + kernel(x + 1.0) + kernel(x * 2.0)


@numba.njit(cache=True)
def second(x):
    return kernel(x) + kernel(x + 1.0) + kernel(x * 2.0)
'''

_SAME_NAME_SCRIPT = """
import itertools, sys
import numpy as np
from numba.core import bytecode
import mallard.multibody._kernels._machinery  # (mallard's changes to numba)
sys.path.insert(0, sys.argv[1])
import same_name
bytecode.FunctionIdentity._unique_ids = itertools.count(1000)  # (each process numbers alike)
for name in sys.argv[2:]:
    entry = getattr(same_name, name)
    value = entry(np.zeros(1))
    (result,) = entry.overloads.values()
    linked = result.library._get_module_for_linking().functions
    kernel = [f.name for f in linked if "9same_name6kernelB" in f.name and not f.is_declaration]
    print(name, repr(value), bool(entry.stats.cache_hits), *kernel)
"""


def test_26_linked_kernels_bound_within_their_library(tmp_path):
    """Two entry points, each compiled in its own process with the same numba identities,
    link one kernel compiled for different code (a global) under one mangled name (the
    identities number it alike); a third process loading both from the cache runs each with
    its own kernel's code, in either order, and so does a process that compiles one, then loads
    the other (numba's engine bound the later library's calls to the first one's copy)."""
    import os
    import subprocess
    import sys

    (tmp_path / "same_name.py").write_text(_SAME_NAME_MODULE)
    environment = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    environment["PYTHONPATH"] = str(pathlib.Path(mallard.__file__).parents[1])

    def run(k, *names):
        lines = subprocess.run(
            [sys.executable, "-c", _SAME_NAME_SCRIPT, str(tmp_path), *names],
            capture_output=True,
            text=True,
            env=dict(environment, SAME_NAME_K=k),
            check=True,
        ).stdout.splitlines()
        return {line.split()[0]: line.split()[1:] for line in lines}

    compiled = run("1.5", "first") | run("2.5", "second")
    assert compiled["first"][1] == compiled["second"][1] == "False"  # (compiled)
    assert compiled["first"][2] == compiled["second"][2]  # (one name, two codes)
    assert compiled["first"][0] != compiled["second"][0]
    for names in (("first", "second"), ("second", "first")):
        assert run("0", *names) == {
            name: [compiled[name][0], "True", compiled[name][2]] for name in names
        }
    for path in (tmp_path / "cache").rglob("same_name.first-*"):
        path.unlink()  # (compiled again, then the other loaded)
    found = run("1.5", "first", "second")
    assert found["first"] == compiled["first"]
    assert found["second"] == [compiled["second"][0], "True", compiled["second"][2]]


# ---- 27. optimization levels -------------------------------------------------------------------
def _doubled_plus_one(x):
    return x * 2.0 + 1.0


def test_27_final_module_optimized_at_its_level(monkeypatch):
    """An entry point optimized_at level 0 keeps its call to a kernel it links (LLVM's -O0
    inlines nothing), one at numba's level inlines it; the same results; the module pass
    managers are made in _optimize_final_module, at config.OPT, which is numba's again
    after; the level is in the cache variant, at most numba's."""
    from numba.core import codegen

    from mallard.multibody._kernels._machinery import jitable
    from mallard.multibody._kernels._numba_internals import WITHOUT_RUNTIME

    _numba_internals.generate_code_on_demand()
    kernel = jitable(_doubled_plus_one)

    def _entry_at_zero(x):
        return kernel(x) + 1.0

    def _entry_at_numbas(x):
        return kernel(x) + 1.0

    levels = []  # (config.OPT, the caller, its library) at each module pass manager made
    make = codegen.CPUCodegen._module_pass_manager

    def spied(self, **kwargs):
        caller = inspect.stack()[2]
        levels.append((int(numba.config.OPT), caller.function, caller.frame.f_locals["self"]))
        return make(self, **kwargs)

    def made_for(entry):
        (result,) = entry.overloads.values()
        return [level[:2] for level in levels if level[2] is result.library]

    monkeypatch.setattr(codegen.CPUCodegen, "_module_pass_manager", spied)
    monkeypatch.setitem(_numba_internals._OPT_LEVELS, _entry_at_zero.__qualname__, 0)
    numbas = int(numba.config.OPT)
    at_zero = numba.njit(**WITHOUT_RUNTIME)(_entry_at_zero)
    assert at_zero(0.5) == 3.0 and int(numba.config.OPT) == numbas
    at_numbas = numba.njit(**WITHOUT_RUNTIME)(_entry_at_numbas)
    assert at_numbas(0.5) == 3.0
    # (numba's "cheap" pass manager, then its full one)
    assert made_for(at_zero) == [(0, "_optimize_final_module")] * 2
    assert made_for(at_numbas) == [(numbas, "_optimize_final_module")] * 2
    ((dispatcher, _),) = _template(kernel)._impl_cache.values()
    (compiled_kernel,) = dispatcher.overloads.values()
    call = re.compile(rf"call \w+ @{re.escape(compiled_kernel.fndesc.mangled_name)}\(")

    def final_module(entry):
        (result,) = entry.overloads.values()
        return str(result.library._final_module)

    assert call.search(final_module(at_zero)) and not call.search(final_module(at_numbas))
    variant = _numba_internals.cache_variant
    assert variant({}, 0) != variant({}) and variant({}, 0) != variant({}, 1)
    assert variant({}, numbas) == variant({}, numbas + 1)  # (at most numba's)


def _recurrence(a):
    x = 0.0
    for i in range(a.shape[0]):  # (of unknown trip count; not vectorized: no reassociation)
        x = x * a[i] + 1.0
    return x


def test_27_final_module_optimized_without_unrolling(monkeypatch):
    """An entry point optimized_at with ``unrolling`` False keeps a loop of unknown trip count
    as it is (one multiplication), which numba's settings unroll (several); the same results;
    llvmlite's create_pass_builder is its own again after; the cache variant says so."""
    from mallard.multibody._kernels._numba_internals import WITHOUT_RUNTIME

    _numba_internals.generate_code_on_demand()
    make = llvmlite.binding.create_pass_builder
    copy = FunctionType(_recurrence.__code__, globals(), "_recurrence_not_unrolled")
    copy.__qualname__ = copy.__name__
    monkeypatch.setattr(_numba_internals, "_NOT_UNROLLED", {copy.__qualname__})
    a = np.linspace(0.1, 0.9, 37)
    unrolled = numba.njit(**WITHOUT_RUNTIME)(_recurrence)
    not_unrolled = numba.njit(**WITHOUT_RUNTIME)(copy)
    assert not_unrolled(a) == unrolled(a) == _recurrence(a)
    assert llvmlite.binding.create_pass_builder is make

    def multiplications(entry):
        (result,) = entry.overloads.values()
        return len(re.findall(r"= fmul ", str(result.library._final_module)))

    assert multiplications(not_unrolled) == 1 < multiplications(unrolled)
    variant = _numba_internals.cache_variant
    assert variant({}, None, False) != variant({}) and variant({}, 1, False) != variant({}, 1)


def test_27_entry_points_optimized_at_o1():
    """The entry points of _compiled.OPTIMIZED_AT_O1, and only they, have their final modules
    optimized at -O1, and those of _compiled.NOT_UNROLLED, and only they, without LLVM's loop
    unroller, for every set of joint types, and their cache entries say so."""
    import importlib

    from mallard import _compiled
    from mallard.multibody._joint_types import KERNEL_JOINT_TYPES

    for module in _compiled.ENTRY_MODULES:
        importlib.import_module(module)
    entry_points = {**_compiled._ENTRY_POINTS, **_compiled._BY_ADDRESS}
    assert _compiled.OPTIMIZED_AT_O1 | _compiled.NOT_UNROLLED <= set(entry_points)
    for name, fn in entry_points.items():
        for joint_types in {ALL_JOINT_TYPES, *KERNEL_JOINT_TYPES}:
            dispatcher = compiled(fn, joint_types)
            qualname = dispatcher.py_func.__qualname__
            level = _numba_internals._OPT_LEVELS.get(qualname)
            variant = dispatcher._cache._cache_file._variant
            if name in _compiled.OPTIMIZED_AT_O1:
                assert level == 1 and "final module" in variant, name
            else:
                assert level is None, name
            not_unrolled = qualname in _numba_internals._NOT_UNROLLED
            assert not_unrolled == ("not unrolled" in variant) == (name in _compiled.NOT_UNROLLED)
            if name not in _compiled.OPTIMIZED_AT_O1 | _compiled.NOT_UNROLLED:
                assert "final module" not in variant, name


def test_28_compilations_run_with_room():
    """A compilation (a function and, within it, the one it calls) runs in one frame of
    kernels._python_frames.call_with_room, in the main thread and in another."""
    import threading

    from numba.core import event

    from mallard.multibody._kernels import _machinery  # noqa: F401 (installs it)
    from tests.multibody.kernels.test_python_frames import rooms_on_stack

    def compile_two():
        seen = []

        class Listener(event.Listener):
            def on_start(self, started):
                seen.append(rooms_on_stack())

            def on_end(self, ended):
                pass

        inner = numba.njit(lambda x: x + 1.0)
        outer = numba.njit(lambda x: inner(x) * 2.0)
        with event.install_listener("numba:compile", Listener()):
            assert outer(1.0) == 4.0
        return seen

    assert compile_two() == [1, 1] and rooms_on_stack() == 0
    result = []
    thread = threading.Thread(target=lambda: result.append(compile_two()))
    thread.start()
    thread.join()
    assert result == [[1, 1]]


# ---- 29. arrays' elements indexed from their struct values ------------------------------------
@intrinsic
def _numbas_getitem(typingctx, array, index):
    """``array[index]``, one element, by numba's own implementation."""

    def codegen(context, builder, signature, args):
        from numba.np import arrayobj

        if isinstance(signature.args[1], types.BaseTuple):
            return arrayobj.getitem_array_tuple(context, builder, signature, args)
        return arrayobj.getitem_arraynd_intp(context, builder, signature, args)

    return array.dtype(array, index), codegen


@intrinsic
def _numbas_setitem(typingctx, array, index, value):
    """``array[index] = value`` by numba's own implementation."""

    def codegen(context, builder, signature, args):
        from numba.np import arrayobj

        arrayobj.setitem_array(context, builder, signature, args)
        return none_value(context)

    return types.none(array, index, value), codegen


_get = numba.njit(lambda a, index: a[index])
_get_numbas = numba.njit(lambda a, index: _numbas_getitem(a, index))


@numba.njit
def _set(a, index, value):
    a[index] = value


@numba.njit
def _set_numbas(a, index, value):
    _numbas_setitem(a, index, value)


def _element_cases():
    """(array, indices): 0-D to 3-D, C, F (transposed) and any layout (sliced, a negative
    stride), of floats and integers, every index from -size to size - 1 as int64, some as
    int32, uint64 and int8 (1-D: plain integers too)."""
    arrays = [
        np.array(2.5),
        np.arange(7.0),
        np.arange(12.0).reshape(3, 4),
        np.arange(60.0).reshape(3, 4, 5),
        np.arange(60.0).reshape(3, 4, 5)[::2, 1:, ::-2],
        np.arange(12.0).reshape(3, 4).T,
        np.arange(12, dtype=np.int32).reshape(3, 4),
        np.arange(12, dtype=np.uint8).reshape(4, 3)[:, 1:],
        np.arange(6, dtype=np.float32)[::-1],
    ]
    for a in arrays:
        ranges = [range(-n, n) for n in a.shape]
        indices = list(itertools.product(*ranges))
        if a.dtype == np.float64 and a.ndim:
            indices += [tuple(np.int32(i) for i in index) for index in indices[:: a.ndim + 1]]
            indices += [tuple(np.int8(i) for i in index) for index in indices[: a.ndim * 3]]
            indices += [tuple(np.uint64(n - 1) for n in a.shape)]
            indices += [(np.uint64(0),) + tuple(np.int32(-1) for n in a.shape[1:])]
        if a.ndim == 1:
            indices += [index[0] for index in indices]
        yield a, indices


def test_29_elements_indexed_as_numba_does():
    """One element of an array of floats or integers by an integer per dimension, read and
    written, is lowered by _numba_internals (the implementation numba finds), from the struct
    value: the same element as numba's own indexing and numpy's, for every layout, negative
    and unsigned indices and several integer types; a value assigned is cast as numba casts."""
    from numba.core.registry import cpu_target

    from mallard.multibody._kernels import _machinery  # noqa: F401 (installs it)

    context = cpu_target.target_context
    context.refresh()
    for a, indices in _element_cases():
        for index in indices:
            index_type = numba.typeof(index)
            argument_types = (numba.typeof(a), index_type)
            assert context._defns[operator.getitem].find(argument_types) is (
                _numba_internals._get_element
            )
            assert context._defns[operator.setitem].find((*argument_types, types.float64)) is (
                _numba_internals._set_element
            )
            expected = a[index]
            got, numbas = _get(a, index), _get_numbas(a, index)
            assert got == numbas == expected and type(got) is type(numbas), (a, index)
        mine, numbas = a.copy(), a.copy()
        for k, index in enumerate(indices):
            value = k + 0.75 if k % 2 else -k  # (a float assigned to integers: truncated)
            _set(mine, index, value)
            _set_numbas(numbas, index, value)
        assert np.array_equal(mine, numbas) and mine.tobytes() == numbas.tobytes()
        assert not np.array_equal(mine, a)
    written = np.zeros((2, 3))[:, ::2]
    _set(written, (1, -1), 5)
    assert written.base[1, 2] == 5.0 and written.base.sum() == 5.0


def test_29_boundscheck_and_views_left_to_numba(monkeypatch):
    """Checked bounds (``boundscheck=True``, ``NUMBA_BOUNDSCHECK``), views (fewer indices,
    slices), a row assigned, and arrays of other dtypes are numba's indexing."""
    from mallard.multibody._kernels import _machinery  # noqa: F401 (installs it)

    def get(a, i, j):
        return a[i, j]

    def put(a, i, j):
        a[i, j] = 1.0

    a = np.zeros((2, 3))
    for checked in (numba.njit(boundscheck=True)(get), numba.njit(boundscheck=True)(put)):
        assert checked(a, 1, -3) in (0.0, None)
        for i, j in ((2, 0), (0, 3), (-3, 0), (0, -4)):
            with pytest.raises(IndexError, match="index is out of bounds"):
                checked(a, i, j)
    monkeypatch.setattr(numba.config, "BOUNDSCHECK", 1)
    with pytest.raises(IndexError, match="index is out of bounds"):
        numba.njit(get)(a, 0, 3)
    monkeypatch.undo()

    @numba.njit
    def views(a, b, c):
        a[1] = 2.0
        a[0, 1:] = a[1, :2]
        return a[1], a[0, ::2], b[-1], c[1, 0]

    b = np.array([1 + 2j, 3 - 4j])
    c = np.array([[True, False], [False, True]])
    row, strided, complex_element, boolean = views(a, b, c)
    assert np.array_equal(a, [[0.0, 2.0, 2.0], [2.0, 2.0, 2.0]])
    assert np.shares_memory(row, a) and np.array_equal(row, [2.0, 2.0, 2.0])  # (a view)
    assert np.array_equal(strided, [0.0, 2.0]) and complex_element == 3 - 4j
    assert boolean is False
