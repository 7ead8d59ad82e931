"""The memory layer: random load/store programs run four ways (verification §4.5, §5.4).

A program has three global buffers (two f32, one i32) and one scratch array (ALLOC), and is
written by `Builder` in 14 random steps, each a load, a store or arithmetic on loaded values.
Indices are constants or dynamic: a loaded or computed int reduced with FLOORMOD by the buffer
size, which lies in [0, size) for any int. Scratch elements are read only once written.

Each program runs four ways: the interpreter in "id" order and in "dfs" order, the compiled C of
the call and the compiled C of `simplify(call)`. Every element of every global buffer must be
`same` (float32 bits; all nans alike) in all four; each comparison of one element between the
"id" run and one of the other three is one check. A lost AFTER edge makes the two interpreter
orders disagree; a renderer or rule bug makes a C run disagree.

The C of many programs goes into one file with the prelude once, compiled once, to keep the
compile time low. Each buffer handed to C sits between guard elements, so a wrong index in the
C (which has no bounds checks) lands in a guard, where it is noticed, instead of corrupting
memory.
"""

import ctypes
import math
import random

import pytest

from book import protocol
from uopc import F32, I32, INT_MAX, INT_MIN, Ops, UOp
from uopc.builder import Builder, make_call
from uopc.interp import run_call
from uopc.render import PRELUDE, render
from uopc.runtime import CTYPE, compile_c
from uopc.semantics import f32, same
from uopc.symbolic import simplify
from uopc.textfmt import dumps
from verify.generators import rand_value

STEPS = 14
GLOBALS = (F32, F32, I32)  # the dtypes of the buffers in argument slots 0, 1, 2
SCRATCH_SLOT = 3
BATCH = 50  # programs per C file
GUARD = 4  # guard elements on each side of a buffer handed to C

# Values that separate right from wrong in float MAX (nan, signed zeros), NEG and RECIP.
FLOAT_SPECIALS = (math.nan, math.nan, 0.0, -0.0, math.inf, -math.inf, 1.0, -1.0)
FLOAT_CONSTS = (0.0, -0.0, 1.0, -1.0, 2.0, 0.5, math.inf, -math.inf, math.nan)
INT_CONSTS = (0, 1, -1, 2, 3, -3, 4, 7, INT_MIN, INT_MAX)
MAX_CONSTS = (math.nan, math.nan, 0.0, -0.0, math.inf, -math.inf)
DIVISORS = (0, 1, -1, 2, 3, -3, 4, -4, 7)


def initial_value(r, dtype):
    """One buffer element: floats lean on the specials, which is where MAX and zeros differ."""
    if dtype is F32 and r.random() < 0.5:
        return r.choice(FLOAT_SPECIALS)
    value = rand_value(r, dtype)
    return f32(value) if dtype is F32 else value


# ---------------------------------------------------------------------------------------------
# The generator
# ---------------------------------------------------------------------------------------------


class _Program:
    """The state of one program being written: buffers, scratch, and the values built so far.

    `fresh` holds the values no store or arithmetic has used yet; stores and arithmetic take
    from it first, so that most loads and computations end up in a buffer, where the four runs
    can be compared, instead of being dead code.
    """

    def __init__(self, r):
        self.r = r
        self.builder = Builder()
        self.sizes = [r.randint(2, 4) for _ in GLOBALS]
        self.mems = [
            self.builder.buffer(slot, dtype, size)
            for slot, (dtype, size) in enumerate(zip(GLOBALS, self.sizes, strict=True))
        ]
        self.scratch_size = r.randint(2, 4)
        self.scratch_dtype = r.choice((F32, I32))
        self.scratch = self.builder.alloc(SCRATCH_SLOT, self.scratch_dtype, self.scratch_size)
        self.written = set()  # scratch elements known to be written
        self.values = {F32: [], I32: []}  # every loaded or computed value, newest last
        self.fresh = {F32: [], I32: []}  # the ones not used yet

    def add(self, value):
        self.values[value.dtype].append(value)
        self.fresh[value.dtype].append(value)

    def const(self, dtype):
        return UOp.const(self.r.choice(FLOAT_CONSTS if dtype is F32 else INT_CONSTS))

    def operand(self, dtype):
        """Any value of dtype built so far, or now and then a constant."""
        pool = self.values[dtype]
        return self.r.choice(pool) if pool and self.r.random() < 0.7 else self.const(dtype)

    def take(self, dtype):
        """A fresh value of dtype (the newest), else any operand."""
        return self.fresh[dtype].pop() if self.fresh[dtype] else self.operand(dtype)

    def index(self, size, static_choices):
        """A constant index from static_choices, or FLOORMOD of an int value by the size."""
        if self.values[I32] and self.r.random() < 0.4:
            return self.r.choice(self.values[I32]) % size  # in [0, size) for every int
        return self.r.choice(static_choices)

    def load(self):
        r = self.r
        which = r.choice([0, 1, 2, 3] if self.written else [0, 1, 2])
        if which == 3:
            known = sorted(self.written)
            every = len(known) == self.scratch_size
            position = self.index(self.scratch_size, known) if every else r.choice(known)
            self.add(self.scratch.load(position))
        else:
            size = self.sizes[which]
            self.add(self.mems[which].load(self.index(size, range(size))))

    def store(self, only_globals=False):
        r = self.r
        with_fresh = [d for d in (F32, I32) if self.fresh[d]]
        dtype = r.choice(with_fresh or [F32, I32])
        targets = [slot for slot, d in enumerate(GLOBALS) if d is dtype]
        if dtype is self.scratch_dtype and not only_globals:
            targets.append(SCRATCH_SLOT)
        which = r.choice(targets)
        mem = self.scratch if which == SCRATCH_SLOT else self.mems[which]
        size = self.scratch_size if which == SCRATCH_SLOT else self.sizes[which]
        position = self.index(size, range(size))
        if which == SCRATCH_SLOT and isinstance(position, int):
            self.written.add(position)
        mem.store(position, self.take(dtype) if r.random() < 0.9 else self.const(dtype))

    def arithmetic(self):
        r = self.r
        have = [d for d in (F32, I32) if self.fresh[d]] or [d for d in (F32, I32) if self.values[d]]
        if not have:
            return self.load()
        dtype = r.choice(have)
        self.add(BUILD[r.choice(ARITHMETIC[dtype])](self, self.take(dtype)))

    def step(self, last):
        if last and all(mem.last is None for mem in self.mems):
            return self.store(only_globals=True)  # every program writes a global buffer
        kind = self.r.choices(("load", "store", "arithmetic"), weights=(4, 4, 5))[0]
        return getattr(self, kind)()


OTHER = {F32: I32, I32: F32}


def _binary(op):
    def build(program, a):
        b = program.operand(a.dtype)
        # both orders, so constants and newer values come first too (canonical order's work)
        return UOp(op, (a, b) if program.r.random() < 0.5 else (b, a))

    return build


def _max(program, a):
    """MAX in either order, often against nan or a zero: where float MAX is not symmetric."""
    r = program.r
    if a.dtype is F32 and r.random() < 0.5:
        b = UOp.const(r.choice(MAX_CONSTS))
    else:
        b = program.operand(a.dtype)
    return UOp(Ops.MAX, (a, b) if r.random() < 0.5 else (b, a))


def _divide(op):
    def build(program, a):
        r = program.r
        divisor = program.operand(I32) if r.random() < 0.4 else UOp.const(r.choice(DIVISORS))
        return UOp(op, (a, divisor))

    return build


def _where(program, a):
    b, c = program.operand(a.dtype), program.operand(a.dtype)
    condition = UOp(program.r.choice((Ops.CMPLT, Ops.CMPNE)), (a, b))
    return condition.where(b, c) if program.r.random() < 0.5 else condition.where(c, a)


BUILD = {
    "add": _binary(Ops.ADD),
    "mul": _binary(Ops.MUL),
    "max": _max,
    "neg": lambda program, a: -a,
    "recip": lambda program, a: UOp(Ops.RECIP, (a,)),
    "sub": lambda program, a: a - program.operand(a.dtype),
    "times -1": lambda program, a: a * (-1.0 if a.dtype is F32 else -1),
    "floordiv": _divide(Ops.FLOORDIV),
    "floormod": _divide(Ops.FLOORMOD),
    "where": _where,
    "cast": lambda program, a: a.cast(OTHER[a.dtype]),
}
ARITHMETIC = {
    F32: ("add", "mul", "max", "max", "max", "neg", "recip", "sub", "times -1", "where", "cast"),
    I32: ("add", "mul", "max", "neg", "floordiv", "floormod", "times -1", "where", "cast"),
}


def gen_memory_program(seed):
    """Program `seed`: (call, inputs), inputs being one list of initial values per buffer."""
    r = random.Random(seed)
    program = _Program(r)
    for number in range(STEPS):
        program.step(last=number == STEPS - 1)
    args = [UOp(Ops.BUFFER, (), mem.base.arg) for mem in program.mems]
    call = make_call(program.builder.body(), args, f"mem{seed}")
    inputs = [
        [initial_value(r, d) for _ in range(n)] for d, n in zip(GLOBALS, program.sizes, strict=True)
    ]
    return call, inputs


# ---------------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------------


def run_interp(call, inputs, order):
    buffers = [list(values) for values in inputs]
    run_call(call, buffers, order)
    return buffers


def renamed(call, name):
    return make_call(call.src[0], call.src[1:], name)


def compile_batch(calls):
    """One shared library for many calls: the prelude once, then each call's function."""
    functions = []
    for call in calls:
        source = render(call)
        assert source.startswith(PRELUDE), "render's output must start with the prelude"
        functions.append(source[len(PRELUDE) :])
    library = ctypes.CDLL(compile_c(PRELUDE + "".join(functions)))
    result = {}
    for call in calls:
        function = getattr(library, call.arg.name)
        function.argtypes = [ctypes.POINTER(CTYPE[d]) for d in GLOBALS]
        function.restype = None
        result[call.arg.name] = function
    return result


SENTINEL = {F32: -12345.5, I32: -123456789}


def run_c(function, inputs):
    """Run a compiled call on copies of the inputs; each buffer sits between guard elements."""
    arrays, pointers = [], []
    for dtype, values in zip(GLOBALS, inputs, strict=True):
        ctype = CTYPE[dtype]
        array = (ctype * (len(values) + 2 * GUARD))(
            *([SENTINEL[dtype]] * (len(values) + 2 * GUARD))
        )
        array[GUARD : GUARD + len(values)] = values
        arrays.append(array)
        address = ctypes.addressof(array) + GUARD * ctypes.sizeof(ctype)
        pointers.append(ctypes.cast(address, ctypes.POINTER(ctype)))
    function(*pointers)
    result = []
    for dtype, values, array in zip(GLOBALS, inputs, arrays, strict=True):
        guards = array[:GUARD] + array[GUARD + len(values) :]
        if any(not same(g, SENTINEL[dtype]) for g in guards):
            raise AssertionError(f"the C wrote outside a buffer of {len(values)}: {list(array)}")
        result.append(array[GUARD : GUARD + len(values)])
    return result


RUNS = ("interp id", "interp dfs", "C original", "C simplified")


def compare(seed, call, simplified, inputs, outputs) -> int:
    """Every element of every buffer, "id" run against the other three; returns the checks."""
    reference, checks = outputs["interp id"], 0
    for way in RUNS[1:]:
        for slot, (want, got) in enumerate(zip(reference, outputs[way], strict=True)):
            for position, (a, b) in enumerate(zip(want, got, strict=True)):
                checks += 1
                if not same(a, b):
                    raise AssertionError(
                        failure(seed, call, simplified, inputs, outputs)
                        + f"\nfirst difference: buffer {slot} element {position}: "
                        f"interp id {a!r}, {way} {b!r}"
                    )
    return checks


def failure(seed, call, simplified, inputs, outputs) -> str:
    lines = [f"memory program seed {seed}", dumps(call), "simplified:", dumps(simplified)]
    lines.append(f"inputs: {inputs}")
    lines += [f"{way}: {outputs.get(way)}" for way in RUNS]
    return "\n".join(lines)


def run_batch(seeds) -> int:
    programs = []
    for seed in seeds:
        call, inputs = gen_memory_program(seed)
        simplified = renamed(simplify(call), f"mem{seed}s")
        programs.append((seed, call, simplified, inputs))
    functions = compile_batch([c for _, call, simple, _ in programs for c in (call, simple)])
    checks = 0
    for seed, call, simplified, inputs in programs:
        outputs = {}
        try:
            outputs["interp id"] = run_interp(call, inputs, "id")
            outputs["interp dfs"] = run_interp(call, inputs, "dfs")
            outputs["C original"] = run_c(functions[call.arg.name], inputs)
            outputs["C simplified"] = run_c(functions[simplified.arg.name], inputs)
        except Exception as error:  # a generator slip or a guard hit: say which program
            print(failure(seed, call, simplified, inputs, outputs))
            raise AssertionError(f"memory program seed {seed}: {error}") from error
        checks += compare(seed, call, simplified, inputs, outputs)
    return checks


def layer_memory(programs=None) -> int:
    """Programs 0 .. programs-1 (20 quick, 200 full), in batches; returns the check count."""
    programs = protocol.size(20, 200) if programs is None else programs
    checks = 0
    for start in range(0, programs, BATCH):
        checks += run_batch(range(start, min(start + BATCH, programs)))
    return checks


def test_generator_is_deterministic_and_varied():
    """Same seed, same program and inputs; across seeds, every kind of access occurs."""
    first, second = gen_memory_program(7), gen_memory_program(7)
    assert first[0] is second[0]
    assert all(map(same, sum(first[1], []), sum(second[1], [])))
    ops = {node.op for seed in range(20) for node in gen_memory_program(seed)[0].toposort()}
    assert {Ops.ALLOC, Ops.AFTER, Ops.FLOORMOD, Ops.MAX, Ops.LOAD, Ops.STORE} <= ops


@pytest.mark.layer("memory")
@pytest.mark.needs_clang
def test_memory():
    protocol.report("memory", "memory", layer_memory())


if __name__ == "__main__":
    protocol.report("memory", "memory", layer_memory())
