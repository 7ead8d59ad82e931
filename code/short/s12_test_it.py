"""Step 12: random programs, simplified, must give the same values as the originals."""

import _here

import random

from common import gen_program, rand_env
from uopc.interp import evaluate
from uopc.semantics import same
from uopc.symbolic import simplify
from uopc.textfmt import infix

NAMES = {0: "x", 1: "y", 2: "z"}  # the i32, f32 and bool params


def first_difference(fast_math):
    """The first seed whose program changes value when simplified, with its input."""
    for seed in range(2000):
        r = random.Random(seed)
        root, params = gen_program(r)
        simpler = simplify(root, fast_math=fast_math)
        for _ in range(20):
            env = rand_env(r, params)
            if not same(evaluate(root, env), evaluate(simpler, env)):
                return seed, root, simpler, env
    return None


strict = first_difference(fast_math=False)
if strict is not None:
    raise SystemExit(f"strict rules changed a value at seed {strict[0]}")
print("strict: no difference in 2000 programs")
found = first_difference(fast_math=True)
if found is None:
    raise SystemExit("fast math: no difference found in 2000 programs")
seed, root, simpler, env = found
inputs = ", ".join(f"{NAMES[slot]} = {value}" for slot, value in env.items())
print(f"fast math: first difference at seed {seed}, at {inputs}")
print("program:  ", infix(root, NAMES))
print("fast math:", infix(simpler, NAMES))
print("values:    original", evaluate(root, env), " fast math", evaluate(simpler, env))
