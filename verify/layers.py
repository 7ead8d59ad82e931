"""What the pipeline layers run on, shared with the demos that show what a layer saw.

The sizes and seeds of every layer of tests/test_pipeline.py, the ranges and points of the
exhaustive and overflow layers, and the fast layer's program maker: demos/fast_math.py and
demos/integers.py print them, so they read them here rather than from the test file.
"""

import itertools
import random

from uopc import INT_MAX, INT_MIN
from uopc.interp import evaluate
from uopc.semantics import same
from uopc.symbolic import simplify
from verify.generators import gen_program, rand_env

# --8<-- [start:sizes]
# (quick, full) per layer: full sizes from verification.md §5.3, quick sizes from §8.
SIZES = {
    "hash": {"programs": (70, 700)},
    "sound": {"programs": (70, 700), "inputs": (10, 40)},
    "special": {"programs": (40, 400), "inputs": (30, 300)},
    "exhaustive": {"programs": (120, 1200)},
    "fast": {"programs": (300, 2000), "inputs": (20, 20)},
    "overflow": {"programs": (30, 300)},
    "ranges": {"programs": (50, 500), "inputs": (10, 40)},
    "fold": {"programs": (40, 400), "inputs": (5, 20)},
    "text": {"programs": (30, 300)},
    "render": {"programs": (20, 250), "inputs": (10, 60)},
    "zerodiv": {},  # a grid (ZERODIV_GRID), not a count
}
# Program n of a layer is built from random.Random(SEED_BASE[layer] + n): each layer sees its
# own programs (hash and sound share theirs).
SEED_BASE = {
    "hash": 0,
    "sound": 0,
    "special": 100_000,
    "exhaustive": 200_000,
    "fast": 300_000,
    "overflow": 400_000,
    "ranges": 500_000,
    "fold": 600_000,
    "text": 700_000,
    "render": 800_000,
}
# --8<-- [end:sizes]


EXHAUSTIVE_RANGES = ((0, 7), (0, 3), (-4, 5))
EXHAUSTIVE_POINTS = [
    dict(enumerate(point))
    for point in itertools.product(*(range(lo, hi + 1) for lo, hi in EXHAUSTIVE_RANGES))
]  # all 8 * 4 * 10 = 320 inputs


def fast_program(n: int, inputs: int, simplify_fast=None) -> tuple:
    """Program n of the fast layer: (seed, root, the first input on which fast math changes
    its value or None, how many inputs were tried). demos/fast_math.py calls it too, so that
    the chapter shows this layer's own first counterexample; the layer passes
    simplify_fast(seed, root), which reports a crash of simplify as a layer failure."""
    seed = SEED_BASE["fast"] + n
    r = random.Random(seed)
    root, params = gen_program(r)
    if simplify_fast is None:
        faster = simplify(root, fast_math=True)
    else:
        faster = simplify_fast(seed, root)
    for tried in range(1, inputs + 1):
        env = rand_env(r, params)
        if faster is not root and not same(evaluate(root, env), evaluate(faster, env)):
            return seed, root, env, tried
    return seed, root, None, inputs


# The values every combination of which is tried (clamped into each declared range).
BOUNDARY = (
    INT_MIN, INT_MIN + 1, -(2**30) - 1, -(2**30), -1, 0, 1,
    2**30 - 1, 2**30, 2**30 + 1, INT_MAX - 1, INT_MAX,
)  # fmt: skip
WIDE_RANGES = ((INT_MIN, INT_MAX), (0, 2**30), (-(2**30), 2**29), (0, INT_MAX))
POINTS = (60, 400)  # (quick, full) inputs per program at least: the grid, then random ones
