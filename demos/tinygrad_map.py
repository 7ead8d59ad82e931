"""Chapter 16: the map from uopc to tinygrad, checked name by name, and the runs behind it.

    python demos/tinygrad_map.py

Every tinygrad name the chapter cites is imported from the installed tinygrad, and the file that
defines it is found by reading that file's source (a top-level def, class or assignment, then
the attribute inside the class), so a name that is only imported there does not count. Every
uopc name of the map is imported too. A name that is missing, or defined in another file than
the row says, is a false claim: the demo prints what it found and exits 1.

Blocks, each after a marker line `@@ block NAME` that the book build strips:
  version      the installed tinygrad version (every other block is that version's output)
  map          each uopc idea beside the tinygrad file and names that hold it, by stage;
               scripts/make_figures.py draws tinygrad_map.svg from this block
  ops          uopc's op names against tinygrad's Ops
  index-dtype  tinygrad's index integers: weakint, widened after simplifying, beside uopc's wrap
  max-nan      MAX at nan in tinygrad's folder, in its C, and relu, beside uopc
  max-source-tinygrad, max-source-uopc
               MAX as each folder defines it, cut from the installed source files
  stack-limit  a rule pair that undoes itself, in tinygrad's graph_rewrite
  compiled     how many patterns of tinygrad's `symbolic` compile, and whether both matchers agree
  next         the files and names the course's later modules will read, imported the same way

Every line depends on the installed tinygrad, so each block title ends with MACHINE. If tinygrad
is not installed the demo says so in one line and exits 0.
"""

from _common import MACHINE, block, claim, finish, param, state

import ast
import importlib
import importlib.metadata
import math
import os
import sys
from pathlib import Path

# tinygrad on its CPU device, keeping no compiled kernels on disk; set before it is imported
TINYGRAD_ENV = {"DEV": "CPU", "CACHELEVEL": "0"}

# The map, by stage of the pipeline (chapter 1): (chapter, uopc name under uopc/, tinygrad file
# under tinygrad/ as a module path, the names defined in that file). A uopc name "tests/..." is
# a file of this repository rather than a name of the package.
STAGES = (
    (
        "build the graph",
        (
            (2, "dtypes.DType", "dtype", ("DType", "dtypes", "ConstFloat")),
            (2, "semantics.floordiv", "helpers", ("floordiv", "cdiv")),
            (3, "ops.Ops", "uop", ("Ops", "GroupOp")),
            (3, "semantics.eval_op", "uop.ops", ("python_alu", "exec_alu")),
            (3, "semantics.cast", "dtype", ("truncate",)),
            (4, "uop.UOp", "uop.ops", ("UOp", "UOpMetaClass.__call__", "UOpMetaClass.ucache")),
            (4, "typecheck.infer", "uop.spec", ("spec_full", "type_verify")),
            (4, "uop.UOp.toposort", "uop.ops", ("UOp.toposort",)),
            (6, "uop.UOp.vmin", "uop.ops", ("UOp.vmin", "UOp.vmax", "UOp._min_max")),
            (6, "uop.UOp.safe", "uop.ops", ("UOp.overflows",)),
            (6, "uop.UOp.safe", "uop.weak", ("default_dtype",)),
        ),
    ),
    (
        "simplify",
        (
            (7, "rewrite.UPat", "uop.ops", ("UPat",)),
            (7, "rewrite.PatternMatcher", "uop.ops", ("PatternMatcher", "TrackedPatternMatcher")),
            (7, "speed.matcher.CompiledMatcher", "uop.upat", ("upat_compile",)),
            (8, "rewrite.graph_rewrite", "uop.ops", ("graph_rewrite", "RewriteContext")),
            (8, "rewrite.RewriteLimit", "uop.ops", ("REWRITE_STACK_LIMIT",)),
            (9, "fold.const_fold", "uop.symbolic", ("fold_const_alu",)),
            (9, "fold.inline_call", "uop.ops", ("UOp.substitute", "_pm_resolve_params")),
            (10, "symbolic.simplify", "uop.symbolic", ("symbolic_simple", "symbolic")),
            (11, "symbolic.split", "uop.divandmod", ("fold_divmod_general",)),
        ),
    ),
    (
        "write C",
        ((12, "render.render", "renderer.cstyle", ("CStyleLanguage", "ClangRenderer")),),
    ),
    (
        "compile, load, call",
        (
            (13, "runtime.compile_c", "runtime.support.compiler_cpu", ("ClangCompiler",)),
            (13, "runtime.cache_key", "device", ("Compiler.compile_cached",)),
            (13, "runtime.Program", "runtime.ops_cpu", ("CPUProgram",)),
            (13, "runtime.Program", "runtime.support.elf", ("jit_loader",)),
        ),
    ),
    (
        "memory",
        (
            (14, "builder.Builder", "uop.ops", ("UOp.index", "UOp.store", "UOp.after")),
            (14, "ops.Ops.AFTER", "uop", ("Ops.INDEX", "Ops.LOAD", "Ops.STORE", "Ops.AFTER")),
        ),
    ),
    (
        "check",
        (
            (9, "interp.evaluate", "runtime.ops_python", ("PythonProgram",)),
            (15, "tests/proofs.py", "uop.validate", ("uops_to_z3", "validate_index_with_z3")),
        ),
    ),
)

# Where the course's later modules will read (a plan; chapter 16 names only what this checks):
# (topic, tinygrad file as a module path, names defined there; none for a package folder).
NEXT = (
    ("shapes", "uop", ("Ops.RESHAPE", "Ops.EXPAND", "Ops.PERMUTE", "Ops.PAD", "Ops.FLIP")),
    ("shapes", "uop", ("Ops.RANGE", "Ops.END", "Ops.REDUCE")),
    ("shapes", "uop.movement", ("mop_cleanup",)),
    ("shapes", "schedule.indexing", ("apply_movement_op",)),
    ("shapes", "schedule.rangeify", ()),
    ("kernels", "uop", ("Ops.STAGE",)),
    ("kernels", "codegen.opt", ("OptOps",)),
    ("kernels", "codegen.opt.heuristic", ("hand_coded_optimizations",)),
    ("kernels", "codegen.opt.postrange", ("Scheduler",)),
    ("kernels", "codegen.opt.search", ("beam_search",)),
    ("GPUs", "codegen.gpudims", ("add_gpudims",)),
    ("GPUs", "codegen.opt.tc", ("TensorCore",)),
    ("GPUs", "renderer.cstyle", ("CUDARenderer", "MetalRenderer", "OpenCLRenderer")),
    ("gradients", "tensor", ("Tensor.backward",)),
    ("gradients", "mixin.op", ("OpMixin.gradient",)),
    ("gradients", "mixin.gradient", ("compute_gradient",)),
    ("models", "llm", ()),
)


def tinygrad_version():
    try:
        return importlib.metadata.version("tinygrad")
    except importlib.metadata.PackageNotFoundError:
        return None


def source_file(module: str) -> Path:
    """tinygrad.MODULE's file, as the installed package has it."""
    return Path(importlib.import_module(f"tinygrad.{module}" if module else "tinygrad").__file__)


def shown_path(module: str) -> str:
    """The file the row names, as the chapter writes it: under tinygrad/."""
    path = source_file(module)
    return path.relative_to(source_file("").parent.parent).as_posix()


def defined_in(tree: ast.Module, dotted: str) -> bool:
    """True when the file's own source defines dotted: a top-level def, class or assignment,
    then each further part inside the class body before it."""
    body, parts = tree.body, dotted.split(".")
    for depth, part in enumerate(parts):
        found = None
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name == part:
                found = node
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == part for t in targets):
                    found = node
        if found is None:
            return False
        if depth < len(parts) - 1:
            if not isinstance(found, ast.ClassDef):
                return False
            body = found.body
    return True


def resolve(root, dotted: str):
    for part in dotted.split("."):
        root = getattr(root, part)
    return root


def check_uopc(name: str) -> bool:
    if name.startswith("tests/"):
        return (Path(__file__).resolve().parents[1] / name).is_file()
    module, _, attribute = name.partition(".")
    try:
        resolve(importlib.import_module(f"uopc.{module}"), attribute)
    except (ImportError, AttributeError):
        return False
    return True


def check_tinygrad(module: str, name: str, trees: dict) -> bool:
    """Imported from the installed package, and defined in the file the row names."""
    try:
        resolve(importlib.import_module(f"tinygrad.{module}" if module else "tinygrad"), name)
    except (ImportError, AttributeError):
        return False
    if module not in trees:
        trees[module] = ast.parse(source_file(module).read_text(encoding="utf-8"))
    return defined_in(trees[module], name)


def show_map(version: str) -> None:
    block("map")
    print(f"uopc (under uopc/) beside tinygrad {version} (files under tinygrad/) {MACHINE}")
    trees: dict = {}
    names, files = 0, set()
    for stage, rows in STAGES:
        print(stage)
        for chapter, ours, module, theirs in rows:
            ok_ours = claim(check_uopc(ours), f"uopc has {ours}")
            found = [n for n in theirs if check_tinygrad(module, n, trees)]
            for missing in sorted(set(theirs) - set(found)):
                claim(False, f"tinygrad {version} defines {missing} in {module}")
            file = shown_path(module).removeprefix("tinygrad/")
            mark = "" if ok_ours and len(found) == len(theirs) else "  MISSING"
            print(f"  {chapter:>2}  {ours:<25} {file:<31} {', '.join(theirs)}{mark}")
            names += len(theirs)
            files.add(file)
    print(f"{names} names imported and found defined in {len(files)} files of tinygrad")
    state("tinygrad_map_names", names, "tinygrad names the chapter 16 map imports and checks")
    state("tinygrad_map_files", len(files), "tinygrad files those names are defined in")


def show_next(version: str) -> None:
    block("next")
    print(f"where later modules read: files and names in tinygrad {version} {MACHINE}")
    trees: dict = {}
    for topic, module, theirs in NEXT:
        found = [n for n in theirs if check_tinygrad(module, n, trees)]
        try:
            file = shown_path(module).removeprefix("tinygrad/")
        except ImportError:
            file = None
        claim(file is not None, f"tinygrad {version} has the module {module}")
        for missing in sorted(set(theirs) - set(found)):
            claim(False, f"tinygrad {version} defines {missing} in {module}")
        if file is not None and file.endswith("__init__.py") and not theirs:
            file = file.removesuffix("__init__.py")  # a package folder, named as such
        print(f"  {topic:<10} {file or module + ' MISSING':<28} {', '.join(theirs)}".rstrip())


def show_ops(version: str) -> None:
    from tinygrad.uop import Ops

    from uopc import Ops as OurOps

    ours = [op.name for op in OurOps]
    theirs = {op.name for op in Ops}
    shared = [name for name in ours if name in theirs]
    block("ops")
    print(f"op names: uopc's {len(ours)} against tinygrad {version}'s {len(theirs)} {MACHINE}")
    for start in range(0, len(shared), 11):
        print(f"{'in both:' if start == 0 else '':<14}{' '.join(shared[start : start + 11])}")
    print(f"only in uopc: {' '.join(n for n in ours if n not in theirs)}")
    print(f"tinygrad's reciprocal: {'RECIPROCAL' if 'RECIPROCAL' in theirs else 'none'}")
    extras = [n for n in ("SUB", "FDIV", "SQRT", "SIN", "POW", "CDIV", "CMOD", "SHL", "AND")]
    print(f"a few only in tinygrad: {' '.join(n for n in extras if n in theirs)}")
    claim("RECIPROCAL" in theirs and "RECIP" not in theirs, "tinygrad spells RECIP RECIPROCAL")
    state("tinygrad_ops_total", len(theirs), "members of tinygrad's Ops enum")
    state("tinygrad_ops_shared", len(shared), "uopc ops whose name tinygrad's Ops also has")


def show_index_dtype(version: str) -> None:
    from tinygrad.uop.ops import UOp, graph_rewrite
    from tinygrad.uop.symbolic import sym
    from tinygrad.uop.weak import default_dtype

    from uopc import I32
    from uopc.symbolic import simplify
    from uopc.textfmt import infix

    i = UOp.variable("i", 0, 10)
    big = UOp.variable("big", 0, 2**30)
    block("index-dtype")
    print(f"index integers in tinygrad {version}, and in uopc {MACHINE}")
    print(f"tinygrad: a variable i in [0, 10] has dtype {i.dtype}")
    for text, expr in (("i*4", i * 4), ("big*4", big * 4)):
        width = default_dtype(expr)
        print(f"tinygrad: {text:<6} range [{expr.vmin}, {expr.vmax}], width chosen later: {width}")
    theirs = graph_rewrite((big * 4) // 4, sym)
    print(f"tinygrad: (big*4)//4 simplifies to {theirs.render(simplify=False)}")
    ours_big = param(0, I32, 0, 2**30)
    ours = simplify((ours_big * 4) // 4)
    print(f"uopc:     (big*4)//4 simplifies to {infix(ours, {0: 'big'})} (big*4 may wrap)")
    claim(theirs is big, "tinygrad drops (big*4)//4 to big")
    claim(ours is not ours_big, "uopc keeps (big*4)//4")
    claim(str(default_dtype(big * 4)) == "dtypes.long", "big*4 is given 64 bits")


def show_divisions(version: str) -> None:
    """The two divisions chapter 11 reads in tinygrad: the split it shares with uopc, and the
    nested division it takes further (its only condition: the second divisor positive)."""
    from tinygrad.uop.ops import UOp, graph_rewrite
    from tinygrad.uop.symbolic import sym

    i, k = UOp.variable("i", 0, 15), UOp.variable("k", 0, 7)
    x = UOp.variable("x", -50, 50)
    split = graph_rewrite((i * 6 + k) // 3, sym)
    nested = graph_rewrite((x // -2) // 3, sym)
    block("divisions")
    print(f"two divisions in tinygrad {version}, i in [0, 15], k in [0, 7], x in [-50, 50]")
    print(f"(i*6+k)//3 simplifies to {split.render(simplify=False)}")
    print(f"(x//-2)//3 simplifies to {nested.render(simplify=False)}")
    claim(split is graph_rewrite(i * 2 + k // 3, sym), "tinygrad splits (i*6+k)//3 as uopc does")
    claim(nested is graph_rewrite(x // -6, sym), "tinygrad folds (x//-2)//3 into x//-6")


def show_max_nan(version: str) -> None:
    from tinygrad import Tensor
    from tinygrad.dtype import dtypes
    from tinygrad.uop.ops import UOp, graph_rewrite
    from tinygrad.uop.symbolic import symbolic

    from uopc import F32, Ops
    from uopc.semantics import eval_op

    nan, zero = UOp.const(math.nan, dtypes.float32), UOp.const(0.0, dtypes.float32)
    folded = [graph_rewrite(a.maximum(b), symbolic).arg for a, b in ((nan, zero), (zero, nan))]
    x = [math.nan, -2.0, 3.0]
    compiled_max = Tensor(x).maximum(0.0).tolist()
    relu_graph = Tensor(x).relu()
    relu_ops = " ".join(op for op in ("MAX", "WHERE", "CMPLT") if has_op(relu_graph.uop, op))
    relu = relu_graph.tolist()
    ours = [eval_op(Ops.MAX, F32, (a, b)) for a, b in ((math.nan, 0.0), (0.0, math.nan))]
    ours_relu = [eval_op(Ops.MAX, F32, (v, 0.0)) for v in x]
    block("max-nan")
    print(f"MAX with a nan, in tinygrad {version} and in uopc {MACHINE}")
    print(f"tinygrad folds max(nan, 0.0) to {folded[0]}, max(0.0, nan) to {folded[1]}")
    print(f"tinygrad's C:  x.maximum(0.0) at x = {x}: {compiled_max}")
    print(f"tinygrad's Tensor.relu at the same x: {relu} (ops: {relu_ops})")
    print(f"uopc's MAX:    max(nan, 0.0) = {ours[0]}, max(0.0, nan) = {ours[1]}")
    print(f"uopc's relu,   MAX(x, 0.0), at the same x: {ours_relu}")
    claim(math.isnan(folded[0]) and folded[1] == 0.0, "tinygrad's MAX keeps its first source")
    claim(math.isnan(compiled_max[0]), "tinygrad's C lets the nan through maximum")
    claim(relu[0] == 0.0 and ours_relu[0] == 0.0, "both relus give 0.0 at nan")
    claim(relu_ops == "WHERE CMPLT", "tinygrad's relu is a WHERE of a comparison, not a MAX")
    claim(ours[0] == 0.0 and math.isnan(ours[1]), "uopc's MAX keeps its second source")


def dict_entry(tree: ast.Module, table: str, key: str):
    """(line of `table = {`, line of its entry `Ops.KEY: ...`, the entry's text) in a parsed
    file: the module-level dict assigned to table, and its one key spelled Ops.KEY."""
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        if isinstance(target, ast.Name) and target.id == table:
            entries = [
                (k, v) for k, v in zip(node.value.keys, node.value.values, strict=True)
                if isinstance(k, ast.Attribute) and k.attr == key
            ]  # fmt: skip
            if len(entries) == 1:
                k, v = entries[0]
                return node.lineno, k.lineno, f"{ast.unparse(k)}: {ast.unparse(v)},"
    raise SystemExit(f"tinygrad_map: no single {key} entry in a dict {table}")


def show_max_source(version: str) -> None:
    """MAX as each folder defines it, cut from the two source files as they are installed:
    tinygrad's python_alu entry and uopc's float contract line with the helper it names."""
    import builtins
    import inspect

    from tinygrad.uop.ops import Ops as TinyOps
    from tinygrad.uop.ops import python_alu

    from uopc import Ops, semantics

    path = source_file("uop.ops")
    lines = path.read_text(encoding="utf-8").splitlines()
    start, line, entry = dict_entry(ast.parse("\n".join(lines)), "python_alu", "MAX")
    block("max-source-tinygrad")
    print(f"MAX in {shown_path('uop.ops')}, tinygrad {version} {MACHINE}")
    print(f"{start:>5}  {lines[start - 1].strip()}")
    print(f"{line:>5}    ... {entry} ...")
    claim(python_alu[TinyOps.MAX] is builtins.max, "tinygrad folds MAX with Python's max")
    ours = inspect.getsource(semantics).splitlines()
    start, line, entry = dict_entry(ast.parse("\n".join(ours)), "FLOAT_CONTRACT", "MAX")
    helper, first = inspect.getsourcelines(semantics._fmax)
    block("max-source-uopc")
    print("MAX on floats in uopc/semantics.py")
    for number, text in enumerate(helper, first):
        print(f"{number:>5}  {text.rstrip()}")
    print(f"{start:>5}  {ours[start - 1].strip()}")
    print(f"{line:>5}    ... {entry} ...")
    claim(semantics.FLOAT_CONTRACT[Ops.MAX] is semantics._fmax, "uopc's float MAX is _fmax")
    claim("return a if a > b else b" in "".join(helper), "_fmax picks b unless a > b")


def has_op(root, name: str) -> bool:
    return any(node.op.name == name for node in root.toposort())


def show_stack_limit(version: str) -> None:
    from tinygrad.uop import Ops
    from tinygrad.uop.ops import REWRITE_STACK_LIMIT, PatternMatcher, UOp, UPat, graph_rewrite

    from uopc import I32
    from uopc import Ops as OurOps
    from uopc.rewrite import PatternMatcher as OurMatcher
    from uopc.rewrite import RewriteLimit, rule
    from uopc.rewrite import UPat as OurUPat
    from uopc.rewrite import graph_rewrite as our_rewrite

    a, b = UOp.variable("a", 0, 10), UOp.variable("b", 0, 10)
    swap = PatternMatcher([(UPat(Ops.ADD, src=(UPat.var("x"), UPat.var("y"))), swap_sources)])
    ours: list = []
    rule("swap", OurUPat(OurOps.ADD, src=(OurUPat.var("x"), OurUPat.var("y"))), ours)(swap_sources)
    block("stack-limit")
    print(f"one rule, x + y -> y + x, applied until nothing changes {MACHINE}")
    print(f"tinygrad {version}: REWRITE_STACK_LIMIT = {REWRITE_STACK_LIMIT.value:,}")
    stopped = []
    try:
        graph_rewrite(a + b, swap)
    except RuntimeError as error:
        stopped.append(error)
        print(f"tinygrad: graph_rewrite raised {type(error).__name__}: {error}")
    ours_a, ours_b = param(0, I32, 0, 10), param(1, I32, 0, 10)
    try:
        our_rewrite(ours_a + ours_b, OurMatcher(ours))
    except RewriteLimit as error:
        stopped.append(error)
        print(f"uopc:     graph_rewrite raised {type(error).__name__}: {error}")
    claim(len(stopped) == 2, "both engines stop the swap loop with an error")
    claim(isinstance(stopped[-1], RuntimeError), "uopc's RewriteLimit is a RuntimeError")
    state(
        "tinygrad_stack_limit",
        f"{REWRITE_STACK_LIMIT.value:,}",
        "the size of graph_rewrite's stack at which tinygrad stops (its default)",
    )


def swap_sources(x, y):
    """x + y -> y + x: a rule that undoes itself. A plain function, since tinygrad compiles
    a rule's function and refuses one that closes over local names."""
    return y + x


def show_compiled(version: str) -> None:
    from tinygrad.uop.ops import PatternMatcher, UOp, graph_rewrite
    from tinygrad.uop.symbolic import symbolic
    from tinygrad.uop.upat import upat_compile

    compiled = sum(upat_compile(p, fxn) is not None for p, fxn in symbolic.patterns)
    total = len(symbolic.patterns)
    plain = PatternMatcher(symbolic.patterns, compiled=False)
    x, y = UOp.variable("x", 0, 100), UOp.variable("y", -5, 5)
    cases = [(x * 4 + y) // 4, (x + 3) + 5, x * 1 + 0, (x * 6) % 3, (y - y) * x, x.maximum(x)]
    same = [graph_rewrite(e, symbolic) is graph_rewrite(e, plain) for e in cases]
    block("compiled")
    print(f"the patterns of symbolic in tinygrad {version}, compiled {MACHINE}")
    print(f"UPAT_COMPILE = {os.environ.get('UPAT_COMPILE', 'unset (on)')}")
    print(f"{compiled} of {total} patterns compile to Python source; {total - compiled} fall back")
    print("  to the interpreted matcher (upat_interpret)")
    print(f"compiled and plain matchers give the same node on {sum(same)} of {len(cases)} graphs")
    claim(all(same), "the compiled and the plain matcher agree")
    claim(0 < compiled <= total, "some patterns compile")
    state("tinygrad_symbolic_patterns", total, "patterns in tinygrad's symbolic matcher")
    state("tinygrad_symbolic_compiled", compiled, "of those, patterns upat_compile compiles")


def main() -> int:
    version = tinygrad_version()
    if version is None:
        print("tinygrad is not installed (pip install -r requirements.txt): nothing to show")
        return 0
    os.environ.update(TINYGRAD_ENV)
    block("version")
    print(f"tinygrad {version}, installed from PyPI; every block below is this version's output")
    show_map(version)
    show_ops(version)
    show_index_dtype(version)
    show_divisions(version)
    show_max_nan(version)
    show_max_source(version)
    show_stack_limit(version)
    show_compiled(version)
    show_next(version)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
