"""Step 12: random programs, simplified, must give the same values as the originals."""

import math
import random
import textwrap

from book.protocol import state
from uopc import Ops
from uopc.interp import evaluate  # runs the original and the simplified program
from uopc.semantics import same  # bit for bit, with every nan equal
from uopc.symbolic import simplify
from uopc.textfmt import infix
from verify.generators import gen_program, rand_env

NAMES = {0: "x", 1: "y", 2: "z"}  # the i32, f32 and bool params
PROGRAMS = 2000  # random programs tried, each on 20 random inputs


def first_difference(fast_math):
    """The first seed whose program changes value when simplified, with its input."""
    for seed in range(PROGRAMS):
        r = random.Random(seed)
        root, params = gen_program(r)
        simpler = simplify(root, fast_math=fast_math)
        for _ in range(20):
            env = rand_env(r, params)
            if not same(evaluate(root, env), evaluate(simpler, env)):
                return seed, root, simpler, env
    return None


def lost_sign(root, env):
    """A product a*b in root whose b folds to 0.0 and whose a is negative and finite here:
    its value is -0.0, and the fast rule x*0.0 -> 0.0 drops that sign. None if there is none."""
    for node in root.toposort():
        if node.op is not Ops.MUL:
            continue
        a, b = node.src
        if is_zero(simplify(b, fast_math=True)) and is_zero(simplify(node, fast_math=True)):
            value = evaluate(a, env)
            if isinstance(value, float) and math.isfinite(value) and value < 0:
                return a, b, value
    return None


def is_zero(node):
    """True for the constant +0.0 (not -0.0)."""
    return node.op is Ops.CONST and same(node.arg, 0.0)


def show(label, text):
    """A long expression, wrapped so that every line of the output stays short."""
    print(textwrap.fill(text, 88, initial_indent=label, subsequent_indent=" " * len(label)))


strict = first_difference(fast_math=False)
if strict is not None:
    raise SystemExit(f"strict rules changed a value at seed {strict[0]}")
print(f"strict: no difference in {PROGRAMS} programs")
found = first_difference(fast_math=True)
if found is None:
    raise SystemExit(f"fast math: no difference found in {PROGRAMS} programs")
seed, root, simpler, env = found
inputs = ", ".join(f"{NAMES[slot]} = {value}" for slot, value in env.items())
print(f"fast math: first difference at seed {seed}, at {inputs}")
show("program:   ", infix(root, NAMES))
show("fast math: ", infix(simpler, NAMES))
original, fast = evaluate(root, env), evaluate(simpler, env)
print("values:    original", original, " fast math", fast)

# Step 12's text explains this case: two zeros of opposite sign, from a product whose zero
# factor folds away and whose other factor is negative. Another case needs another text.
case = lost_sign(root, env)
zeros = original == 0.0 and fast == 0.0 and not same(original, fast)
if case is None or not zeros:
    raise SystemExit("the case found is not the signed zero that step 12 explains")
a, b, value = case
show("the factor that folds to 0.0: ", infix(b, NAMES))
print(f"the other factor here: {value} (negative, finite), so the product is -0.0")

state("s12_programs", PROGRAMS, "random programs the strict rules left unchanged in value")
state("s12_fast_seed", seed, "the first seed whose program fast math changes")
state("s12_inputs", inputs, "the inputs at which that program's value changes")
