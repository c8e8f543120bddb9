"""Every use mallard makes of numba beyond its documented API, in one module.

The rest of mallard uses numba's documented API only: ``numba.njit``, ``numba.prange``,
``numba.typeof``, ``numba.types``, and the extension API of ``numba.extending`` (``intrinsic``,
``overload``, ``overload_attribute``, ``register_jitable``, ``register_model`` with
``models.PrimitiveModel``/``StructModel``, ``box``), with llvmlite's IR builder in the code
generation functions of intrinsics. Whatever else they need of numba comes from here. Each
assumption below is checked by a test of tests/multibody/kernels/test_numba_internals.py
(named in brackets), so that a numba release that breaks one fails there, by name; pyproject.toml
pins numba to the releases those tests pass on.

1. Cache locators [test_1_cache_locator_protocol]: for a ``cache=True`` function, numba asks
   the classes of ``caching.CacheImpl._locator_classes``, in order, ``cls.from_function(py_func,
   py_file)`` for a locator (None: not this one); ``NUMBA_CACHE_LOCATOR_CLASSES``, if set,
   replaces that list (and mallard's stamps with it). A locator is a
   ``caching._CacheLocator`` with ``ensure_cache_path``, ``get_cache_path``, ``get_source_stamp``
   (any picklable value; a cache index is used only while its stamp compares equal),
   ``get_disambiguator`` and ``get_suitable_cache_subpath``, and a ``_py_file`` attribute, which
   numba reads to warn about a function it cannot cache. :func:`manage_caches` puts its own
   first in that list. numba's ``UserProvidedCacheLocator`` (``NUMBA_CACHE_DIR``),
   ``InTreeCacheLocator`` (``__pycache__``) and ``UserWideCacheLocator``, made with
   ``(py_func, py_file)``, give the directory they cache in with ``get_cache_path()``
   [test_1_cache_directories] (:func:`cache_files`).
2. No locator [test_2_no_locator_raises_at_decoration]: when no class gives a locator (no
   writable directory), ``numba.njit(cache=True)(fn)`` raises a RuntimeError saying "no
   locator available" (:func:`njit_cached` then compiles ``fn`` uncached).
3. Array structs [test_3_array_struct_fields, test_3_c_view_borrows]: in code generation,
   ``context.make_array(array_type)(context, builder, value)`` is the array's struct, with the
   fields ``data``, ``shape``, ``strides``, ``itemsize``, ``meminfo``, ``parent``;
   ``context.populate_array`` fills a new one; a view whose ``meminfo`` is null holds no
   reference to any memory, and is returned with ``impl_ret_borrowed``. A struct's value
   (an array's, a ``models.StructModel``'s) holds its fields in the order of
   ``context.data_model_manager[type].get_field_position(name)``, an array's ``shape`` and
   ``strides`` as LLVM arrays of intp (:func:`array_parts`, :func:`struct_field`).
4. Values in code generation [test_4_codegen_values]: ``context.cast``,
   ``context.get_constant``, ``context.get_dummy_value`` (the value of None),
   ``context.make_tuple``, ``cgutils.unpack_tuple``, ``cgutils.pack_array``,
   ``cgutils.get_null_value``.
5. Structs of a ``models.StructModel`` [test_5_struct_proxy_and_incref]:
   ``cgutils.create_struct_proxy(type)(context, builder, value)`` gives their fields by name;
   ``context.nrt.incref`` takes a reference to a value stored in one.
6. LLVM intrinsics [test_6_llvm_function]: ``cgutils.get_or_insert_function(module, fn_type,
   name)`` declares one (``llvm.pow.v4f64``) in the module being compiled.
7. Boxing [test_7_boxing]: a ``box`` function's ``c`` has ``c.pyapi.float_from_double``,
   ``c.pyapi.tuple_pack`` (a new reference; it does not steal its items') and
   ``c.pyapi.decref``, and ``c.box(type, value)`` boxes a value of a numba type.
8. Calls without dispatch [test_8_entry_point]: ``Dispatcher.compile(signature)`` compiles (or
   loads from the cache) the function for that signature and returns its entry point, which
   Python calls without numba's dispatch on argument types (:func:`compiled_for`).
10. Atomics [test_10_atomics]: in code generation, llvmlite's ``builder.atomic_rmw``,
    ``builder.load_atomic`` and ``builder.cmpxchg`` on the address of an int64 array's element
    (``builder.gep`` of its ``data``) are atomic across threads running the same compiled
    function with the GIL released (:func:`int64_atomic_add`, ``_load``, ``_cas``).
9. Compile events [test_9_compile_events]: ``numba.core.event`` sends "numba:compile" events
   to a listener installed with ``event.install_listener`` (a context manager), calling its
   ``on_start`` and ``on_end`` when numba starts and ends compiling a function, not when it
   loads one from the cache; the start event's ``data["dispatcher"]`` is the function's
   dispatcher (:func:`compilation_listener`).
11. Overload implementations [test_11_kernels_compiled_once]: numba keeps the implementations
   of an overload (what ``register_jitable`` registers) in the ``_impl_cache`` of
   ``numba.core.typing.templates._OverloadFunctionTemplate``, keyed by (typing context,
   argument types, keyword items, the compiling function's flags from
   ``targetconfig.ConfigStack.top_or_none()``), building a missing one with
   ``_build_impl(key, args, kws)`` from ``_get_impl(args, kws)`` (any hashable key does: a
   number for the flags, from ``flags.values()``, a dict of every option, whose reprs tell
   them apart; numba does not change a flags object once it compiles with it); the flags'
   ``no_cpython_wrapper`` differs between an entry point and the kernels it calls and changes
   nothing in a kernel's code (:func:`compile_each_kernel_once`), nor does ``release_gil``
   (``nogil``: only the CPython wrapper of an entry point reads it; the kernels it calls are
   compiled without, numba's CPU target does not pass it on), nor ``no_cfunc_wrapper``
   (a jit option of the target's options: without it, each compiled function gets a C callback
   wrapper, compiled and optimized apart: :data:`KERNEL_OPTIONS`). An overload registered
   with ``inline="always"``, whose template's ``_inline.is_always_inline``, is typed and
   inlined at each call site from the untyped IR of its dispatcher's ``py_func`` and needs no
   compiled implementation (``_compiled_overloads`` holds an empty entry for it); numba still
   compiles one in ``_build_impl`` (``get_call_type``) and ``generic``
   (``get_call_template``), unless the dispatcher's ``_can_compile`` is False.
12. Code generation [test_12_code_generation_on_demand]: the CPU target makes machine code for
   every library it finalizes: ``CPUCodeLibrary._finalize_final_module`` adds its
   ``_final_module`` to the execution engine (``_codegen._add_module``) and
   ``_finalize_specific`` (``JITCodeLibrary``) generates its code, then sets ``_finalized``;
   ``CPUContext.get_executable(library, fndesc, env)`` finalizes a library at the end of its
   function's lowering and sets the environment's global (``codegen.set_env``, an address
   in the engine); a library is linked into its callers' from its ``_final_module``
   (``_get_module_for_linking``), whatever the engine holds; code (``get_pointer_to_function``)
   is found only for symbols of modules in the engine. A function compiled without a CPython
   wrapper (no ``fndesc.llvm_cpython_wrapper_name`` in its library: the kernels below an
   entry point) is never called from Python; ``get_executable`` returns for it
   ``numba._dynfunc.make_function(module, name, doc, 0, env, keepalive)`` (address 0).
   ``CPUCodeLibrary.finalize`` optimizes a library's ``_final_module`` with
   ``_optimize_final_module`` after linking its callees' (each of its functions was optimized
   alone when added, ``add_ir_module``): left unoptimized as a module, it links and runs the
   same; ``get_executable``'s ``self`` is the context its function was compiled with
   (``enable_nrt``: with numba's runtime) (:func:`generate_code_on_demand`;
   [test_12_kernels_without_the_runtime_optimized_where_linked]).
13. Joint types [test_13_joint_types]: numba's untyped pipeline drops the branches of
   ``if NAME:`` (``if NAME and ...``) where NAME is a global of the function being compiled,
   read from its ``__globals__`` (``dead_branch_prune``), before typing them (they need not
   type); a function's cache entries are named by its ``__qualname__`` and keyed by its file
   (the locators of 1); ``Dispatcher._compile_for_args`` and ``Dispatcher.compile`` compile
   through ``self.compile(signature)``, an attribute a dispatcher may have of its own, and
   numba compiles under ``numba.core.compiler_lock.global_compiler_lock`` (reentrant), which
   a function's typing and lowering, and those of everything it calls, hold throughout
   (:func:`njit_for_joint_types`, :func:`for_joint_types`). A compiled function's library
   (``CompileResult.library``) lists the libraries of the compiled functions its code calls
   in ``_linking_libraries`` (``add_linking_library``, as it is lowered), those of the
   functions inlined into it included; a call's callee is compiled while its caller is
   typed (:func:`compile_each_kernel_once`'s kernels compiled once for every set
   [test_13_kernels_independent_of_the_joint_types_compiled_once]).
14. Dispatchers of given types [test_14_typed_dispatcher]: a dispatcher's ``overloads`` maps
   argument types (a tuple) to compile results, which ``add_overload(result)`` adds to another
   dispatcher of the same function; after ``disable_compile()``, a call whose arguments' types
   (numba's typeof, in C for arrays and integers) match no overload exactly calls the
   instance's ``_search_new_conversions(*args)`` (a false result: none) and then its
   ``_explain_matching_error(*args)``, which raises (:func:`typed_dispatcher`). A dispatcher
   class whose ``_fold_args`` is False (passed to the C dispatcher when an instance is made:
   ``registry.CPUDispatcher(py_func, targetoptions=...)``) types and passes a call's positional
   arguments as they are, without numba's new tuple of them completed with keyword and default
   arguments; the compiled function's CPython wrapper takes exactly its count (TypeError
   otherwise) [test_14_positional_dispatcher].
15. Linkage [test_15_kernels_internal_to_an_entry_point]: ``CPUCodeLibrary.finalize`` links
   the libraries a function calls into its ``_final_module`` (a clone of each, its functions
   ``linkonce_odr``: ``_get_module_for_linking``), then optimizes it
   (``_optimize_final_module``), named by the library's ``name``, the function's qualified
   name; a linked function made ``internal`` there, and renamed (``ValueRef.name``), is the
   module's own (``ValueRef.linkage``, ``ll.Linkage``): the code of other modules loaded
   later does not bind to it; numba's pass pruning reference counts finds the calls of
   ``NRT_incref`` and ``NRT_decref`` by name (:func:`kernels_internal_to`).
17. numba's own work [test_17_numbas_python_work]: ``typing.npydecl.NumpyRulesArrayOperator.
   generic`` (the template of the binary operators on arrays, inherited by the in-place ones)
   returns None when no operand is an array (or an Optional of one); ``ir.Inst.
   _rec_list_vars(val)`` lists the variables in ``val`` (``Var``: itself; ``Inst``: its
   ``list_vars()``; lists, tuples, dict values: recursively; else none), used by
   ``list_vars``; a type's hash and equality come from its ``key`` (``Type.__hash__``,
   ``__eq__``), which for arrays and tuples does not change, and numba interns types;
   ``utils.order_by_target_specificity(target, templates, fnkey)``, which ``types.functions``
   calls through ``utils`` and ``typing.context`` by the name it imported, orders the
   templates by a target class and their ``metadata`` (class attributes) only, or raises;
   ``lowering.Lower.create_cfunc_wrapper`` makes the C callback wrapper of the function being
   lowered (``self.flags``: its flags), which only first-class function values call
   (:func:`cut_numbas_python_work`).
18. The untyped IR of inlined kernels [test_18_numbas_untyped_ir_of_an_inlined_overload,
   test_18_inlined_kernels_untyped_ir_built_once]: ``_OverloadFunctionTemplate.generic`` types
   a call of an ``inline="always"`` overload from ``InlineWorker.run_untyped_passes(py_func,
   enable_ssa=True)``, which sets the worker's ``flags.enable_ssa``, draws the function's
   identity first (``bytecode.FunctionIdentity.from_function``: ``next`` of the class's
   ``_unique_ids``, read at each draw; ``derive()`` draws a new one), runs the untyped
   pipeline with the worker's contexts, ``locals``, pipeline and flags over the function's
   code and globals, and returns IR equal to the last build's (``equal_ir``, ``dump``), which
   the caller types and changes in place; a ``copy.deepcopy`` of it (its ``func_id`` and
   ``_consts``, a weak proxy, given in the memo) is equal to it and shares no statement with
   it; block labels are drawn from ``ir_utils._the_max_label`` (``_value``)
   (:func:`build_inlined_ir_once`).
19. Compilation's span [test_19_fewer_collections_while_compiling]: the "numba:compile"
   events of 9, sent to the listeners ``event.register`` adds, nest (a function's callees are
   compiled within it) and end also when a compilation raises (``event.trigger_event``), in
   the thread compiling, under numba's compiler lock (:func:`collect_less_while_compiling`).
20. Cache files [test_20_cache_files, test_20_keyed_cache_file]: a dispatcher made with
   ``cache=True`` holds its ``caching.FunctionCache`` in ``_cache``, whose ``_cache_path``,
   ``_impl.filename_base`` (``<module>.<qualname>-<line>.py<XY>``) and ``_cache_file`` (an
   ``IndexDataCacheFile(cache_path, filename_base, source_stamp)``: ``_source_stamp`` the
   locator's, ``_version`` numba's) are set when the dispatcher is made; ``Dispatcher.compile``
   loads an entry (``load_overload``) before compiling one and saves it after, through that
   cache file's ``load(key)`` (None: not cached) and ``save(key, data)``, and ``recompile``
   calls its ``flush()``: nothing else of it; after the cache's ``disable()`` it loads and
   saves nothing; a key (``Cache._index_key``: the signature, the target's ``magic_tuple()``,
   hashes of the function's bytecode and closure; not the jit options) equals its pickled
   copy and has the same ``repr``; ``IndexDataCacheFile._dump``'s bytes load with ``pickle``;
   ``_open_for_write(path)`` writes a temporary file (``<path>.tmp.<id>``) renamed over
   ``path`` (``os.replace``) when its block ends; ``numba.config`` holds ``OPT``,
   ``LOOP_VECTORIZE``, ``SLP_VECTORIZE``, ``BOUNDSCHECK`` and ``DEBUGINFO_DEFAULT``
   (:class:`KeyedCacheFile`, :func:`cache_variant`).
21. C addresses [test_21_c_address]: a function compiled by a dispatcher without
   ``no_cfunc_wrapper`` (entry points) has in its library (``overloads[signature].library``)
   a C callback wrapper named ``fndesc.llvm_cfunc_wrapper_name``, of the C signature of its
   argument and return types (int64s: ``int64_t f(int64_t, ...)``), whose address
   ``library.get_pointer_to_function(name)`` gives, for a function loaded from numba's cache
   too (:func:`c_address`).
22. The typing of inlined calls [test_22_numbas_typing_of_an_inlined_call,
   test_22_inlined_calls_typed_once]: ``_OverloadFunctionTemplate.generic`` resolves a call of
   an ``inline="always"`` overload to a ``Signature(return type, folded arguments)`` by typing
   its body (assumption 18's build, then the typing, which resolves the body's own calls),
   and records ``_inline_overloads[sig.args]`` (``folded_args``, ``iinfo``: ``_inline_info``
   of the typed IR, its typemap and calltypes) and ``_compiled_overloads[sig.args]`` (an
   ``_EmptyImplementationEntry``) on the template's class; the typed-inlining pass
   (``InlineOverloads._run_inliner``) inlines the last record's ``iinfo.func_ir`` at each
   call site (reading the record's ``['iinfo']``), its variables renamed after that IR's
   ``func_id.unique_name`` (``InlineWorker.inline_ir``), and types the body again there; the
   result depends on the argument types, the typing context, the flags being compiled
   (``targetconfig.ConfigStack``) and the joint types. A ``FunctionIdentity`` is its
   attributes, ``unique_name`` being ``func_qualname$unique_id`` (its ``copy.copy`` draws a
   new one: ``from_function``); "numba:compile" events are sent for compilations only, not
   for overloads found or loaded from the cache (:func:`type_inlined_calls_once`).
23. Scopes [test_23_scopes_completed_once]: ``ir_utils.fixup_var_define_in_scope(blocks)``,
   which the untyped pass ``InlineClosureLikes`` calls by the name ``untyped_passes``
   imported, defines in the scope of each block (``scope.localvars.define(name, var)``) every
   variable the blocks' statements use (``list_vars``) that the scope lacks, in the order first
   used, and does nothing else; blocks may share a scope
   (:func:`cut_numbas_work_per_statement`).
24. ABI sizes [test_24_abi_sizes_kept_per_type_text]: ``BaseContext.get_abi_sizeof(ty)`` and
   ``get_abi_alignment(ty)`` are llvmlite's ``ty.get_abi_size(target_data)`` and
   ``get_abi_alignment`` for the context's ``target_data`` (which a context keeps), which depend
   only on the type's text but for an identified struct's (``%"name"``, whose body may
   change); numba's lowering asks the context for them (:func:`cut_numbas_work_per_statement`).
25. ``loc`` arguments [test_25_loc_read_from_the_code]: ``base._wrap_missing_loc`` asks
   ``base._has_loc(fn)`` (by its module's name), true if ``inspect.signature(fn)`` has a
   parameter ``loc``: for a plain function (no ``__signature__``, no ``__wrapped__``) one of
   its code's arguments, keyword-only, ``*args`` or ``**kwargs`` names
   (:func:`cut_numbas_work_per_statement`).
26. Symbols [test_26_linked_kernels_bound_within_their_library]: numba's mangled name of a
   compiled function (``fndesc.mangled_name``) holds its module, qualified name, argument types,
   flags and its identity's ``unique_id``, a counter of the process compiling it; the machine
   code of a library (added to numba's MCJIT engine by ``_finalize_final_module``, saved to and
   loaded from the cache as object code) defines the kernels linked into it under their names
   (``linkonce_odr``: weak), and the engine binds a library's calls of such a name to the first
   definition of it loaded, another library's if one was; ``ValueRef.name`` renames a function
   and its calls in the module, which numba's ``_get_module_for_linking`` clones later
   (:func:`_bound_within`).
27. Optimization levels [test_27_final_module_optimized_at_its_level]: a library's final
   module is optimized by ``CPUCodeLibrary._optimize_final_module``, whose pass managers
   (``CPUCodegen._module_pass_manager``, its "cheap" one and its full one) read
   ``numba.config.OPT`` (an ``_OptLevel``) when they are made, there (:func:`optimized_at`);
   they are made by ``numba.core.llvm_bindings.create_pass_builder``, which passes LLVM's
   pipeline tuning options (llvmlite's ``PipelineTuningOptions``, its ``loop_unrolling``
   true by default) to ``llvmlite.binding.create_pass_builder(tm, pto)``, looked up on that
   module at each call (:func:`optimized_at`'s ``unrolling``).
28. Compilation's entry [test_28_compilations_run_with_room]: every compilation of a jitted
   function goes through ``Dispatcher.compile(sig)``, looked up on the dispatcher when called
   (a first call, through ``_compile_for_args``; an explicit ``compile``; the typing of a call
   from a function being compiled, through ``get_call_template``), in the thread compiling
   (:func:`compile_with_room_for_frames`).
29. Arrays' elements [test_29_elements_indexed_as_numba_does,
   test_29_boundscheck_and_views_left_to_numba]: numba lowers ``a[i]``, ``a[i, j]`` and their
   assignments (``operator.getitem``, ``setitem``) with the implementation registered
   (``lower_builtin``) for the most specific argument types (``BaseContext.get_function``:
   ``types.Array`` before numba's ``types.Buffer``); its own, ``np.arrayobj.getitem_arraynd_intp``
   (an integer), ``getitem_array_tuple`` (a tuple) and ``setitem_array``, called with the same
   ``(context, builder, signature, args)``, index an array when another does not; they address
   an element with ``fix_integer_index(context, builder, index_type, index, size)`` per index (a
   signed negative one plus the size) and ``cgutils.get_item_pointer2(context, builder, data,
   shape, strides, layout, indices)``, check the bounds if ``context.enable_boundscheck``
   (``boundscheck=True``, ``NUMBA_BOUNDSCHECK``), and load and store it with ``load_item`` and
   ``store_item`` after casting the value (``context.cast``) to the dtype
   (:func:`element_pointer`, :func:`index_elements_from_struct_values`).
"""

import collections
import contextlib
import copy
import functools
import glob
import hashlib
import itertools
import operator
import os
import pickle
import re
import stat
import sys
import tempfile
import warnings
from inspect import CO_VARARGS, CO_VARKEYWORDS
from types import FunctionType

import numba
from numba import types
from numba.core import caching, cgutils
from numba.core.imputils import impl_ret_borrowed
from numba.core.registry import CPUDispatcher
from numba.extending import intrinsic, lower_builtin

from mallard.multibody import _joint_types
from mallard.multibody._joint_types import ALL as ALL_JOINT_TYPES

# ---- 1, 2: the on-disk cache -------------------------------------------------------------------

_CACHE_IMPL = caching.CacheImpl

#: (directory + os.sep, stamp or None) of each :func:`manage_caches`, in order.
_MANAGED = []

#: The directory of the caches numba has no writable place for (see _temporary_cache_dir).
_temporary_dir = None
_warned = False


def manage_caches(directory, stamp=None):
    """Where numba finds no writable directory for the cache of a function it compiles with
    ``cache=True`` from a file under ``directory``, caches it in a temporary one (with one
    warning that says how to choose one). With ``stamp``, a function of the file's path, the
    cache entries of those files are stamped with ``stamp(py_file)`` (a str) in place of
    numba's stamp of the file alone. The first call whose directory holds a file decides."""
    _MANAGED.append((os.path.join(os.path.abspath(directory), ""), stamp))
    if _ManagedLocator not in _CACHE_IMPL._locator_classes:
        _CACHE_IMPL._locator_classes.insert(0, _ManagedLocator)


class _ManagedLocator(caching._CacheLocator):
    """numba's locator for a function (or a temporary one), with the stamp of
    :func:`manage_caches` if one was given; ``current``: whether the sources it stamps are
    those this process imported (see :func:`njit_cached`)."""

    def __init__(self, inner, stamp, py_file, current):
        self._inner = inner
        self._stamp = stamp
        self._py_file = py_file
        self.current = current

    def ensure_cache_path(self):
        self._inner.ensure_cache_path()

    def get_cache_path(self):
        return self._inner.get_cache_path()

    def get_source_stamp(self):
        return self._inner.get_source_stamp() if self._stamp is None else self._stamp

    def get_disambiguator(self):
        return self._inner.get_disambiguator()

    @classmethod
    def from_function(cls, py_func, py_file):
        managed = _managed(py_file)
        if managed is None:
            return None
        stamp = managed[1]
        try:
            source_stamp = None if stamp is None else stamp(py_file)
        except OSError:  # (sources that cannot be read: numba's own locators)
            return None
        current = source_stamp is not None or (stamp is None and _unchanged(py_file))
        inner = _numba_locator(py_func, py_file) or _TemporaryLocator.from_function(
            py_func, py_file
        )
        return None if inner is None else cls(inner, source_stamp, py_file, current)


def _managed(py_file):
    """The (directory, stamp) of the first :func:`manage_caches` whose directory holds the
    file ``py_file``, or None."""
    path = os.path.abspath(py_file)
    return next((each for each in _MANAGED if path.startswith(each[0])), None)


def mallard_imported():
    """When this process imported mallard (``mallard._IMPORTED``, read from ``sys.modules``:
    imported by name, the package's ``__init__.py`` would join every kernel's stamp)."""
    return sys.modules["mallard"]._IMPORTED


def _unchanged(py_file):
    """Whether the file ``py_file`` was last modified before this process imported mallard."""
    try:
        return os.stat(py_file).st_mtime_ns <= mallard_imported()
    except OSError:
        return False


def _numba_locator(py_func, py_file):
    """The locator numba's own classes give ``py_func`` (None: no writable directory)."""
    for other in _CACHE_IMPL._locator_classes:
        if other is not _ManagedLocator:
            locator = other.from_function(py_func, py_file)
            if locator is not None:
                return locator
    return None


class _TemporaryLocator(caching._CacheLocator):
    """A function's cache in :func:`_temporary_cache_dir`."""

    def __init__(self, py_func, py_file, directory):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(directory, self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self):
        return self._cache_path

    def get_source_stamp(self):
        with open(self._py_file, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()

    def get_disambiguator(self):
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        directory = _temporary_cache_dir()
        if directory is None:
            return None
        self = cls(py_func, py_file, directory)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


def _temporary_cache_dir():
    """The directory for the caches numba has no writable place for, made on the first call,
    with the one warning: a directory of the user's own in the system's temporary directory
    (private: a cache is a pickle, and loading it runs code), else a new temporary directory;
    None if neither can be made."""
    global _temporary_dir
    if _temporary_dir is None:
        _temporary_dir = _private_temporary_dir()
        _warn_no_cache_dir(f"caching them in {_temporary_dir} instead" if _temporary_dir else None)
    return _temporary_dir


def _private_temporary_path():
    """The path of the user's own directory in the system's temporary directory (None where
    users have no ids)."""
    if not hasattr(os, "getuid"):
        return None
    return os.path.join(tempfile.gettempdir(), f"mallard-numba-cache-{os.getuid()}")


def _private_temporary_dir():
    try:
        path = _private_temporary_path()
        if path is not None:
            os.makedirs(path, mode=0o700, exist_ok=True)
            st = os.lstat(path)
            if stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077:
                return path
        return tempfile.mkdtemp(prefix="mallard-numba-cache-")
    except OSError:
        return None


def _warn_no_cache_dir(what):
    """The one warning (per process) that numba has no writable cache directory: ``what``
    mallard does instead (None: compile without a cache)."""
    global _warned
    if _warned:
        return
    _warned = True
    what = what or "compiling them without a cache (each process compiles them again)"
    warnings.warn(
        "numba found no writable directory to cache mallard's compiled kernels in (the "
        f"package's __pycache__ and the user's cache directory are read-only): {what}. Set "
        "the environment variable NUMBA_CACHE_DIR to a writable directory to choose where "
        "they are cached.",
        stacklevel=2,
    )


_warned_changed = False


def _warn_sources_changed():
    """The one warning (per process) that kernels are not cached in it: their sources were
    modified after it imported mallard (or carry modification times in the future)."""
    global _warned_changed
    if _warned_changed:
        return
    _warned_changed = True
    warnings.warn(
        "mallard's kernel sources were modified after this process imported mallard (or have "
        "modification times in the future): the kernels they define are compiled without "
        "numba's on-disk cache in this process. A new process caches them again.",
        stacklevel=3,
    )


def njit_cached(fn, opt=None, unrolling=True, **options):
    """``numba.njit(cache=True, **options)(fn)``, its cache entries in :class:`KeyedCacheFile`
    files, or uncached if numba has no cache location for it (with the one warning of
    :func:`manage_caches`); ``opt``: the level its final module is optimized at if not numba's,
    ``unrolling`` False: without LLVM's loop unroller (:func:`optimized_at`).

    Its cache is neither loaded nor saved in this process if a source file its stamp covers
    (the closure of :func:`manage_caches`' stamp, else fn's file) was modified after the
    process imported mallard: the process may have imported fn's module, or one it imports, before
    the change, and would save code older than the files under their stamp, for every later
    process to load."""
    if opt is not None or not unrolling:
        optimized_at(fn.__qualname__, opt, unrolling)
    try:
        dispatcher = numba.njit(cache=True, **options)(fn)
    except RuntimeError as error:
        if "no locator available" not in str(error):
            raise
        _warn_no_cache_dir(None)
        return numba.njit(**options)(fn)
    cache = dispatcher._cache
    locator = cache._impl.locator
    managed = isinstance(locator, _ManagedLocator)
    if not (locator.current if managed else _unchanged(locator._py_file)):
        cache.disable()
        _warn_sources_changed()
    cache._cache_file = KeyedCacheFile(
        cache._cache_path,
        cache._impl.filename_base,
        cache._cache_file._source_stamp,
        cache_variant(options, opt, unrolling),
    )
    return dispatcher


class KeyedCacheFile(caching.IndexDataCacheFile):
    """The cache entries of one function, a file each, named by a hash of the entry's key
    (numba's: argument types, target CPU and features, the function's bytecode) and variant
    (:func:`cache_variant`), and holding numba's version, the source stamp, the variant and the
    key it was saved for, which a load checks: an entry whose file holds anything else is
    compiled again, never run.

    numba's own files (``IndexDataCacheFile``) name an entry's data ``<base>.<N>.nbc``, N the
    first number its index does not use, and write the index, then the data, with nothing in
    the data saying which key it is for: two processes saving two keys of one function at once
    (``mallard compile``'s workers, pytest-xdist, two programs) both read the index, both take
    N, and the index one wrote can end beside the data the other wrote, so that a later process
    loads one key's code for the other's arguments (and runs it); so can an index copied beside
    another build's data files (a partial cache restore). Here nothing pairs an index with data
    files: a file is written whole (a temporary file renamed over it) and read alone; two
    processes saving one key write the same name (either's is right), two keys two names; a
    process of older sources writing a key's file leaves a stamp later processes reject.
    Saving an entry removes the files it makes stale (:meth:`_prune`), so that a cache keeps
    the entries of the sources last compiled, not one set per edit."""

    def __init__(self, cache_path, filename_base, source_stamp, variant):
        super().__init__(cache_path, filename_base, source_stamp)
        self._base = os.path.join(cache_path, filename_base)
        self._variant = variant
        named = _CACHE_BASE.fullmatch(filename_base)
        self._module, self._function = named.groups() if named else (None, None)

    def save(self, key, data):
        header = (self._version, self._source_stamp, self._variant)
        body = self._dump((key, data))
        path = self._keyed_path(key)
        with self._open_for_write(path) as f:
            pickle.dump(header, f, protocol=-1)
            f.write(body)
        self._prune(path)

    def _prune(self, saved):
        """Removes, beside the file ``saved`` just written, the entries of the function's
        module (its file's stem) stamped with other sources (what every edit of the sources
        its stamp covers, every reinstall, left), and numba's own files (``.nbi``, ``.<N>.nbc``)
        of this function, written by mallard's releases before these files: only mallard's
        files, only of its sources, never one of the current stamp (another process may be
        loading it; one removed while another process reads it is read whole where files
        stay readable once opened, else that process finds none and compiles)."""
        for name, keyed in _module_cache_files(self._cache_path, {self._module}):
            path = os.path.join(self._cache_path, name)
            if path == saved or not keyed and _CACHE_NAME.fullmatch(name)[2] != self._function:
                continue
            if not keyed or _entry_stamp(path) != self._source_stamp:
                with contextlib.suppress(OSError):
                    os.remove(path)

    def load(self, key):
        try:
            with open(self._keyed_path(key), "rb") as f:
                if pickle.load(f) != (self._version, self._source_stamp, self._variant):
                    return None
                saved_key, data = pickle.load(f)
        except FileNotFoundError:
            return None
        except Exception:  # (a file cut short or corrupted, by a failed copy: compiled again)
            return None
        return data if saved_key == key else None

    def flush(self):
        """Drops the function's entries (what numba's ``Dispatcher.recompile`` asks)."""
        for path in glob.glob(glob.escape(self._base) + ".k*.nbc"):
            with contextlib.suppress(FileNotFoundError):
                os.remove(path)

    def _keyed_path(self, key):
        digest = hashlib.sha256(repr((key, self._variant)).encode()).hexdigest()[:20]
        return f"{self._base}.k{digest}.nbc"


#: The name of a file of numba's cache of a function: ``<module>.<qualname>-<line>.py<XY>``
#: (numba's ``filename_base``; <module> the stem of the function's file), then a
#: :class:`KeyedCacheFile` entry's ``.k<hash>.nbc``, or numba's own index ``.nbi`` or data
#: ``.<N>.nbc``: groups the module, the qualname (``<`` and ``>`` left out), the ``k`` of a keyed
#: file.
_CACHE_BASE = re.compile(r"([^.]+)\.(.+)-\d+\.py\d+[a-z]*")
_CACHE_NAME = re.compile(_CACHE_BASE.pattern + r"\.(?:(k)[0-9a-f]{20}\.nbc|nbi|\d+\.nbc)")
_UNREADABLE = object()


def _module_cache_files(directory, modules):
    """(name, keyed) of each file of numba's cache in ``directory`` of a function of the
    ``modules`` (file stems): keyed, a :class:`KeyedCacheFile` entry, else numba's own."""
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    found = []
    for name in names:
        match = _CACHE_NAME.fullmatch(name)
        if match is not None and match[1] in modules:
            found.append((name, match[3] is not None))
    return found


def _entry_stamp(path):
    """The source stamp that the :class:`KeyedCacheFile` entry ``path`` holds, or a value
    equal to no stamp if it cannot be read (gone, cut short, another format)."""
    try:
        with open(path, "rb") as f:
            header = pickle.load(f)
        return header[1]
    except Exception:
        return _UNREADABLE


def _cache_locators(py_file):
    """A locator of each directory where numba, or :func:`manage_caches`, may cache the
    functions of the file ``py_file``: NUMBA_CACHE_DIR's (if set), ``__pycache__`` beside it,
    the user's cache directory, mallard's private temporary one."""
    fn = _cache_locators  # (numba's locators read only a function's first line)
    locators = [caching.InTreeCacheLocator(fn, py_file), caching.UserWideCacheLocator(fn, py_file)]
    if numba.config.CACHE_DIR:
        locators.insert(0, caching.UserProvidedCacheLocator(fn, py_file))
    temporary = _temporary_dir or _private_temporary_path()
    if temporary is not None:
        locators.append(_TemporaryLocator(fn, py_file, temporary))
    return locators


def _current_stamp(py_file, where):
    """The stamp with which the entries of ``py_file``'s functions are saved now in the
    directory of ``_cache_locators(py_file)[where]`` (None: none, its sources were modified
    after this process imported mallard)."""
    managed = _managed(py_file)
    if managed is not None and managed[1] is not None:
        return managed[1](py_file)
    return _cache_locators(py_file)[where].get_source_stamp()


#: A cache file's state (:func:`cache_files`).
CURRENT, STALE, OLD_FORMAT = "current", "stale", "old format"


def cache_files(package_dir):
    """Every file of numba's cache of the functions of the modules under ``package_dir``
    (mallard's), in every directory numba or mallard may have written them (see
    :func:`_cache_locators`): (path, size in bytes, state), the state :data:`CURRENT` (an
    entry of :class:`KeyedCacheFile` stamped with the sources as they are), :data:`STALE` (of
    other sources, or unreadable) or :data:`OLD_FORMAT` (numba's own index and data files,
    which mallard's releases before KeyedCacheFile wrote). Files being written (numba's
    ``*.tmp.*``) are not listed."""
    found, seen = [], set()
    for directory, subdirectories, names in os.walk(package_dir):
        subdirectories[:] = sorted(d for d in subdirectories if d != "__pycache__")
        sources = {name[: -len(".py")]: name for name in names if name.endswith(".py")}
        if not sources:
            continue
        first = os.path.join(directory, next(iter(sources.values())))
        for where, locator in enumerate(_cache_locators(first)):
            cache_path = locator.get_cache_path()
            if cache_path in seen:
                continue
            seen.add(cache_path)
            stamps = {}
            for name, keyed in sorted(_module_cache_files(cache_path, sources)):
                path = os.path.join(cache_path, name)
                try:
                    size = os.stat(path).st_size
                except OSError:
                    continue
                state = OLD_FORMAT
                if keyed:
                    module = _CACHE_NAME.fullmatch(name)[1]
                    if module not in stamps:
                        py_file = os.path.join(directory, sources[module])
                        stamps[module] = _current_stamp(py_file, where)
                    current = stamps[module] is not None and _entry_stamp(path) == stamps[module]
                    state = CURRENT if current else STALE
                found.append((path, size, state))
    return found


def cache_variant(options, opt=None, unrolling=True):
    """What changes a function's code that numba's cache key leaves out: its jit ``options``
    (``nogil``, ``error_model``, numba's runtime...), numba's code generation settings
    (``NUMBA_OPT``, ``NUMBA_LOOP_VECTORIZE``, ``NUMBA_SLP_VECTORIZE``, ``NUMBA_BOUNDSCHECK``,
    ``NUMBA_DEBUGINFO``), the level ``opt`` its final module is optimized at if not numba's
    and whether without LLVM's loop unroller (:func:`optimized_at`; None, True: numba's), as a
    str."""
    config = numba.config
    settings = (
        str(config.OPT),
        config.LOOP_VECTORIZE,
        config.SLP_VECTORIZE,
        config.BOUNDSCHECK,
        config.DEBUGINFO_DEFAULT,
    )
    final = () if opt is None else ("final module", _final_level(opt))
    if not unrolling:
        final += ("not unrolled",)
    if not final:
        return repr((sorted(options.items()), settings))
    return repr((sorted(options.items()), settings, final))


# ---- 3-7: code generation ----------------------------------------------------------------------


def array_struct(context, builder, array_type, value=None):
    """The struct of the array ``value`` of numba type ``array_type`` (a new one if None):
    ``data``, ``shape``, ``strides``, ``itemsize``, ``meminfo``, ``parent``."""
    return context.make_array(array_type)(context, builder, value)


def array_parts(context, builder, array_type, value):
    """The ``data`` pointer and the ``shape`` and ``strides`` (lists of intp) of the array
    ``value`` of numba type ``array_type``, taken out of its struct value as it is (where
    :func:`array_struct` copies it to the stack: several instructions more per use)."""
    fields = context.data_model_manager[array_type]
    parts = [
        [builder.extract_value(value, [fields.get_field_position(name), d]) for d in range(n)]
        for name, n in (("shape", array_type.ndim), ("strides", array_type.ndim))
    ]
    return builder.extract_value(value, fields.get_field_position("data")), *parts


def struct_field(context, builder, struct_type, value, name):
    """The field ``name`` of the value ``value`` of ``struct_type`` (a type with a
    ``models.StructModel``), taken out of the struct value as it is."""
    position = context.data_model_manager[struct_type].get_field_position(name)
    return builder.extract_value(value, position)


def cast(context, builder, value, from_type, to_type):
    """``value`` of numba type ``from_type`` converted to ``to_type``."""
    return context.cast(builder, value, from_type, to_type)


def none_value(context):
    """The value an intrinsic returning None returns."""
    return context.get_dummy_value()


def make_tuple(context, builder, tuple_type, items):
    """The tuple of numba type ``tuple_type`` of the values ``items``."""
    return context.make_tuple(builder, tuple_type, items)


def struct_proxy(struct_type, context, builder, value=None):
    """The fields, by name, of the value ``value`` (a new one if None) of ``struct_type``, a
    type with a ``models.StructModel``; ``._getvalue()`` is the struct."""
    return cgutils.create_struct_proxy(struct_type)(context, builder, value)


def incref(context, builder, value_type, value):
    """Takes a reference to ``value`` (numba type ``value_type``): one kept in a struct
    (nothing in code compiled without numba's runtime, which counts no references)."""
    if context.enable_nrt:
        context.nrt.incref(builder, value_type, value)


def llvm_function(builder, fn_type, name):
    """The LLVM function ``name`` of type ``fn_type`` (an ``llvmlite.ir.FunctionType``),
    declared in the module being compiled: LLVM's intrinsics (``llvm.pow.v4f64``)."""
    return cgutils.get_or_insert_function(builder.module, fn_type, name)


def box_float_tuple(c, doubles):
    """The Python tuple of the LLVM doubles ``doubles`` (in a ``box`` function)."""
    floats = [c.pyapi.float_from_double(d) for d in doubles]
    result = c.pyapi.tuple_pack(floats)
    for f in floats:
        c.pyapi.decref(f)
    return result


def box_value(c, value_type, value):
    """The Python object of ``value``, of numba type ``value_type`` (in a ``box`` function)."""
    return c.box(value_type, value)


def intp_items(context, builder, value, tuple_type):
    """The items of the tuple ``value`` of integers (type ``tuple_type``), cast to intp."""
    items = cgutils.unpack_tuple(builder, value, len(tuple_type))
    return [
        context.cast(builder, item, item_type, types.intp)
        for item, item_type in zip(items, tuple_type, strict=True)
    ]


def _view_codegen(view_type, shape, with_offset):
    """The code generation of :func:`c_view` (with_offset False) and :func:`c_view_at`."""
    ndim = len(shape)

    def codegen(context, builder, signature, args):
        source = array_struct(context, builder, signature.args[0], args[0])
        data = source.data
        if with_offset:
            stride = cgutils.unpack_tuple(builder, source.strides, signature.args[0].ndim)[0]
            offset = context.cast(builder, args[1], signature.args[1], types.intp)
            data = cgutils.pointer_add(builder, data, builder.mul(offset, stride))
        dims = intp_items(context, builder, args[-1], shape)
        strides = [source.itemsize] * ndim
        for d in range(ndim - 2, -1, -1):
            strides[d] = builder.mul(strides[d + 1], dims[d + 1])
        view = array_struct(context, builder, view_type)
        context.populate_array(
            view,
            data=data,
            shape=cgutils.pack_array(builder, dims),
            strides=cgutils.pack_array(builder, strides),
            itemsize=source.itemsize,
            meminfo=cgutils.get_null_value(source.meminfo.type),
            parent=source.parent,
        )
        return impl_ret_borrowed(context, builder, view_type, view._getvalue())

    return codegen


@intrinsic
def c_view(typingctx, a, shape):
    """The C-contiguous view of the C-contiguous array ``a`` shaped ``shape`` (unchecked),
    holding no reference to ``a``'s memory: it must not outlive ``a`` (see
    kernels._machinery.reshaped)."""
    view_type = types.Array(a.dtype, len(shape), "C")
    return view_type(a, shape), _view_codegen(view_type, shape, False)


@intrinsic
def c_view_at(typingctx, a, offset, shape):
    """:func:`c_view` of ``a[offset:]`` (offset along a's first dimension), without making
    that slice: numba counts the slice's reference to a's memory, in calls the compiler cannot
    drop even when the view is not used (kernels.views makes many views, a kernel uses few)."""
    view_type = types.Array(a.dtype, len(shape), "C")
    return view_type(a, offset, shape), _view_codegen(view_type, shape, True)


@intrinsic
def product(typingctx, shape):
    """The product of the integers of the tuple ``shape``."""

    def codegen(context, builder, signature, args):
        size = context.get_constant(types.intp, 1)
        for value in intp_items(context, builder, args[0], shape):
            size = builder.mul(size, value)
        return size

    return types.intp(shape), codegen


# ---- 10: atomics ---------------------------------------------------------------------------------


def _int64_pointer(context, builder, array_type, array, index):
    """The address of ``array[index]`` (an int64 1-D array, the index unchecked)."""
    data = array_struct(context, builder, array_type, array).data
    return builder.gep(data, [index])


def _atomic_signature(a, arity):
    if not (isinstance(a, types.Array) and a.dtype == types.int64 and a.ndim == 1):
        raise TypeError("atomics take a 1-D int64 array")
    return types.int64(a, types.intp, *([types.int64] * arity))


@intrinsic
def int64_atomic_add(typingctx, a, i, value):
    """a[i] += value atomically (seq_cst); the value a[i] had."""

    def codegen(context, builder, signature, args):
        pointer = _int64_pointer(context, builder, signature.args[0], args[0], args[1])
        return builder.atomic_rmw("add", pointer, args[2], "seq_cst")

    return _atomic_signature(a, 1), codegen


@intrinsic
def int64_atomic_load(typingctx, a, i):
    """a[i], read atomically (acquire)."""

    def codegen(context, builder, signature, args):
        pointer = _int64_pointer(context, builder, signature.args[0], args[0], args[1])
        return builder.load_atomic(pointer, "acquire", 8)

    return _atomic_signature(a, 0), codegen


@intrinsic
def int64_atomic_cas(typingctx, a, i, expected, new):
    """a[i] = new if a[i] == expected, atomically (seq_cst); the value a[i] had."""

    def codegen(context, builder, signature, args):
        pointer = _int64_pointer(context, builder, signature.args[0], args[0], args[1])
        pair = builder.cmpxchg(pointer, args[2], args[3], "seq_cst", "seq_cst")
        return builder.extract_value(pair, 0)

    return _atomic_signature(a, 2), codegen


# ---- 9: compile events ---------------------------------------------------------------------------


def compilation_listener(on_start, on_end):
    """A context manager during which ``on_start(name)`` and ``on_end()`` are called as numba
    starts and ends compiling a function (nested for the functions it calls; ``name``: the
    function's)."""
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, started):
            dispatcher = started.data["dispatcher"]
            on_start(getattr(dispatcher, "__name__", None) or str(dispatcher))

        def on_end(self, _event):
            on_end()

    return event.install_listener("numba:compile", Listener())


# ---- 11: overload implementations ---------------------------------------------------------------

#: The jit options of every kernel (kernels._machinery.jitable), besides ``inline``: kernels are
#: called from compiled code only, so none gets a C callback wrapper.
KERNEL_OPTIONS = {"no_cfunc_wrapper": True}

#: The kernels registered with inline="always" (see :func:`inline_kernel`).
_INLINED = set()


def inline_kernel(fn):
    """Records that the kernel ``fn`` is registered with ``inline="always"``: it is typed at
    each call site, never compiled alone (:func:`compile_each_kernel_once`)."""
    _INLINED.add(fn)


#: A number for each distinct kernel flags (as a repr), and the number of each flags object seen
#: (by id, with the object, which numba does not change once compiling with it).
_TOKENS = {}
_FLAGS_TOKENS = {}


def _flags_token(flags):
    """A number standing for ``flags`` (None for None) with a kernel's wrapper options and
    without the GIL's release (see :func:`compile_each_kernel_once`): numba's key hashed and
    compared every option of the flags (twenty-odd Python calls) at each of the tens of
    thousands of lookups a compilation makes."""
    if flags is None:
        return None
    found = _FLAGS_TOKENS.get(id(flags))
    if found is not None and found[0] is flags:
        return found[1]
    values = flags.values()
    values["no_cpython_wrapper"] = values["no_cfunc_wrapper"] = True
    values["release_gil"] = False
    token = _TOKENS.setdefault(repr(sorted(values.items())), len(_TOKENS))
    _FLAGS_TOKENS[id(flags)] = flags, token
    return token


def compile_each_kernel_once():
    """Makes numba compile a kernel once per argument types (not twice), and an inlined kernel
    never (it is only typed, at each call site).

    numba keys the implementations of an overload (which ``jitable`` registers) by the
    argument types and the flags of the function being compiled when it is called. Those
    flags differ between an entry point (compiled with the wrappers Python and C call, a
    nogil entry point's releasing the GIL) and the kernels below it (without), which changes
    nothing in the kernel's code: a kernel called both by an (inlined) driver and by another
    kernel was compiled twice, with everything it calls. The key is made with those options
    as the kernels' (and with a number for the flags, :func:`_flags_token`).

    numba also compiles an overload registered with inline="always" on its own, for nothing:
    it inlines its untyped code at each call site and types it there (a driver's views of a
    workspace, the stage functions: their bodies, and their own optimization and code
    generation, were compiled once more).

    A kernel is compiled once for every set of joint types unless its code depends on the set
    being compiled (:func:`_build_for_joint_types`): SAP's, the contact queries', the views'
    were compiled again below each set's entry points."""
    from numba.core import targetconfig
    from numba.core.typing import templates

    template = templates._OverloadFunctionTemplate
    if getattr(template._get_impl, "_mallard", False):
        return

    def _get_impl(self, args, kws):
        flags = _flags_token(targetconfig.ConfigStack.top_or_none())
        key = self.context, tuple(args), tuple(kws.items()), flags
        found = self._impl_cache.get(key)  # (the same code for every set of joint types)
        if found is None:
            found = self._impl_cache.get(key + (_JOINT_TYPES[-1],))
        if found is not None:
            return found
        kernel = type(self).key  # (self.key: a method)
        if self._inline.is_always_inline and kernel in _INLINED:
            dispatcher = self._get_jit_decorator()(**self._jit_options)(kernel)
            dispatcher._can_compile = False  # (typed where it is inlined)
            found = self._impl_cache[key] = dispatcher, tuple(args)
            return found
        return _build_for_joint_types(self, kernel, key, args, kws)

    _get_impl._mallard = True
    template._get_impl = _get_impl


# ---- 12: code generation -------------------------------------------------------------------------


def generate_code_on_demand():
    """Makes numba generate machine code only for the functions Python calls (entry points),
    or when asked for a function's address.

    numba finalizes the library of each function it compiles, the kernels below an entry
    point included, and generates machine code for it: for everything it links (the kernels
    it calls, linked in again in each caller), which only the entry point's code runs. A
    library without a CPython wrapper now skips that step (it is linked into its callers from
    its final module); its code is generated if its address is asked for (a C callback, a
    first-class function).

    Such a library compiled without numba's runtime (WITHOUT_RUNTIME) skips its final
    module's optimization too (its functions were optimized one by one): it was optimized
    with everything it links, then again in each caller it is linked into, up to the entry
    point, whose optimization (at -O3, with every kernel it links) is the one its code
    comes from. With the runtime it is still optimized: numba prunes the reference counts in
    a module after inlining its calls (its "cheap" pass), and pruned in the callers only,
    the code ran 2.4× slower."""
    from numba import _dynfunc
    from numba.core import codegen, cpu

    if getattr(cpu.CPUContext.get_executable, "_mallard", False):
        return
    get_executable = cpu.CPUContext.get_executable
    finalize_final_module = codegen.CPUCodeLibrary._finalize_final_module
    get_pointer_to_function = codegen.JITCodeLibrary.get_pointer_to_function

    def _get_executable(self, library, fndesc, env):
        if library._finalized or not isinstance(library, codegen.JITCodeLibrary):
            return get_executable(self, library, fndesc, env)
        try:
            library._final_module.get_function(fndesc.llvm_cpython_wrapper_name)
        except NameError:  # (no CPython wrapper: linked into callers only)
            library._mallard_deferred = (self.get_env_name(fndesc), env)
            # (without the runtime, optimized only where it is linked: see the docstring)
            library._mallard_link_only = not self.enable_nrt
            library.finalize()
            # (what get_executable returns for a function Python cannot call: no address)
            name = fndesc.qualname.split(".")[-1]
            return _dynfunc.make_function(
                fndesc.lookup_module(), name, f"compiled {name}", 0, env, (library,)
            )
        return get_executable(self, library, fndesc, env)

    def _finalize_final_module(self):
        if getattr(self, "_mallard_deferred", None) is None:
            return _bound_within(self, finalize_final_module)
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._finalized = True
        return None

    def _get_pointer_to_function(self, name):
        deferred = getattr(self, "_mallard_deferred", None)
        if deferred is not None and self._finalized:
            self._mallard_deferred = None
            self._finalized = False
            if self._mallard_link_only:
                self._mallard_link_only = False
                self._optimize_final_module()
            _bound_within(self, finalize_final_module)
            self.codegen.set_env(*deferred)
        return get_pointer_to_function(self, name)

    _get_executable._mallard = True
    cpu.CPUContext.get_executable = _get_executable
    codegen.CPUCodeLibrary._finalize_final_module = _finalize_final_module
    codegen.JITCodeLibrary.get_pointer_to_function = _get_pointer_to_function
    _own_linked_kernels()


# ---- 15: linkage -------------------------------------------------------------------------------

#: The entry points (by name) whose libraries own the kernels linked into them
#: (:func:`kernels_internal_to`).
_OWNING = set()


def kernels_internal_to(name):
    """Makes the kernels linked into the library of the entry point ``name`` internal to it
    (they are linkonce_odr: any module's copy may stand for them), so that LLVM optimizes
    them as its own: it drops the arguments they do not use and inlines those called once.
    numba passes a namedtuple of views as one argument per field of each array (~10
    words an array): a step of the rollouts' kernels, each called with the model and a
    workspace's views (40-odd arrays), pushed ~1,300 words per step, and counted the
    references of their arrays, about half the acrobot's step."""
    _OWNING.add(name)


#: numba's reference counting functions (found by name by its pass pruning their pairs).
_REFERENCE_COUNTS = ("NRT_incref", "NRT_decref")


def _own_linked_kernels():
    """Installs :func:`kernels_internal_to`'s step before a library's final optimization."""
    import llvmlite.binding as ll
    from numba.core import codegen

    optimize = codegen.CPUCodeLibrary._optimize_final_module
    if getattr(optimize, "_mallard", False):
        return

    def _optimize_final_module(self):
        if getattr(self, "_mallard_link_only", False):
            return None
        if self.name in _OWNING:
            for function in self._final_module.functions:
                if not function.is_declaration and function.linkage == ll.Linkage.linkonce_odr:
                    function.linkage = ll.Linkage.internal
                    # Renamed (the engine bound a kernel of code loaded later to this one,
                    # its unused arguments dropped: a crash), but for the reference counts,
                    # whose calls numba's pruning of pairs finds by name.
                    if function.name not in _REFERENCE_COUNTS:
                        function.name = f"{function.name}.{self.name}"
        opt, unrolling = _OPT_LEVELS.get(self.name), self.name not in _NOT_UNROLLED
        if opt is None and unrolling:
            return optimize(self)
        from numba.core.compiler_lock import global_compiler_lock

        config = numba.config
        with global_compiler_lock:
            numba_level, make = config.OPT, ll.create_pass_builder
            if opt is not None:
                config.OPT = _final_level(opt)
            if not unrolling:
                ll.create_pass_builder = functools.partial(_without_unrolling, make)
            try:
                return optimize(self)
            finally:
                config.OPT, ll.create_pass_builder = numba_level, make

    _optimize_final_module._mallard = True
    codegen.CPUCodeLibrary._optimize_final_module = _optimize_final_module


# ---- 26: linked kernels bound within their library ---------------------------------------------


def _bound_within(library, finalize_final_module):
    """numba's ``finalize_final_module(library)`` (its final module added to the engine, its
    machine code generated and, for an entry point, cached), the kernels linked into it
    (``linkonce_odr``) named apart for the machine code only, so that its calls bind to its own
    copies, whatever the engine holds.

    numba names a compiled function by its module, qualified name, argument types, flags and
    a number drawn in the process compiling it (``FunctionIdentity.unique_id``); a kernel whose
    code depends on something else (:func:`for_joint_types`' globals) is named alike for two
    codes when two processes draw the same number. Their libraries, cached and loaded into one
    process, each define that name (weak, in the machine code); the engine keeps the first
    definition it loads and binds the other library's calls to it: a model of one set of joint
    types ran a kernel compiled for the other. Each linked kernel's machine code is now named
    ``<name>.<digest>``, the digest of the library's own functions' names (unique to it among
    the libraries one process loads); its final module keeps the names it is linked by, so that
    callers linking it and its kernels still link each kernel once."""
    import llvmlite.binding as ll

    module = library._final_module
    linked, own = [], [library.name]
    for function in module.functions:
        if function.is_declaration:
            continue
        if function.linkage == ll.Linkage.linkonce_odr:
            linked.append(function)
        elif function.linkage == ll.Linkage.external:
            own.append(function.name)
    if not linked:  # (loaded from the cache: an empty module, the machine code is cached)
        return finalize_final_module(library)
    digest = hashlib.blake2b("\n".join(sorted(own)).encode(), digest_size=8).hexdigest()
    names = [function.name for function in linked]
    for function in linked:
        function.name = f"{function.name}.{digest}"
    try:
        return finalize_final_module(library)
    finally:
        for function, name in zip(linked, names, strict=True):
            function.name = name


# ---- 27: optimization levels --------------------------------------------------------------------

#: The entry points (by name) whose final modules are optimized at a level of their own
#: (:func:`optimized_at`): name → level.
_OPT_LEVELS = {}
#: The entry points whose final module is optimized without LLVM's loop unroller
#: (:func:`optimized_at`): their names.
_NOT_UNROLLED = set()


def optimized_at(name, opt, unrolling=True):
    """Makes LLVM optimize the final module of the entry point ``name`` (its own code and every
    kernel it links: see :func:`generate_code_on_demand`) at the level ``opt`` (0-3), or
    numba's ``NUMBA_OPT`` if lower (:func:`_final_level`), instead of numba's: for an entry
    point whose code is as fast or faster so, and cheaper to compile
    (mallard._compiled.OPTIMIZED_AT_O1). The kernels' own passes (each function's, when it is
    compiled: shared by every entry point linking it) and the machine code keep numba's level,
    so that no other entry point's code depends on which compiled a kernel first. ``opt``
    None: numba's level. ``unrolling`` False: without LLVM's loop unroller (its pipeline
    tuning option ``loop_unrolling``), which at numba's levels unrolls every loop of unknown
    trip count by 2-8 with a remainder loop (SAP's solver: 64 loops, its code 2.5× larger
    and its module passes and machine code 1.7× longer) and unrolls fully the loops of a few
    iterations (each kernel's own passes, which keep numba's settings, did that already for
    its loops of constant trip count)."""
    if opt is not None:
        _OPT_LEVELS[name] = opt
    if not unrolling:
        _NOT_UNROLLED.add(name)


def _without_unrolling(make, tm, pto):
    """llvmlite's ``create_pass_builder`` ``make`` for the pipeline tuning options ``pto``
    without loop unrolling."""
    pto.loop_unrolling = False
    return make(tm, pto)


def _final_level(opt):
    """numba's ``config.OPT`` for a final module optimized at ``opt``: the lower of the two."""
    from numba.core.config import _OptLevel

    return _OptLevel(min(int(opt), int(numba.config.OPT)))


# ---- 16: without the runtime --------------------------------------------------------------------

#: The jit options of an entry point compiled without numba's runtime (mallard._compiled
#: .entry_point), and so the kernels below it: numba's lowering emits a reference count
#: (incref/decref, through the fields of every array of a tuple of views) at each use of an
#: array, its LLVM passes then prune most of them; without the runtime there are none.
WITHOUT_RUNTIME = {"_nrt": False}


def kernels_return_views():
    """Lets kernels compiled without numba's runtime return arrays: numba refuses a return
    type that is an array not passed as an argument when a function is compiled without it
    (a new array would need it), but such a kernel can only return a view of memory it was
    given (a section of a workspace: kernels.views), and allocating fails to compile. An
    entry point keeps numba's rule (boxed for Python without the runtime, an array is
    replaced by the array it views)."""
    from numba.core import typed_passes

    run_pass = typed_passes.BaseTypeInference.run_pass
    if getattr(run_pass, "_mallard", False):
        return

    def _run_pass(self, state):
        context = state.targetctx
        if context.enable_nrt or not state.flags.no_cpython_wrapper:
            return run_pass(self, state)
        context.enable_nrt = True  # (read by the check of the return type only)
        try:
            return run_pass(self, state)
        finally:
            context.enable_nrt = False

    _run_pass._mallard = True
    typed_passes.BaseTypeInference.run_pass = _run_pass


# ---- 8: calls without dispatch -----------------------------------------------------------------


def compiled_for(dispatcher, args):
    """The compiled function of the numba ``dispatcher`` for the types of ``args`` (compiled,
    or loaded from numba's cache, if needed), called without numba's dispatch on argument
    types: cheaper from Python, but only for arguments of exactly those types (dtype,
    dimensions, layout), which it does not check."""
    return dispatcher.compile(tuple(numba.typeof(a) for a in args))


# ---- 13: kernels compiled for a model's joint types ----------------------------------------

#: The joint types (a bit mask of mallard.multibody._joint_types' codes) the code being compiled
#: is for, innermost last: the implementations of the kernels whose code depends on them are
#: keyed by it (:func:`compile_each_kernel_once`).
_JOINT_TYPES = [ALL_JOINT_TYPES]

#: The globals :func:`for_joint_types` sets: HAS_<NAME> for each joint type's code.
HAS_FLAGS = {
    f"HAS_{name}": code
    for name, code in vars(_joint_types).items()
    if isinstance(code, int) and 0 <= code <= _joint_types.QUATERNION_FLOATING
}
_FOR_JOINT_TYPES = {}  # (fn, joint types) → fn's copy


#: The kernels registered with kernels._machinery.joint_specialized (their code is for the joint
#: types being compiled: :func:`joint_specialized_kernel`).
_JOINT_SPECIALIZED = set()


def joint_specialized_kernel(fn):
    """Records that the code of the kernel ``fn`` is compiled for the joint types being
    compiled (its implementation is :func:`for_joint_types`' copy for them)."""
    _JOINT_SPECIALIZED.add(fn)


def _build_for_joint_types(template, kernel, key, args, kws):
    """Builds the implementation of the overload ``template`` (of ``kernel``) for the argument
    types ``args``, keyed ``key`` + the joint types being compiled; if its code is the same for
    every set, keyed ``key`` instead (compiled once for all sets).

    Its code depends on the set if ``kernel`` is joint_specialized, or if it calls a function
    whose code does: decided from the libraries its compiled code links (its callees'
    libraries, however numba reached them: an implementation built or found in a cache, the
    calls of a kernel inlined into it, a plain numba function), each marked
    ``_mallard_joint_typed`` when compiled for a set; the callees are compiled, and marked,
    while their caller is typed. (numba keys the implementations it uses when lowering a
    call, ``_compiled_overloads`` and ``_inline_overloads``, by the argument types alone, but
    sets them each time it types the call: within one entry point's compilation, for its
    set.)"""
    joint_key = key + (_JOINT_TYPES[-1],)
    found = template._build_impl(joint_key, args, kws)
    dispatcher = found[0]
    if dispatcher is not None and (kernel in _JOINT_SPECIALIZED or _links_joint_typed(dispatcher)):
        for result in dispatcher.overloads.values():
            result.library._mallard_joint_typed = True
    elif joint_key in template._impl_cache:
        template._impl_cache[key] = template._impl_cache.pop(joint_key)
    return found


def _links_joint_typed(dispatcher):
    """Whether the code ``dispatcher`` compiled links, directly or not, a library compiled for
    a set of joint types (:func:`_build_for_joint_types`)."""
    return any(
        _joint_typed(linked)
        for result in dispatcher.overloads.values()
        for linked in result.library._linking_libraries
    )


def _joint_typed(library):
    """Whether the compiled ``library`` is, or links, one compiled for a set of joint types
    (remembered on it: a library's links are fixed once its function is lowered)."""
    found = getattr(library, "_mallard_joint_typed", None)
    if found is None:
        library._mallard_joint_typed = False  # (while its links are searched)
        found = any(_joint_typed(linked) for linked in library._linking_libraries)
        library._mallard_joint_typed = found
    return found


def compiling_joint_types():
    """The joint types (bit mask) of the entry point numba is compiling: all of them but in an
    entry point of :func:`njit_for_joint_types`."""
    return _JOINT_TYPES[-1]


def for_joint_types(fn, joint_types):
    """``fn`` compiled for the joint types ``joint_types`` (a bit mask) only: a copy of fn
    whose globals HAS_<NAME> (HAS_REVOLUTE...), True in fn's module, are False for the types
    not in joint_types; numba drops the branches they guard before typing them. fn itself for
    all joint types."""
    if joint_types == ALL_JOINT_TYPES:
        return fn
    key = fn, joint_types
    found = _FOR_JOINT_TYPES.get(key)
    if found is None:
        namespace = dict(fn.__globals__)
        for name, code in HAS_FLAGS.items():
            if name in namespace:
                namespace[name] = bool(joint_types >> code & 1)
        found = FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__, fn.__closure__)
        found.__qualname__, found.__doc__ = fn.__qualname__, fn.__doc__
        _FOR_JOINT_TYPES[key] = found
    return found


def njit_for_joint_types(fn, joint_types, **options):
    """:func:`njit_cached` of the entry point ``fn`` for the models whose joints are of the
    types ``joint_types`` (a bit mask) only: the dispatcher of a copy of fn named
    ``<name>_for_joint_types_<mask>`` (cache entries of its own), which compiles fn, and every
    kernel below it, with :func:`compiling_joint_types` = joint_types (kernels registered with
    kernels._machinery.joint_specialized then compile their :func:`for_joint_types` copy)."""
    from numba.core.compiler_lock import global_compiler_lock

    copy = FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = f"{fn.__qualname__}_for_joint_types_{joint_types}"
    copy.__doc__ = fn.__doc__
    dispatcher = njit_cached(copy, **options)
    compile_signature = dispatcher.compile

    def compile(signature):
        with global_compiler_lock:
            _JOINT_TYPES.append(joint_types)
            try:
                return compile_signature(signature)
            finally:
                _JOINT_TYPES.pop()

    dispatcher.compile = compile
    return dispatcher


# ---- 14: dispatchers of given types --------------------------------------------------------------


def _no_conversions(*args, **kwargs):
    return False


def _mismatch(*args, **kwargs):
    raise TypeError("the arguments are not of the compiled function's types")


class _PositionalDispatcher(CPUDispatcher):
    """numba's CPU dispatcher taking positional arguments only: its calls skip numba's copy
    of the arguments into a new tuple completed with keyword and default arguments (about
    0.015 µs a call; docs/performance_history.md)."""

    _fold_args = False


def typed_dispatcher(dispatcher, args):
    """A dispatcher of the numba ``dispatcher``'s function holding only its compiled function
    for the types of ``args`` (compiled, or loaded from numba's cache, if needed): a call with
    arguments of exactly those types (dtype, dimensions, layout, writable), positional only,
    runs it, after numba's type test on the arguments (in C, about 0.02 µs an argument); any
    other call raises TypeError at once, compiling and converting nothing (numba's dispatcher
    would compile a new specialization or, with compilation disabled, search conversions and
    explain the mismatch: about 100 µs)."""
    entry = compiled_for(dispatcher, args)
    (result,) = [r for r in dispatcher.overloads.values() if r.entry_point is entry]
    typed = _PositionalDispatcher(dispatcher.py_func, targetoptions={"nopython": True})
    typed.add_overload(result)
    typed.disable_compile()
    typed._search_new_conversions = _no_conversions
    typed._explain_matching_error = _mismatch
    return typed


# ---- 17: numba's own Python work ---------------------------------------------------------------


def cut_numbas_python_work():
    """Makes numba's compiler do less of its own Python work, the results unchanged (the same
    types, IR and LLVM code): a first ``mallard simulate`` spends three quarters of its CPU in
    numba's Python (typing, its IR passes, lowering), in operations it repeats tens of
    thousands of times:

    * typing a scalar operator (``a * b`` on floats) tried numba's array-operator template
      first, which searched NumPy's ufunc loops for the operands before rejecting them for
      having no array: it now rejects them first;
    * the variables an IR instruction uses (``Inst.list_vars``, which every liveness and
      use-def analysis asks of every statement, over and over) were listed by a recursion with
      a call and five ``isinstance`` per value of the instruction: now one call per container,
      the kind of each value's class found once;
    * the hash of an array's type, and of a tuple's (a namedtuple of views: forty-odd arrays),
      was recomputed from its key at each of the hundreds of thousands of dictionary lookups
      of typing: now computed once per type (numba interns types, and their keys do not
      change), and a type compared with itself is equal at once;
    * each typing of a call or attribute ordered the candidate templates (dozens for an
      operator) by their target: now ordered once per target and list of templates;
    * functions compiled without a CPython wrapper (the kernels below an entry point, and the
      implementations of overloads they call) got a C callback wrapper all the same (lowered,
      optimized), which only a first-class function value would call: mallard passes none."""
    from numba.core import ir, lowering, types, utils
    from numba.core.types import containers, npytypes
    from numba.core.typing import context, npydecl

    operator = npydecl.NumpyRulesArrayOperator
    if getattr(operator.generic, "_mallard", False):
        return
    array_operator = operator.generic

    def generic(self, args, kws):
        for arg in args:
            if isinstance(arg, types.Optional):
                arg = arg.type
            if isinstance(arg, types.ArrayCompatible):
                return array_operator(self, args, kws)
        return None  # (what the ufunc's typing ends with when no operand is an array)

    generic._mallard = True
    generic._numba = array_operator
    operator.generic = generic
    _rec_list_vars._numba = ir.Inst._rec_list_vars
    ir.Inst._rec_list_vars = _rec_list_vars
    for type_class in (
        npytypes.Array,
        containers.Tuple,
        containers.UniTuple,
        containers.NamedTuple,
        containers.NamedUniTuple,
    ):
        type_class.__hash__ = _type_hash
        type_class.__eq__ = _type_eq
    order = utils.order_by_target_specificity
    orders = {}

    def order_by_target_specificity(target, templates, fnkey=""):
        key = target, tuple(templates)
        found = orders.get(key)
        if found is None:
            found = orders[key] = order(target, templates, fnkey)
        return list(found)

    order_by_target_specificity._numba = order
    utils.order_by_target_specificity = order_by_target_specificity
    context.order_by_target_specificity = order_by_target_specificity
    create_cfunc_wrapper = lowering.Lower.create_cfunc_wrapper

    def _create_cfunc_wrapper(self):
        if not self.flags.no_cpython_wrapper:
            create_cfunc_wrapper(self)

    lowering.Lower.create_cfunc_wrapper = _create_cfunc_wrapper


#: The kind of each class of value in numba's IR, as ``Inst._rec_list_vars`` tells them apart
#: (in its order): 1 a variable, 2 an instruction, 3 a list or tuple, 4 a dict, 0 anything else.
_IR_KINDS = {}


def _ir_kind(cls):
    from numba.core import ir

    kinds = ((1, ir.Var), (2, ir.Inst), (3, (list, tuple)), (4, dict))
    kind = next((kind for kind, bases in kinds if issubclass(cls, bases)), 0)
    _IR_KINDS[cls] = kind
    return kind


def _add_vars(values, found):
    """Appends to ``found`` the variables among ``values`` (an iterable), as numba's
    ``Inst._rec_list_vars`` lists them."""
    for value in values:
        kind = _IR_KINDS.get(value.__class__)
        if kind is None:
            kind = _ir_kind(value.__class__)
        if kind == 1:
            found.append(value)
        elif kind == 2:
            found.extend(value.list_vars())
        elif kind == 3:
            _add_vars(value, found)
        elif kind == 4:
            _add_vars(value.values(), found)


def _rec_list_vars(self, val):
    """numba's ``Inst._rec_list_vars``: the variables in ``val`` (a variable, an instruction,
    or lists, tuples and dicts of them and other values), in order."""
    found = []
    _add_vars((val,), found)
    return found


#: The hash of each array and tuple type, by its id (with the type, kept: numba keeps them too).
_TYPE_HASHES = {}


def _type_hash(self):
    found = _TYPE_HASHES.get(id(self))
    if found is None or found[0] is not self:
        found = _TYPE_HASHES[id(self)] = self, hash(self.key)
    return found[1]


def _type_eq(self, other):
    return self is other or (self.__class__ is other.__class__ and self.key == other.key)


# ---- 18: the untyped IR of inlined kernels ------------------------------------------------------

#: The untyped IR of each inlined kernel (:func:`inline_kernel`) built so far, by
#: :func:`_untyped_key`; None for a kernel whose build is not kept (it drew more than its own
#: function identity, or block labels).
_UNTYPED_IR = {}


def _untyped_key(worker, func):
    """What numba's untyped passes over ``func`` read besides its code and globals: the
    worker's typing and target contexts, pipeline class, flags (``enable_ssa`` set) and
    ``locals`` (None: not hashable, not kept)."""
    try:
        key = (
            func,
            worker.typingctx,
            worker.targetctx,
            type(worker.pipeline),
            repr(sorted(worker.flags.values().items())),
            tuple(sorted(worker.locals.items())),
        )
        hash(key)
    except TypeError:
        return None
    return key


def _copy_ir(func_ir, func_id):
    """A copy of the untyped IR ``func_ir`` (its blocks, definitions and analyses: numba's
    later passes change them in place) with the function identity ``func_id``."""
    from numba.core import consts

    memo = {id(func_ir.func_id): func_id, id(func_ir._consts): None}
    copied = copy.deepcopy(func_ir, memo)
    copied._consts = consts.ConstantInference(copied)  # (its cache: of the IR it was made for)
    return copied


def build_inlined_ir_once():
    """Makes numba build the untyped IR of an inlined kernel once, and hand out copies of it.

    numba types an ``inline="always"`` overload at each typing of a call of it (each caller,
    and again at each level of nesting: an inlined kernel's own inlined calls are typed when
    it is), and for each it runs its untyped pipeline from the bytecode again
    (``InlineWorker.run_untyped_passes``: bytecode analysis, the IR, closure inlining, branch
    pruning, rewrites, SSA): ``run_stages`` 16 times in a first ``mallard simulate``. The IR
    depends only on the function's code and globals and on what the worker passes to the
    pipeline (:func:`_untyped_key`); a copy of the first build, with a new function identity
    (numba names the variables of an inlined body after its identity's unique name, and its
    mangled names number each identity), is what a new build would give, numba's counters of
    identities and block labels drawn as that build would draw them: a build that draws more
    than its own identity (a kernel defining closures) or any block label is not kept."""
    from numba.core import bytecode, inline_closurecall, ir_utils

    worker = inline_closurecall.InlineWorker
    run = worker.run_untyped_passes
    if getattr(run, "_mallard", False):
        return
    identity = bytecode.FunctionIdentity

    def run_untyped_passes(self, func, enable_ssa=False):
        if func not in _INLINED:
            return run(self, func, enable_ssa)
        self.flags.enable_ssa = enable_ssa  # (numba's run sets it on the worker's flags)
        key = _untyped_key(self, func)
        if key is None:
            return run(self, func, enable_ssa)
        if key in _UNTYPED_IR:
            kept = _UNTYPED_IR[key]
            if kept is None:
                return run(self, func, enable_ssa)
            return _copy_ir(kept, kept.func_id.derive())
        first_id = next(identity._unique_ids)
        identity._unique_ids = itertools.count(first_id)
        label = ir_utils._the_max_label._value
        func_ir = run(self, func, enable_ssa)
        next_id = next(identity._unique_ids)
        identity._unique_ids = itertools.count(next_id)
        own = func_ir.func_id.unique_id == first_id and next_id == first_id + 1
        kept = own and ir_utils._the_max_label._value == label
        _UNTYPED_IR[key] = _copy_ir(func_ir, func_ir.func_id) if kept else None
        return func_ir

    run_untyped_passes._mallard = True
    run_untyped_passes._numba = run
    worker.run_untyped_passes = run_untyped_passes


# ---- 19: fewer garbage collections while compiling ----------------------------------------------

#: Python's garbage collector's thresholds while numba compiles
#: (:func:`collect_less_while_compiling`).
COMPILING_GC_THRESHOLDS = (20000, 10, 10)


def collect_less_while_compiling():
    """Makes Python's garbage collector run less often while numba compiles.

    numba's compilation allocates millions of objects (IR, types, typing constraints, LLVM
    wrappers), many in reference cycles, so the collector's first generation (700 allocations)
    fills again and again, and each full collection walks every object alive (numba's and
    llvmlite's modules, the kernels compiled so far): 1.9 s of the ~13 s of CPU of a first
    ``mallard simulate`` at a load of 15 (9 full collections 1.4 s). From the start of the
    outermost compilation to its end, the thresholds are :data:`COMPILING_GC_THRESHOLDS`
    (the first generation collected every 20 000 allocations), then those before again: about
    half the collector's time, the process's peak memory within a few percent."""
    import gc

    from numba.core import event

    if getattr(collect_less_while_compiling, "_installed", False):
        return
    saved = []  # (the thresholds before the outermost compilation)

    class Listener(event.Listener):
        def on_start(self, _event):
            if not saved:
                saved.append(gc.get_threshold())
                gc.set_threshold(*COMPILING_GC_THRESHOLDS)
            else:
                saved.append(None)

        def on_end(self, _event):
            thresholds = saved.pop()
            if thresholds is not None:
                gc.set_threshold(*thresholds)

    event.register("numba:compile", Listener())
    collect_less_while_compiling._installed = True


# ---- 21: C addresses ---------------------------------------------------------------------------


def c_address(dispatcher, signature):
    """The address of the function of numba's ``dispatcher`` compiled (or loaded from the cache)
    for ``signature`` (a tuple of numba types) as a C function of those types (its C callback
    wrapper: ``int64_t f(int64_t, ...)`` for int64s), valid while the process lives
    (kernels._by_address)."""
    dispatcher.compile(signature)
    result = dispatcher.overloads[tuple(signature)]
    return result.library.get_pointer_to_function(result.fndesc.llvm_cfunc_wrapper_name)


# ---- 22: the typing of inlined calls ------------------------------------------------------------

#: numba's typing of a call of an inlined kernel: its signature, folded arguments, typed IR (which
#: numba does not change: its inliner copies it), typemap and calltypes.
_Typing = collections.namedtuple("_Typing", "signature folded func_ir typemap calltypes")

#: What numba's typings of the calls of each inlined kernel gave (:func:`type_inlined_calls_once`),
#: by (template, typing context, argument types, keywords, flags token, joint types):
#: :data:`_TYPED_ONCE` after a first typing, then the first typing after it in which no call was
#: typed a first time and nothing compiled: (its :class:`_Typing`, the function identities it
#: drew, the typings of the calls in its body it left recorded: (template, _Typing, identity −
#: its own)), or None if not kept.
_INLINED_CALLS = {}
_TYPED_ONCE = "typed once"

#: The lists of the typings recorded (template, _Typing, identity) within each typing being
#: kept, innermost last, and the number of first typings and of compilations so far.
_RECORDING = []
_FIRSTS = [0]


class _TypedCopy(dict):
    """numba's record of a typing of an inlined call (``folded_args``, ``iinfo``) for a
    :class:`_Typing` and a function identity: ``iinfo``'s IR copied with that identity when
    the inliner reads it."""

    def __init__(self, typing, unique_id):
        super().__init__(folded_args=typing.folded)
        self._typing = typing
        self._unique_id = unique_id

    def __missing__(self, name):
        if name != "iinfo":
            raise KeyError(name)
        from numba.core.typing import templates

        typing = self._typing
        kept_id = typing.func_ir.func_id  # (its copy.copy would draw an identity: from_function)
        func_id = object.__new__(type(kept_id))
        func_id.__dict__.update(vars(kept_id))
        func_id.unique_id = self._unique_id
        func_id.unique_name = f"{func_id.func_qualname}${self._unique_id}"
        func_ir = _copy_ir(typing.func_ir, func_id)
        iinfo = templates._inline_info(func_ir, typing.typemap, typing.calltypes, typing.signature)
        self["iinfo"] = iinfo
        return iinfo


def _record_typing(template, typing, unique_id):
    """Records ``typing`` as numba's typing does, on ``template`` (the class), with the
    function identity ``unique_id``, and in the typings being kept."""
    from numba.core.typing import templates

    args = typing.signature.args
    template._inline_overloads[args] = _TypedCopy(typing, unique_id)
    template._compiled_overloads[args] = templates._EmptyImplementationEntry("always inlined")
    for recording in _RECORDING:
        recording.append((template, typing, unique_id))


def type_inlined_calls_once():
    """Makes numba type a call of an inlined kernel about twice per argument types (in the
    flags and joint types being compiled), not at each resolution of it, and record what each
    later resolution would.

    numba resolves a call of an ``inline="always"`` overload by typing the overload's body for
    the arguments' types, for the signature alone (the typed-inlining pass types the body again
    where it inlines it). Its type inference resolves each call several times, and an inlined
    body's inlined calls again at each level of nesting (1 104 typings of 8 kernels in a first
    ``mallard simulate``). A first typing compiles what the body calls; the next one in which
    no call is typed a first time is kept: its signature, its typed IR, the identities it drew
    and the typings it left recorded for the calls in the body. Each later resolution draws as
    many identities and records the same, each typed IR copied with the identity numba's
    typing would have given it when the inliner reads it (the inliner names an inlined body's
    variables after its identity: one IR shared by two call sites in one function would have
    their variables renamed apart in the caller's scope but not in the body's, which numba's
    SSA check reports, ``NumbaIRAssumptionWarning``). A typing that draws block labels, or
    whose IR's identity is not its first draw, is not kept."""
    from numba.core import bytecode, event, ir_utils, targetconfig
    from numba.core.typing import templates

    template = templates._OverloadFunctionTemplate
    generic = template.generic
    if getattr(generic, "_mallard", False):
        return
    identity = bytecode.FunctionIdentity

    class Compiling(event.Listener):
        def on_start(self, _event):
            _FIRSTS[0] += 1

        def on_end(self, _event):
            pass

    event.register("numba:compile", Compiling())

    def _typing(self, signature):
        """numba's typing that gave ``signature`` (None: the call did not resolve), recorded
        in the typings being kept."""
        if signature is None:
            return None
        record = self._inline_overloads[signature.args]
        iinfo = record["iinfo"]
        typing = _Typing(
            signature, record["folded_args"], iinfo.func_ir, iinfo.typemap, iinfo.calltypes
        )
        for recording in _RECORDING:
            recording.append((type(self), typing, iinfo.func_ir.func_id.unique_id))
        return typing

    def _keep(key, typing, first, label, firsts, recorded):
        """Keeps ``typing`` (its typing began at identity ``first``, block label ``label``,
        ``firsts`` first typings and compilations) for the next resolutions of ``key`` if no
        call in it was typed a first time and nothing was compiled (else leaves it to the
        next)."""
        drawn = next(identity._unique_ids) - first
        identity._unique_ids = itertools.count(first + drawn)
        if (
            typing is None
            or ir_utils._the_max_label._value != label
            or typing.func_ir.func_id.unique_id != first
        ):
            _INLINED_CALLS[key] = None
        elif _FIRSTS[0] == firsts:
            last = {(cls, t.signature.args): (cls, t, uid - first) for cls, t, uid in recorded}
            _INLINED_CALLS[key] = typing, drawn, tuple(last.values())

    def _generic(self, args, kws):
        # (numba's generic is called from here, not from a helper: the deeper Python's stack,
        # the more often its frames cross the 16 KiB chunks it maps and unmaps)
        if not (self._inline.is_always_inline and type(self).key in _INLINED):
            return generic(self, args, kws)
        flags = _flags_token(targetconfig.ConfigStack.top_or_none())
        key = type(self), self.context, tuple(args), tuple(kws.items()), flags, _JOINT_TYPES[-1]
        kept = _INLINED_CALLS.get(key)
        if kept is _TYPED_ONCE:
            first = next(identity._unique_ids)
            identity._unique_ids = itertools.count(first)
            label, firsts, recorded = ir_utils._the_max_label._value, _FIRSTS[0], []
            _RECORDING.append(recorded)
            try:
                signature = generic(self, args, kws)
            finally:
                _RECORDING.pop()
            _keep(key, _typing(self, signature), first, label, firsts, recorded)
            return signature
        if kept is not None:
            typing, drawn, nested = kept
            unique_id = next(identity._unique_ids)
            identity._unique_ids = itertools.count(unique_id + drawn)
            for cls, nested_typing, offset in nested:
                _record_typing(cls, nested_typing, unique_id + offset)
            _record_typing(type(self), typing, unique_id)
            return typing.signature
        if key not in _INLINED_CALLS:
            _INLINED_CALLS[key] = _TYPED_ONCE  # (the first typing compiles the callees)
            _FIRSTS[0] += 1
        signature = generic(self, args, kws)
        _typing(self, signature)
        return signature

    _generic._mallard = True
    _generic._numba = generic
    template.generic = _generic


# ---- 23-25: numba's Python work per statement ---------------------------------------------------


def cut_numbas_work_per_statement():
    """Makes numba's compiler redo less of its per-statement Python work, the results unchanged
    (the same IR scopes, sizes, implementations): found by profiling every kernel cold
    (``mallard compile``), where it repeats:

    * after inlining closures, every variable the function uses was looked up in the scope of
      each block (``fixup_var_define_in_scope``), though a function's blocks share one or a
      few scopes: each scope is now completed once (23);
    * the ABI size and alignment of an LLVM type (asked when each variable of a function is
      allocated, for debug information even when there is none) were found by printing a
      module holding a global of that type and parsing it with LLVM, each time: now once per
      type text and context (24);
    * each implementation found for lowering was asked, through ``inspect.signature``,
      whether it takes a ``loc`` argument: for a plain function it is now read from its code
      object (25)."""
    from numba.core import base, ir_utils, untyped_passes

    fixup = ir_utils.fixup_var_define_in_scope
    if getattr(fixup, "_mallard", False):
        return
    _fixup_scopes_once._numba = fixup
    ir_utils.fixup_var_define_in_scope = _fixup_scopes_once
    untyped_passes.fixup_var_define_in_scope = _fixup_scopes_once
    for name in ("get_abi_sizeof", "get_abi_alignment"):
        setattr(base.BaseContext, name, _abi_cached(getattr(base.BaseContext, name)))
    _has_loc._numba = base._has_loc
    base._has_loc = _has_loc


def _fixup_scopes_once(blocks):
    """numba's ``ir_utils.fixup_var_define_in_scope``: every variable used in ``blocks``
    defined in the scope of each block, the same scope completed once, in the same order."""
    used_var = {}
    for block in blocks.values():
        for inst in block.body:
            for var in inst.list_vars():
                used_var[var] = inst
    done = set()
    for block in blocks.values():
        scope = block.scope
        if id(scope) in done:
            continue
        done.add(id(scope))
        localvars = scope.localvars
        for var in used_var:
            if var.name not in localvars:
                localvars.define(var.name, var)


_fixup_scopes_once._mallard = True


def _abi_cached(method):
    """``BaseContext.get_abi_sizeof`` or ``get_abi_alignment`` (``method``) kept per context and
    LLVM type text (a type naming an identified struct, whose body may change, is not kept)."""
    name = method.__name__

    def cached(self, ty):
        text = str(ty)
        if "%" in text:
            return method(self, ty)
        found = self.__dict__.setdefault("_mallard_abi", {})
        key = name, text
        value = found.get(key)
        if value is None:
            value = found[key] = method(self, ty)
        return value

    cached.__name__ = name
    cached._numba = method
    cached._mallard = True
    return cached


#: The attributes of a function that ``inspect.signature`` reads before its code's arguments.
_SIGNED = frozenset(("__signature__", "__wrapped__", "_partialmethod", "__partialmethod__"))


def _has_loc(fn):
    """numba's ``base._has_loc``: does ``fn`` take a ``loc`` argument? For a plain function
    (no ``__signature__``, not wrapping another), its parameters are its code's arguments."""
    if type(fn) is not FunctionType or not _SIGNED.isdisjoint(fn.__dict__):
        return _has_loc._numba(fn)
    code = fn.__code__
    count = code.co_argcount + code.co_kwonlyargcount
    count += bool(code.co_flags & CO_VARARGS) + bool(code.co_flags & CO_VARKEYWORDS)
    return "loc" in code.co_varnames[:count]


# ---- 28: compilations with room for Python's frames ----------------------------------------------


def compile_with_room_for_frames():
    """Makes numba's ``Dispatcher.compile`` run with room for Python's frames (kernels.
    _python_frames.with_room_for_frames: no frame chunk mapped and unmapped per call while
    numba compiles). To install before a dispatcher binds its ``compile`` (:func:`for_joint_types`
    does)."""
    from numba.core.dispatcher import Dispatcher

    from mallard.multibody._kernels._python_frames import with_room_for_frames

    if not getattr(Dispatcher.compile, "_mallard_room", False):
        Dispatcher.compile = with_room_for_frames(Dispatcher.compile)


# ---- 29: arrays' elements indexed from their struct values ---------------------------------------


def element_pointer(context, builder, array_type, array, index_type, index):
    """The address numba's indexing gives the element ``index`` (of numba type ``index_type``:
    an integer or a tuple of them, one per dimension or fewer: the first element of the rest)
    of ``array``, a value of numba type ``array_type``: a signed negative index counts from the
    end, no index is checked. Its shape and strides are taken out of the struct value as it is
    (:func:`array_parts`), where numba copies the struct to the stack at each use."""
    from numba.np import arrayobj  # (not imported with numba: 40 ms)

    index_types, indices = (index_type,), (index,)
    if isinstance(index_type, types.BaseTuple):
        index_types = index_type.types
        indices = cgutils.unpack_tuple(builder, index, len(index_types))
    data, shape, strides = array_parts(context, builder, array_type, array)
    fixed = [
        arrayobj.fix_integer_index(context, builder, each_type, each, size)
        for each_type, each, size in zip(index_types, indices, shape[: len(indices)], strict=True)
    ]
    return cgutils.get_item_pointer2(
        context, builder, data, shape, strides, array_type.layout, fixed
    )


def _is_element(context, array_type, index_type):
    """Whether ``array[index]`` (of those numba types) is one element of an array of floats or
    integers, an integer per dimension, its bounds unchecked (else: numba's indexing)."""
    index_types = index_type.types if isinstance(index_type, types.BaseTuple) else (index_type,)
    return (
        not context.enable_boundscheck
        and isinstance(array_type.dtype, (types.Float, types.Integer))
        and len(index_types) == array_type.ndim
        and all(isinstance(each, types.Integer) for each in index_types)
    )


def _get_element(context, builder, signature, args):
    """``array[index]``: one element loaded from its address (:func:`element_pointer`), or
    numba's indexing."""
    from numba.np import arrayobj

    array_type, index_type = signature.args
    if not _is_element(context, array_type, index_type):
        if isinstance(index_type, types.BaseTuple):
            return arrayobj.getitem_array_tuple(context, builder, signature, args)
        return arrayobj.getitem_arraynd_intp(context, builder, signature, args)
    pointer = element_pointer(context, builder, array_type, args[0], index_type, args[1])
    return arrayobj.load_item(context, builder, array_type, pointer)


def _set_element(context, builder, signature, args):
    """``array[index] = value``: one element stored at its address, or numba's indexing."""
    from numba.np import arrayobj

    array_type, index_type, value_type = signature.args
    if not _is_element(context, array_type, index_type):
        return arrayobj.setitem_array(context, builder, signature, args)
    pointer = element_pointer(context, builder, array_type, args[0], index_type, args[1])
    value = context.cast(builder, args[2], value_type, array_type.dtype)
    arrayobj.store_item(context, builder, array_type, value, pointer)
    return none_value(context)


def index_elements_from_struct_values():
    """Makes numba lower the indexing of one element of an array of floats or integers by an
    integer per dimension (``a[i]``, ``a[i, j]``, and assigning one), bounds unchecked, from the
    array's struct value as it is: numba's address and its load or store, without numba's copy
    of the struct to the stack and its loads of the shape from there (29 instructions for
    ``a[i]``, 59 for ``a[i, j]``: 22–27% of the IR numba emits for the kernels;
    docs/compilation.md). Any other indexing, and checked bounds, are numba's. In the whole
    process, not only in kernels: numba's indexing, fewer instructions."""
    if getattr(index_elements_from_struct_values, "_installed", False):
        return
    for index_type in (types.Integer, types.BaseTuple):
        lower_builtin(operator.getitem, types.Array, index_type)(_get_element)
        lower_builtin(operator.setitem, types.Array, index_type, types.Any)(_set_element)
    index_elements_from_struct_values._installed = True
