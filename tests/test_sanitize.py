"""The generated C under clang's sanitizers: no undefined behaviour, no bad memory access.

Beyond the book (its known limit 6): random value programs (`common.gen_program`, every second
one with a declared range on the i32 parameter, so that the plain C `/` and `%` appear) and
small memory programs (built with `Builder`; every index a constant or a loaded int reduced by
FLOORMOD by the buffer's size) are rendered as built and simplified, and their functions go
into C files of a few programs each, each file with a `main` that calls each function on special
inputs (INT_MIN, -1, 0, INT_MAX, nan, ±inf, ±0.0, ...; buffers filled from such lists in several
rotations). Each file is compiled with the runtime's flags plus `-fsanitize=undefined,address
-fno-sanitize-recover=all -g` into an executable; each run must exit cleanly, print no sanitizer
report, and make every call it should. The files are checked in order, and the first that fails
ends the layer. The harness's own C (the drivers that make the calls, `keep`) is compiled without
optimisation and inlines nothing: each function under test runs as compiled on its own, as in a
library, and the file compiles several times faster (at -O2 the drivers, with the functions
inlined into their loops and the loops unrolled, took four fifths of a memory file's compile).

A check is one call of one function on one input (or one filling of the buffers) that ran under
the sanitizers without a report; the harness counts its calls so that the count is the real one.

Run as a script: `python tests/test_sanitize.py [--full]`.
"""

import math
import os
import random
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import pytest

from book import protocol
from uopc import BOOL, F32, I32, INT_MAX, INT_MIN, VOID, CallArg, Ops, ParamArg, Ptr, UOp, runtime
from uopc.builder import Builder, make_call, signature_call
from uopc.interp import run_call
from uopc.render import PRELUDE, render
from uopc.symbolic import simplify
from uopc.textfmt import dumps
from verify import generators as common

# the runtime's flags for an executable instead of a shared library, plus the sanitizers
SANITIZE = ["-fsanitize=undefined,address", "-fno-sanitize-recover=all", "-g"]
LIBRARY_ONLY = ("-shared", "-fPIC")
REPORT = re.compile(r"runtime error|Sanitizer|SUMMARY:")

# Inputs of the value functions (kept inside a parameter's declared range, see value_inputs).
I32_INPUTS = (INT_MIN, INT_MIN + 1, -7, -1, 0, 1, 7, INT_MAX)
F32_INPUTS = (math.nan, math.inf, -math.inf, 0.0, -0.0, 1.0, -2.5, 2147483648.0, common.FLT_MAX,
              -common.FLT_MAX, common.SUB_MIN)  # fmt: skip
BOOL_INPUTS = (False, True)
INPUTS = {I32: I32_INPUTS, F32: F32_INPUTS, BOOL: BOOL_INPUTS}
ZERO = {BOOL: False, I32: 0, F32: 0.0}
ROTATIONS = 8  # fillings of a memory function's buffers
# Programs per C file, by seed: value programs compile quickly, memory programs (loads and
# stores under ASan) more slowly. Small files, each of the same seeds in every
# run, so that a change to one program's C (a planted bug's) compiles its own file again and no
# other; one file of 60 functions took longer than its parts, and a program that simplify
# leaves unchanged (one function fewer) no longer moves every later function into another file.
VALUE_SEEDS_PER_FILE = 10
MEMORY_SEEDS_PER_FILE = 4


def flags(wrap: bool = True) -> list[str]:
    """Compiler flags of the sanitized executable; `wrap=False` drops -fwrapv (planted test)."""
    kept = [f for f in runtime.CFLAGS if f not in LIBRARY_ONLY and (wrap or f != "-fwrapv")]
    return kept + SANITIZE


# ---------------------------------------------------------------------------------------------
# C text
# ---------------------------------------------------------------------------------------------


def c_value(value, dtype) -> str:
    """A C literal of exactly this value (hex for floats, which is exact)."""
    if dtype is BOOL:
        return "true" if value else "false"
    if dtype is I32:
        return f"(int32_t){value}LL"  # INT_MIN as a plain literal would not be an int
    if math.isnan(value):
        return "NAN"
    if math.isinf(value):
        return "INFINITY" if value > 0 else "-INFINITY"
    return f"{value.hex()}f"


def c_array(name: str, dtype, values) -> str:
    return (
        f"  static const {dtype.c} {name}[] = {{{', '.join(c_value(v, dtype) for v in values)}}};"
    )


def function_text(call: UOp) -> str:
    """The rendered function without the prelude, so that many share one file."""
    source = render(call)
    if not source.startswith(PRELUDE):
        raise AssertionError(f"render({call.arg.name}) does not start with PRELUDE")
    return source[len(PRELUDE) :]


HEAD = """\
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The harness's own functions: not optimised, nothing inlined into them (see the docstring). */
#ifdef __clang__
#define HARNESS __attribute__((noinline, optnone))
#else
#define HARNESS __attribute__((noinline))
#endif

static volatile uint32_t sink; /* every result is folded in here, so no call is dead code */
static long calls;

HARNESS static void keep(const void *data, size_t size) {
  const unsigned char *bytes = data;
  uint32_t h = sink;
  for (size_t i = 0; i < size; i++) h = h * 31u + bytes[i];
  sink = h;
}
"""

FILL = f"""\
static const float F32_FILL[] = {{{", ".join(c_value(v, F32) for v in F32_INPUTS)}}};
static const int32_t I32_FILL[] = {{{", ".join(c_value(v, I32) for v in I32_INPUTS)}}};
#define FILL_WITH(buffer, size, table, rotation) \\
  for (int e = 0; e < (size); e++) \\
    (buffer)[e] = table[(e + 3 * (rotation)) % (int)(sizeof table / sizeof table[0])]
"""


@dataclass
class Unit:
    """One function of the harness: its CALL, a label and a text for failure reports."""

    label: str
    call: UOp
    text: str  # the program in the text format
    source: str | None = None  # C of the function, when planted by hand instead of rendered
    inputs: list = field(default_factory=list)  # value functions: the values per argument

    @property
    def name(self) -> str:
        return self.call.arg.name


def value_inputs(call: UOp) -> list[tuple]:
    """For each argument: the special inputs (inside a declared range), or one if unused."""
    params = {u.arg.slot: u.arg for u in call.src[0].toposort() if u.op is Ops.PARAM}
    inputs = []
    for slot, argument in enumerate(call.src[1:]):
        arg = params.get(slot)
        if arg is None:
            inputs.append((ZERO[argument.dtype],))
        elif arg.vmin is None:
            inputs.append(INPUTS[arg.dtype])
        else:  # the range is a promise the C relies on (plain `/`): stay inside it
            inside = [v for v in I32_INPUTS if arg.vmin <= v <= arg.vmax]
            inputs.append(tuple(dict.fromkeys([arg.vmin, *inside, arg.vmax])))
    return inputs


def value_driver(unit: Unit) -> tuple[str, int]:
    """`run_<name>`: every combination of the inputs; returns the C and the number of calls."""
    dtypes = [argument.dtype for argument in unit.call.src[1:]]
    lines = [f"HARNESS static void run_{unit.name}(void) {{"]
    for k, (dtype, values) in enumerate(zip(dtypes, unit.inputs, strict=True)):
        lines.append(c_array(f"in{k}", dtype, values))
    for k in range(len(dtypes)):
        lines.append(f"  for (size_t i{k} = 0; i{k} < sizeof in{k} / sizeof in{k}[0]; i{k}++)")
    arguments = ", ".join(f"in{k}[i{k}]" for k in range(len(dtypes)))
    result = unit.call.src[0].dtype.c
    lines += [f"  {{ {result} r = {unit.name}({arguments}); keep(&r, sizeof r); calls++; }}", "}"]
    count = math.prod(len(values) for values in unit.inputs)
    return "\n".join(lines), count


def memory_driver(unit: Unit) -> tuple[str, int]:
    """`run_<name>`: fresh heap buffers of exactly the right size (so ASan sees any overrun),
    filled from the special lists in ROTATIONS rotations."""
    pointers = [(k, a.dtype) for k, a in enumerate(unit.call.src[1:])]
    lines = [
        f"HARNESS static void run_{unit.name}(void) {{",
        f"  for (int t = 0; t < {ROTATIONS}; t++) {{",
    ]
    for k, ptr in pointers:
        table = "F32_FILL" if ptr.base is F32 else "I32_FILL"
        lines.append(f"    {ptr.base.c} *b{k} = malloc({ptr.size} * sizeof({ptr.base.c}));")
        lines.append(f"    FILL_WITH(b{k}, {ptr.size}, {table}, t);")
    lines.append(f"    {unit.name}({', '.join(f'b{k}' for k, _ in pointers)});")
    for k, ptr in pointers:
        lines.append(f"    keep(b{k}, {ptr.size} * sizeof({ptr.base.c}));")
        lines.append(f"    free(b{k});")
    lines += ["    calls++;", "  }", "}"]
    return "\n".join(lines), ROTATIONS


@dataclass
class Harness:
    source: str
    expected_calls: int
    spans: list  # (first line, last line, unit) of every function and driver


def build_harness(units: list[Unit]) -> Harness:
    """One C file: PRELUDE once, every function, one driver each, and main."""
    parts, spans, expected = [PRELUDE, "\n", HEAD, "\n", FILL], [], 0
    for unit in units:
        is_memory = unit.call.src[0].dtype is VOID
        driver, count = memory_driver(unit) if is_memory else value_driver(unit)
        expected += count
        text = (unit.source or function_text(unit.call)) + "\n" + driver + "\n"
        first = sum(part.count("\n") for part in parts) + 1  # the line the text starts on
        spans.append((first, first + text.count("\n") - 1, unit))
        parts.append(text)
    runs = "".join(f"  run_{unit.name}();\n" for unit in units)
    parts.append(f'\nint main(void) {{\n{runs}  printf("calls %ld\\n", calls);\n  return 0;\n}}\n')
    return Harness("".join(parts), expected, spans)


@dataclass
class Outcome:
    returncode: int
    stdout: str
    stderr: str
    source_path: str


def run_harness(harness: Harness, compile_flags: list[str]) -> Outcome:
    """Compile (or find in uopc's content-addressed cache) and run the harness executable.

    compile_c names its output `<key>.so`; without -shared it is an executable all the same.
    """
    executable = runtime.compile_c(harness.source, flags=compile_flags)
    done = subprocess.run(
        [executable],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "ASAN_OPTIONS": "detect_leaks=1", "UBSAN_OPTIONS": "print_stacktrace=1"},
    )
    return Outcome(done.returncode, done.stdout, done.stderr, executable[: -len(".so")] + ".c")


def reports(outcome: Outcome) -> bool:
    return outcome.returncode != 0 or REPORT.search(outcome.stderr) is not None


def culprit(harness: Harness, outcome: Outcome):
    """The unit whose lines the first `file.c:LINE` of the sanitizer report points into."""
    for match in re.finditer(r"\.c:(\d+)", outcome.stderr):
        line = int(match.group(1))
        for first, last, unit in harness.spans:
            if first <= line <= last:
                return unit
    return None


def require_clean(harness: Harness, outcome: Outcome) -> int:
    """Fail with the report and the guilty program unless the run was clean and complete."""
    made = re.search(r"calls (\d+)", outcome.stdout)
    made = int(made.group(1)) if made else None
    if not reports(outcome) and made == harness.expected_calls:
        return made
    unit = culprit(harness, outcome)
    print(f"sanitized run failed: exit {outcome.returncode}, calls {made} of "
          f"{harness.expected_calls}; C in {outcome.source_path}")  # fmt: skip
    print("\n".join(outcome.stderr.splitlines()[:40]))
    if unit is not None:
        print(f"in {unit.name}: {unit.label}\n{unit.text}")
    raise AssertionError(f"the sanitizers reported a problem ({unit.label if unit else '?'})")


# ---------------------------------------------------------------------------------------------
# Programs
# ---------------------------------------------------------------------------------------------


def value_call(body: UOp, name: str) -> UOp:
    """A call over the three parameters of gen_program; values come from the harness."""
    return signature_call(body, (I32, F32, BOOL), name)


def value_units(seed: int) -> list[Unit]:
    """Program `seed` (every odd seed with a declared i32 range), as built and simplified."""
    root, _ = common.gen_program(random.Random(seed), ranges=seed % 2 == 1)
    units = []
    for tag, body in (("built", root), ("simplified", simplify(root))):
        if tag == "simplified" and body is root:
            continue
        call = value_call(body, f"f{seed}_{tag[0]}")
        label = f"value program, seed {seed}, {tag}"
        units.append(Unit(label, call, dumps(call, label), inputs=value_inputs(call)))
    return units


def every_op(bounded: bool) -> UOp:
    """One program with every ALU op and cast, so that each runs on the special inputs whatever
    the random programs happen to contain; `bounded` declares x in [0, 100], so that the plain
    C `/` and `%` are written for x // (x + 1) and x % 7."""
    x = UOp(Ops.PARAM, (), ParamArg(0, I32, *((0, 100) if bounded else (None, None))))
    f, b = UOp(Ops.PARAM, (), ParamArg(1, F32)), UOp(Ops.PARAM, (), ParamArg(2, BOOL))
    unary = {op: UOp(op, (f,)) for op in (Ops.RECIP, Ops.EXP2, Ops.LOG2)}
    ints = [
        x + x, x * x, -x, x.max(7), x // (x + 1), x % 7, x // -1, x % -1,
        UOp.const(INT_MIN) // x, UOp.const(INT_MIN) % x, x // x, x % x,
        f.cast(I32), (f * 3.0e9).cast(I32), b.cast(I32), x.lt(7).where(x, -x),
    ]  # fmt: skip
    floats = [f + f, f * f, -f, f.max(-f), *unary.values(), x.cast(F32), b.cast(F32)]
    bools = [x.cast(BOOL), f.cast(BOOL), b * x.lt(0), b.max(f.lt(f)), x.ne(0), f.ne(f)]
    total = ints[0]
    for node in ints[1:] + [n.cast(I32) for n in floats + bools]:
        total = total + node
    return total


# slot -> (element dtype, size) of the caller's buffers; slot 3 is the scratch array (ALLOC)
BUFFERS = ((F32, 4), (F32, 3), (I32, 5))
SCRATCH_SLOT, SCRATCH_SIZE = 3, 2
MEMORY_STEPS = 14


def _index(r, mem, ints):
    """A constant index, or a run-time one: an int value reduced by FLOORMOD by the size."""
    size = mem.base.dtype.size
    return r.randrange(size) if r.random() < 0.5 else r.choice(ints) % size


def _arithmetic(r, floats, ints):
    """One new value from the pools: float or int arithmetic, or a cast between them."""
    a, b = r.choice(floats), r.choice(floats)
    i, j = r.choice(ints), r.choice(ints)
    made = r.choice((
        a + b, a * b, a.max(b), -a, UOp(Ops.RECIP, (a,)), i.cast(F32),
        i + j, i * j, i // j, i % j, -i, a.cast(I32), i.lt(j).where(i, j),
    ))  # fmt: skip
    (floats if made.dtype is F32 else ints).append(made)


def gen_memory_program(r, name: str) -> UOp:
    """A call over two f32 buffers, one i32 buffer and a scratch array: MEMORY_STEPS random
    loads, stores and arithmetic; the scratch array is written in full before any read."""
    builder = Builder()
    mems = [builder.buffer(slot, dtype, size) for slot, (dtype, size) in enumerate(BUFFERS)]
    scratch = builder.alloc(SCRATCH_SLOT, F32, SCRATCH_SIZE)
    for k in range(SCRATCH_SIZE):
        scratch.store(k, mems[0].load(k))
    everything = [*mems, scratch]
    # the pools start with loaded values, so that indices and stores depend on the inputs
    floats, ints = [mems[1].load(r.randrange(3)), UOp.const(1.5)], [mems[2].load(r.randrange(5))]
    for _ in range(MEMORY_STEPS):
        kind = r.choice(("load", "load", "store", "store", "arithmetic"))
        mem = r.choice(everything)
        pool = ints if mem.base.dtype.base is I32 else floats
        if kind == "load":
            pool.append(mem.load(_index(r, mem, ints)))
        elif kind == "store":
            mem.store(_index(r, mem, ints), r.choice(pool))
        else:
            _arithmetic(r, floats, ints)
    args = [UOp(Ops.BUFFER, (), ParamArg(s, Ptr(d, n))) for s, (d, n) in enumerate(BUFFERS)]
    return make_call(builder.body(), args, name)


def memory_units(seed: int) -> list[Unit]:
    """Memory program `seed`, as built and simplified; checked first by the interpreter, which
    raises on an index out of range or a read of unwritten scratch (a generator slip)."""
    units = []
    for tag in ("built", "simplified"):
        call = gen_memory_program(random.Random(seed), f"m{seed}_{tag[0]}")
        if tag == "simplified":
            simplified = simplify(call)
            if simplified is call:
                continue
            call = simplified
        run_call(call, [[1.0] * 4, [2.0] * 3, [-3] * 5])
        label = f"memory program, seed {seed}, {tag}"
        units.append(Unit(label, call, dumps(call, label)))
    return units


def sanitize() -> int:
    """Every program's C run under ASan and UBSan; returns the number of sanitized calls."""
    files = [[]]
    for bounded in (False, True):
        call = value_call(every_op(bounded), f"every_op_{'bounded' if bounded else 'wide'}")
        label = f"every op, {'x in [0, 100]' if bounded else 'no ranges'}"
        files[0].append(Unit(label, call, dumps(call, label), inputs=value_inputs(call)))
    files += by_seeds(value_units, protocol.size(8, 150), VALUE_SEEDS_PER_FILE)
    files += by_seeds(memory_units, protocol.size(4, 50), MEMORY_SEEDS_PER_FILE)
    harnesses = [build_harness(units) for units in files]
    checks = checked_in_order(harnesses)
    units = sum(len(units) for units in files)
    print(
        f"sanitize: {units} functions in {len(harnesses)} executables, "
        f"{checks} sanitized calls, no report"
    )
    protocol.report("pipeline", "sanitize", checks)
    return checks


def by_seeds(make, seeds: int, per_file: int) -> list[list[Unit]]:
    """The units of programs 0 to seeds - 1 (make(seed) -> units), per_file programs a file."""
    return [
        [unit for seed in range(first, min(first + per_file, seeds)) for unit in make(seed)]
        for first in range(0, seeds, per_file)
    ]


def checked_in_order(harnesses: list[Harness]) -> int:
    """The sanitized calls of every harness, each compiled and run two at a time and checked
    in order (require_clean). The first unclean one stops the run: the files not started yet
    are never compiled, and the report is that first failing file's, as when all had run."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(run_harness, harness, flags()) for harness in harnesses]
        try:
            pairs = zip(harnesses, futures, strict=True)
            return sum(require_clean(harness, future.result()) for harness, future in pairs)
        finally:
            for future in futures:
                future.cancel()


@pytest.mark.layer("sanitize")
@pytest.mark.needs_clang
def test_sanitize():
    assert sanitize() > 0


# ---------------------------------------------------------------------------------------------
# The harness can fail: three planted faults, each must be reported
# ---------------------------------------------------------------------------------------------


def planted_division() -> tuple[Unit, list[str]]:
    """x // y with C's plain `/` instead of floordiv_i32: traps at y = 0 and INT_MIN / -1."""
    x, y = (UOp(Ops.PARAM, (), ParamArg(s, I32)) for s in (0, 1))
    call = UOp(Ops.CALL, (x // y, UOp.const(0), UOp.const(0)), CallArg("planted_div"))
    source = function_text(call).replace("floordiv_i32(p0, p1)", "p0 / p1")
    assert "p0 / p1" in source
    unit = Unit("planted: plain C division", call, dumps(call), source, value_inputs(call))
    return unit, flags()


def planted_overflow() -> tuple[Unit, list[str]]:
    """x + y rendered as usual but compiled without -fwrapv: INT_MAX + 1 is undefined."""
    x, y = (UOp(Ops.PARAM, (), ParamArg(s, I32)) for s in (0, 1))
    call = UOp(Ops.CALL, (x + y, UOp.const(0), UOp.const(0)), CallArg("planted_add"))
    unit = Unit("planted: no -fwrapv", call, dumps(call), inputs=value_inputs(call))
    return unit, flags(wrap=False)


def planted_overrun() -> tuple[Unit, list[str]]:
    """A store through an index reduced by 8 into a buffer of 4: ASan sees the overrun."""
    builder = Builder()
    data = builder.buffer(0, I32, 4)
    data.store(data.load(0) % 8, 1)
    args = [UOp(Ops.BUFFER, (), ParamArg(0, Ptr(I32, 4)))]
    call = make_call(builder.body(), args, "planted_overrun")
    return Unit("planted: index out of range", call, dumps(call)), flags()


PLANTED = {
    "division": (planted_division, "runtime error"),
    "overflow": (planted_overflow, "signed integer overflow"),
    "overrun": (planted_overrun, "AddressSanitizer"),
}


@pytest.mark.layer("sanitize")
@pytest.mark.needs_clang
@pytest.mark.parametrize("fault", sorted(PLANTED))
def test_sanitizer_catches_planted_overflow(fault):
    make, wanted = PLANTED[fault]
    unit, compile_flags = make()
    harness = build_harness([unit])
    outcome = run_harness(harness, compile_flags)
    assert reports(outcome) and wanted in outcome.stderr, outcome.stderr
    assert culprit(harness, outcome) is unit
    with pytest.raises(AssertionError, match="sanitizers reported"):
        require_clean(harness, outcome)


LAYERS = {"sanitize": sanitize}  # layer name -> function returning its check count

if __name__ == "__main__":
    if "--full" in sys.argv[1:]:
        os.environ["UOPC_FULL"] = "1"
    try:
        sanitize()
    except AssertionError as error:
        print(f"FAILED: {error}")
        sys.exit(1)
