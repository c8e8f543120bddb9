"""The LLVM IR numba's lowering emits, per compiled function and per source pattern, and the
lowering's CPU: run ``mallard compile --worker TASKS`` in this process (an empty
``NUMBA_CACHE_DIR``) with hooks on numba's lowering.

Per function (``Lower.lower``): its IR before optimization (instructions, bytes of text), the
lowering's own CPU (``time.process_time``, numba's ``add_ir_module`` excluded: parsing the
text and LLVM's function passes, reported apart) and its callees' compilations excluded.
Per statement of numba's IR (``Lower.lower_inst``): the instructions it emitted and its CPU,
by pattern (:func:`pattern`: lane arithmetic, lane views' getitem/setitem, arrays' indexing,
tuple items and unpacking, calls of kernels, ...); the rest of a function's IR is its
prologue and epilogue (arguments, variables' allocas, the return).

Run: ``python benchmarks/lowering_ir.py [--top N] [--json PATH] TASKS`` (comma-separated
``mallard compile`` tasks).
"""

import argparse
import collections
import json
import sys
import time

from numba.core import codegen, ir, lowering, types

clock = time.process_time


def _instructions(function):
    return sum(len(block.instructions) for block in function.blocks)


def _type_name(t):
    return type(t).__name__


def _callee(fnty):
    """A name for the callee of type ``fnty``."""
    if isinstance(fnty, types.Dispatcher):
        return "kernel call"
    key = getattr(fnty, "typing_key", None)
    module = getattr(key, "__module__", "") or ""
    name = getattr(key, "__qualname__", getattr(key, "__name__", str(key)))
    if module.startswith("mallard"):
        return f"call {module.rsplit('.', 1)[-1]}.{name}"
    if module.startswith("numba") or module in ("builtins", "math", "_operator", "operator"):
        return f"call {name}"
    if "numpy" in module:
        return f"call np.{name}"
    return f"call {module}.{name}"


def _scalar_kind(t):
    name = _type_name(t)
    if name == "F64xL":
        return "lanes"
    if name in ("Row4",):
        return "lanes"
    if isinstance(t, types.Array):
        return "array"
    return "scalar"


def pattern(lower, inst):
    """The source pattern of the statement ``inst`` of numba's IR."""
    typeof = lower.typeof
    if isinstance(inst, ir.Assign):
        value = inst.value
        if isinstance(value, ir.Expr):
            op = value.op
            if op == "call":
                return _callee(typeof(value.func.name))
            if op in ("binop", "inplace_binop"):
                kinds = {_scalar_kind(typeof(value.lhs.name)), _scalar_kind(typeof(value.rhs.name))}
                return "lane arithmetic" if "lanes" in kinds else "scalar arithmetic"
            if op == "unary":
                kind = _scalar_kind(typeof(value.value.name))
                return "lane arithmetic" if kind == "lanes" else "scalar arithmetic"
            if op in ("getitem", "static_getitem", "typed_getitem"):
                base = typeof(value.value.name)
                if _type_name(base) == "LanesType":
                    return "lane view getitem"
                if isinstance(base, types.Array):
                    index = value.index if op != "static_getitem" else value.index_var
                    index_type = typeof(index.name) if index is not None else None
                    if isinstance(index_type, types.Integer):
                        return "array getitem (integer)"
                    if isinstance(index_type, types.BaseTuple) and all(
                        isinstance(i, types.Integer) for i in index_type
                    ):
                        return "array getitem (integers)"
                    return "array getitem (slices)"
                if isinstance(base, types.BaseTuple):
                    return "tuple item"
                return f"getitem {_type_name(base)}"
            if op == "getattr":
                base = typeof(value.value.name)
                if isinstance(base, types.BaseNamedTuple):
                    return "namedtuple attribute"
                if isinstance(base, types.Array):
                    return f"array .{value.attr}"
                return f"getattr {_type_name(base)}"
            if op == "exhaust_iter":
                return "tuple unpacking"
            if op in ("build_tuple",):
                return "tuple building"
            if op == "cast":
                return "return cast"
            if op in ("getiter", "iternext", "pair_first", "pair_second"):
                return "loops (range iteration)"
            return f"expr {op}"
        if isinstance(value, ir.Var):
            return "variable copy"
        if isinstance(value, ir.Arg):
            return "argument"
        if isinstance(value, (ir.Const, ir.Global, ir.FreeVar)):
            return "constant/global"
        return f"assign {type(value).__name__}"
    if isinstance(inst, (ir.SetItem, ir.StaticSetItem)):
        target = typeof(inst.target.name)
        if _type_name(target) == "LanesType":
            return "lane view setitem"
        if isinstance(target, types.Array):
            return "array setitem"
        return f"setitem {_type_name(target)}"
    if isinstance(inst, ir.Del):
        return "del (decref)"
    if isinstance(inst, (ir.Raise, ir.StaticRaise, ir.TryRaise, ir.StaticTryRaise)):
        return "raise"
    return type(inst).__name__.lower()


class Recorder:
    def __init__(self):
        self.functions = []  # [qualname, instructions, bytes, own lowering CPU, add_ir CPU]
        self.patterns = collections.defaultdict(lambda: [0, 0, 0.0])  # count, instr, CPU
        self.by_function_pattern = collections.defaultdict(lambda: collections.Counter())
        self.stack = []  # [start, nested CPU]
        self.add_ir = 0.0

    def install(self):
        recorder = self
        lower_inst, lower = lowering.Lower.lower_inst, lowering.BaseLower.lower
        add_ir_module = codegen.CPUCodeLibrary.add_ir_module

        def hooked_lower_inst(self, inst):
            before = _instructions(self.function)
            nested = recorder.stack[-1][1] if recorder.stack else 0.0
            start = clock()
            lower_inst(self, inst)
            cpu = clock() - start - ((recorder.stack[-1][1] if recorder.stack else 0.0) - nested)
            key = pattern(self, inst)
            entry = recorder.patterns[key]
            emitted = _instructions(self.function) - before
            entry[0] += 1
            entry[1] += emitted
            entry[2] += cpu
            recorder.by_function_pattern[self.fndesc.qualname][key] += emitted

        def hooked_lower(self):
            recorder.stack.append([clock(), 0.0, 0.0])
            try:
                lower(self)
            finally:
                start, nested, add_ir = recorder.stack.pop()
                total = clock() - start
                if recorder.stack:
                    recorder.stack[-1][1] += total
                count = sum(_instructions(f) for f in self.module.functions if f.blocks)
                body = _instructions(self.function)
                per_stmt = sum(recorder.by_function_pattern[self.fndesc.qualname].values())
                recorder.functions.append(
                    [
                        self.fndesc.qualname,
                        self.fndesc.modname,
                        count,
                        len(str(self.module)),
                        total - nested - add_ir,
                        add_ir,
                    ]
                )
                recorder.by_function_pattern[self.fndesc.qualname]["(prologue, epilogue)"] += (
                    body - per_stmt if per_stmt <= body else 0
                )

        def hooked_add_ir_module(self, ir_module):
            start = clock()
            try:
                return add_ir_module(self, ir_module)
            finally:
                if recorder.stack:
                    recorder.stack[-1][2] += clock() - start

        lowering.Lower.lower_inst = hooked_lower_inst
        lowering.BaseLower.lower = hooked_lower
        codegen.CPUCodeLibrary.add_ir_module = hooked_add_ir_module


def report(recorder, top):
    functions = recorder.functions
    total_instr = sum(f[2] for f in functions)
    total_cpu = sum(f[4] for f in functions)
    print(
        f"{len(functions)} functions lowered: {total_instr} instructions, "
        f"{sum(f[3] for f in functions) / 1e6:.1f} MB of IR text, lowering {total_cpu:.2f} s, "
        f"add_ir_module {sum(f[5] for f in functions):.2f} s"
    )
    by_name = collections.defaultdict(lambda: [0, 0, 0, 0.0, 0.0])
    for qualname, modname, count, size, cpu, add_ir in functions:
        entry = by_name[f"{modname.rsplit('.', 1)[-1]}.{qualname}"]
        entry[0] += 1
        entry[1] += count
        entry[2] += size
        entry[3] += cpu
        entry[4] += add_ir
    print("\n| function | lowered | instructions | KB | lowering s | add_ir_module s |")
    print("|---|---|---|---|---|---|")
    for name, (n, count, size, cpu, add_ir) in sorted(by_name.items(), key=lambda x: -x[1][1])[
        :top
    ]:
        print(f"| `{name}` | {n} | {count} | {size / 1e3:.0f} | {cpu:.2f} | {add_ir:.2f} |")
    stmt_instr = sum(v[1] for v in recorder.patterns.values())
    print(f"\nstatements: {stmt_instr} instructions of {total_instr}")
    print("\n| pattern | statements | instructions | instr/stmt | lowering s |")
    print("|---|---|---|---|---|")
    for key, (n, count, cpu) in sorted(recorder.patterns.items(), key=lambda x: -x[1][1])[:top]:
        print(f"| {key} | {n} | {count} | {count / n:.1f} | {cpu:.2f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tasks")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--json")
    args = parser.parse_args()
    recorder = Recorder()
    recorder.install()
    from mallard.cli import _compile

    start = clock()
    _compile.run_tasks(args.tasks.split(","))
    print(f"tasks: {clock() - start:.1f} s of CPU", file=sys.stderr)
    report(recorder, args.top)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "functions": recorder.functions,
                    "patterns": dict(recorder.patterns),
                    "by_function_pattern": recorder.by_function_pattern,
                },
                f,
            )


if __name__ == "__main__":
    main()
